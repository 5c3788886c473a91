//! The research tree's answers on the wire: `tree`, `open_phases`, `brief` (issue 45).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// One entry of the tree, with its place and, for a plan in the tree, its completeness.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TreeNode {
    pub id: String,
    #[serde(rename = "type")]
    pub entry_type: String,
    pub title: String,
    pub status: String,
    /// 0 for a root.
    pub depth: usize,
    pub parent: Option<String>,
    /// `project`, `subproject` or `phase`, for a plan placed in the tree.
    pub level: Option<String>,
    /// In [0, 1] to three decimals, for a plan placed in the tree.
    pub completeness: Option<f64>,
    /// Children listed under it (with the same filters).
    pub children: usize,
    pub file: String,
}

/// `tree`: the entries depth first from the roots (the project first), paged.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct TreeAnswer {
    /// The project (the root plan), when there is one.
    pub project: Option<String>,
    pub total: usize,
    pub items: Vec<TreeNode>,
    /// Entries that break the tree's levels (`id: problem`), and malformed entries
    /// (`path:line: message`); the rest of the tree is still shown.
    pub problems: Vec<String>,
    pub next_cursor: Option<String>,
    pub next: String,
}

/// `open_phases`: the active phases not complete, least complete first, paged.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OpenPhasesAnswer {
    pub total: usize,
    pub items: Vec<TreeNode>,
    pub next_cursor: Option<String>,
    pub next: String,
}

/// An entry a brief names.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BriefEntry {
    pub id: String,
    #[serde(rename = "type")]
    pub entry_type: String,
    pub title: String,
    pub status: String,
}

/// `brief`: a deterministic summary of an entry's subtree.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BriefAnswer {
    pub entry: BriefEntry,
    pub level: Option<String>,
    pub completeness: Option<f64>,
    pub children: Vec<BriefEntry>,
    /// The newest active checkpoint below.
    pub concluding_checkpoint: Option<BriefEntry>,
    /// Entries below by type (every status).
    pub types_below: BTreeMap<String, usize>,
    /// Active todos and experiments below that no active entry supersedes.
    pub open_threads: usize,
    pub last_activity: Option<String>,
    /// The most linked entries below, most first.
    pub central: Vec<BriefEntry>,
    /// Entries below.
    pub size: usize,
    /// Answered from the daemon's cache: nothing below changed since it was made.
    pub cached: bool,
    pub next: String,
}
