//! `health`'s answer: one section per kind asked, each ranked, paged and with its own
//! completeness.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Completeness, Freshness, SymbolRef};

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct HealthAnswer {
    pub sections: Vec<HealthSection>,
    pub freshness: Freshness,
    pub next: String,
}

/// One kind's findings, worst first. Only the list of the section's kind is present.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct HealthSection {
    /// `god_objects`, `coupling`, `cycles`, `churn` or `dead_code`.
    pub kind: String,
    /// Findings in the whole section (all pages).
    pub total: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub god_objects: Vec<GodObject>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub coupling: Vec<FileCoupling>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cycles: Vec<Cycle>,
    /// Hotspots: files that change often and are complex, worst first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub churn: Vec<ChurnHotspot>,
    /// Churn only: files that change together, the most coupled first (the first few).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub change_coupling: Vec<ChangeCoupling>,
    /// Churn only: change coupling pairs in all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub change_coupling_total: Option<usize>,
    /// Churn only: commits read that changed a source file the graph holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commits_counted: Option<usize>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dead_code: Vec<DeadSymbol>,
    pub next_cursor: Option<String>,
    pub completeness: Completeness,
    /// How the section was made, when it matters (churn outside git, in a shallow clone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// A file that changes often and is complex.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChurnHotspot {
    pub path: String,
    /// Commits that changed it, of those read.
    pub commits: usize,
    pub authors: usize,
    pub lines_added: u64,
    pub lines_deleted: u64,
    /// The newest of those commits' author time, seconds since the epoch.
    pub last_changed_unix: i64,
    /// `symbols + call_sites`.
    pub complexity: usize,
    pub symbols: usize,
    pub call_sites: usize,
    pub lines: u32,
    /// `commits × complexity`.
    pub score: usize,
    /// Its symbols that changed the most: `qualified_name`, `site` (`path:line`), `commits`.
    pub hottest: Vec<SymbolChurn>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SymbolChurn {
    pub qualified_name: String,
    pub site: String,
    pub commits: usize,
}

/// Two files that changed together.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct ChangeCoupling {
    pub first: String,
    pub second: String,
    /// Commits that changed both.
    pub together: usize,
    pub first_commits: usize,
    pub second_commits: usize,
    /// `together / mean(first_commits, second_commits)`.
    pub degree: f32,
}

/// A type with many members or lines that many other files are tied to.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct GodObject {
    pub symbol: SymbolRef,
    pub members: usize,
    pub lines: u32,
    /// Other files depending on it.
    pub fan_in: usize,
    /// Other files it depends on.
    pub fan_out: usize,
    /// `members × (fan_in + fan_out)`.
    pub score: usize,
    /// Its longest members: `qualified_name`, `site` (`path:line`), `lines`.
    pub drivers: Vec<HeavyMember>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct HeavyMember {
    pub qualified_name: String,
    pub site: String,
    pub lines: u32,
}

/// A file's afferent (Ca) and efferent (Ce) coupling, its instability Ce / (Ca + Ce), and
/// the files it shares the most edges with.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct FileCoupling {
    pub path: String,
    pub module: Option<String>,
    pub afferent: usize,
    pub efferent: usize,
    pub instability: f32,
    pub partners: Vec<CouplingPartner>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CouplingPartner {
    pub path: String,
    /// Edges from the file to the partner.
    pub outgoing: usize,
    /// Edges from the partner to the file.
    pub incoming: usize,
    pub mutual: bool,
    /// The first sites (`path:line`), of the heavier direction first.
    pub sites: Vec<String>,
}

/// A strongly connected component of files, with one shortest cycle through it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Cycle {
    /// `imports` (module-level imports) or `calls`.
    pub graph: String,
    /// Files in the component.
    pub files: usize,
    /// `from` depends on `to` at `site` (`path:line`).
    pub hops: Vec<CycleHop>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CycleHop {
    pub from: String,
    pub to: String,
    pub site: String,
}

/// A definition nothing in the project uses.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct DeadSymbol {
    pub symbol: SymbolRef,
    /// `dead` (exact: nothing could call it unseen), `test_only`, or `possibly_dead`.
    pub verdict: String,
    pub lines: u32,
    /// Exact for `dead`; otherwise what may use it unseen.
    pub completeness: Completeness,
}
