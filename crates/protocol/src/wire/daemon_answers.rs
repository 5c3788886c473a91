//! The daemon's own answers on the wire: `status`, the census (`lookup` without a query),
//! `coverage_import`, `export`, `cypher`, `shutdown`, and the symbols an addressing error lists.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::Freshness;

/// The graph's counts.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CensusCounts {
    pub files: u64,
    pub files_skipped: u64,
    pub symbols_by_kind: BTreeMap<String, u64>,
    pub edges_by_kind: BTreeMap<String, u64>,
    pub unresolved_calls: u64,
    pub diagnostics: u64,
}

/// `lookup` without a query.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CensusAnswer {
    pub census: CensusCounts,
    pub freshness: Freshness,
    pub next: String,
}

/// `status` (and `reindex`, once the graph is rebuilt).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct StatusAnswer {
    pub root: String,
    pub database: String,
    pub socket: String,
    pub pid: u32,
    pub uptime_seconds: u64,
    /// A graph is published and answers queries.
    pub ready: bool,
    pub rebuilding: bool,
    pub rebuilds: u64,
    pub last_rebuild_seconds: Option<f64>,
    pub last_publish_seconds: Option<f64>,
    /// The last rebuild's error, else the last database write's.
    pub last_error: Option<String>,
    pub indexed_commit: Option<String>,
    pub freshness: Option<Freshness>,
    pub census: Option<CensusCounts>,
}

/// `coverage_import`: the runtime evidence now in force.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CoverageImportAnswer {
    pub files: usize,
    /// Executed lines with a test context.
    pub lines: usize,
    pub contexts: usize,
    pub files_outside_the_repository: usize,
    /// HEAD when the report was imported.
    pub commit: Option<String>,
    /// Written to `runtime-evidence.tsv` beside the database.
    pub persisted: bool,
    /// With `merge`: what became of the evidence kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<CoverageMerge>,
    pub next: String,
}

/// A partial recording merged into the evidence kept (`coverage_import` with `merge`).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CoverageMerge {
    /// Tests of the kept evidence the report did not run: still in force.
    pub tests_kept: usize,
    /// Tests the report ran again: their old evidence replaced.
    pub tests_replaced: usize,
    /// Files whose kept evidence was dropped: it was recorded from other content.
    pub files_dropped: usize,
}

/// `shutdown`: the daemon stops after answering.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct StoppingAnswer {
    pub stopping: bool,
}

/// `subscribe`: this connection now receives a `graph_published` notification per graph the
/// daemon publishes.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SubscribedAnswer {
    pub subscribed: bool,
}

/// The params of a `graph_published` notification: the new graph's commit, and the source
/// files whose content differs from the previous graph's (added, edited or removed), sorted
/// and capped at [`GraphPublished::MAX_FILES`] (`changed_files_total` counts them all).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct GraphPublished {
    pub indexed_commit: Option<String>,
    pub changed_files: Vec<String>,
    pub changed_files_total: usize,
}

impl GraphPublished {
    /// At most this many changed files are listed.
    pub const MAX_FILES: usize = 100;
}

/// A symbol an addressing error offers (`data.candidates` of an ambiguous address,
/// `data.similar` of a missing one).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressCandidate {
    pub id: String,
    pub qualified_name: String,
    pub kind: String,
    pub path: String,
    pub line: u32,
}

/// The `data` of an addressing error.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AddressErrorData {
    /// `not_found` or `ambiguous`.
    pub kind: String,
    pub address: String,
    /// A missing address's near names (`not_found`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub similar: Option<Vec<AddressCandidate>>,
    /// An ambiguous address's matches (`ambiguous`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<AddressCandidate>>,
}

/// The index's freshness and the daemon's readiness in one document (MCP's
/// `tether://freshness` resource), read from a `status` answer.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct FreshnessDocument {
    pub indexed_commit: Option<String>,
    pub head_commit: Option<String>,
    pub head_branch: Option<String>,
    pub head_moved: Option<bool>,
    pub uncommitted_files: Option<Vec<String>>,
    pub stale: Option<bool>,
    pub ready: bool,
    pub rebuilding: bool,
    pub last_error: Option<String>,
}

impl FreshnessDocument {
    pub fn from_status(status: &StatusAnswer) -> FreshnessDocument {
        let freshness = status.freshness.as_ref();
        FreshnessDocument {
            indexed_commit: status
                .indexed_commit
                .clone()
                .or_else(|| freshness.and_then(|freshness| freshness.indexed_commit.clone())),
            head_commit: freshness.and_then(|freshness| freshness.head_commit.clone()),
            head_branch: freshness.and_then(|freshness| freshness.head_branch.clone()),
            head_moved: freshness.map(|freshness| freshness.head_moved),
            uncommitted_files: freshness.and_then(|freshness| freshness.uncommitted_files.clone()),
            stale: freshness.map(|freshness| freshness.stale),
            ready: status.ready,
            rebuilding: status.rebuilding,
            last_error: status.last_error.clone(),
        }
    }

    /// The document as pretty JSON text.
    pub fn to_pretty_json(&self) -> String {
        crate::rpc::pretty(&super::to_json_value(self))
    }
}

/// `export`: the published graph's export document, as the text `tether export` writes
/// (carried as a string so that a client writes it byte for byte).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ExportAnswer {
    pub document: String,
}

/// `cypher`: a read-only statement's columns and rows, each value as the engine renders it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CypherAnswer {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Rows the answer leaves out past its cap (0 when all are shown).
    #[serde(default)]
    pub rows_omitted: usize,
}
