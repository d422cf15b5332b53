//! A frame's share of the work: the budget (time or expansions), the solver threads, and
//! the pool of searches suspended until the next frame.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use bevy::prelude::*;
use bevy::tasks::{ComputeTaskPool, TaskPool};

use super::fields::{self, Fields};
use super::jobs::{Approach, Budget, Job, Work, found_path};
use crate::components::{FoundPath, NavGrid, PathFailure};
use crate::grid::Cell;
use crate::pipeline::resolve::Ends;
use crate::search::{DistanceField, PathError, PathQuery as SearchQuery, Pathfinder, Progress};
use crate::settings::TilepathSettings;

/// What running one job of the frame gave.
pub(crate) enum Outcome {
    /// The job is answered. `charge` is what it costs an expansion budget (its
    /// expansions this frame, at least one), `budget` the expansions it was allowed.
    Answer {
        answer: Result<FoundPath, PathFailure>,
        charge: u64,
        budget: u64,
    },
    /// The budget ran out first: the search is suspended after `charge` expansions this
    /// frame. `pathfinder` holds it when it started this frame (a resumed search stays
    /// in `Solvers::resumed`).
    Suspended {
        charge: u64,
        budget: u64,
        pathfinder: Option<Box<Pathfinder>>,
        /// For a field job, the last stretch of a shared approach (its search is
        /// `pathfinder`'s, from the descent's last cell): the descent before it.
        approach: Option<Box<Approach>>,
    },
}

impl Outcome {
    fn charge(&self) -> u64 {
        match self {
            Outcome::Answer { charge, .. } | Outcome::Suspended { charge, .. } => *charge,
        }
    }
}

/// A search suspended by the frame budget, waiting for its request's next turn.
pub(crate) struct Suspended {
    pub(crate) entity: Entity,
    pub(crate) order: u64,
    /// The query as it was started (its start is where the unit stood then).
    pub(crate) query: SearchQuery,
    /// What the answer reports about its ends.
    pub(crate) ends: Ends,
    /// For the last stretch of a shared approach: the descent before it.
    pub(crate) approach: Option<Box<Approach>>,
    pub(crate) pathfinder: Pathfinder,
}

/// One solver thread's state: a warm pathfinder (its buffers survive between frames),
/// path buffers for field answers, and the outcomes of this frame.
#[derive(Default)]
pub(crate) struct Worker {
    pathfinder: Pathfinder,
    /// The pathfinder went to the pool with a suspended search; a spare replaces it.
    lent: bool,
    cells: Vec<Cell>,
    smoothed: Vec<Cell>,
    pub(crate) done: Vec<(usize, Outcome)>,
}

/// The pathfinders of the solve step: one per solver thread, the suspended searches
/// (at most one per solver thread: a thread suspends a search only when the budget is
/// spent, and then stops), and spares for the threads whose pathfinder was suspended.
#[derive(Default)]
pub(crate) struct Solvers {
    pub(crate) workers: Vec<Worker>,
    pub(crate) suspended: Vec<Suspended>,
    pub(crate) spares: Vec<Pathfinder>,
    /// Pathfinders of the searches resumed this frame (`Work::Search::resumed` indexes it).
    pub(crate) resumed: Vec<Mutex<Pathfinder>>,
}

impl Solvers {
    /// Pathfinders held, and their bytes.
    pub(crate) fn memory(&self) -> (usize, usize) {
        let all = self
            .workers
            .iter()
            .map(|w| &w.pathfinder)
            .chain(self.suspended.iter().map(|s| &s.pathfinder))
            .chain(self.spares.iter());
        all.fold((0, 0), |(n, b), p| (n + 1, b + p.memory_bytes()))
    }

    /// Takes the suspended search of `entity`'s request `order` out of the pool.
    pub(crate) fn take_suspended(&mut self, entity: Entity, order: u64) -> Option<Suspended> {
        let i = self
            .suspended
            .iter()
            .position(|s| s.entity == entity && s.order == order)?;
        Some(self.suspended.swap_remove(i))
    }

    /// Drops the suspended searches whose request is gone or was replaced, which no
    /// turn of the queue would resume (their pathfinders become spares).
    pub(crate) fn keep_suspended(&mut self, mut wanted: impl FnMut(Entity, u64) -> bool) {
        let gone = self
            .suspended
            .extract_if(.., |s| !wanted(s.entity, s.order));
        self.spares.extend(gone.map(|s| s.pathfinder));
    }

    /// Drops the suspended last stretches of shared approaches whose descent a map edit
    /// cut (their requests are prepared again when their turn comes); returns their
    /// requests (entity, order).
    pub(crate) fn drop_cut_approaches(&mut self, grid: &NavGrid) -> Vec<(Entity, u64)> {
        let cut: Vec<Suspended> = self
            .suspended
            .extract_if(.., |s| {
                s.approach
                    .as_ref()
                    .is_some_and(|a| !a.walkable(grid, s.query.profile, s.query.diameter))
            })
            .collect();
        let dropped = cut.iter().map(|s| (s.entity, s.order)).collect();
        self.spares.extend(cut.into_iter().map(|s| s.pathfinder));
        dropped
    }

    /// Keeps at most `threads` spares, and gives threads whose pathfinder was suspended
    /// a spare (or a new one).
    pub(crate) fn restock(&mut self, threads: usize) {
        for worker in &mut self.workers {
            if worker.lent {
                worker.pathfinder = self.spares.pop().unwrap_or_default();
                worker.lent = false;
            }
        }
        self.spares.truncate(threads);
    }

    /// A pathfinder to run a search on outside the workers.
    pub(crate) fn spare(&mut self) -> Pathfinder {
        self.spares.pop().unwrap_or_default()
    }

    /// Runs `job` (not a resumed search) alone on this thread with exactly `left`
    /// expansions, on a spare pathfinder: what serving the jobs one after another gives
    /// it (see `solve::in_order`).
    pub(crate) fn run_alone(
        &mut self,
        job: &Job,
        fields: &Fields,
        grid: &NavGrid,
        left: u64,
    ) -> Outcome {
        let mut worker = Worker {
            pathfinder: self.spare(),
            ..Worker::default()
        };
        let frame = Frame {
            jobs: std::slice::from_ref(job),
            items: &[0],
            fields,
            resumed: &self.resumed,
            grid,
            next: AtomicUsize::new(0),
            spent: AtomicU64::new(0),
            budget: Budget::Expansions { left },
            progressed: true,
        };
        let outcome = worker.run(job, &frame, left);
        if !worker.lent {
            self.spares.push(worker.pathfinder);
        }
        outcome
    }

    /// Runs `items` (indices into `jobs`) on the `ComputeTaskPool` within `budget`:
    /// threads take items in order from a shared counter and stop when the budget is
    /// spent. Returns the outcomes by item index (every taken item has one). Under a
    /// time budget the first item always runs when `progressed` is false. Under an
    /// expansion budget an item is given what the items finished so far left over: at
    /// least what a run of the items one after another would give it (the solve
    /// system then keeps what such a run would have done, see `solve::in_order`).
    /// `sequential` runs the items one after another on one thread (a resumed search,
    /// which cannot be run again, waits behind other items under an expansion budget).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn run(
        &mut self,
        jobs: &[Job],
        items: &[usize],
        fields: &Fields,
        grid: &NavGrid,
        settings: &TilepathSettings,
        budget: Budget,
        progressed: bool,
        sequential: bool,
        out: &mut Vec<(usize, Outcome)>,
    ) {
        let pool = ComputeTaskPool::get_or_init(TaskPool::default);
        let allowed = settings.max_threads.min(pool.thread_num()).max(1);
        self.workers.truncate(allowed);
        let threads = if sequential {
            1
        } else {
            allowed.min(items.len()).max(1)
        };
        if self.workers.len() < threads {
            self.workers.resize_with(threads, Worker::default);
        }
        let frame = Frame {
            jobs,
            items,
            fields,
            resumed: &self.resumed,
            grid,
            next: AtomicUsize::new(0),
            spent: AtomicU64::new(0),
            budget,
            progressed,
        };
        if threads == 1 {
            self.workers[0].work(&frame);
        } else {
            let frame = &frame;
            pool.scope(|scope| {
                for worker in self.workers[..threads].iter_mut() {
                    scope.spawn(async move { worker.work(frame) });
                }
            });
        }
        for worker in self.workers.iter_mut() {
            out.append(&mut worker.done);
        }
        out.sort_unstable_by_key(|(index, _)| *index);
    }
}

/// What the threads of one frame share.
struct Frame<'a> {
    jobs: &'a [Job],
    items: &'a [usize],
    fields: &'a Fields,
    resumed: &'a [Mutex<Pathfinder>],
    grid: &'a NavGrid,
    next: AtomicUsize,
    /// Expansions charged by the items finished so far (expansion budgets).
    spent: AtomicU64,
    budget: Budget,
    progressed: bool,
}

impl Worker {
    /// Runs items taken from the shared counter until none is left or the budget is
    /// spent (checked before taking an item; a search taken runs until it ends or the
    /// budget does, and then the thread stops).
    fn work(&mut self, frame: &Frame) {
        loop {
            let (index, left) = match frame.budget {
                Budget::Time { deadline } => {
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        // Past the deadline only the first item runs, once, and only in
                        // a frame that made no progress yet (one thread takes it).
                        let first =
                            frame
                                .next
                                .compare_exchange(0, 1, Ordering::Relaxed, Ordering::Relaxed);
                        if frame.progressed || first.is_err() {
                            break;
                        }
                        (0, u64::MAX)
                    } else {
                        (frame.next.fetch_add(1, Ordering::Relaxed), u64::MAX)
                    }
                }
                Budget::Expansions { left } => {
                    let left = left.saturating_sub(frame.spent.load(Ordering::Relaxed));
                    if left == 0 {
                        break;
                    }
                    (frame.next.fetch_add(1, Ordering::Relaxed), left)
                }
            };
            let Some(&job) = frame.items.get(index) else {
                break;
            };
            let outcome = self.run(&frame.jobs[job], frame, left);
            let stop = matches!(outcome, Outcome::Suspended { .. });
            frame.spent.fetch_add(outcome.charge(), Ordering::Relaxed);
            self.done.push((index, outcome));
            if stop {
                break;
            }
        }
    }

    /// Runs one job with at most `left` expansions (expansion budgets) or until the
    /// deadline (time budgets).
    fn run(&mut self, job: &Job, frame: &Frame, left: u64) -> Outcome {
        let grid = frame.grid;
        match &job.work {
            Work::Field { field, query } => {
                let field = frame.fields.field(*field);
                // A shared approach's last stretch is sliced like any search.
                if query.goal != field.goal() {
                    return self.approach(job, frame, field, query, left);
                }
                let answered = fields::answer(
                    field,
                    grid,
                    query,
                    job.ends,
                    &mut self.cells,
                    &mut self.smoothed,
                );
                match answered {
                    Some((path, charge)) => Outcome::Answer {
                        answer: Ok(path),
                        charge,
                        budget: left,
                    },
                    // The field does not reach the approach's goal, or its last stretch
                    // found nothing: the unit's own search answers.
                    None => self.search(job, query, frame, left),
                }
            }
            Work::Search {
                query,
                resumed: None,
            } => self.search(job, query, frame, left),
            Work::Search {
                query,
                resumed: Some(resumed),
            } => {
                let mut pathfinder = frame.resumed[*resumed]
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let (progress, charge) = slice(&mut pathfinder, grid, None, frame.budget, left);
                match (progress, &job.approach) {
                    (Ok(Progress::Suspended { .. }), _) => Outcome::Suspended {
                        charge,
                        budget: left,
                        pathfinder: None,
                        approach: None,
                    },
                    (done, None) => Outcome::Answer {
                        answer: answer(done, &pathfinder, grid, query, job.ends),
                        charge: charge.max(1),
                        budget: left,
                    },
                    (done, Some(approach)) => {
                        self.cells.clone_from(&approach.descent);
                        self.finish_approach(job, grid, done, &pathfinder, approach.cost, query)
                            .map_or_else(
                                || unreachable_answer(left),
                                |(path, _)| Outcome::Answer {
                                    answer: Ok(path),
                                    charge: charge.max(1),
                                    budget: left,
                                },
                            )
                    }
                }
            }
        }
    }

    /// Starts `query`'s own search with the frame's share of the budget.
    fn search(&mut self, job: &Job, query: &SearchQuery, frame: &Frame, left: u64) -> Outcome {
        let grid = frame.grid;
        let (progress, charge) = slice(&mut self.pathfinder, grid, Some(query), frame.budget, left);
        match progress {
            Ok(Progress::Suspended { .. }) => {
                self.lent = true;
                Outcome::Suspended {
                    charge,
                    budget: left,
                    pathfinder: Some(Box::new(std::mem::take(&mut self.pathfinder))),
                    approach: None,
                }
            }
            done => Outcome::Answer {
                answer: answer(done, &self.pathfinder, grid, query, job.ends),
                charge: charge.max(1),
                budget: left,
            },
        }
    }

    /// A field job of a shared approach: the descent, then the last stretch as a search
    /// sliced like any other (suspended with the descent when the budget is spent or
    /// the deadline comes first). Where the field does not reach the job's goal, the
    /// unit's own search.
    fn approach(
        &mut self,
        job: &Job,
        frame: &Frame,
        field: &DistanceField,
        query: &SearchQuery,
        left: u64,
    ) -> Outcome {
        let grid = frame.grid;
        let Some((cost, Some(last))) = fields::descend(field, grid, query, &mut self.cells) else {
            return self.search(job, query, frame, left);
        };
        let (progress, charge) = slice(&mut self.pathfinder, grid, Some(&last), frame.budget, left);
        if let Ok(Progress::Suspended { .. }) = progress {
            self.lent = true;
            let descent = std::mem::take(&mut self.cells);
            return Outcome::Suspended {
                charge,
                budget: left,
                pathfinder: Some(Box::new(std::mem::take(&mut self.pathfinder))),
                approach: Some(Box::new(Approach { descent, cost })),
            };
        }
        let pathfinder = std::mem::take(&mut self.pathfinder);
        let answered = self.finish_approach(job, grid, progress, &pathfinder, cost, &last);
        self.pathfinder = pathfinder;
        // Ended in this frame: charged as a whole field answer (its cells and the last
        // stretch's expansions, which are this slice's).
        match answered {
            Some((path, charge)) => Outcome::Answer {
                answer: Ok(path),
                charge,
                budget: left,
            },
            // The last stretch found nothing: the unit's own search, with what the
            // stretch left over.
            None => {
                let mut outcome = self.search(job, query, frame, left.saturating_sub(charge));
                match &mut outcome {
                    Outcome::Answer {
                        charge: c, budget, ..
                    }
                    | Outcome::Suspended {
                        charge: c, budget, ..
                    } => {
                        *c += charge;
                        *budget = left;
                    }
                }
                outcome
            }
        }
    }

    /// The answer of a shared approach whose last stretch (`last`, from the end of the
    /// descent in `self.cells`, which cost `cost`) ended on `pathfinder` with `done`.
    fn finish_approach(
        &mut self,
        job: &Job,
        grid: &NavGrid,
        done: Result<Progress, PathError>,
        pathfinder: &Pathfinder,
        cost: crate::grid::Cost,
        last: &SearchQuery,
    ) -> Option<(FoundPath, u64)> {
        let Ok(Progress::Done(stats)) = done else {
            return None;
        };
        self.cells.extend_from_slice(pathfinder.path().get(1..)?);
        let query = SearchQuery {
            start: *self.cells.first()?,
            ..*last
        };
        let (cells, smoothed) = (&self.cells, &mut self.smoothed);
        let cost = cost + stats.cost;
        fields::finish(
            grid,
            &query,
            job.ends,
            cells,
            cost,
            stats.expanded,
            true,
            smoothed,
        )
    }
}

/// The answer of a field job whose cell is not reached (only ready fields are read).
fn unreachable_answer(left: u64) -> Outcome {
    Outcome::Answer {
        answer: Err(PathFailure::Search(PathError::Unreachable)),
        charge: 1,
        budget: left,
    }
}

/// The answer of a finished search.
pub(crate) fn answer(
    done: Result<Progress, PathError>,
    pathfinder: &Pathfinder,
    grid: &NavGrid,
    query: &SearchQuery,
    ends: Ends,
) -> Result<FoundPath, PathFailure> {
    match done? {
        Progress::Done(stats) => Ok(found_path(pathfinder, grid, query, &stats, ends)),
        Progress::Suspended { .. } => unreachable!("a suspended search has no answer"),
    }
}

/// Runs the frame's share of a search: starts `start` (or resumes the suspended search
/// when `None`) with at most `left` expansions (expansion budgets), or slice after slice
/// of [`TilepathSettings::TIME_SLICE`] until it ends or the deadline passes (time budgets).
/// Returns the progress and the expansions of this frame.
pub(crate) fn slice(
    pathfinder: &mut Pathfinder,
    grid: &NavGrid,
    start: Option<&SearchQuery>,
    budget: Budget,
    left: u64,
) -> (Result<Progress, PathError>, u64) {
    let map = grid.scenario();
    let before = if start.is_some() {
        0
    } else {
        u64::from(pathfinder.last_expanded())
    };
    let restarts = pathfinder.edit_restarts();
    let go_on = |pathfinder: &mut Pathfinder, n: u32| pathfinder.resume(map, n);
    let first = |pathfinder: &mut Pathfinder, n: u32| match start {
        Some(query) => pathfinder.start(map, query, n),
        None => go_on(pathfinder, n),
    };
    let progress = match budget {
        Budget::Expansions { .. } => first(pathfinder, u32::try_from(left).unwrap_or(u32::MAX)),
        Budget::Time { deadline } => {
            let mut progress = first(pathfinder, TilepathSettings::TIME_SLICE);
            while matches!(progress, Ok(Progress::Suspended { .. }))
                && deadline.is_none_or(|d| Instant::now() < d)
            {
                progress = go_on(pathfinder, TilepathSettings::TIME_SLICE);
            }
            progress
        }
    };
    let after = u64::from(pathfinder.last_expanded());
    // A search that edits started over counts its expansions from zero again.
    let before = if pathfinder.edit_restarts() != restarts {
        0
    } else {
        before
    };
    (progress, after.saturating_sub(before))
}
