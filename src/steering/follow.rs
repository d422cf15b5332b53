//! Path following: where a unit's path takes it in one frame, at the speed its terrain allows.

use bevy::prelude::*;

use super::Steering;
use super::walls::Lattice;
use crate::components::{FoundPath, NavGrid, Placement};
use crate::grid::Cell;
use crate::scenario::{Layer, Weights};

/// How much slower than its top speed a unit moves, per plane position: the weight of its
/// anchor cell under its profile (1 off the map, where the profile is unknown and on
/// terrain it blocks).
#[derive(Clone, Copy)]
pub(super) struct Slowness<'a> {
    pub(super) grid: &'a NavGrid,
    pub(super) weights: Option<Weights<'a>>,
    pub(super) diameter: u32,
}

impl Slowness<'_> {
    pub(super) fn at(&self, p: Vec2) -> f32 {
        let Some(weights) = &self.weights else {
            return 1.0;
        };
        if weights.uniform() == Some(1) {
            return 1.0;
        }
        self.grid
            .plane_agent_cell(p, self.diameter)
            .and_then(|c| weights.at(c))
            .filter(|&w| w > 0)
            .map_or(1.0, f32::from)
    }
}

/// A path's waypoints (world positions) seen in the steering plane.
#[derive(Clone, Copy)]
pub(super) struct Waypoints<'a> {
    pub(super) world: &'a [Vec2],
    pub(super) placement: &'a Placement,
}

impl Waypoints<'_> {
    /// How many there are.
    pub(super) fn len(&self) -> usize {
        self.world.len()
    }

    /// The plane position of waypoint `i`.
    pub(super) fn at(&self, i: usize) -> Vec2 {
        self.placement.plane_of(self.world[i])
    }

    /// The plane position of the last waypoint (the path's end).
    pub(super) fn last(&self) -> Vec2 {
        self.at(self.world.len() - 1)
    }
}

/// Most pieces (straight moves within one cell) path following cuts a frame into.
pub(super) const MAX_PIECES: usize = 64;

/// Where path following takes a unit at `pos` this frame of `dt` seconds (before
/// avoidance), and whether that point is the final waypoint. The move is cut into
/// pieces at the lines between anchor cells; each piece goes at the top speed divided by
/// the slowness of its cell (read at the piece's middle, so a piece that starts on a
/// line or a corner counts for the cell it enters).
pub(super) fn follow(
    path: Waypoints<'_>,
    next: &mut usize,
    pos: Vec2,
    steering: &Steering,
    dt: f32,
    lattice: &Lattice,
    slowness: &Slowness,
) -> (Vec2, bool) {
    let last = path.len() - 1;
    *next = (*next).min(last);
    let speed = steering.speed.max(0.0);
    let min_piece = 1e-4 * lattice.tile.abs().min_element();
    let mut time = dt;
    let mut at = pos;
    for _ in 0..MAX_PIECES {
        let target = path.at(*next);
        let d = at.distance(target);
        if d <= 0.0 {
            if *next == last {
                return (target, true);
            }
            *next += 1;
            continue;
        }
        let slow = if *next == last && steering.arrival_radius > 0.0 && d < steering.arrival_radius
        {
            (d / steering.arrival_radius).max(0.25)
        } else {
            1.0
        };
        let dir = (target - at) / d;
        let piece = lattice.exit_distance(at, dir).max(min_piece).min(d);
        let v = speed * slow / slowness.at(at + dir * (piece * 0.5));
        if !(v > 0.0 && time > 0.0) {
            return (at, false);
        }
        let reach = v * time;
        if reach < piece {
            return (at + dir * reach, false);
        }
        time -= piece / v;
        if piece < d {
            at += dir * piece;
        } else if *next == last {
            return (target, true);
        } else {
            at = target;
            *next += 1;
        }
    }
    (at, false)
}

/// The waypoint a unit standing on cell `here` heads for first on a path it was just
/// given. A path is planned from where its unit stood when it was asked for; a unit that
/// walked on meanwhile joins it where it is instead of walking back:
///
/// - past the last waypoint on `here`, when one is;
/// - else, on a path of one waypoint per cell, at the last cell one legal step
///   ([`Layer::can_step`]) from `here`;
/// - else at waypoint 0: the path's start, which is where a unit on a cell blocked
///   for it walks first (see [`FoundPath::start`]).
///
/// O(path length).
pub(super) fn rejoin(
    path: &FoundPath,
    here: Option<Cell>,
    layer: Option<&Layer>,
    grid: &NavGrid,
    diameter: u32,
) -> usize {
    let Some(here) = here else {
        return 0;
    };
    let last = path.waypoints.len().saturating_sub(1);
    let on_here = |w: &Vec2| grid.agent_cell(*w, diameter) == Some(here);
    if let Some(k) = path.waypoints.iter().rposition(on_here) {
        return (k + 1).min(last);
    }
    let (Some(layer), true) = (layer, path.waypoints.len() == path.cells.len()) else {
        return 0;
    };
    if layer.is_blocked(here) {
        return 0;
    }
    let next_to = |c: &Cell| layer.shape().steps(here, *c) == 1 && layer.can_step(here, *c);
    path.cells.iter().rposition(next_to).unwrap_or(0)
}
