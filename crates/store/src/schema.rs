//! The versioned schema of the code graph. Bump [`SCHEMA_VERSION`] on any change here.
//!
//! Node tables: `Meta` (key/value), `File` (one row per file seen, with its content tag),
//! `Symbol`, `UnresolvedCall`, `Diagnostic`, `Entry` (the memory graph). Rel tables between
//! symbols: `CONTAINS`, `CALLS`, `IMPORTS`, `INHERITS`, `IMPLEMENTS`, `REFERENCES`, all with `line`,
//! `confidence` and `rule`; between entries: `PARENT`, `SUPERSEDES`, `DEPENDS_ON`, `RELATED`;
//! from entries to symbols: `TETHER` (`kind`, `pin`). The traces (`crate::trace_csv`):
//! `Trace`, `TraceStep`, `Evidence` nodes; `HAS_STEP`, `LED_TO`, `JUSTIFIED`, `PRODUCED`
//! between a trace and its steps; `TRACE_SUPERSEDES`, `RESOLVES`, `TRACE_DEPENDS_ON` between
//! traces, `TRACE_DEPENDS_ON_ENTRY` to entries, `CITES` (`summary`) to evidence, `ABOUT`
//! (`artifact`) to symbols. The code graph's rel tables store the forward direction only.
//! ARCHITECTURE.md documents each column.

use tether_model::EdgeKind;

use crate::{GraphStore, StoreError};

/// The version this build reads and writes (12: the traces' tables; a graph of 11 lacks them
/// and is rebuilt).
pub const SCHEMA_VERSION: u32 = 12;

pub(crate) const NODE_TABLES: &[&str] = &[
    "CREATE NODE TABLE Meta(key STRING, value STRING, PRIMARY KEY(key))",
    "CREATE NODE TABLE File(path STRING, language STRING, size_bytes INT64, content_hash INT64, status STRING, PRIMARY KEY(path))",
    "CREATE NODE TABLE Symbol(id INT64, kind STRING, name STRING, qualified_name STRING, path STRING, language STRING, \
     start_line INT64, end_line INT64, start_byte INT64, end_byte INT64, parent INT64, is_test BOOLEAN, runs_as_test BOOLEAN, content_hash INT64, body_start_line INT64, is_overload_stub BOOLEAN, visibility STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE UnresolvedCall(id INT64, caller INT64, callee_text STRING, callee_name STRING, path STRING, \
     line INT64, reason STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Diagnostic(id INT64, path STRING, line INT64, kind STRING, message STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Entry(id STRING, type STRING, title STRING, status STRING, created_at STRING, path STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Trace(id STRING, subject STRING, finding_type STRING, observed_at STRING, recorded_at STRING, path STRING, \
     run_id STRING, agent_id STRING, subagent_id STRING, operation_id STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE TraceStep(id STRING, kind STRING, text STRING, PRIMARY KEY(id))",
    "CREATE NODE TABLE Evidence(source_id STRING, locator STRING, revision STRING, observed_at STRING, PRIMARY KEY(source_id))",
];

/// The memory graph's rel tables: links between entries, and tethers to symbols.
pub(crate) const MEMORY_REL_TABLES: &[&str] = &[
    "CREATE REL TABLE PARENT(FROM Entry TO Entry)",
    "CREATE REL TABLE SUPERSEDES(FROM Entry TO Entry)",
    "CREATE REL TABLE DEPENDS_ON(FROM Entry TO Entry)",
    "CREATE REL TABLE RELATED(FROM Entry TO Entry)",
    "CREATE REL TABLE TETHER(FROM Entry TO Symbol, kind STRING, pin STRING)",
    "CREATE REL TABLE HAS_STEP(FROM Trace TO TraceStep)",
    "CREATE REL TABLE LED_TO(FROM TraceStep TO TraceStep)",
    "CREATE REL TABLE JUSTIFIED(FROM TraceStep TO TraceStep)",
    "CREATE REL TABLE PRODUCED(FROM TraceStep TO TraceStep)",
    "CREATE REL TABLE TRACE_SUPERSEDES(FROM Trace TO Trace)",
    "CREATE REL TABLE RESOLVES(FROM Trace TO Trace)",
    "CREATE REL TABLE TRACE_DEPENDS_ON(FROM Trace TO Trace)",
    "CREATE REL TABLE TRACE_DEPENDS_ON_ENTRY(FROM Trace TO Entry)",
    "CREATE REL TABLE CITES(FROM Trace TO Evidence, summary STRING)",
    "CREATE REL TABLE ABOUT(FROM Trace TO Symbol, artifact STRING)",
];

/// The rel table of an edge kind: its name is the kind's own (`CALLS`). Only the forward
/// direction is stored: the daemon answers from its in-memory snapshot, which indexes both
/// directions, so the engine's backward adjacency would be written on every load and never
/// read (it made rust-analyzer's CALLS COPY 0.15 s instead of 0.09 s, and the checkpoint at
/// close about 0.05 s longer). Directed Cypher patterns still match either way round
/// (`(b)<-[:CALLS]-(a)`, also `*1..3`); the engine refuses undirected ones (`-[:CALLS]-`).
pub(crate) fn rel_table_statement(kind: EdgeKind) -> String {
    format!("CREATE REL TABLE {}(FROM Symbol TO Symbol, line INT64, confidence DOUBLE, rule STRING) WITH (storage_direction = 'fwd')", kind.as_str())
}

impl GraphStore {
    pub(crate) fn create_schema(&self) -> Result<(), StoreError> {
        let connection = self.connection()?;
        let mut statements: Vec<String> =
            NODE_TABLES.iter().map(|statement| statement.to_string()).collect();
        statements.extend(EdgeKind::ALL.into_iter().map(rel_table_statement));
        statements.extend(MEMORY_REL_TABLES.iter().map(|statement| statement.to_string()));
        statements
            .push(format!("CREATE (:Meta {{key: 'schema_version', value: '{SCHEMA_VERSION}'}})"));
        for statement in &statements {
            connection.query(statement).map_err(|error| StoreError::query(statement, error))?;
        }
        Ok(())
    }

    pub(crate) fn check_schema_version(&self) -> Result<(), StoreError> {
        let path = self.path().map(|path| path.to_path_buf()).unwrap_or_default();
        let found = match self.meta_value("schema_version") {
            Ok(Some(found)) => found,
            Ok(None) => "none".to_string(),
            // A database without the Meta table predates versioning or is not tether's.
            Err(StoreError::Query { .. }) => "unknown (no Meta table)".to_string(),
            Err(other) => return Err(other),
        };
        if found == SCHEMA_VERSION.to_string() {
            Ok(())
        } else {
            Err(StoreError::SchemaMismatch { path, found, expected: SCHEMA_VERSION })
        }
    }
}
