//! Locks whose holder panicked are used as they are: one request that panics while holding a
//! cache, a snapshot or an output stream must not take every later request down with it.
//!
//! What tether keeps behind locks is caches, published snapshots, status and output streams.
//! A panic while one is held leaves at worst a stale or missing cache entry or a cut-off
//! write, which later requests recompute or report; nothing behind a lock is a half-done
//! transaction that a reader would trust. A lock guarding such a value must not use this
//! trait.

use std::sync::LockResult;

/// `lock()`, `read()`, `write()` and `Condvar::wait*` results, with a poisoned lock's guard
/// taken as is.
pub trait IgnoringPoison<Guard> {
    /// The guard, whether or not a holder panicked.
    fn ignoring_poison(self) -> Guard;
}

impl<Guard> IgnoringPoison<Guard> for LockResult<Guard> {
    fn ignoring_poison(self) -> Guard {
        self.unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::IgnoringPoison;
    use std::sync::{Arc, Mutex};

    #[test]
    fn a_lock_whose_holder_panicked_still_gives_its_value() {
        let shared = Arc::new(Mutex::new(1));
        let held = Arc::clone(&shared);
        let panicked = std::thread::spawn(move || {
            let _guard = held.lock().ignoring_poison();
            panic!("a holder panics");
        })
        .join();
        assert!(panicked.is_err());
        assert!(shared.is_poisoned());
        assert_eq!(*shared.lock().ignoring_poison(), 1);
    }
}
