//! A global allocator that counts allocations and live bytes per thread, shared by the allocation and regression tests and the MovingAI runner (crates/bench).
//!
//! Counts are per thread so that allocations of other threads (the test harness's
//! bookkeeping, output capture) never show up in a measurement of the calling thread.
//! Bytes freed by another thread than the one that allocated them are subtracted from
//! the freeing thread, so live bytes are signed; peaks are what the tests read.

#![allow(dead_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting every allocation and reallocation of each thread.
struct CountingAlloc;

thread_local! {
    // `const` initialisation and no destructor: reading them never allocates.
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
    static LIVE: Cell<i64> = const { Cell::new(0) };
    static PEAK: Cell<i64> = const { Cell::new(0) };
}

/// One more allocation of the calling thread, whose live bytes change by `delta`.
fn count(delta: i64) {
    // `try_with` fails only while the thread is being torn down; nothing to count then.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
    grow(delta);
}

fn grow(delta: i64) {
    let _ = LIVE.try_with(|live| {
        let now = live.get() + delta;
        live.set(now);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(now)));
    });
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size() as i64);
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        grow(-(layout.size() as i64));
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size as i64 - layout.size() as i64);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Allocations and reallocations the calling thread has made so far.
pub fn allocations() -> u64 {
    ALLOCS.with(Cell::get)
}

/// The largest number of bytes the calling thread held at once during `run`, above
/// what it held when `run` began (requested sizes, as the allocator was asked).
pub fn peak_bytes_during<T>(run: impl FnOnce() -> T) -> (T, u64) {
    let start = LIVE.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = run();
    let peak = PEAK.with(Cell::get);
    (out, (peak - start).max(0) as u64)
}
