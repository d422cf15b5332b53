//! The recent-edits log of a map: which cells changed after a given generation.

use crate::grid::Cell;

/// One logged cell edit: the cell whose obstacle bit or terrain id changed, and the
/// map generation the change produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedEdit {
    /// The generation of the map after the batch this edit belonged to.
    pub generation: u64,
    /// The edited cell.
    pub cell: Cell,
    /// True for a terrain change (step costs may differ), false for an obstacle change.
    pub terrain: bool,
}

/// The cell edits ([`LoggedEdit`]) of the last [`EDIT_LOG_CAP`] or more changes, in
/// order.
///
/// A search suspended on generation `g` asks for the edits after `g` to carry its
/// state over to the edited map instead of starting over. The log reaches back to
/// `floor`: registering a profile (which may change every layer at once) and dropping
/// old entries raise it.
#[derive(Clone, Debug, Default)]
pub(crate) struct EditLog {
    entries: Vec<LoggedEdit>,
    /// Edits after this generation are all in `entries`.
    floor: u64,
}

/// Cell edits the log keeps at least; older ones are dropped in halves (24 bytes each,
/// so the log holds at most about 200 KB).
pub const EDIT_LOG_CAP: usize = 4096;

impl EditLog {
    /// Records `edit`, made by the batch that produces its generation.
    pub(crate) fn record(&mut self, edit: LoggedEdit) {
        if self.entries.len() >= 2 * EDIT_LOG_CAP {
            let cut = self.entries.len() - EDIT_LOG_CAP;
            // Queries since a generation before the last dropped edit's are incomplete.
            self.floor = self.floor.max(self.entries[cut - 1].generation);
            self.entries.drain(..cut);
        }
        self.entries.push(edit);
    }

    /// Forgets everything up to `generation`: changes that the log cannot describe cell
    /// by cell (a profile registered) happened there.
    pub(crate) fn reset(&mut self, generation: u64) {
        self.entries.clear();
        self.floor = generation;
    }

    /// The edits after `generation`, or `None` when the log does not reach back that far.
    pub(crate) fn since(&self, generation: u64) -> Option<&[LoggedEdit]> {
        if generation < self.floor {
            return None;
        }
        let first = self.entries.partition_point(|e| e.generation <= generation);
        Some(&self.entries[first..])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(generation: u64, cell: Cell, terrain: bool) -> LoggedEdit {
        LoggedEdit {
            generation,
            cell,
            terrain,
        }
    }

    #[test]
    fn since_returns_exactly_the_later_edits_until_the_floor_passes_them() {
        let mut log = EditLog::default();
        for g in 1..=3u64 {
            log.record(edit(g, Cell::new(g as i32, 0), false));
        }
        assert_eq!(log.since(0).map(<[_]>::len), Some(3));
        assert_eq!(log.since(2).unwrap()[0].cell, Cell::new(3, 0));
        assert_eq!(log.since(3).map(<[_]>::len), Some(0));
        log.reset(4);
        assert_eq!(log.since(3), None);
        assert_eq!(log.since(4).map(<[_]>::len), Some(0));
        for g in 5..(5 + 2 * EDIT_LOG_CAP as u64 + 1) {
            log.record(edit(g, Cell::new(0, 0), true));
        }
        let floor = log.floor;
        assert!(floor > 4);
        assert_eq!(log.since(floor - 1), None);
        let kept = log.since(floor).unwrap();
        assert!(kept.len() >= EDIT_LOG_CAP);
        assert!(kept.iter().all(|e| e.generation > floor));
    }
}
