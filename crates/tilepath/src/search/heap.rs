//! Indexed 4-ary min-heap with decrease-key, keyed by (priority, tie-break, node id).

use crate::grid::Cost;

const NOT_IN_HEAP: u32 = u32::MAX;

/// 16 bytes: the tie-break is kept as a saturating u32, which only matters for
/// ordering among equal keys and so never affects which keys come first. Shared with
/// the [`super::RadixQueue`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) key: Cost,
    pub(super) tie: u32,
    pub(super) node: u32,
}

/// The tie-break as stored: saturated to u32.
#[inline]
pub(super) fn narrow(tie: Cost) -> u32 {
    tie.min(u32::MAX as Cost) as u32
}

impl Entry {
    /// `(key, tie, node)` as one number, so an ordering test is a single branch-free
    /// comparison. The node id makes the order total: equal `(key, tie)` pop in node id
    /// order, whatever the insertion order, as in [`super::RadixQueue`].
    #[inline]
    fn rank(&self) -> u128 {
        (u128::from(self.key) << 64) | (u128::from(self.tie) << 32) | u128::from(self.node)
    }

    #[inline]
    fn less(&self, other: &Entry) -> bool {
        self.rank() < other.rank()
    }
}

/// The child of lowest `rank` among the up to four children `first..first + 4` of a
/// 4-ary heap of `n` entries (`rank(k)` reads entry `k`), or `None` when `first` is past
/// the end. All four present: two comparisons in parallel and one between their
/// winners, without branches. Shared by [`IndexedHeap`] and the JPS+ open list.
#[inline(always)]
pub(crate) fn smallest_child(
    first: usize,
    n: usize,
    rank: impl Fn(usize) -> u128,
) -> Option<usize> {
    if first + 4 <= n {
        let (a, b) = (
            first + usize::from(rank(first + 1) < rank(first)),
            first + 2 + usize::from(rank(first + 3) < rank(first + 2)),
        );
        Some(if rank(b) < rank(a) { b } else { a })
    } else if first < n {
        let mut c = first;
        for k in first + 1..n {
            if rank(k) < rank(c) {
                c = k;
            }
        }
        Some(c)
    } else {
        None
    }
}

/// A 4-ary min-heap of node ids ordered by `(key, tie, node id)`, which also tracks every
/// node's heap position so its key can be lowered in O(log n). Four children of 16 bytes
/// share one cache line, and the tree is half as deep as a binary one, which halves the
/// position updates per operation.
///
/// Positions live in a per-node array (4 bytes per node id) sized by
/// [`IndexedHeap::reserve_nodes`]; the entries themselves grow with the largest open
/// list seen and are kept. [`IndexedHeap::clear`] is O(1): positions of old nodes go
/// stale, and every read of a position is checked against the entry it points at
/// ([`IndexedHeap::contains`]), so a stale position is never mistaken for membership.
///
/// ```
/// use tilepath::search::IndexedHeap;
/// let mut h = IndexedHeap::default();
/// h.reserve_nodes(4);
/// h.push(0, 10, 0);
/// h.push(1, 7, 3);
/// h.push(2, 7, 1);
/// h.decrease_key(0, 5, 0);
/// assert_eq!(h.pop(), Some(0));
/// assert_eq!(h.pop(), Some(2)); // equal key: lower tie first
/// assert_eq!(h.pop(), Some(1));
/// assert_eq!(h.pop(), None);
/// ```
#[derive(Clone, Debug, Default)]
pub struct IndexedHeap {
    entries: Vec<Entry>,
    pos: Vec<u32>,
}

impl IndexedHeap {
    /// Makes room for node ids `0..nodes` (4 bytes per id); allocates only when growing.
    /// The entries are not reserved: they grow with the largest heap pushed, and keep
    /// their capacity after [`IndexedHeap::clear`].
    pub fn reserve_nodes(&mut self, nodes: usize) {
        if self.pos.len() < nodes {
            self.pos.resize(nodes, NOT_IN_HEAP);
        }
    }

    /// Bytes held by the heap's buffers (capacity, not length).
    pub fn memory_bytes(&self) -> usize {
        self.pos.capacity() * size_of::<u32>() + self.entries.capacity() * size_of::<Entry>()
    }

    /// True when `node` is in the heap. O(1); false for ids beyond
    /// [`IndexedHeap::reserve_nodes`].
    #[inline]
    pub fn contains(&self, node: u32) -> bool {
        self.slot(node).is_some()
    }

    /// The entry index of `node`, checked against the entry (positions may be stale).
    #[inline]
    fn slot(&self, node: u32) -> Option<usize> {
        let i = *self.pos.get(node as usize)? as usize;
        (self.entries.get(i)?.node == node).then_some(i)
    }

    /// Empties the heap in O(1) (positions of old nodes are stale, never read).
    #[inline]
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Inserts `node`, which should not be in the heap (use
    /// [`IndexedHeap::decrease_key`] for a node that may be). O(log n).
    ///
    /// # Panics
    ///
    /// When `node` is not below the count given to [`IndexedHeap::reserve_nodes`].
    #[inline]
    pub fn push(&mut self, node: u32, key: Cost, tie: Cost) {
        let i = self.entries.len();
        self.entries.push(Entry {
            key,
            tie: narrow(tie),
            node,
        });
        self.pos[node as usize] = i as u32;
        self.sift_up(i);
    }

    /// Gives `node` the key `(key, tie)`. O(log n).
    ///
    /// Meant for lowering the key of a node in the heap, but checked in every build:
    /// a node that is not in the heap is inserted (as [`IndexedHeap::push`]), and a key
    /// that is not lower moves the entry down, so the heap order always holds.
    ///
    /// # Panics
    ///
    /// When `node` is not below the count given to [`IndexedHeap::reserve_nodes`].
    #[inline]
    pub fn decrease_key(&mut self, node: u32, key: Cost, tie: Cost) {
        let Some(i) = self.slot(node) else {
            self.push(node, key, tie);
            return;
        };
        let old = self.entries[i];
        self.entries[i].key = key;
        self.entries[i].tie = narrow(tie);
        if self.entries[i].less(&old) {
            self.sift_up(i);
        } else {
            self.sift_down(i);
        }
    }

    /// The smallest `(key, tie)` of the heap, without removing it.
    #[inline]
    pub fn peek_key(&self) -> Option<(Cost, Cost)> {
        self.entries.first().map(|e| (e.key, Cost::from(e.tie)))
    }

    /// The node with the smallest `(key, tie)`, without removing it. O(1).
    #[inline]
    pub fn peek(&self) -> Option<u32> {
        self.entries.first().map(|e| e.node)
    }

    /// Removes and returns the node with the smallest `(key, tie)`. O(log n).
    #[inline]
    pub fn pop(&mut self) -> Option<u32> {
        let last = self.entries.pop()?;
        let top = if self.entries.is_empty() {
            last
        } else {
            let top = self.entries[0];
            self.entries[0] = last;
            self.pos[last.node as usize] = 0;
            self.sift_down(0);
            top
        };
        self.pos[top.node as usize] = NOT_IN_HEAP;
        Some(top.node)
    }

    /// Takes `node` out of the heap; returns whether it was in it. O(log n).
    pub fn remove(&mut self, node: u32) -> bool {
        let Some(i) = self.slot(node) else {
            return false;
        };
        let last = self.entries.pop().expect("a found slot means an entry");
        self.pos[node as usize] = NOT_IN_HEAP;
        if i < self.entries.len() {
            let gone = self.entries[i];
            self.entries[i] = last;
            self.pos[last.node as usize] = i as u32;
            if last.less(&gone) {
                self.sift_up(i);
            } else {
                self.sift_down(i);
            }
        }
        true
    }

    fn sift_up(&mut self, mut i: usize) {
        let e = self.entries[i];
        while i > 0 {
            let parent = (i - 1) / 4;
            let p = self.entries[parent];
            if !e.less(&p) {
                break;
            }
            self.entries[i] = p;
            self.pos[p.node as usize] = i as u32;
            i = parent;
        }
        self.entries[i] = e;
        self.pos[e.node as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let e = self.entries[i];
        let rank = e.rank();
        let n = self.entries.len();
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
            self.pos[child.node as usize] = i as u32;
            i = c;
        }
        self.entries[i] = e;
        self.pos[e.node as usize] = i as u32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn pops_in_sorted_order_after_pushes_and_decreases(
            keys in proptest::collection::vec((0u64..50, 0u64..5), 1..200),
            lowers in proptest::collection::vec((0usize..200, 0u64..50), 0..100),
        ) {
            let mut h = IndexedHeap::default();
            h.reserve_nodes(keys.len());
            let mut current = keys.clone();
            for (n, &(k, t)) in keys.iter().enumerate() {
                h.push(n as u32, k, t);
            }
            for &(n, k) in &lowers {
                let n = n % keys.len();
                if k < current[n].0 {
                    current[n].0 = k;
                    h.decrease_key(n as u32, k, current[n].1);
                }
            }
            let mut popped = Vec::new();
            while let Some(n) = h.pop() {
                popped.push(current[n as usize]);
            }
            prop_assert_eq!(popped.len(), keys.len());
            prop_assert!(popped.windows(2).all(|w| w[0] <= w[1]));
        }

        #[test]
        fn remove_takes_out_exactly_the_removed_nodes_and_keeps_the_order(
            keys in proptest::collection::vec((0u64..50, 0u64..5), 1..200),
            removes in proptest::collection::vec(0usize..200, 0..100),
        ) {
            let mut h = IndexedHeap::default();
            h.reserve_nodes(keys.len());
            for (n, &(k, t)) in keys.iter().enumerate() {
                h.push(n as u32, k, t);
            }
            let mut gone = vec![false; keys.len()];
            for &n in &removes {
                let n = n % keys.len();
                prop_assert_eq!(h.remove(n as u32), !gone[n]);
                gone[n] = true;
            }
            let mut popped = Vec::new();
            while let Some(n) = h.pop() {
                prop_assert!(!gone[n as usize]);
                popped.push((keys[n as usize], n));
            }
            prop_assert_eq!(popped.len(), gone.iter().filter(|g| !**g).count());
            prop_assert!(popped.windows(2).all(|w| w[0] <= w[1]));
        }
    }

    #[test]
    fn decrease_key_of_an_absent_node_inserts_it_and_keeps_the_order() {
        let mut h = IndexedHeap::default();
        h.reserve_nodes(6);
        h.push(0, 5, 0);
        h.push(1, 9, 0);
        // Node 2 was never pushed; node 3 was popped: both are inserted.
        h.decrease_key(2, 7, 0);
        assert_eq!(h.len(), 3);
        h.push(3, 1, 0);
        assert_eq!(h.pop(), Some(3));
        assert!(!h.contains(3));
        h.decrease_key(3, 8, 0);
        // A stale position (node 4 never pushed, its slot pointing at a live entry).
        h.pos[4] = 0;
        assert!(!h.contains(4));
        h.decrease_key(4, 6, 0);
        // A raised key moves the entry down instead of breaking the order.
        h.decrease_key(0, 10, 0);
        let order: Vec<u32> = std::iter::from_fn(|| h.pop()).collect();
        assert_eq!(order, [4, 2, 3, 1, 0]);
    }

    #[test]
    fn clear_allows_reuse_without_resetting_positions() {
        let mut h = IndexedHeap::default();
        h.reserve_nodes(3);
        h.push(2, 1, 0);
        h.push(1, 0, 0);
        h.clear();
        assert!(h.is_empty());
        h.push(1, 5, 0);
        h.push(2, 4, 0);
        assert_eq!(h.pop(), Some(2));
        assert_eq!(h.len(), 1);
    }
}
