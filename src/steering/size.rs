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
    /// Diameter in cells (at least 1): the request's, else the footprint's, else 1.
    pub fn diameter(&self) -> u32 {
        match (self.request, self.footprint) {
            (Some(r), _) => r.diameter,
            (None, Some(f)) => f.diameter,
            (None, None) => 1,
        }
        .max(1)
    }

    /// The movement profile it names, resolved; `None` for a name `profiles` lacks.
    pub fn profile(&self, profiles: &MovementProfiles) -> Option<ProfileId> {
        let name = match (self.request, self.footprint) {
            (Some(r), _) => r.profile.as_deref(),
            (None, Some(f)) => f.profile.as_deref(),
            (None, None) => None,
        };
        profiles.resolve(name)
    }

    /// Its request or its footprint names its profile, so the crowd may push it
    /// without pushing it into terrain it cannot enter.
    pub fn known(&self) -> bool {
        self.request.is_some() || self.footprint.is_some()
    }
}
