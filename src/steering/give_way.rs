//! What a steering unit giving way in a narrow passage keeps from frame to frame (see
//! `right_of_way`).

use bevy::prelude::*;

use crate::grid::Cell;

/// Where a unit giving way is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Reflect)]
pub(super) enum Phase {
    /// On its way to its refuge.
    #[default]
    Out,
    /// In its refuge, until the other has gone by.
    Wait,
    /// On its way back to the cell of its path it left.
    Back,
}

/// A steering unit giving way to another (kept in its
/// [`SteeringProgress`](super::SteeringProgress)).
#[derive(Clone, Copy, Debug, PartialEq, Reflect)]
pub(super) struct GiveWay {
    /// The unit it gives way to.
    pub(super) to: Entity,
    /// The cell it waits in.
    pub(super) refuge: Cell,
    /// The index of the cell of its path it left, and returns to.
    pub(super) back_to: usize,
    pub(super) phase: Phase,
    /// Seconds since it began, and since it turned back.
    pub(super) secs: f32,
    pub(super) back_secs: f32,
}
