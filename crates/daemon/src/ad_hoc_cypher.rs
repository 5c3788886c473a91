//! `cypher` on the daemon: one statement that only reads the graph (file-touching clauses,
//! writes and second statements are refused before the engine sees them), against the
//! database it owns, opened read-only for the statement, never while a graph is being
//! written, stopped by the engine after a time limit, its rows capped as they are read.

use std::time::Duration;

use tether_protocol::rpc::RpcError;
use tether_protocol::wire::CypherAnswer;
use tether_store::{GraphStore, StoreConfig, StoreError};

use crate::state::DaemonState;

/// The engine stops a statement that runs longer.
const CYPHER_TIMEOUT: Duration = Duration::from_secs(30);
/// The most rows an answer carries; the rest are counted.
const MAX_CYPHER_ROWS: usize = 100_000;

impl DaemonState {
    /// Runs one read-only statement. A statement the engine refuses (a write, a syntax
    /// error) is `-32602` with the engine's message.
    pub(crate) fn cypher(&self, statement: &str) -> Result<CypherAnswer, RpcError> {
        // Refused before the database is opened: a statement that would touch files, write,
        // or run a second statement never reaches the engine.
        tether_store::check_ad_hoc_statement(statement).map_err(|refused| {
            RpcError::invalid_params(format!("statement refused: {}", refused.reason))
        })?;
        // No graph is written meanwhile: a read-only open racing a writer's commit fails.
        let _no_writer = self.persist_lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let config = StoreConfig { buffer_pool_bytes: 64 << 20, max_threads: 1 };
        let store = GraphStore::open_read_only(&self.paths.database, config).map_err(|error| {
            RpcError::new(RpcError::INTERNAL_ERROR, format!("cannot open the database: {error}"))
        })?;
        let answer = store.query_ad_hoc(statement, Some(CYPHER_TIMEOUT), MAX_CYPHER_ROWS);
        let rows = match answer {
            Ok(rows) => rows,
            Err(error @ (StoreError::Query { .. } | StoreError::Refused { .. })) => {
                return Err(RpcError::invalid_params(error.to_string()))
            }
            Err(error) => return Err(RpcError::new(RpcError::INTERNAL_ERROR, error.to_string())),
        };
        Ok(CypherAnswer { columns: rows.columns, rows: rows.rows, rows_omitted: rows.omitted })
    }
}
