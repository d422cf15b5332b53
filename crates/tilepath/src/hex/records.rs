//! What every hexagonal search keeps per hexagon: cost, way back, stamps and open list.

use super::coord::{Hex, HexDirection};
use crate::grid::Cost;
use crate::search::IndexedHeap;

/// The per-hexagon records of one search or field, reused between runs: a generation
/// stamp marks what the current run has seen and closed, so nothing is cleared between
/// runs (`O(1)` to begin one, unless the map's size changed or the stamps wrapped).
#[derive(Debug, Default)]
pub(super) struct Records {
    /// Cost from the run's origin (valid where seen).
    pub(super) g: Vec<Cost>,
    /// The direction each seen hexagon was reached by from its parent; `u8::MAX` at the
    /// origin.
    pub(super) via: Vec<u8>,
    seen: Vec<u32>,
    closed: Vec<u32>,
    stamp: u32,
    /// The open list.
    pub(super) heap: IndexedHeap,
}

impl Records {
    /// Starts a run on a map of `n` hexagons: nothing seen, the heap empty.
    pub(super) fn begin(&mut self, n: usize) {
        if self.g.len() != n {
            self.g = vec![0; n];
            self.via = vec![u8::MAX; n];
            self.seen = vec![0; n];
            self.closed = vec![0; n];
            self.stamp = 0;
        }
        self.heap.reserve_nodes(n);
        self.heap.clear();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.closed.fill(0);
            self.stamp = 1;
        }
    }

    /// Hexagons the records are sized for.
    pub(super) fn len(&self) -> usize {
        self.g.len()
    }

    /// Records that hexagon `i` is reached at cost `g` by the step `via` (`u8::MAX`:
    /// the origin).
    #[inline]
    pub(super) fn open(&mut self, i: usize, g: Cost, via: u8) {
        self.seen[i] = self.stamp;
        self.g[i] = g;
        self.via[i] = via;
    }

    /// Marks hexagon `i` expanded (settled).
    #[inline]
    pub(super) fn close(&mut self, i: usize) {
        self.closed[i] = self.stamp;
    }

    /// Labels hexagon `i` with cost `g` by the step `via` and puts it in the open list
    /// with `(key, tie)`, or lowers its key there; a closed hexagon is opened again
    /// (only edits, carried over, make that happen).
    #[inline]
    pub(super) fn offer(&mut self, i: usize, g: Cost, via: u8, key: Cost, tie: Cost) {
        self.open(i, g, via);
        self.closed[i] = 0;
        self.heap.decrease_key(i as u32, key, tie);
    }

    /// Drops the label of hexagon `i`: not seen, not closed, out of the open list.
    pub(super) fn forget(&mut self, i: usize) {
        self.seen[i] = 0;
        self.closed[i] = 0;
        self.heap.remove(i as u32);
    }

    /// True when the current run has reached hexagon `i`.
    #[inline]
    pub(super) fn is_seen(&self, i: usize) -> bool {
        self.stamp != 0 && self.seen[i] == self.stamp
    }

    /// True when the current run has expanded hexagon `i`.
    #[inline]
    pub(super) fn is_closed(&self, i: usize) -> bool {
        self.stamp != 0 && self.closed[i] == self.stamp
    }

    /// The hexagon before `hex` (at index `i`) on its way back to the origin, or `None`
    /// at the origin.
    #[inline]
    pub(super) fn parent(&self, hex: Hex, i: usize) -> Option<Hex> {
        match self.via[i] {
            u8::MAX => None,
            d => Some(hex.neighbour(HexDirection::ALL[d as usize].opposite())),
        }
    }

    /// Bytes held (capacity).
    pub(super) fn memory_bytes(&self) -> usize {
        self.g.capacity() * size_of::<Cost>()
            + self.via.capacity()
            + (self.seen.capacity() + self.closed.capacity()) * size_of::<u32>()
            + self.heap.memory_bytes()
    }
}
