//! Right of way for steering units in narrow passages. Of two units that would meet
//! head-on where their paths run through a one-lane stretch ([`passage`]), one gives
//! way ([`passage::gives_way`]): it walks to the nearest cell off the other's way (a
//! side pocket, or back out of the stretch), waits there until the other has gone by,
//! walks back to the cell of its path it left and goes on. The other waits while the
//! one giving way still stands close in front of it.

use std::collections::HashMap;

use bevy::prelude::*;
use smallvec::SmallVec;

use super::frame::{SteerBuffers, Units};
use super::give_way::{GiveWay, Phase};
use super::passage::{self, LOOKAHEAD};
use super::sidestep::{Reach, Sidestep};
use crate::components::{FoundPath, NavGrid};
use crate::grid::Cell;
use crate::scenario::Layer;

/// Seconds after which a unit stops giving way (the other may be held up itself); it
/// goes back to its path and the rule may start again.
const GIVE_UP: f32 = 4.0;

/// Seconds a unit walks back to its path before it gives up giving way (units behind
/// the one it let by may stand in its way).
const BACK_FOR: f32 = 2.0;

/// Cells of its way in front of it that a unit with the right of way keeps clear of
/// the way of the unit giving way to it, until that one is in its refuge.
const CLOSE: usize = 2;

/// One unit's place on its path this frame.
#[derive(Clone, Copy)]
struct Way {
    entity: Entity,
    /// The anchor cell it stands on.
    here: Cell,
    /// The index of the last cell of its path it stood on.
    hint: usize,
    diameter: u32,
}

/// The right-of-way scratch, reused every frame.
#[derive(Default)]
pub(crate) struct RightOfWay {
    /// Per mover: its way, when it follows a path or gives way.
    ways: Vec<Option<Way>>,
    /// Per mover: its giving way, read at the start of the frame and written back.
    yields: Vec<Option<GiveWay>>,
    /// Movers by the cell they stand on, and by entity.
    at: HashMap<Cell, SmallVec<[u32; 2]>>,
    by_entity: HashMap<Entity, u32>,
    /// Per mover: the cell of its path it came back to, when it finished giving way.
    rejoin: Vec<Option<usize>>,
    search: Search,
}

/// The searches for a refuge and for the way to it or back ([`Sidestep`] within
/// [`Reach::FAR`]), and the cells of the last way found, from its end back to the unit.
#[derive(Default)]
struct Search {
    sidestep: Sidestep,
    route: Vec<Cell>,
}

/// The cells of `path` a unit on its cell `hint` walks next ([`LOOKAHEAD`] at most).
fn ahead(cells: &[Cell], hint: usize) -> &[Cell] {
    let from = (hint + 1).min(cells.len());
    &cells[from..(from + LOOKAHEAD).min(cells.len())]
}

/// The found path of unit `e`.
fn path_of<'a>(units: &'a Units, e: Entity) -> Option<&'a FoundPath> {
    let (_, _, result, ..) = units.get(e).ok()?;
    result.map(Ref::into_inner)?.found()
}

/// True when a mover other than `i` stands on `c` (by `at`, the movers by cell).
fn held_by_other(at: &HashMap<Cell, SmallVec<[u32; 2]>>, c: Cell, i: usize) -> bool {
    at.get(&c)
        .is_some_and(|v| v.iter().any(|&j| j as usize != i))
}

/// How far apart (in steps) the anchor cells of two units of diameters `a` and `b` must
/// be for their footprints not to overlap.
fn separation(a: u32, b: u32) -> u32 {
    (a + b).div_ceil(2).max(1)
}

impl RightOfWay {
    /// Applies the right of way to this frame's movers: units giving way get their moves
    /// (to their refuge, or back), units with the right of way wait while the one giving
    /// way to them is close in front of them. Runs after path following, before the
    /// crowd. O(units × [`LOOKAHEAD`]), plus a search within [`Reach::FAR`] per unit
    /// giving way.
    pub(super) fn apply(
        &mut self,
        units: &mut Units,
        grid: &NavGrid,
        b: &mut SteerBuffers,
        dt: f32,
    ) {
        self.read(units, grid, b);
        for i in 0..b.movers.len() {
            self.update(units, grid, b, i, dt);
        }
        for i in 0..b.movers.len() {
            if self.yields[i].is_none() && b.movers[i].following {
                self.detect(units, grid, b, i);
            }
        }
        for i in 0..b.movers.len() {
            self.steer(units, grid, b, i);
        }
        self.write(units, grid, b);
    }

    /// Every mover's way and giving way, and where they stand.
    fn read(&mut self, units: &mut Units, grid: &NavGrid, b: &SteerBuffers) {
        self.ways.clear();
        self.yields.clear();
        self.rejoin.clear();
        self.rejoin.resize(b.movers.len(), None);
        self.at.clear();
        self.by_entity.clear();
        for (i, m) in b.movers.iter().enumerate() {
            let pose = &b.poses.poses[m.pose];
            let here = grid.plane_agent_cell(pose.at, m.diameter);
            let Ok((_, _, result, _, _, mut progress, arrived, ..)) = units.get_mut(pose.entity)
            else {
                self.ways.push(None);
                self.yields.push(None);
                continue;
            };
            let path = result.as_ref().and_then(|r| r.found());
            let way = match (path, here) {
                (Some(path), Some(here)) if !arrived => {
                    let hint = progress.track(here, &path.cells);
                    Some(Way {
                        entity: pose.entity,
                        here,
                        hint,
                        diameter: m.diameter,
                    })
                }
                _ => None,
            };
            let give_way = way.and(progress.give_way);
            if give_way.is_none() && progress.give_way.is_some() {
                progress.give_way = None;
            }
            if let Some(w) = way {
                self.at.entry(w.here).or_default().push(i as u32);
                self.by_entity.insert(w.entity, i as u32);
            }
            self.ways.push(way);
            self.yields.push(give_way);
        }
    }

    /// Moves giving way on a phase: to waiting once in the refuge, back once the other
    /// has gone by (or gone, or after [`GIVE_UP`] seconds), done once back on the path.
    fn update(&mut self, units: &Units, grid: &NavGrid, b: &SteerBuffers, i: usize, dt: f32) {
        let (Some(mut g), Some(me)) = (self.yields[i], self.ways[i]) else {
            return;
        };
        let Some(mine) = path_of(units, me.entity) else {
            self.yields[i] = None;
            return;
        };
        g.secs += dt;
        if g.phase == Phase::Out {
            // It leaves its path from the last cell of it it stood on.
            g.back_to = g.back_to.max(me.hint);
        }
        let other = self.by_entity.get(&g.to).map(|&j| j as usize);
        let gone_by = match other.and_then(|j| self.ways[j].map(|w| (j, w))) {
            Some((j, them)) if b.movers[j].following && g.phase != Phase::Back => {
                let theirs = path_of(units, them.entity).map_or(&[][..], |p| &p.cells);
                let my_way = &mine.cells[g.back_to.min(mine.cells.len())..];
                let my_way = &my_way[..my_way.len().min(LOOKAHEAD + 1)];
                let their_way = ahead(theirs, them.hint);
                !my_way.contains(&them.here)
                    && !their_way.iter().any(|c| my_way.contains(c))
                    && self.clear_of(grid, mine, &me, &them, their_way, g.back_to)
            }
            _ => true,
        };
        if g.phase != Phase::Back && (gone_by || g.secs >= GIVE_UP) {
            g.phase = Phase::Back;
        }
        if g.phase == Phase::Out && me.here == g.refuge {
            g.phase = Phase::Wait;
        }
        let taken = held_by_other(&self.at, g.refuge, i);
        if g.phase == Phase::Back {
            g.back_secs += dt;
        }
        // Pushed into the way of the unit it waits for: it looks for another refuge.
        let in_their_way = g.phase == Phase::Wait
            && other
                .and_then(|j| self.ways[j])
                .and_then(|t| path_of(units, t.entity).map(|p| (t, p)))
                .is_some_and(|(t, p)| ahead(&p.cells, t.hint).contains(&me.here));
        if (g.phase == Phase::Out && taken) || in_their_way || g.back_secs >= BACK_FOR {
            // Its refuge was taken or it was pushed out of it (it looks for another), or
            // it cannot get back (it follows its path again, and the progress rule
            // takes over).
            self.yields[i] = None;
            return;
        }
        self.yields[i] = Some(g);
        if g.phase == Phase::Back {
            // Back on its path (near where it left it): it follows it again from there.
            let from = g.back_to.saturating_sub(LOOKAHEAD);
            let to = (g.back_to + LOOKAHEAD + 1).min(mine.cells.len());
            if let Some(k) = mine.cells[from..to].iter().position(|&c| c == me.here) {
                self.yields[i] = None;
                self.rejoin[i] = Some(from + k);
            }
        }
    }

    /// True when `them` (standing on `them.here`, walking `their_way` next) keeps clear
    /// of the way back from where `me` stands to its path's cell `back_to`: no cell of
    /// theirs within [`separation`] of it. False when there is no way back.
    fn clear_of(
        &mut self,
        grid: &NavGrid,
        mine: &FoundPath,
        me: &Way,
        them: &Way,
        their_way: &[Cell],
        back_to: usize,
    ) -> bool {
        let Some(layer) = grid.scenario().layer_for(mine.profile, me.diameter) else {
            return true;
        };
        let Some(&target) = mine.cells.get(back_to) else {
            return true;
        };
        if first_step(layer, me.here, target, &mut self.search, |_| true).is_none() {
            return false;
        }
        let (sep, shape) = (separation(me.diameter, them.diameter), layer.shape());
        let route = &self.search.route;
        std::iter::once(&them.here)
            .chain(their_way)
            .all(|&c| route.iter().all(|&r| shape.steps(c, r) >= sep))
    }

    /// Whether unit `i` (following its path) is about to meet another head-on in a
    /// one-lane stretch and gives way to it; if so it starts to, when it finds a refuge.
    fn detect(&mut self, units: &Units, grid: &NavGrid, b: &SteerBuffers, i: usize) {
        let Some(me) = self.ways[i] else {
            return;
        };
        let Some(mine) = path_of(units, me.entity) else {
            return;
        };
        let profile = mine.profile;
        let my_ahead = ahead(&mine.cells, me.hint);
        for (k, c) in my_ahead.iter().enumerate() {
            let Some(there) = self.at.get(c) else {
                continue;
            };
            for &j in there.iter() {
                let j = j as usize;
                let (Some(them), None) = (self.ways[j], self.yields[j]) else {
                    continue;
                };
                if j == i || !b.movers[j].following {
                    continue;
                }
                let Some(theirs) = path_of(units, them.entity) else {
                    continue;
                };
                if !ahead(&theirs.cells, them.hint).contains(&me.here) {
                    continue;
                }
                let wide = me.diameter.max(them.diameter);
                let Some(layer) = grid.scenario().layer_for(profile, wide) else {
                    continue;
                };
                let narrow =
                    (me.hint..=me.hint + 1 + k).any(|x| passage::lane_at(layer, &mine.cells, x));
                if !narrow {
                    continue;
                }
                let depth = |w: &Way, p: &FoundPath| {
                    grid.scenario()
                        .layer_for(p.profile, w.diameter)
                        .map_or(0, |l| passage::depth(l, &p.cells, w.hint))
                };
                let (d_me, d_them) = (depth(&me, mine), depth(&them, theirs));
                if !passage::gives_way((d_me, me.entity), (d_them, them.entity)) {
                    continue;
                }
                let Some(own) = grid.scenario().layer_for(profile, me.diameter) else {
                    return;
                };
                if let Some(refuge) = self.refuge(own, i, &me, &them, &theirs.cells) {
                    self.yields[i] = Some(GiveWay {
                        to: them.entity,
                        refuge,
                        back_to: me.hint,
                        phase: Phase::Out,
                        secs: 0.0,
                        back_secs: 0.0,
                    });
                }
                return;
            }
        }
    }

    /// The nearest cell unit `me` can walk to (without coming near `them`) that lies off
    /// `them`'s way and where no other unit stands.
    fn refuge(
        &mut self,
        layer: &Layer,
        i: usize,
        me: &Way,
        them: &Way,
        theirs: &[Cell],
    ) -> Option<Cell> {
        let sep = separation(me.diameter, them.diameter);
        let shape = layer.shape();
        let zone: SmallVec<[Cell; 24]> = std::iter::once(them.here)
            .chain(ahead(theirs, them.hint).iter().copied())
            .collect();
        let (at, yields) = (&self.at, &self.yields);
        let free = |c: Cell| {
            zone.iter().all(|&w| shape.steps(c, w) >= sep)
                && yields.iter().flatten().all(|g| g.refuge != c)
                && !held_by_other(at, c, i)
        };
        let passable = |c: Cell| shape.steps(c, them.here) >= sep && !held_by_other(at, c, i);
        let goal = |c: Cell| free(c).then_some(c);
        (self.search.sidestep).find(layer, me.here, Reach::FAR, goal, passable)
    }

    /// Unit `i`'s move when it gives way, or waits for one giving way to it.
    fn steer(&mut self, units: &Units, grid: &NavGrid, b: &mut SteerBuffers, i: usize) {
        let (Some(g), Some(me)) = (self.yields[i], self.ways[i]) else {
            return;
        };
        let Some(mine) = path_of(units, me.entity) else {
            return;
        };
        let them = self
            .by_entity
            .get(&g.to)
            .and_then(|&j| self.ways[j as usize].map(|w| (j as usize, w)));
        let target = match g.phase {
            Phase::Out | Phase::Wait => g.refuge,
            Phase::Back => mine.cells[g.back_to],
        };
        let layer = grid.scenario().layer_for(mine.profile, me.diameter);
        let walled = layer.is_none_or(|l| l.is_blocked(target) || l.is_blocked(me.here));
        let step = match (g.phase, layer) {
            _ if walled => None,
            (Phase::Wait, _) => Some(target),
            (_, Some(layer)) => {
                let sep = them.map_or(0, |(_, t)| separation(me.diameter, t.diameter));
                let shape = layer.shape();
                // On its way out, not near the unit it gives way to nor through others.
                let out = g.phase == Phase::Out;
                let avoid = them.filter(|_| out).map(|(_, t)| t.here);
                let at = &self.at;
                let passable = |c: Cell| {
                    avoid.is_none_or(|h| shape.steps(c, h) >= sep)
                        && !(out && held_by_other(at, c, i))
                };
                first_step(layer, me.here, target, &mut self.search, passable)
            }
            _ => None,
        };
        let Some(step) = step else {
            // No way there: it stops giving way and follows its path again.
            self.yields[i] = None;
            return;
        };
        let m = &mut b.movers[i];
        let pos = b.poses.poses[m.pose].at;
        let to = grid.plane_agent_center(step, m.diameter) - pos;
        let reach = to.length();
        m.wanted = if reach > m.max_step {
            to * (m.max_step / reach)
        } else {
            to
        };
        m.followed = m.wanted;
        m.giving_way = true;
        m.returning = g.phase == Phase::Back;
        m.following = g.phase != Phase::Wait;
        m.to_goal = 0.0;
        m.at_goal = false;
        (m.stalled, m.still, m.slow) = (0.0, 0.0, 0.0);
        // The unit it gives way to waits while its next cells meet the way to the
        // refuge (so the two do not meet where that way leaves the passage).
        if let (Phase::Out, Some((j, them))) = (g.phase, them)
            && let Some(theirs) = path_of(units, them.entity)
        {
            let next = ahead(&theirs.cells, them.hint);
            let close = std::iter::once(them.here).chain(next.iter().take(CLOSE).copied());
            let route = &self.search.route;
            let sep = separation(me.diameter, them.diameter);
            let shape = grid.layout().shape();
            let meets = close
                .into_iter()
                .any(|c| route.iter().any(|&r| shape.steps(c, r) < sep));
            if meets {
                let t = &mut b.movers[j];
                t.wanted = Vec2::ZERO;
                t.followed = Vec2::ZERO;
                t.giving_way = true;
                t.following = false;
                (t.stalled, t.still, t.slow) = (0.0, 0.0, 0.0);
            }
        }
    }

    /// Writes the giving way back; a unit that finished giving way follows its path
    /// again from the cell it came back to (or the last it stood on).
    fn write(&mut self, units: &mut Units, grid: &NavGrid, b: &mut SteerBuffers) {
        for (i, m) in b.movers.iter_mut().enumerate() {
            let Some(me) = self.ways[i] else {
                continue;
            };
            let Ok((_, _, result, _, _, mut progress, ..)) = units.get_mut(me.entity) else {
                continue;
            };
            let now = self.yields[i];
            if progress.give_way == now {
                continue;
            }
            let finished = progress.give_way.is_some() && now.is_none();
            progress.give_way = now;
            if finished && let Some(path) = result.as_ref().and_then(|r| r.found()) {
                let at = match self.rejoin[i] {
                    Some(at) => at,
                    None => progress.track(me.here, &path.cells),
                };
                let next = waypoint_after(path, grid, m.diameter, at);
                progress.rejoin_at(next, at);
                // Path following heads there from the next frame on.
                m.next = next;
                m.giving_way = true;
            }
        }
    }
}

/// The index of the first waypoint of `path` past its cell `at` (the last waypoint
/// when none is). O(path) for smoothed paths, O(1) otherwise.
fn waypoint_after(path: &FoundPath, grid: &NavGrid, diameter: u32, at: usize) -> usize {
    let last = path.waypoints.len().saturating_sub(1);
    if path.waypoints.len() == path.cells.len() {
        return (at + 1).min(last);
    }
    let mut c = 0;
    for (w, &p) in path.waypoints.iter().enumerate() {
        let Some(cell) = grid.agent_cell(p, diameter) else {
            continue;
        };
        while c < path.cells.len() && path.cells[c] != cell {
            c += 1;
        }
        if c > at && c < path.cells.len() {
            return w;
        }
    }
    last
}

/// The first cell of a shortest way from `from` to `to` over `layer`'s steps through
/// cells `passable` allows (`to` itself when the unit stands on it); the way's cells,
/// from `to` back to `from`, in `route`.
fn first_step(
    layer: &Layer,
    from: Cell,
    to: Cell,
    scratch: &mut Search,
    passable: impl Fn(Cell) -> bool,
) -> Option<Cell> {
    let Search { sidestep, route } = scratch;
    route.clear();
    route.push(to);
    if from == to {
        return Some(to);
    }
    sidestep.find(
        layer,
        from,
        Reach::FAR,
        |c| (c == to).then_some(()),
        passable,
    )?;
    route.push(from);
    route.extend(sidestep.cells().iter().rev());
    sidestep.cells().first().copied()
}
