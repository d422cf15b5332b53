//! Units at rest: which steering units a frame must steer, and which it can leave alone.
//!
//! A unit is *restless* when something may move it this frame: it follows a path, it
//! moved last frame, it has not stood still for [`REST_AFTER`] seconds yet (its
//! standing rules, such as goal exchange, may still act), its result, steering or
//! `Transform` changed since steering last ran, or it is a child entity (its parent may
//! have moved it). The map is cut into square blocks at least as wide as the reach of a
//! unit's move and of everything steering reads around a unit. The frame steers the
//! restless units and every unit in a block next to one of theirs, and reads the units
//! one block further as obstacles that do not move (they are beyond the reach of every
//! unit that moves). Every other unit is at rest: the frame reads nothing of it but this
//! pass. So an army that has arrived costs one pass over its units a frame.

use bevy::prelude::*;

use super::avoid::CellSpace;
use super::size::UnitSize;
use super::{Arrived, Steering, SteeringProgress};
use crate::components::{PathResult, Placement};
use crate::crowd::Vector;
use crate::settings::TilepathSettings;

/// What the rest pass reads of a steering unit.
pub(super) type Resting<'w, 's> = Query<
    'w,
    's,
    (
        Entity,
        Ref<'static, Steering>,
        Ref<'static, Transform>,
        Option<Ref<'static, PathResult>>,
        &'static SteeringProgress,
        Has<Arrived>,
        Has<ChildOf>,
        UnitSize,
    ),
>;

/// Seconds a unit that follows no path must have stood still before it may rest: longer
/// than every standing rule of steering waits (goal exchange, walking back to a goal).
pub(crate) const REST_AFTER: f32 = 2.0;

/// Tiles a unit may move in a frame and still count as standing still, toward rest (the
/// crowd's separation leaves units jittering by far less).
pub(crate) const STILL_MOVE: f32 = 1e-3;

/// Tiles steering reads around a unit beyond avoidance's neighbour distance and the
/// units' radii: the lane look ahead.
const READ_AROUND: f32 = 4.0;

/// The marks of a block: no restless unit within two blocks, one two blocks away, one
/// in a block next to it, one in it.
const AT_REST: u8 = 0;
const FURTHER: u8 = 1;
const NEXT_TO_RESTLESS: u8 = 2;
const HOLDS_RESTLESS: u8 = 3;

/// How a unit takes part in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// Steered: it may move.
    Steered,
    /// Read as an obstacle that does not move this frame.
    Obstacle,
}

/// The rest pass's buffers, reused every frame.
#[derive(Default)]
pub(crate) struct Rest {
    /// Each unit's block and whether it is restless, in query order.
    units: Vec<(Entity, u32, bool)>,
    /// Per block: [`AT_REST`], [`FURTHER`], [`NEXT_TO_RESTLESS`] or [`HOLDS_RESTLESS`].
    blocks: Vec<u8>,
    /// The indices in `units` of the child units.
    children: Vec<u32>,
    touched: Vec<u32>,
    /// Blocks across and down, and the side of a block in cells.
    width: i32,
    height: i32,
    side: f32,
    /// The units this frame reads, in entity order.
    pub(super) taken: Vec<(Entity, Part)>,
}

impl Rest {
    /// Starts sorting the units into those the frame steers, those it reads as
    /// obstacles and those at rest (left out); `dt` is the frame's time, `cell_span` the
    /// shorter side of a tile in the plane. The children are placed next
    /// ([`Rest::place_child`]), then [`Rest::finish`] ends it. O(units + blocks touched).
    pub(super) fn sort(
        &mut self,
        units: &Resting,
        space: CellSpace,
        placement: &Placement,
        settings: &TilepathSettings,
        dt: f32,
        cell_span: f32,
    ) {
        // The reach of the frame: the farthest a unit moves plus what steering reads
        // around it, plus the widest two units.
        let (mut step, mut diameter) = (0.0f32, 1u32);
        for (_, steering, .., size) in units.iter() {
            step = step.max(steering.speed.abs() * dt / cell_span);
            diameter = diameter.max(size.diameter());
        }
        let read = settings.crowd.neighbour_distance.max(READ_AROUND);
        let reach = step + read + diameter as f32 + 1.0;
        self.begin(space, reach);
        self.units.clear();
        self.children.clear();
        for (entity, steering, transform, result, progress, arrived, child, _) in units.iter() {
            let following = !arrived && result.as_ref().is_some_and(|r| r.found().is_some());
            let restless = following
                || child
                || steering.is_changed()
                || transform.is_changed()
                || result.is_some_and(|r| r.is_changed())
                || progress.resting < REST_AFTER;
            if child {
                // Where it is in the world is found later ([`Rest::place_child`]).
                self.children.push(self.units.len() as u32);
                self.units.push((entity, 0, true));
                continue;
            }
            let at = space.point(placement.plane_of(transform.translation.truncate()));
            let block = self.block_of(at);
            self.units.push((entity, block, restless));
            if restless {
                self.mark(block);
            }
        }
    }

    /// How many child units [`Rest::sort`] found, which [`Rest::place_child`] must place.
    pub(super) fn children(&self) -> usize {
        self.children.len()
    }

    /// Child unit `k` of the [`Rest::children`].
    pub(super) fn child(&self, k: usize) -> Entity {
        self.units[self.children[k] as usize].0
    }

    /// Places child unit `k` (of the [`Rest::children`]) at its plane position `at`.
    pub(super) fn place_child(&mut self, k: usize, at: Vec2, space: CellSpace) {
        let i = self.children[k] as usize;
        let block = self.block_of(space.point(at));
        self.units[i].1 = block;
        self.mark(block);
    }

    /// How unit `entity` takes part in the frame (`None`: it rests), once finished.
    /// O(log units).
    pub(super) fn part(&self, entity: Entity) -> Option<Part> {
        self.taken
            .binary_search_by_key(&entity, |&(e, _)| e)
            .ok()
            .map(|i| self.taken[i].1)
    }

    /// Ends the pass: the units the frame reads, in entity order, into `taken`.
    pub(super) fn finish(&mut self) {
        self.taken.clear();
        for &(entity, block, restless) in &self.units {
            let part = match self.blocks[block as usize] {
                _ if restless => Part::Steered,
                HOLDS_RESTLESS | NEXT_TO_RESTLESS => Part::Steered,
                FURTHER => Part::Obstacle,
                _ => continue,
            };
            self.taken.push((entity, part));
        }
        self.taken.sort_unstable_by_key(|&(entity, _)| entity);
    }

    /// Clears last frame's marks; blocks of at least `reach` cells.
    fn begin(&mut self, space: CellSpace, reach: f32) {
        for &i in &self.touched {
            self.blocks[i as usize] = AT_REST;
        }
        self.touched.clear();
        let side = if reach.is_finite() {
            reach.ceil().max(1.0)
        } else {
            f32::MAX
        };
        let size = space.size();
        let count = |cells: u32| ((cells as f32 / side).ceil() as i32).max(1);
        let (width, height) = (count(size.width), count(size.height));
        if (width, height, side) != (self.width, self.height, self.side) {
            (self.width, self.height, self.side) = (width, height, side);
            self.blocks.clear();
            self.blocks
                .resize(width as usize * height as usize, AT_REST);
        }
    }

    /// The block of the point `at` (in cells); points off the map count in the nearest
    /// block on it.
    fn block_of(&self, at: Vector) -> u32 {
        let index = |v: f32, n: i32| {
            let b = (v / self.side).floor();
            if b.is_nan() {
                0
            } else {
                (b as i32).clamp(0, n - 1)
            }
        };
        (index(at.y, self.height) * self.width + index(at.x, self.width)) as u32
    }

    /// Marks the blocks around a restless unit's block: those next to it steered, those
    /// one further read. O(1): 25 blocks, once per block that holds restless units.
    fn mark(&mut self, block: u32) {
        if self.blocks[block as usize] == HOLDS_RESTLESS {
            return;
        }
        let (bx, by) = (block as i32 % self.width, block as i32 / self.width);
        for dy in -2..=2i32 {
            for dx in -2..=2i32 {
                let (x, y) = (bx + dx, by + dy);
                if x < 0 || y < 0 || x >= self.width || y >= self.height {
                    continue;
                }
                let i = (y * self.width + x) as usize;
                let mark = match (dx, dy) {
                    (0, 0) => HOLDS_RESTLESS,
                    _ if dx.abs() <= 1 && dy.abs() <= 1 => NEXT_TO_RESTLESS,
                    _ => FURTHER,
                };
                let was = self.blocks[i];
                if was == AT_REST {
                    self.touched.push(i as u32);
                }
                self.blocks[i] = was.max(mark);
            }
        }
    }
}
