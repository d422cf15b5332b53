//! The engine's open lists (the indexed heap and the radix queue) behind one trait, and its buffers.

use super::super::radix::RadixQueue;
use super::super::state::SearchState;
use crate::grid::Cost;

/// Buffers of the best-first engine besides the shared state: the cells whose f equals
/// the f being expanded, which skip the open list, and the radix queue. Grow with use,
/// kept between queries.
#[derive(Debug, Default)]
pub(crate) struct AStarState {
    pub(super) next: Vec<u32>,
    pub(super) radix: RadixQueue,
    /// The search was carried over map edits ([`repair`]): closed nodes may be reached
    /// more cheaply and are then opened again.
    pub(super) reopen: bool,
    /// Nodes [`repair`] forgot (their way ran through a cell blocked since).
    pub(super) forgotten: Vec<u32>,
    /// The key of the node being expanded (its f, in A* mode), which the nodes in
    /// `next` share: kept so that a popped node's heuristic is not computed again.
    pub(super) key: Cost,
    /// Per node seen by a jumping search: the directions it was reached by at its
    /// current g (bit `k` is `Direction::ALL[k]`; 0 for the start). Read only for nodes
    /// seen in the current search.
    pub(super) arrivals: Vec<u8>,
    /// Nodes of a jumping search to expand again at once, with the directions still to
    /// expand (see [`search`]).
    pub(super) again: Vec<(u32, u8)>,
}

impl AStarState {
    /// Bytes held (capacity).
    pub(crate) fn memory_bytes(&self) -> usize {
        (self.next.capacity() + self.forgotten.capacity()) * size_of::<u32>()
            + self.arrivals.capacity()
            + self.again.capacity() * size_of::<(u32, u8)>()
            + self.radix.memory_bytes()
    }

    /// Nodes the last [`repair`] forgot.
    pub(crate) fn forgotten(&self) -> usize {
        self.forgotten.len()
    }
}

/// The open list as the engine sees it; the queues live in the states, so the methods
/// take both.
pub(super) trait Queue {
    /// Empties the queue for a new query.
    fn reset(s: &mut SearchState, a: &mut AStarState);
    /// Adds a node that is not in the queue.
    fn push(s: &mut SearchState, a: &mut AStarState, node: u32, key: Cost, tie: Cost);
    /// Lowers the key of a node in the queue.
    fn lower(s: &mut SearchState, a: &mut AStarState, node: u32, key: Cost, tie: Cost);
    /// Takes the open node of the smallest key, with that key.
    fn pop(s: &mut SearchState, a: &mut AStarState) -> Option<(u32, Cost)>;
}

/// The shared [`super::IndexedHeap`] of [`SearchState`].
pub(super) struct Heap;

impl Queue for Heap {
    fn reset(s: &mut SearchState, _: &mut AStarState) {
        // `SearchState::begin` emptied it.
        s.reserve_heap();
    }

    #[inline]
    fn push(s: &mut SearchState, _: &mut AStarState, node: u32, key: Cost, tie: Cost) {
        s.heap().push(node, key, tie);
    }

    #[inline]
    fn lower(s: &mut SearchState, _: &mut AStarState, node: u32, key: Cost, tie: Cost) {
        s.heap().decrease_key(node, key, tie);
    }

    #[inline]
    fn pop(s: &mut SearchState, _: &mut AStarState) -> Option<(u32, Cost)> {
        let (key, _) = s.heap().peek_key()?;
        s.heap().pop().map(|i| (i, key))
    }
}

/// The [`RadixQueue`] of [`AStarState`]: a lowered node is pushed again, and its old
/// entry, popped after the node was expanded, is skipped as closed.
pub(super) struct Radix;

impl Queue for Radix {
    fn reset(_: &mut SearchState, a: &mut AStarState) {
        a.radix.clear();
    }

    #[inline]
    fn push(_: &mut SearchState, a: &mut AStarState, node: u32, key: Cost, tie: Cost) {
        a.radix.push(node, key, tie);
    }

    #[inline]
    fn lower(_: &mut SearchState, a: &mut AStarState, node: u32, key: Cost, tie: Cost) {
        a.radix.push(node, key, tie);
    }

    #[inline]
    fn pop(s: &mut SearchState, a: &mut AStarState) -> Option<(u32, Cost)> {
        loop {
            let i = a.radix.pop()?;
            if !s.is_closed(i) {
                return Some((i, a.radix.last_key()));
            }
        }
    }
}
