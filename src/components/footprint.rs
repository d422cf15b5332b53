//! The [`Footprint`] component: the room a unit takes while no path request says it.

use std::borrow::Cow;

use bevy::prelude::*;

/// The size and movement profile of a unit that has no [`PathRequest`](super::PathRequest):
/// an idle unit, a parked one, a building that blocks the way.
///
/// Steering, grid stepping and the [`UnitMap`](super::UnitMap) take a unit's diameter and
/// profile from its `PathRequest` while it has one, from its `Footprint` otherwise, and
/// treat a unit with neither as one cell wide with the default profile. So a wide unit
/// spawned without an order keeps its size for the units that avoid it, separate from it
/// and plan around it. Give the unit's requests the same diameter and profile.
///
/// ```
/// use bevy_tilepath::prelude::*;
///
/// let tank = Footprint::new(3).profile("tracked");
/// assert_eq!(tank.diameter, 3);
/// assert_eq!(tank.profile.as_deref(), Some("tracked"));
/// assert_eq!(Footprint::default(), Footprint::new(1));
/// ```
#[derive(Component, Clone, Debug, PartialEq, Eq, Reflect)]
#[reflect(Component, Default, Debug, PartialEq)]
pub struct Footprint {
    /// Diameter in cells, as [`PathRequest::diameter`](super::PathRequest::diameter)
    /// places it (0 counts as 1). Default: 1.
    pub diameter: u32,
    /// Name of the movement profile whose walls the unit keeps out of, as
    /// [`PathRequest::profile`](super::PathRequest::profile); `None` is the default
    /// profile. Default: `None`.
    pub profile: Option<Cow<'static, str>>,
}

impl Default for Footprint {
    fn default() -> Self {
        Self::new(1)
    }
}

impl Footprint {
    /// A footprint `diameter` cells wide, with the default profile.
    pub fn new(diameter: u32) -> Self {
        Self {
            diameter,
            profile: None,
        }
    }

    /// The same footprint with the movement profile named `name`.
    pub fn profile(mut self, name: impl Into<Cow<'static, str>>) -> Self {
        self.profile = Some(name.into());
        self
    }
}
