//! A global allocator that counts allocations per thread, shared by the MovingAI runner
//! and the allocation test (each binary that includes this file counts its own).
//!
//! Counts are per thread so that allocations of other threads (the test harness's
//! bookkeeping, output capture) never show up in a measurement of the calling thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting every allocation and reallocation of each thread.
struct CountingAlloc;

thread_local! {
    // `const` initialisation and no destructor: reading it never allocates.
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

fn count() {
    // `try_with` fails only while the thread is being torn down; nothing to count then.
    let _ = ALLOCS.try_with(|n| n.set(n.get() + 1));
}

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAlloc = CountingAlloc;

/// Allocations and reallocations the calling thread has made so far.
pub fn allocations() -> u64 {
    ALLOCS.with(Cell::get)
}
