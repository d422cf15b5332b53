//! Neighbours: the steering units near a point, for separation.

use bevy::prelude::*;

/// Positions of the steering units of this frame, bucketed by square cells of side
/// `cell` (the largest separation radius) for neighbour queries. Buffers are reused.
#[derive(Default)]
pub(crate) struct SpatialHash {
    cell: f32,
    points: Vec<(Entity, Vec2)>,
    keys: Vec<((i32, i32), u32)>,
}

impl SpatialHash {
    pub(super) fn key(&self, p: Vec2) -> (i32, i32) {
        (
            (p.x / self.cell).floor() as i32,
            (p.y / self.cell).floor() as i32,
        )
    }

    pub(super) fn rebuild(&mut self, cell: f32, points: impl Iterator<Item = (Entity, Vec2)>) {
        self.cell = cell.max(1e-3);
        self.points.clear();
        self.points.extend(points);
        self.keys.clear();
        for (i, &(_, p)) in self.points.iter().enumerate() {
            let key = self.key(p);
            self.keys.push((key, i as u32));
        }
        self.keys.sort_unstable();
    }

    /// Calls `f` for every point within one bucket of `p` (a superset of those within `cell`).
    pub(super) fn for_each_near(&self, p: Vec2, mut f: impl FnMut(Entity, Vec2)) {
        let (kx, ky) = self.key(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                let key = (kx.saturating_add(dx), ky.saturating_add(dy));
                let start = self.keys.partition_point(|(k, _)| *k < key);
                for &(_, i) in self.keys[start..].iter().take_while(|(k, _)| *k == key) {
                    let (e, q) = self.points[i as usize];
                    f(e, q);
                }
            }
        }
    }
}
