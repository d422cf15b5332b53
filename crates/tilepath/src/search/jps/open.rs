//! The open list of JPS+: a 4-ary min-heap without node positions, whose stale entries the search skips.

use crate::grid::Cost;
use crate::search::heap::smallest_child;

/// One entry: the node's f when pushed, its h (saturated to u32, for ties) and its id.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: Cost,
    tie: u32,
    node: u32,
}

impl Entry {
    /// `(key, tie, node)` as one number: the order of [`crate::search::IndexedHeap`].
    #[inline(always)]
    fn rank(&self) -> u128 {
        (u128::from(self.key) << 64) | (u128::from(self.tie) << 32) | u128::from(self.node)
    }
}

/// A 4-ary min-heap of `(key, tie, node id)` with no decrease-key: a node whose key drops
/// is pushed again, and [`LazyHeap::pop`] hands back the key each entry was pushed with,
/// so the caller recognises an outdated entry (its key is no longer the node's f) and
/// skips it.
///
/// Without a per-node position array, a push or pop writes only the entries it moves,
/// which sit in a few cache lines at the top of the heap, instead of one position per
/// moved entry scattered over an array as large as the map: on the short open lists of
/// JPS+ those position writes were most of the cost of the queue. The order is the same
/// as the indexed heap's, so the expansions are too.
///
/// Push and pop are O(log n) for n entries; n counts outdated entries, which are rare
/// (a jump point reached again with a lower cost). Memory: 16 bytes per entry of the
/// largest open list seen, kept between queries; nothing per cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct LazyHeap {
    entries: Vec<Entry>,
}

impl LazyHeap {
    /// Empties the heap, keeping its capacity. O(1).
    #[inline]
    pub(crate) fn clear(&mut self) {
        self.entries.clear();
    }

    /// Bytes held (capacity).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entry>()
    }

    /// The node on top, without removing it. O(1).
    #[inline]
    pub(crate) fn peek(&self) -> Option<u32> {
        self.entries.first().map(|e| e.node)
    }

    /// Adds `node` with key `key` and tie-break `tie` (lower first). O(log n).
    #[inline]
    pub(crate) fn push(&mut self, node: u32, key: Cost, tie: Cost) {
        let e = Entry {
            key,
            tie: tie.min(Cost::from(u32::MAX)) as u32,
            node,
        };
        let rank = e.rank();
        let mut i = self.entries.len();
        self.entries.push(e);
        while i > 0 {
            let parent = (i - 1) / 4;
            let p = self.entries[parent];
            if rank >= p.rank() {
                break;
            }
            self.entries[i] = p;
            i = parent;
        }
        self.entries[i] = e;
    }

    /// Removes the entry with the smallest `(key, tie, node)`: its node and the key it
    /// was pushed with. O(log n).
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<(Cost, u32)> {
        let last = self.entries.pop()?;
        let Some(&top) = self.entries.first() else {
            return Some((last.key, last.node));
        };
        let rank = last.rank();
        let n = self.entries.len();
        let mut i = 0;
        loop {
            let first = 4 * i + 1;
            let Some(c) = smallest_child(first, n, |k| self.entries[k].rank()) else {
                break;
            };
            let child = self.entries[c];
            if child.rank() >= rank {
                break;
            }
            self.entries[i] = child;
            i = c;
        }
        self.entries[i] = last;
        Some((top.key, top.node))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pops_in_rank_order(keys in proptest::collection::vec((0u64..50, 0u64..5), 0..200)) {
            let mut h = LazyHeap::default();
            for (n, &(k, t)) in keys.iter().enumerate() {
                h.push(n as u32, k, t);
            }
            let mut popped = Vec::new();
            while let Some((k, n)) = h.pop() {
                prop_assert_eq!(k, keys[n as usize].0);
                popped.push((k, keys[n as usize].1, n));
            }
            prop_assert_eq!(popped.len(), keys.len());
            prop_assert!(popped.windows(2).all(|w| w[0] < w[1]));
        }
    }

    #[test]
    fn a_node_pushed_twice_pops_twice_with_its_keys() {
        let mut h = LazyHeap::default();
        h.push(3, 9, 0);
        h.push(1, 4, 2);
        h.push(3, 5, 0);
        assert_eq!(h.peek(), Some(1));
        assert_eq!(h.pop(), Some((4, 1)));
        assert_eq!(h.pop(), Some((5, 3)));
        assert_eq!(h.pop(), Some((9, 3)));
        assert_eq!(h.pop(), None);
        h.push(2, 1, 0);
        h.clear();
        assert_eq!(h.pop(), None);
    }
}
