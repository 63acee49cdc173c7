//! Rust's heap, counted per thread: what a piece of code left allocated on its thread is the
//! difference of [`allocated_here`] before and after it. The aggregates registered as SQLite
//! functions keep their state in Rust's heap, which SQLite's allocator never sees; this is how
//! [`super::Held`] learns how much each step of one added, whatever the aggregate.
//!
//! The count is glibc's chunk for each block (the request, its 8-byte header, rounded up to 16,
//! 32 at least), so many small values weigh what they take from the system, not their length.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Bytes allocated minus bytes freed on this thread, in glibc chunks. A const initialiser
    /// and no destructor: reading it never allocates, so the allocator itself may.
    static NET: Cell<i64> = const { Cell::new(0) };
}

/// The system allocator, counting on each thread what it hands out and takes back. It is the
/// process's allocator (`lib.rs`), so every Rust allocation of the binary, its tests and its
/// benches goes through it: one thread-local add per call.
pub struct CountingAllocator;

/// The chunk glibc's malloc takes for a request of `size` bytes.
const fn chunk(size: usize) -> i64 {
    let with_header = size.saturating_add(8);
    let rounded = (with_header.saturating_add(15)) & !15;
    let at_least = if rounded < 32 { 32 } else { rounded };
    at_least as i64
}

fn note(delta: i64) {
    // After this thread's locals are gone (its last frees), there is nothing left to count.
    let _ = NET.try_with(|net| net.set(net.get().wrapping_add(delta)));
}

// SAFETY: every method delegates to `System` with the same arguments; the count is a
// side effect that neither allocates nor unwinds.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            note(chunk(layout.size()));
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            note(chunk(layout.size()));
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(block, layout) };
        note(-chunk(layout.size()));
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let moved = unsafe { System.realloc(block, layout, new_size) };
        if !moved.is_null() {
            note(chunk(new_size) - chunk(layout.size()));
        }
        moved
    }
}

/// Bytes this thread has allocated and not freed since it began (frees of blocks allocated on
/// other threads count too): only differences mean anything.
pub fn allocated_here() -> i64 {
    NET.try_with(Cell::get).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_code_keeps_is_the_difference_and_temporaries_cancel_out() {
        let before = allocated_here();
        let kept: Vec<u8> = Vec::with_capacity(1 << 20);
        let temporary = vec![0u8; 4096];
        drop(temporary);
        let grown = allocated_here() - before;
        assert_eq!(grown, chunk(1 << 20), "only the kept megabyte");
        drop(kept);
        assert_eq!(allocated_here(), before);
        // Small blocks weigh their chunk.
        assert_eq!(chunk(1), 32);
        assert_eq!(chunk(24), 32);
        assert_eq!(chunk(25), 48);
    }
}
