//! What the review of answered requests reads: the requests, where their units are, the frame's context.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use crate::components::{
    NavGrid, NavGridChanged, PathProgress, PathRequest, PathResult, PathStatus, Replanning,
};
use crate::profiles::MovementProfiles;
use crate::settings::TilepathSettings;

/// The requests the re-planner reads, and whose answers it repairs.
pub(super) type Requests<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        &'static PathRequest,
        &'static mut PathResult,
        &'static mut PathStatus,
        Has<Replanning>,
        Option<&'static PathProgress>,
        PlaceData,
    ),
>;

/// What the re-planner's query reads to find a unit's
/// [`Place`](crate::pipeline::resolve::Place): its `Transform`, and whether it has a parent.
pub(super) type PlaceData = (Option<&'static Transform>, Has<ChildOf>);

/// What the review of one request needs besides the request.
pub(super) struct Context<'a, 'w, 's> {
    pub(super) grid: Option<&'a NavGrid>,
    pub(super) transforms: &'a TransformHelper<'w, 's>,
    pub(super) settings: &'a TilepathSettings,
    pub(super) profiles: &'a MovementProfiles,
    /// This frame's map changes, oldest first.
    pub(super) log: &'a [NavGridChanged],
    /// A new grid appeared or the grid went: everything is planned again.
    pub(super) everything: bool,
    pub(super) whole_map: bool,
    pub(super) profiles_changed: bool,
    /// The solver left urgent requests waiting last frame: cuts far ahead are deferred.
    pub(super) behind: bool,
}
