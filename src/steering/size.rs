//! A unit's size as steering reads it: its request's, else its footprint's, else one cell.

use bevy::ecs::query::QueryData;

use crate::components::{Footprint, PathRequest};
use crate::profiles::MovementProfiles;
use crate::scenario::ProfileId;

/// The components that say how big a unit is and whose walls it keeps out of.
#[derive(QueryData)]
pub(crate) struct UnitSize {
    /// Its order, if it has one.
    pub request: Option<&'static PathRequest>,
    footprint: Option<&'static Footprint>,
}

impl UnitSizeItem<'_, '_> {
    /// The diameter and profile name that count: the request's, else the footprint's,
    /// else one cell and the default profile.
    fn said(&self) -> (u32, Option<&str>) {
        match (self.request, self.footprint) {
            (Some(r), _) => (r.diameter, r.profile.as_deref()),
            (None, Some(f)) => (f.diameter, f.profile.as_deref()),
            (None, None) => (1, None),
        }
    }

    /// Diameter in cells (at least 1): the request's, else the footprint's, else 1.
    pub fn diameter(&self) -> u32 {
        self.said().0.max(1)
    }

    /// The movement profile it names, resolved; `None` for a name `profiles` lacks.
    pub fn profile(&self, profiles: &MovementProfiles) -> Option<ProfileId> {
        profiles.resolve(self.said().1)
    }

    /// Its request or its footprint names its profile, so the crowd may push it
    /// without pushing it into terrain it cannot enter.
    pub fn known(&self) -> bool {
        self.request.is_some() || self.footprint.is_some()
    }
}
