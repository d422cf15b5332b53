//! Shared goal fields: one distance field answers every request of a group order.
//!
//! Requests whose goal is the field's own goal read their path off the field (no
//! search). With `GroupOrders::SharedApproach`, requests of the same order that end on
//! their own cell near it (cells the plugin claimed around the goal, formation slots)
//! read the long way off the field too, on weighted layers, and search only the last
//! stretch to their own cell (not exact, bounded: see the setting); on uniform layers
//! they keep their own JPS.

use std::collections::HashMap;
use std::time::Instant;

use super::jobs::{Budget, FieldKey, Job, Work};
use crate::components::{FoundPath, NavGrid};
use crate::grid::{Cell, Cost, STRAIGHT, cost_to_f64};
use crate::pipeline::resolve::Ends;
use crate::scenario::{CachedScenario, ProfileId};
use crate::search::{DistanceField, PathQuery as SearchQuery};
use crate::settings::{GroupOrders, TilepathSettings};
use crate::smoothing;

/// Cells of a path read off a field per expansion charged to an expansion budget.
pub(crate) const CELLS_PER_EXPANSION: u64 = 4;

/// The side, in cells, of the buckets that index the fields by goal.
const BUCKET_SIDE: i32 = 16;

/// With [`GroupOrders::SharedApproach`], a request whose goal lies within this
/// Chebyshev distance of a field's goal joins that field: one field serves a whole
/// formation, whose last stretches the approach searches anyway.
const APPROACH_JOIN_RADIUS: i32 = 64;

/// A bucket of the field index: profile, diameter and the goal's square of side
/// [`BUCKET_SIDE`].
type Bucket = (ProfileId, u32, i32, i32);

/// The bucket of the field index that holds a field toward `goal`.
fn bucket(key: &FieldKey, goal: Cell) -> Bucket {
    let b = |v: i32| v.div_euclid(BUCKET_SIDE);
    (key.profile, key.diameter, b(goal.x), b(goal.y))
}

/// One cached field and the members it serves this frame.
struct Entry {
    key: FieldKey,
    field: DistanceField,
    /// Plugin frame in which the field last served a request.
    last_used: u64,
    /// Start cells of this frame's members, nearest to the goal first.
    waiting: Vec<Cell>,
    /// `waiting[..settled]` are settled.
    settled: usize,
    /// The first job of this frame the field serves (fields grow in that order).
    first_job: usize,
    /// This frame's edits set the field back (see `DistanceField::edit_setbacks`), or
    /// it replaces one of the same key that they made start over.
    set_back: bool,
}

/// The cached shared fields, all brought up to the current map generation.
#[derive(Default)]
pub(crate) struct Fields {
    entries: Vec<Entry>,
    counts: HashMap<FieldKey, usize>,
    members: Vec<(usize, FieldKey)>,
    /// This frame's field goals (cached and candidate), by bucket, in order of creation.
    index: HashMap<Bucket, Vec<(usize, FieldKey)>>,
    growing: Vec<usize>,
    /// Keys of the fields this frame's edits made start over.
    dropped: Vec<FieldKey>,
}

impl Fields {
    /// Drops every field (a new map, size or placement, or there is no map).
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// Brings every field up to date with the edits of `map` (exactly, see
    /// `DistanceField::carry_over`), and drops those that cannot be (a profile change,
    /// a blocked goal, too many edits since).
    pub(crate) fn carry_over(&mut self, map: &CachedScenario) {
        let dropped = &mut self.dropped;
        self.entries.retain_mut(|e| {
            let before = e.field.edit_setbacks();
            if !e.field.carry_over(map) {
                dropped.push(e.key);
                return false;
            }
            e.set_back |= e.field.edit_setbacks() > before;
            true
        });
    }

    /// True when this frame's edits set back the field with index `at`: its members
    /// that are still waiting were set back with it.
    pub(crate) fn set_back(&self, at: usize) -> bool {
        self.entries.get(at).is_some_and(|e| e.set_back)
    }

    /// Forgets this frame's setbacks.
    pub(crate) fn end_frame(&mut self) {
        self.dropped.clear();
        for entry in &mut self.entries {
            entry.set_back = false;
        }
    }

    /// Fields cached.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Bytes the cached fields hold.
    pub(crate) fn memory_bytes(&self) -> usize {
        self.entries.iter().map(|e| e.field.memory_bytes()).sum()
    }

    /// Turns the search jobs that a shared field can serve into field jobs: those whose
    /// key has a cached field, or at least `FieldSettings::min_requests` members among
    /// `jobs`, when their start can reach their goal and the field's (others keep their
    /// own search, which answers them as the request asks). A field's goal is the
    /// request's own goal; with `GroupOrders::SharedApproach` it is the requested goal
    /// when the agent can stand there (the cells the plugin claimed for one order share
    /// it), and it joins an existing field goal within [`APPROACH_JOIN_RADIUS`] first
    /// (formation slots share the first slot's). New fields take free places or those of
    /// the least recently used fields not needed this frame; keys that find no place keep
    /// searching.
    ///
    /// A frame takes its requests in batches: `jobs[first..]` is the new batch (the
    /// first one, `first == 0`, starts the frame's waiting lists afresh; later ones add
    /// to them, and `FieldSettings::min_requests` counts members within the batch).
    pub(crate) fn assign(
        &mut self,
        grid: &NavGrid,
        settings: &TilepathSettings,
        jobs: &mut [Job],
        first: usize,
        frame: u64,
    ) {
        if first == 0 {
            for entry in &mut self.entries {
                entry.waiting.clear();
                entry.first_job = usize::MAX;
            }
        }
        if settings.fields.max_fields == 0 || settings.group_orders == GroupOrders::PerUnit {
            self.entries.clear();
            return;
        }
        let map = grid.scenario();
        self.counts.clear();
        self.members.clear();
        self.index.clear();
        for (at, entry) in self.entries.iter().enumerate() {
            let bucket = bucket(&entry.key, entry.key.goal);
            self.index.entry(bucket).or_default().push((at, entry.key));
        }
        let mut created = self.entries.len();
        for (index, job) in jobs.iter().enumerate().skip(first) {
            let Work::Search {
                query,
                resumed: None,
            } = &job.work
            else {
                continue;
            };
            if job.solo {
                continue;
            }
            let approach = settings.group_orders == GroupOrders::SharedApproach;
            let goal = if approach {
                field_goal(map, query, job.ends)
            } else {
                query.goal
            };
            let Some(key) = FieldKey::of(query, goal).filter(|key| reaches(map, query, key.goal))
            else {
                continue;
            };
            let joined = if approach {
                self.join(key, query.goal, APPROACH_JOIN_RADIUS)
            } else {
                None
            };
            let key = joined.unwrap_or(key);
            if key.goal != query.goal && !weighted(map, query) {
                // On uniform layers the unit's own JPS is as fast as an approach and
                // exact, so it keeps it.
                continue;
            }
            if joined.is_none() {
                created += 1;
                let list = self.index.entry(bucket(&key, key.goal)).or_default();
                list.push((created, key));
            }
            *self.counts.entry(key).or_default() += 1;
            self.members.push((index, key));
        }
        // Which field serves each key, decided at its first member (`None`: no field).
        let mut places: HashMap<FieldKey, Option<usize>> = HashMap::new();
        let min = settings.fields.min_requests.max(1);
        for &(index, key) in &self.members {
            let at = *places.entry(key).or_insert_with(|| {
                self.entries.iter().position(|e| e.key == key).or_else(|| {
                    (self.counts[&key] >= min)
                        .then(|| {
                            place(
                                &mut self.entries,
                                map,
                                key,
                                settings.fields.max_fields,
                                frame,
                            )
                        })
                        .flatten()
                })
            });
            let Some(at) = at else {
                continue;
            };
            let entry = &mut self.entries[at];
            entry.last_used = frame;
            entry.first_job = entry.first_job.min(index);
            let job = &mut jobs[index];
            let Work::Search { query, .. } = job.work else {
                unreachable!("members are new searches");
            };
            entry.waiting.push(query.start);
            job.work = Work::Field { field: at, query };
        }
        for entry in &mut self.entries {
            entry.set_back |= self.dropped.contains(&entry.key);
            let goal = entry.key.goal;
            entry.settled = 0;
            entry
                .waiting
                .sort_unstable_by_key(|c| (c.chebyshev(goal), c.y, c.x));
            entry.waiting.dedup();
        }
    }

    /// The field goal this frame already has for the agent of `key` that `goal` should
    /// join: `key` itself when listed, else the earliest listed within `radius`
    /// (Chebyshev) of `goal`.
    fn join(&self, key: FieldKey, goal: Cell, radius: i32) -> Option<FieldKey> {
        let listed = self
            .index
            .get(&bucket(&key, key.goal))
            .is_some_and(|list| list.iter().any(|&(_, other)| other == key));
        if listed {
            return Some(key);
        }
        let (profile, diameter, bx, by) = bucket(&key, goal);
        let r = (radius + BUCKET_SIDE - 1) / BUCKET_SIDE;
        let near = (bx - r..=bx + r)
            .flat_map(|x| (by - r..=by + r).map(move |y| (profile, diameter, x, y)))
            .filter_map(|bucket| self.index.get(&bucket))
            .flatten();
        let mut best: Option<(usize, FieldKey)> = None;
        for &(order, other) in near {
            let fits = other.profile == key.profile
                && other.diameter == key.diameter
                && other.goal.chebyshev(goal) <= radius as u32;
            if fits && best.is_none_or(|(o, _)| order < o) {
                best = Some((order, other));
            }
        }
        best.map(|(_, other)| other)
    }

    /// Grows the fields of this frame's members, in the order of their first member,
    /// until every member's cell is settled or `budget` is spent; returns the cells
    /// settled. Under a time budget the first slice always runs when `progressed` is
    /// false (so every frame makes progress).
    pub(crate) fn grow(
        &mut self,
        map: &CachedScenario,
        budget: &mut Budget,
        progressed: bool,
    ) -> u64 {
        self.growing.clear();
        self.growing
            .extend((0..self.entries.len()).filter(|&i| self.entries[i].first_job != usize::MAX));
        let entries = &self.entries;
        self.growing.sort_unstable_by_key(|&i| entries[i].first_job);
        let mut settled = 0;
        for &i in &self.growing {
            let entry = &mut self.entries[i];
            loop {
                while entry
                    .waiting
                    .get(entry.settled)
                    .is_some_and(|&c| entry.field.is_settled(c))
                {
                    entry.settled += 1;
                }
                if entry.settled == entry.waiting.len() || entry.field.is_complete() {
                    break;
                }
                let slice = match *budget {
                    Budget::Time { deadline } => {
                        if (progressed || settled > 0)
                            && deadline.is_some_and(|d| Instant::now() >= d)
                        {
                            return settled;
                        }
                        crate::settings::TilepathSettings::TIME_SLICE
                    }
                    Budget::Expansions { left } => {
                        if left == 0 {
                            return settled;
                        }
                        left.min(u64::from(crate::settings::TilepathSettings::TIME_SLICE)) as u32
                    }
                };
                let before = entry.field.expanded();
                let complete = entry.field.grow(map, slice);
                let grown = entry.field.expanded() - before;
                settled += grown;
                if let Budget::Expansions { left } = budget {
                    *left = left.saturating_sub(grown);
                }
                if complete && grown == 0 {
                    break;
                }
            }
        }
        settled
    }

    /// The field with index `at`.
    pub(crate) fn field(&self, at: usize) -> &DistanceField {
        &self.entries[at].field
    }
}

/// True when `query`'s start, goal and the field goal `to` are free for its agent and in
/// one component: the field from `to` reaches the start, and the unit's own search
/// would find a path from that very start to that very goal.
fn reaches(map: &CachedScenario, query: &SearchQuery, to: Cell) -> bool {
    let Some(layer) = map.layer_for(query.profile, query.diameter) else {
        return false;
    };
    let size = layer.size();
    let free = |c: Cell| size.contains(c) && !layer.is_blocked(c);
    free(query.start)
        && free(query.goal)
        && free(to)
        && layer.components().connected(query.start, query.goal)
        && layer.components().connected(query.start, to)
}

/// True when the terrain weights of `query`'s profile differ between passable cells (its
/// own search is then an A*, which a field's guidance speeds up).
fn weighted(map: &CachedScenario, query: &SearchQuery) -> bool {
    map.weights(query.profile)
        .is_some_and(|w| w.uniform().is_none())
}

/// The goal of the field that would serve `query`: the requested goal when the agent
/// can stand on it and it is not off the map (the claimed cells of one order share it),
/// otherwise the query's own goal.
fn field_goal(map: &CachedScenario, query: &SearchQuery, ends: Ends) -> Cell {
    let requested = ends.requested;
    let standable = map
        .layer_for(query.profile, query.diameter)
        .is_some_and(|layer| layer.size().contains(requested) && !layer.is_blocked(requested));
    if standable { requested } else { query.goal }
}

/// A place for a new field of `key`: a free one, or that of the least recently used
/// field not needed this frame. `None` when all are needed or the field cannot be made.
fn place(
    entries: &mut Vec<Entry>,
    map: &CachedScenario,
    key: FieldKey,
    max: usize,
    frame: u64,
) -> Option<usize> {
    let at = if entries.len() < max {
        None
    } else {
        Some(
            (0..entries.len())
                .filter(|&i| entries[i].last_used < frame)
                .min_by_key(|&i| entries[i].last_used)?,
        )
    };
    let field = DistanceField::new(map, key.goal, key.profile, key.diameter).ok()?;
    let entry = Entry {
        key,
        field,
        last_used: frame,
        waiting: Vec::new(),
        settled: 0,
        first_job: usize::MAX,
        set_back: false,
    };
    match at {
        Some(at) => {
            entries[at] = entry;
            Some(at)
        }
        None => {
            entries.push(entry);
            Some(entries.len() - 1)
        }
    }
}

/// A shared approach leaves the field's descent at its first cell at most
/// `APPROACH_REACH` times as far from the field's goal as the unit's own cell, plus
/// [`APPROACH_MARGIN`] straight steps (see [`GroupOrders::SharedApproach`]).
const APPROACH_REACH: Cost = 2;

/// See [`APPROACH_REACH`].
const APPROACH_MARGIN: Cost = 8;

/// The answer of a field job whose goal is the field's own: the path descending `field`
/// from the query's start, with its waypoints (smoothed when asked, like a search's),
/// and the cost charged to an expansion budget (O(path length)). A shared approach
/// (the query's goal is not the field's) is answered by the solver threads instead,
/// its last stretch sliced like any search (see [`descend`]): `None` for it here, as
/// when the start is not settled.
pub(crate) fn answer(
    field: &DistanceField,
    grid: &NavGrid,
    query: &SearchQuery,
    ends: Ends,
    cells: &mut Vec<Cell>,
    smoothed: &mut Vec<Cell>,
) -> Option<(FoundPath, u64)> {
    let (cost, last) = descend(field, grid, query, cells)?;
    if last.is_some() {
        return None;
    }
    finish(grid, query, ends, cells, cost, 0, false, smoothed)
}

/// The descent of `field` from the query's start, in `cells`, and its cost. For a shared
/// approach (the query's goal is not the field's) the descent is an optimal way toward
/// the field's goal, cut at its first cell within reach of the unit's own goal (the
/// hand-over cell), and the query of the last stretch from there is returned too.
/// `None` when the start or the goal is not settled.
pub(crate) fn descend(
    field: &DistanceField,
    grid: &NavGrid,
    query: &SearchQuery,
    cells: &mut Vec<Cell>,
) -> Option<(Cost, Option<SearchQuery>)> {
    let map = grid.scenario();
    let cost = field.path_from(map, query.start, cells)?;
    if query.goal == field.goal() {
        return Some((cost, None));
    }
    let to_goal = field.distance(query.goal)?;
    let scale = Cost::from(map.weights(query.profile)?.min());
    let reach = APPROACH_REACH * to_goal + APPROACH_MARGIN * STRAIGHT * scale;
    let at = cells
        .iter()
        .position(|&c| field.distance(c).is_some_and(|d| d <= reach))?;
    let handover = cells[at];
    cells.truncate(at + 1);
    let last = SearchQuery {
        start: handover,
        ..*query
    };
    Some((cost - field.distance(handover)?, Some(last)))
}

/// The answer whose whole path is `cells` at `cost` (a descent, and for a shared
/// approach its last stretch, which expanded `expanded` cells), for `query` from the
/// unit's cell: waypoints smoothed when asked, and the cost charged to an expansion
/// budget.
#[allow(clippy::too_many_arguments)]
pub(crate) fn finish(
    grid: &NavGrid,
    query: &SearchQuery,
    ends: Ends,
    cells: &[Cell],
    cost: Cost,
    expanded: u32,
    approached: bool,
    smoothed: &mut Vec<Cell>,
) -> Option<(FoundPath, u64)> {
    let map = grid.scenario();
    let waypoints = if query.options.smooth {
        let layer = map.layer_for(query.profile, query.diameter)?;
        let weights = map.weights(query.profile)?;
        smoothing::smooth_weighted(layer, weights, cells, smoothed);
        &smoothed[..]
    } else {
        cells
    };
    let path = FoundPath {
        cells: cells.to_vec(),
        from: ends.from,
        start: query.start,
        requested: ends.requested,
        reached: *cells.last()?,
        partial: ends.partial,
        waypoints: waypoints
            .iter()
            .map(|&c| grid.agent_center(c, query.diameter))
            .collect(),
        length: map.shape().path_length(cells) as f32,
        cost: cost_to_f64(cost) as f32,
        profile: query.profile,
        generation: grid.generation(),
        expanded,
        approached,
        provisional: false,
    };
    let charge = cells.len() as u64 / CELLS_PER_EXPANSION + 1 + u64::from(expanded);
    Some((path, charge))
}
