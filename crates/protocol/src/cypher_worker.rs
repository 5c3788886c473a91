//! What the cypher worker process (`tether cypher-worker`) tells the daemon: one line when
//! the database is open, then one JSON line with the statement's outcome.
//!
//! The daemon runs each ad-hoc statement in such a process so that the engine's memory can be
//! watched and the statement killed (the engine builds every row of a result before the first
//! can be read, and does not always stop at its own timeout). This module only writes and
//! reads the lines; it starts no process.

use serde::{Deserialize, Serialize};

use crate::wire::CypherAnswer;

/// The first line the worker writes once the database is open (the daemon may then write a
/// new graph beside it).
pub const CYPHER_WORKER_OPENED_LINE: &str = "opened";

/// How one statement ended inside the worker.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum CypherWorkerOutcome {
    /// The statement ran; its first rows as text, the rest counted.
    Rows { answer: CypherAnswer },
    /// The statement is the person's to fix: refused before the engine, or refused by it
    /// (a syntax error, an unknown label, the engine's timeout).
    Refused { message: String },
    /// Something else failed (the database could not be opened).
    Failed { message: String },
}

impl CypherWorkerOutcome {
    /// The outcome as one line of JSON (no newline inside).
    pub fn to_line(&self) -> String {
        serde_json::to_string(self).expect("an outcome always serializes")
    }

    /// Reads an outcome line back; `Err` names what was wrong with it.
    pub fn from_line(line: &str) -> Result<CypherWorkerOutcome, String> {
        serde_json::from_str(line.trim_end()).map_err(|error| {
            let shown: String = line.chars().take(120).collect();
            format!("the cypher worker wrote an unreadable outcome ({error}): {shown:?}")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_round_trip_through_one_line() {
        let outcomes = [
            CypherWorkerOutcome::Rows {
                answer: CypherAnswer {
                    columns: vec!["a".into()],
                    rows: vec![vec!["line\nbreak".into()]],
                    rows_omitted: 3,
                },
            },
            CypherWorkerOutcome::Refused { message: "syntax".into() },
            CypherWorkerOutcome::Failed { message: "no database".into() },
        ];
        for outcome in outcomes {
            let line = outcome.to_line();
            assert!(!line.contains('\n'), "{line}");
            assert_eq!(CypherWorkerOutcome::from_line(&format!("{line}\n")), Ok(outcome));
        }
        let error = CypherWorkerOutcome::from_line("{\"outcome\": \"exploded\"}").unwrap_err();
        assert!(error.contains("unreadable outcome"), "{error}");
    }
}
