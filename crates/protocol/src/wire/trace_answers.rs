//! The traces' answers on the wire: `record_trace` and `recall`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Recheck;

/// One trace a `record_trace` wrote (or, replayed, had written).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecordedTrace {
    pub id: String,
    pub file: String,
    pub subject: String,
}

/// `record_trace`: the traces written and the one commit holding them.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecordTraceAnswer {
    /// In the batch's order.
    pub traces: Vec<RecordedTrace>,
    /// The commit holding the batch; absent for a dry run and a replay.
    pub commit: Option<String>,
    /// The branch the commit is (or would be) made on; absent when HEAD is detached.
    pub branch: Option<String>,
    /// Every trace was recorded before under its `operation_id`: these are the first ids,
    /// and nothing was written.
    pub replayed: bool,
    /// Nothing was written: the batch was checked.
    pub dry_run: bool,
    pub next: String,
}

/// A cited source as a recalled trace cites it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct EvidenceCitation {
    pub source_id: String,
    pub locator: String,
    pub revision: Option<String>,
    pub observed_at: String,
    pub summary: String,
    /// For a locator that is a repository path: whether it exists at HEAD (tether never
    /// claims the evidence itself is true). Absent for other locators.
    pub exists_at_head: Option<bool>,
}

/// One recalled trace, whole, with why it is in the answer and whether it still holds.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecalledTraceItem {
    pub id: String,
    pub file: String,
    pub subject: String,
    pub finding_type: String,
    pub situation: String,
    pub rationale: String,
    pub action: String,
    pub outcome: String,
    pub observed_at: String,
    pub recorded_at: String,
    /// `current`, `superseded` or `resolved`.
    pub status: String,
    /// `matched`, `anchored by X`, or `linked from X (link)`.
    pub reason: String,
    /// Links from the nearest seed.
    pub depth: usize,
    pub artifacts: Vec<String>,
    pub evidence: Vec<String>,
    pub evidence_refs: Vec<EvidenceCitation>,
    pub supersedes: Vec<String>,
    pub superseded_by: Vec<String>,
    pub resolves: Vec<String>,
    pub resolved_by: Vec<String>,
    pub depends_on: Vec<String>,
    /// Whether a premise it depends on was superseded or resolved since.
    pub recheck: Recheck,
    pub run_id: Option<String>,
    pub agent_id: Option<String>,
    pub subagent_id: Option<String>,
}

/// `recall`: the traces bearing on a query or anchors, ranked (current findings and
/// resolutions first, newer before older), cut to the limits.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecallAnswer {
    pub query: Option<String>,
    pub anchors: Vec<String>,
    pub traces: Vec<RecalledTraceItem>,
    /// `complete`, or `incomplete` when the node limit or the token budget cut traces found.
    pub completeness: String,
    /// How many traces found were cut.
    pub left_out: usize,
    /// The files of the first traces cut: what to read next.
    pub read_next: Vec<String>,
    /// Trace files that could not be read (each with its line and problem): what they hold
    /// is not in the answer.
    pub unreadable: Vec<String>,
    pub next: String,
}
