//! Monotone radix heap with lazy deletion, keyed by (priority, tie-break, node id).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::heap::{Entry, narrow};
use crate::grid::Cost;

/// Buckets above the front: bucket `b` (1..=64) holds the keys whose highest bit that
/// differs from the last popped key is bit `b - 1`.
const BUCKETS: usize = 64;

/// `(tie, node)` as one number: the order of the front, where every key is equal.
#[inline]
fn rank(tie: u32, node: u32) -> u64 {
    (u64::from(tie) << 32) | u64::from(node)
}

/// A monotone min-queue of node ids ordered by `(key, tie, node id)`, exactly the order
/// of the [`super::IndexedHeap`], for searches whose keys never drop below the last key
/// popped (A\* with a consistent heuristic keyed on f, Dijkstra keyed on g). Ties
/// inside one key (toward lower `tie`, then lower node id) may go either way.
///
/// A radix heap (Ahuja, Mehlhorn, Orlin and Tarjan 1990) on the key: an entry sits in
/// the bucket of the highest bit in which its key differs from the last key popped, so
/// a push is O(1) and an entry moves down at most 64 times over its life; the entries
/// whose key equals the last key popped form the *front*, a small binary heap on
/// `(tie, node)`. Pop is O(log k) for a front of k entries, plus the amortised O(1)
/// redistribution of the lowest bucket when the front runs dry.
///
/// There is no decrease-key: a node whose key drops is pushed again, and its old entry
/// (with a larger key, so popped later) is skipped by the caller, who knows which
/// nodes are closed ([`RadixQueue::pop`] returns it like any other). Memory: 16 bytes
/// per entry of the largest queue seen (8 in the front), nothing per node; every
/// buffer keeps its capacity, so a warm queue allocates nothing.
///
/// A key below the last key popped would break the order; it is popped next instead
/// of lost (checked by a debug assertion, never met with a consistent heuristic).
///
/// ```
/// use tilepath::search::RadixQueue;
/// let mut q = RadixQueue::default();
/// q.push(0, 10, 0);
/// q.push(1, 7, 3);
/// q.push(2, 7, 1);
/// q.push(0, 5, 0); // node 0 again with a lower key: its first entry goes stale
/// assert_eq!(q.pop(), Some(0));
/// assert_eq!(q.pop(), Some(2)); // equal key: lower tie first
/// assert_eq!(q.pop(), Some(1));
/// assert_eq!(q.pop(), Some(0)); // the stale entry, for the caller to skip
/// assert_eq!(q.pop(), None);
/// ```
#[derive(Clone, Debug)]
pub struct RadixQueue {
    last: Cost,
    front: BinaryHeap<Reverse<u64>>,
    /// `buckets[b - 1]` is bucket `b`.
    buckets: [Vec<Entry>; BUCKETS],
    /// Bit `b - 1` set when bucket `b` is not empty.
    occupied: u64,
    len: usize,
}

impl Default for RadixQueue {
    fn default() -> Self {
        Self {
            last: 0,
            front: BinaryHeap::new(),
            buckets: std::array::from_fn(|_| Vec::new()),
            occupied: 0,
            len: 0,
        }
    }
}

impl RadixQueue {
    /// Empties the queue and forgets the last key popped. O(buckets in use); keeps
    /// every buffer's capacity.
    pub fn clear(&mut self) {
        self.front.clear();
        while self.occupied != 0 {
            let b = self.occupied.trailing_zeros() as usize;
            self.buckets[b].clear();
            self.occupied &= self.occupied - 1;
        }
        self.last = 0;
        self.len = 0;
    }

    /// Entries held, stale ones included.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no entry is held.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes held by the queue's buffers (capacity, not length).
    pub fn memory_bytes(&self) -> usize {
        self.front.capacity() * size_of::<u64>()
            + self
                .buckets
                .iter()
                .map(|b| b.capacity() * size_of::<Entry>())
                .sum::<usize>()
    }

    /// Adds `node` with the key `(key, tie)`; `key` should be at least the last key
    /// popped. A node may be pushed again with a lower key (see the type's docs). O(1),
    /// or O(log k) when `key` equals the last key popped.
    #[inline]
    pub fn push(&mut self, node: u32, key: Cost, tie: Cost) {
        debug_assert!(
            key >= self.last,
            "key {key} below the last popped {}",
            self.last
        );
        let tie = narrow(tie);
        self.len += 1;
        let diff = key.max(self.last) ^ self.last;
        if diff == 0 {
            self.front.push(Reverse(rank(tie, node)));
        } else {
            let b = (Cost::BITS - 1 - diff.leading_zeros()) as usize;
            self.buckets[b].push(Entry { key, tie, node });
            self.occupied |= 1 << b;
        }
    }

    /// Removes and returns the node of the smallest `(key, tie, node id)`, stale
    /// entries included. Amortised O(log k + 64) (see the type's docs).
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        if self.front.is_empty() {
            self.refill();
        }
        let Reverse(r) = self.front.pop()?;
        self.len -= 1;
        Some(r as u32)
    }

    /// The key of the last entry [`RadixQueue::pop`] returned (0 before any). O(1).
    #[inline]
    pub fn last_key(&self) -> Cost {
        self.last
    }

    /// Moves the lowest non-empty bucket down: its smallest key becomes the last key,
    /// its entries with that key the front, the others go to lower buckets.
    #[cold]
    fn refill(&mut self) {
        if self.occupied == 0 {
            return;
        }
        let b = self.occupied.trailing_zeros() as usize;
        self.occupied &= self.occupied - 1;
        let mut moving = std::mem::take(&mut self.buckets[b]);
        self.last = moving.iter().map(|e| e.key).min().unwrap_or(self.last);
        for e in moving.drain(..) {
            let diff = e.key ^ self.last;
            if diff == 0 {
                self.front.push(Reverse(rank(e.tie, e.node)));
            } else {
                let lower = (Cost::BITS - 1 - diff.leading_zeros()) as usize;
                self.buckets[lower].push(e);
                self.occupied |= 1 << lower;
            }
        }
        self.buckets[b] = moving;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::IndexedHeap;
    use proptest::prelude::*;

    /// The live (not closed) nodes' keys and the closed flags of the property test.
    struct Model {
        key: Vec<Option<(Cost, Cost)>>,
        closed: Vec<bool>,
        last: Cost,
    }

    /// Pops the next live node of both queues (skipping the radix queue's stale
    /// entries) and checks that they agree.
    fn pop_both(
        q: &mut RadixQueue,
        h: &mut IndexedHeap,
        m: &mut Model,
    ) -> Result<(), TestCaseError> {
        let live = loop {
            match q.pop() {
                Some(n) if m.closed[n as usize] => continue,
                other => break other,
            }
        };
        prop_assert_eq!(live, h.pop());
        match live {
            Some(n) => {
                m.closed[n as usize] = true;
                m.last = m.key[n as usize].expect("pushed").0;
            }
            // Only stale entries were left: start afresh, as a search would end.
            None => q.clear(),
        }
        Ok(())
    }

    proptest! {
        /// Any monotone run of pushes and pops (keys at least the last popped) pops the
        /// live entries in the indexed heap's order.
        #[test]
        fn pops_like_the_indexed_heap(
            ops in proptest::collection::vec((0u32..64, 0u64..40, 0u64..6, any::<bool>()), 1..300),
        ) {
            let mut q = RadixQueue::default();
            let mut h = IndexedHeap::default();
            h.reserve_nodes(64);
            let mut m = Model { key: vec![None; 64], closed: vec![false; 64], last: 0 };
            for (node, up, tie, pop) in ops {
                if pop {
                    pop_both(&mut q, &mut h, &mut m)?;
                    continue;
                }
                let (n, k) = (node as usize, m.last + up);
                if m.closed[n] || m.key[n].is_some_and(|old| (k, tie) >= old) {
                    continue;
                }
                m.key[n] = Some((k, tie));
                q.push(node, k, tie);
                h.decrease_key(node, k, tie);
            }
            while !h.is_empty() {
                pop_both(&mut q, &mut h, &mut m)?;
            }
            prop_assert!(q.iter_live(&m.closed).next().is_none());
        }
    }

    impl RadixQueue {
        /// Entries of nodes not yet closed (test helper).
        fn iter_live<'a>(&'a self, closed: &'a [bool]) -> impl Iterator<Item = u32> + 'a {
            let front = self.front.iter().map(|r| r.0 as u32);
            let rest = self.buckets.iter().flatten().map(|e| e.node);
            front.chain(rest).filter(|&n| !closed[n as usize])
        }
    }

    #[test]
    fn equal_keys_pop_by_tie_then_node_and_clear_resets() {
        let mut q = RadixQueue::default();
        for (node, tie) in [(5, 2), (3, 2), (9, 1), (1, 4)] {
            q.push(node, 1 << 40, tie);
        }
        q.push(7, 3, 9);
        let order: Vec<u32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, [7, 9, 3, 5, 1]);
        q.push(2, 1 << 41, 0);
        q.clear();
        assert!(q.is_empty());
        // The last key is forgotten: smaller keys are fine again.
        q.push(4, 1, 0);
        assert_eq!((q.len(), q.pop(), q.pop()), (1, Some(4), None));
    }

    #[test]
    fn a_key_below_the_last_is_popped_next_in_release() {
        if cfg!(debug_assertions) {
            return;
        }
        let mut q = RadixQueue::default();
        q.push(0, 10, 0);
        q.push(1, 20, 0);
        assert_eq!(q.pop(), Some(0));
        q.push(2, 3, 0);
        assert_eq!((q.pop(), q.pop()), (Some(2), Some(1)));
    }
}
