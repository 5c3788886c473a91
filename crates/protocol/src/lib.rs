//! tether's own wire: the daemon's JSON-RPC requests and typed answers, the export and census
//! documents. Model values are converted into documented, stable wire structs here, so the
//! model can change without breaking clients. The other formats tether reads live with their
//! boundary: LSP messages in `lsp`, MCP tool arguments in `mcp`, coverage and cargo reports in
//! `evidence`.
//!
//! It deliberately holds no logic beyond conversion: no IO other than writing to the given
//! writer, no queries, no defaults that change meaning.

mod answers;
mod cypher_worker;
mod export;
mod health_answer;
mod index_report;
mod requests;
pub mod rpc;
pub mod wire;

pub use answers::{
    address_error_data, blast_answer, changes_answer, completeness_wire, freshness_wire,
    lookup_answer, neighbours_answer, open_buffers_wire, outline_answer, ownership_answer,
    symbol_ref,
};
pub use serde_json::{json, Value};
pub use tether_query::PageRequest;

pub use cypher_worker::{CypherWorkerOutcome, CYPHER_WORKER_OPENED_LINE};
pub use export::{
    write_export_json, CensusDocument, ExportDocument, MetaDocument, EXPORT_FORMAT_VERSION,
};
pub use health_answer::health_answer;
pub use index_report::{
    index_report_answer, IndexReportAnswer, IndexReportSections, NameCount, UnresolvedNames,
};
pub use requests::{
    BlameParams, BufferRequest, ChangesParams, ConnectionRequest, EvidenceRefParams, HealthParams,
    Method, ObjectFields, Parameter, ParameterKind, RecallParams, RecordParams, RecordTraceParams,
    Request, SearchMemoryParams, Subject, TraceParams, TreeParams, WalkParams, WireRequest,
    DEFAULT_HEALTH_COMMITS, ENTRY_TYPES, HEALTH_SUMMARY_LIMIT, MAX_EVIDENCE_REFS,
    MAX_HEALTH_COMMITS, MAX_RECALL_DEPTH, MAX_RECALL_NODES, MAX_RECALL_TOKENS,
    MAX_TRACES_PER_BATCH, SYMBOL_ADDRESS,
};
