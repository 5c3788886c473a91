//! The memory graph's answers on the wire: `context`, `search_memory`, `record`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Freshness, SymbolOrFile};

/// How far the code moved since an entry's pin.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct EntryStaleness {
    pub changed_since_pin: bool,
    pub commits_since: usize,
    pub authors: Vec<String>,
    pub summary: String,
}

/// Whether an entry's assumptions still hold.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Recheck {
    Fine,
    /// A dependency was superseded: the ids from the entry, through its dependencies, to the
    /// newest entry superseding the dependency.
    NeedsRecheck {
        path: Vec<String>,
    },
    Unknown {
        reason: String,
    },
}

/// One memory entry tethered to the subject.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ContextEntry {
    pub id: String,
    #[serde(rename = "type")]
    pub entry_type: String,
    pub title: String,
    pub status: String,
    pub created_at: Option<String>,
    pub file: String,
    /// `changed` (its pin changed the subject) or `referenced` (it names the file).
    pub tether: String,
    pub pin: String,
    pub staleness: EntryStaleness,
    pub needs_recheck: Recheck,
}

/// `context`: why the subject exists, oldest entry first.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ContextAnswer {
    pub subject: SymbolOrFile,
    pub chain: Vec<ContextEntry>,
    /// The newest active decision, experiment or checkpoint.
    pub tip: Option<String>,
    /// Outside git: why there is no chain.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Malformed entries, `path:line: message`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_problems: Option<Vec<String>>,
    /// Traces whose artifacts name it (current first, then newer): at most 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub traces: Vec<ContextTrace>,
    /// How many traces name it in all (more than `traces` lists when above 10).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub traces_total: usize,
    pub freshness: Freshness,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// A trace tied to a `context` subject by one of its artifacts.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ContextTrace {
    pub id: String,
    pub subject: String,
    /// `current`, `superseded` or `resolved`.
    pub status: String,
    pub finding_type: String,
    pub outcome: String,
    pub observed_at: String,
    /// The artifact naming the subject.
    pub artifact: String,
    pub file: String,
}

/// One entry `search_memory` found.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct MemoryHit {
    pub id: String,
    #[serde(rename = "type")]
    pub entry_type: String,
    pub title: String,
    pub status: String,
    pub created_at: Option<String>,
    pub tags: Vec<String>,
    pub file: String,
    /// Title matches 3, tags 2, body 1.
    pub score: u32,
}

/// `search_memory`: entries ranked by a lexical score.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SearchMemoryAnswer {
    pub query: String,
    pub total: usize,
    pub items: Vec<MemoryHit>,
    pub next_cursor: Option<String>,
    pub freshness: Freshness,
    pub next: String,
}

/// `record`: the entry written, committed and pinned.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecordAnswer {
    pub id: String,
    pub file: String,
    pub pinned_commit: Option<String>,
    pub pinned_files: Vec<String>,
    /// The commit that holds the entry; absent for a dry run.
    pub entry_commit: Option<String>,
    /// The branch the commits are (or would be) made on; absent when HEAD is detached.
    #[serde(default)]
    pub branch: Option<String>,
    /// The commits made (or, for a dry run, that would be made), in order.
    #[serde(default)]
    pub commits: Vec<RecordCommit>,
    /// Nothing was written: the entry was checked and the commits are what a record would make.
    #[serde(default)]
    pub dry_run: bool,
    pub next: String,
}

/// One commit a record makes: its message and the repository files it holds.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct RecordCommit {
    pub message: String,
    pub files: Vec<String>,
}
