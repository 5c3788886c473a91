//! The daemon's own answers on the wire: `status`, the census (`lookup` without a query),
//! `coverage_import`.

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
    pub next: String,
}
