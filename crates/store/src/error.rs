//! The store's typed errors: each says what is wrong, where, and what to do.

use std::path::PathBuf;

use crate::StoreLocation;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("no graph database at {}; run `tether index` first", path.display())]
    Missing { path: PathBuf },
    #[error("a file already exists at {}; remove it or choose another --db", path.display())]
    AlreadyExists { path: PathBuf },
    #[error("the graph database at {} is locked by another process ({message}); stop that process (a running `tether` daemon owns the database) or pass another --db", path.display())]
    Locked { path: PathBuf, message: String },
    #[error("cannot open the graph database at {}: {message}; delete it and run `tether index` to rebuild", path.display())]
    Open { path: PathBuf, message: String },
    #[error("the graph database at {} has schema version {found}, this tether uses version {expected}; run `tether index` to rebuild it", path.display())]
    SchemaMismatch { path: PathBuf, found: String, expected: u32 },
    #[error("database statement failed ({statement}): {message}")]
    Query { statement: String, message: String },
    /// An ad-hoc statement that would do more than read the graph; the engine never saw it.
    #[error("statement refused: {message}")]
    Refused { message: String },
    /// An ad-hoc statement still running (or still giving rows) when its time ran out.
    #[error("the statement was stopped after {seconds} s; add a LIMIT or narrow the MATCH")]
    Stopped { seconds: u64 },
    #[error("cannot write {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
    #[error("a staged load was given a graph that does not extend the nodes it loaded first ({message}); this is a bug in the caller")]
    StagedLoadMismatch { message: String },
    #[error("the database holds an invalid value: {message}")]
    Corrupt { message: String },
}

impl StoreError {
    pub(crate) fn from_open(location: &StoreLocation, error: lbug::Error) -> StoreError {
        let path = match location {
            StoreLocation::Path(path) => path.clone(),
            StoreLocation::InMemory => PathBuf::from(":memory:"),
        };
        let message = error.to_string();
        if message.contains("Could not set lock")
            || message.contains("lock") && message.contains("held")
        {
            StoreError::Locked { path, message }
        } else {
            StoreError::Open { path, message }
        }
    }

    pub(crate) fn query(statement: &str, error: lbug::Error) -> StoreError {
        let mut statement = statement.to_string();
        if statement.len() > 160 {
            let mut end = 160;
            while !statement.is_char_boundary(end) {
                end -= 1;
            }
            statement.truncate(end);
            statement.push('…');
        }
        StoreError::Query { statement, message: error.to_string() }
    }
}
