//! A request's deadline: long work (graph walks, git processes, pin mapping) checks it and
//! stops once it has passed, so a timed-out request stops consuming memory and CPU instead
//! of running on after its caller was answered.

use std::time::{Duration, Instant};

/// When a piece of work must stop. `Deadline::none()` never passes.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Deadline {
    at: Option<Instant>,
}

impl Deadline {
    /// A deadline that never passes (one-off CLI work, tests).
    pub const fn none() -> Deadline {
        Deadline { at: None }
    }

    /// A deadline `budget` from now.
    pub fn after(budget: Duration) -> Deadline {
        Deadline { at: Instant::now().checked_add(budget) }
    }

    /// A deadline at an instant.
    pub fn at(instant: Instant) -> Deadline {
        Deadline { at: Some(instant) }
    }

    /// Whether the deadline has passed.
    pub fn has_passed(&self) -> bool {
        self.at.is_some_and(|at| Instant::now() >= at)
    }

    /// `Err(Cancelled)` once the deadline has passed.
    pub fn check(&self) -> Result<(), Cancelled> {
        if self.has_passed() {
            Err(Cancelled)
        } else {
            Ok(())
        }
    }

    /// The time left, `None` without a deadline (zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.at.map(|at| at.saturating_duration_since(Instant::now()))
    }
}

/// Work stopped because its deadline passed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("the request's deadline passed and its work was stopped")
    }
}

impl std::error::Error for Cancelled {}

/// Checks a deadline every `every` steps of a loop, so a hot loop pays for the clock rarely.
#[derive(Debug)]
pub struct DeadlineTicker {
    deadline: Deadline,
    every: u32,
    steps: u32,
}

impl DeadlineTicker {
    pub fn new(deadline: Deadline, every: u32) -> DeadlineTicker {
        DeadlineTicker { deadline, every: every.max(1), steps: 0 }
    }

    /// One step: `Err(Cancelled)` when this step is a checking one and the deadline passed.
    pub fn tick(&mut self) -> Result<(), Cancelled> {
        self.steps += 1;
        if self.steps >= self.every {
            self.steps = 0;
            self.deadline.check()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_cancels_and_none_never_does() {
        assert!(Deadline::none().check().is_ok());
        assert_eq!(Deadline::none().remaining(), None);
        let passed = Deadline::at(Instant::now() - Duration::from_millis(1));
        assert_eq!(passed.check(), Err(Cancelled));
        assert_eq!(passed.remaining(), Some(Duration::ZERO));
        assert!(Deadline::after(Duration::from_secs(3600)).check().is_ok());
        let mut ticker = DeadlineTicker::new(passed, 3);
        assert_eq!((ticker.tick(), ticker.tick(), ticker.tick()), (Ok(()), Ok(()), Err(Cancelled)));
    }
}
