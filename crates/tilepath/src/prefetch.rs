//! Cache hints: ask the processor early for the cells an expansion is about to read.
//!
//! A search guided by a landmark table reads 64 bytes of table per cell it opens, and
//! the table of a 512 × 512 layer (16 MiB) does not fit the per-core caches: each read
//! waits for the shared cache or memory. Hinting the 3 × 3 block of a node when it is
//! taken off the open list lets those waits overlap instead of following one another.
//! The hints change no result, only when memory arrives.

/// Asks the processor to bring `items[i]` into its caches. Does nothing when `i` is
/// out of bounds, or on targets other than x86-64.
#[inline(always)]
fn prefetch<T>(items: &[T], i: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(i) {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has, and it
        // only hints the cache: it reads nothing the program sees and cannot fault.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(item).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, i);
}

/// Asks for the 3 × 3 block of `items` (one per cell, row-major, rows of `width`)
/// around the cell of index `i`; entries off the slice are skipped.
#[inline(always)]
pub(crate) fn block<T>(items: &[T], i: usize, width: usize) {
    for first in [
        i.wrapping_sub(width + 1),
        i.wrapping_sub(1),
        (i + width).wrapping_sub(1),
    ] {
        prefetch(items, first);
        prefetch(items, first.wrapping_add(1));
        prefetch(items, first.wrapping_add(2));
    }
}
