//! The report formats of runtime evidence: what coverage tools and cargo write, read into
//! plain values the daemon and the CLI turn into evidence.
//!
//! Two boundaries live here, each in its own module: coverage reports (coverage.py's JSON
//! report and LCOV tracefiles, streamed under [`CoverageLimits`]) and cargo's JSON messages
//! (the executables a test build wrote). These formats belong to other tools; tether's own
//! wire formats are `protocol`'s.
//!
//! What this crate deliberately does not do:
//! - it opens no file and runs no program: callers hand it a reader or the text a tool wrote,
//!   after confining paths to the working tree themselves;
//! - it does not map lines to symbols or test names to test symbols: that needs the graph,
//!   and the daemon does it;
//! - it does not record coverage: the coverage tools do.

mod cargo_messages;
mod coverage_json;
mod coverage_report;

pub use cargo_messages::{built_executables, BuiltExecutable};
pub use coverage_report::{parse_coverage_report, CoverageLimits, CoverageReport, CoveredFile};
