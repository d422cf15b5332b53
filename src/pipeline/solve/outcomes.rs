//! What the solver threads did with a frame's items: answers kept, searches suspended, expansions charged.

use super::SolveState;
use super::fields::Fields;
use super::jobs::{Budget, Job, Work};
use super::solvers::{Outcome, Solvers, Suspended};
use crate::components::NavGrid;
use crate::search::PathQuery as SearchQuery;
use crate::stats::TilepathStats;

/// Keeps what the solver threads did with `state.items` (their outcomes in
/// `state.outcomes`): answers in `state.answers`, suspended searches in the pool, the
/// expansions charged to `budget` (under an expansion budget, as serving the items one
/// after another would, see [`in_order`]).
impl SolveState {
    pub(super) fn keep_outcomes(
        &mut self,
        grid: &NavGrid,
        budget: &mut Budget,
        stats: &mut TilepathStats,
    ) {
        let state = self;
        let mut left = match *budget {
            Budget::Expansions { left } => Some(left),
            Budget::Time { .. } => None,
        };
        for (index, outcome) in std::mem::take(&mut state.outcomes) {
            let job_index = state.items[index];
            let job = &state.jobs[job_index];
            let mut outcome = match left {
                None => outcome,
                // Past the end of an expansion budget: as if never run.
                Some(0) => {
                    if let Outcome::Suspended {
                        pathfinder: Some(pathfinder),
                        ..
                    } = outcome
                    {
                        state.solvers.spares.push(*pathfinder);
                    }
                    continue;
                }
                Some(l) => in_order(&mut state.solvers, &state.fields, grid, job, outcome, l),
            };
            // After `in_order`: the stretch planned again around units is the same
            // whichever thread found the path.
            if let Outcome::Answer { answer, charge, .. } = &mut outcome {
                *charge += state.plan_around_units(grid, job_index, answer);
            }
            let job = &state.jobs[job_index];
            if let Some(l) = &mut left {
                *l = match outcome {
                    Outcome::Suspended { .. } => 0,
                    Outcome::Answer { charge, .. } => l.saturating_sub(charge),
                };
            }
            match outcome {
                Outcome::Answer { answer, charge, .. } => {
                    match job.work {
                        Work::Field { .. } => {
                            stats.field_answers += 1;
                            stats.field_charged += charge;
                        }
                        Work::Search { .. } => stats.expanded += charge,
                    }
                    state.answers.push((job_index, answer));
                }
                Outcome::Suspended {
                    charge,
                    pathfinder,
                    approach,
                    ..
                } => {
                    stats.expanded += charge;
                    let Some(pathfinder) = pathfinder else {
                        continue;
                    };
                    // A shared approach goes on as the search of its last stretch.
                    let query = match (&job.work, &approach) {
                        (Work::Search { query, .. }, _) => *query,
                        (Work::Field { query, .. }, Some(approach)) => {
                            let start = approach.descent.last().copied().unwrap_or(query.start);
                            SearchQuery { start, ..*query }
                        }
                        // The unit's own search, where the field did not serve it.
                        (Work::Field { query, .. }, None) => *query,
                    };
                    state.solvers.suspended.push(Suspended {
                        entity: job.entity,
                        order: job.order,
                        query,
                        ends: job.ends,
                        approach,
                        pathfinder: *pathfinder,
                    });
                }
            }
        }
        if let Budget::Expansions { left: l } = budget {
            *l = left.unwrap_or(0);
        }
    }
}

/// Under an expansion budget with `left` expansions, the outcome that serving the jobs
/// one after another would give `job` (whose run on a thread gave `outcome`): the same
/// when the job was given exactly `left`, or finished within less; a search given more
/// than `left` that did not is run again from its start with `left`, and so is a shared
/// approach (its last stretch is a search).
fn in_order(
    solvers: &mut Solvers,
    fields: &Fields,
    grid: &NavGrid,
    job: &Job,
    outcome: Outcome,
    left: u64,
) -> Outcome {
    let budget = outcome_budget(&outcome);
    let (query, resumed) = match &job.work {
        Work::Search { query, resumed } => (query, resumed),
        Work::Field { field, query } => {
            if query.goal == fields.field(*field).goal() {
                return outcome; // a path read off the field: the same whatever is left
            }
            // An approach that ended here is charged at least its last stretch's
            // expansions (any other outcome, such as the unit's own search where the
            // approach found nothing, may have expanded more than it charged).
            let fits = budget == left
                || matches!(&outcome, Outcome::Answer { answer: Ok(path), charge, .. }
                    if path.approached && *charge < left);
            if fits {
                return outcome;
            }
            if let Outcome::Suspended {
                pathfinder: Some(pathfinder),
                ..
            } = outcome
            {
                solvers.spares.push(*pathfinder);
            }
            return solvers.run_alone(job, fields, grid, left);
        }
    };
    let fits = match &outcome {
        Outcome::Answer { charge, .. } => budget == left || *charge < left,
        Outcome::Suspended { .. } => budget == left,
    };
    // A resumed search cannot be run again; with one suspended search at a time (always
    // the case under an expansion budget) it is the first job and was given `left`.
    if fits || resumed.is_some() {
        return outcome;
    }
    let mut pathfinder = match outcome {
        Outcome::Suspended {
            pathfinder: Some(pathfinder),
            ..
        } => pathfinder,
        _ => Box::new(solvers.spare()),
    };
    let budget = Budget::Expansions { left };
    let (progress, charge) =
        super::solvers::slice(&mut pathfinder, grid, Some(query), budget, left);
    if matches!(progress, Ok(crate::search::Progress::Suspended { .. })) {
        return Outcome::Suspended {
            charge,
            budget: left,
            pathfinder: Some(pathfinder),
            approach: None,
        };
    }
    let answer = super::solvers::answer(progress, &pathfinder, grid, query, job.ends);
    solvers.spares.push(*pathfinder);
    Outcome::Answer {
        answer,
        charge: charge.max(1),
        budget: left,
    }
}

fn outcome_budget(outcome: &Outcome) -> u64 {
    match outcome {
        Outcome::Answer { budget, .. } | Outcome::Suspended { budget, .. } => *budget,
    }
}
