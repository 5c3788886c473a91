//! Giving freed memory back to the system after work that allocates much and keeps little.
//!
//! glibc keeps memory it has freed for later allocations, so a daemon's resident size stays at
//! its peak after a large transient allocation: a graph built for an editor's buffers, a
//! coverage report streamed through the parser. Calling this after such work brings the
//! resident size back to what the daemon still holds.
//!
//! It deliberately does not run on a timer or after every request: trimming costs a walk of
//! the heap, which pays only after a large allocation has been freed.

/// Returns the memory freed so far to the system (`malloc_trim(0)` with glibc; nothing
/// elsewhere).
pub(crate) fn give_freed_memory_back() {
    #[cfg(target_env = "gnu")]
    // SAFETY: malloc_trim has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}
