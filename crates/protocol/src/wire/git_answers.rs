//! The git-backed answers on the wire: `ownership` and `changes`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{BlastAnswer, Freshness, SymbolOrFile};

/// An owner's latest commit in the range.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OwnerLatest {
    pub commit: String,
    pub date_unix: i64,
    pub summary: String,
}

/// One author of the range, through `.mailmap`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Owner {
    pub author: String,
    pub email: String,
    pub lines: u32,
    /// Of the attributed lines, three decimals.
    pub share: f64,
    pub commits: u32,
    pub latest: OwnerLatest,
}

/// `ownership`: blame of a symbol's lines (or a whole file) aggregated by author.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct OwnershipAnswer {
    pub subject: SymbolOrFile,
    /// `path:first-last`.
    pub range: String,
    pub total_lines: u32,
    /// Ranked by lines; recency breaks ties.
    pub owners: Vec<Owner>,
    pub not_committed_yet: u32,
    pub excluded_bot_lines: u32,
    pub excluded_bots: Vec<String>,
    /// The git blame options the lines were attributed with (`-w`, `-M`, `-C`,
    /// `--ignore-revs-file .git-blame-ignore-revs`); empty for plain blame.
    #[serde(default)]
    pub blame_options: Vec<String>,
    /// Why git could not attribute some lines.
    pub note: Option<String>,
    pub freshness: Freshness,
    pub next: String,
}

/// A symbol a diff touches.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChangedSymbol {
    pub qualified_name: String,
    pub kind: String,
    pub path: String,
    pub line: u32,
    /// `added`, `modified` or `deleted`.
    pub change: String,
    pub lines_changed: u32,
    pub renamed_from: Option<String>,
}

/// `changes`: the symbols a diff touches and the blast of them all.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum ChangesAnswer {
    Diff {
        changed: Vec<ChangedSymbol>,
        files_changed: usize,
        /// The blast of every changed symbol; its `next` suggests one symbol alone.
        #[serde(flatten)]
        blast: Box<BlastAnswer>,
    },
    /// Outside git: nothing to diff.
    NotARepository { changed: Vec<ChangedSymbol>, note: String, freshness: Freshness },
}
