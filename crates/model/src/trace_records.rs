//! The traces as the database stores them beside the code graph (issue 44): a `Trace` node
//! per trace and its four steps as `TraceStep` nodes joined `LED_TO` (situation →
//! rationale), `JUSTIFIED` (rationale → action) and `PRODUCED` (action → outcome); one
//! `Evidence` node per source id, cited by every trace that cites it (`CITES`, with the
//! citing trace's own summary); the links between traces and to entries; and `ABOUT` edges
//! to the symbols its artifacts name exactly. The trace files stay the truth: this is what
//! Cypher queries read.

use crate::SymbolId;

/// Everything of the traces the database holds.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TraceGraph {
    pub traces: Vec<TraceRecord>,
    /// (kind: `TRACE_SUPERSEDES`, `RESOLVES`, `TRACE_DEPENDS_ON` (to a trace) or
    /// `TRACE_DEPENDS_ON_ENTRY` (to an entry); from trace id; to id).
    pub links: Vec<(&'static str, String, String)>,
    /// One per source id (the first citation's locator, revision and time).
    pub evidence: Vec<EvidenceRecord>,
    pub citations: Vec<CitationRecord>,
    pub about: Vec<TraceAboutRecord>,
}

/// One trace: its fields and its four steps' text.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TraceRecord {
    pub id: String,
    pub subject: String,
    pub finding_type: String,
    pub situation: String,
    pub rationale: String,
    pub action: String,
    pub outcome: String,
    pub observed_at: String,
    pub recorded_at: String,
    pub path: String,
    pub run_id: String,
    pub agent_id: String,
    pub subagent_id: String,
    pub operation_id: String,
}

/// A cited source.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct EvidenceRecord {
    pub source_id: String,
    pub locator: String,
    pub revision: String,
    pub observed_at: String,
}

/// A trace citing a source, with its own summary.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct CitationRecord {
    pub trace_id: String,
    pub source_id: String,
    pub summary: String,
}

/// A trace about a symbol: an artifact naming its qualified name exactly (one symbol), or
/// naming its file (the file's module).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TraceAboutRecord {
    pub trace_id: String,
    pub symbol: SymbolId,
    pub artifact: String,
}
