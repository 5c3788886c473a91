//! The graph's answers on the wire: symbols, freshness, completeness, `callers`/`callees`/
//! `imports`, `blast`, `lookup`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A symbol as every answer names it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SymbolRef {
    /// 16 hex digits; stable across runs for the same qualified name and kind.
    pub id: String,
    pub qualified_name: String,
    pub kind: String,
    /// Repository-relative.
    pub path: String,
    pub line: u32,
    pub end_line: u32,
    pub is_test: bool,
}

/// How the graph answering relates to the repository now.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Freshness {
    pub indexed_commit: Option<String>,
    pub head_commit: Option<String>,
    pub head_branch: Option<String>,
    /// HEAD is not the indexed commit (a rebuild is under way or due).
    pub head_moved: bool,
    /// Tracked source files with uncommitted changes (`None`: git could not say); the graph
    /// may well hold their content (see `files_not_in_graph`).
    pub uncommitted_files: Option<Vec<String>>,
    /// Source files whose content on disk is not what the graph holds yet (absent when not
    /// checked).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files_not_in_graph: Option<Vec<String>>,
    /// `head_moved`, or files not in the graph (uncommitted files when that was not
    /// checked): a change is not in the graph yet.
    pub stale: bool,
    /// The unsaved editor buffers this connection's answer was built with, in place of
    /// those files on disk (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buffers: Vec<super::OpenBuffer>,
}

/// Whether an answer is the whole truth: `exact`, or `lower_bound` with its causes.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct Completeness {
    /// `exact` or `lower_bound`.
    pub status: String,
    /// Why the answer may be missing items, each counted (absent when exact).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub causes: Option<Vec<CompletenessCause>>,
}

/// A call site quoted as a cause's example: `path:line` and the callee's text.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct SiteExample {
    pub site: String,
    pub callee: String,
}

/// Where a value escapes to: `path:line` and how.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct EscapeExample {
    pub site: String,
    pub how: String,
}

/// One named, counted reason an answer may be incomplete.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CompletenessCause {
    /// Call sites of this name that no rule bound: any could call the subject.
    UnresolvedCallSites { name: String, count: usize, examples: Vec<SiteExample> },
    /// Code the extraction does not analyse (a macro's tokens) mentions this name: it may
    /// call the subject there.
    UnanalysedCode { name: String, count: usize, examples: Vec<SiteExample> },
    /// Call sites in the answer's scope whose target is unknown but may be project code
    /// (`health`): each may be an edge the answer lacks.
    UnresolvedSites { count: usize, examples: Vec<SiteExample> },
    /// Edges reached only through `maybe` links.
    UncertainEdges { count: usize },
    /// Files of the language that could not be parsed.
    UnparsedFiles { count: usize, examples: Vec<String> },
    /// The subject is passed around as a value; calls through it are not seen.
    EscapedValue {
        count: usize,
        escaped: usize,
        escapes: Vec<EscapeExample>,
        examples: Vec<SiteExample>,
    },
    /// The language calls it without a call expression (a dunder, a trait method).
    ImplicitInvocation { count: usize, examples: Vec<String> },
    /// Outside code calls it (a framework hook, an entry point).
    CalledFromOutside { count: usize, examples: Vec<String> },
    /// Overrides reached only through a base-typed receiver.
    Overrides { count: usize, examples: Vec<SiteExample> },
    /// Symbols at the depth limit have more dependents.
    DepthLimit { depth: u32, count: usize },
    /// Source files with uncommitted changes the graph has not seen.
    DirtyFiles { count: usize, examples: Vec<String> },
    /// Churn read only the newest `read` of the `asked` commits in the request's time; the
    /// rest is being read for the next answer.
    PartialHistory { read: usize, asked: usize },
}

/// One item of `callers`, `callees` or `imports`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct NeighbourItem {
    #[serde(flatten)]
    pub symbol: SymbolRef,
    /// `calls`, `called_by`, `imports`, `imported_by`…
    pub direction: String,
    /// `path:line` of the call or import.
    pub site: String,
    pub confidence: f64,
    /// The resolution rule that made the edge.
    pub rule: String,
}

/// `callers`, `callees`, `imports`: one hop from the subject, ranked and paged.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct NeighboursAnswer {
    pub subject: SymbolRef,
    pub total: usize,
    pub items: Vec<NeighbourItem>,
    /// Pass back as `cursor` for the next page; `null` at the end.
    pub next_cursor: Option<String>,
    pub completeness: Completeness,
    pub freshness: Freshness,
    /// A suggested follow-up call.
    pub next: String,
}

/// One dependent of a blast.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlastItem {
    #[serde(flatten)]
    pub symbol: SymbolRef,
    /// Hops from the subject.
    pub distance: u32,
    /// `breaks` (a direct dependent through a confident edge) or `maybe`.
    pub severity: String,
    pub confidence: f64,
    /// The edge kind of the last hop (`CALLS`, `IMPORTS`, `INHERITS`, `IMPLEMENTS`).
    pub edge: String,
    pub site: String,
    /// The qualified names on the path from the subject.
    pub via: Vec<String>,
}

/// A test the change may break, and why it is listed.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct AffectedTest {
    #[serde(flatten)]
    pub symbol: SymbolRef,
    /// `static` (a path of the graph reaches it), `executed` (runtime evidence saw it run
    /// the subject), or both.
    pub why: Vec<String>,
    /// `fresh` or `stale` runtime evidence; absent when no evidence names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub evidence: Option<String>,
    /// Hops from the subject on the graph's best path; absent when only evidence names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<u32>,
    /// That path's confidence (the product of its edges'); absent when only evidence names it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// `ran` (fresh runtime evidence saw it execute the subject: it breaks if the change
    /// breaks) or `reachable` (only the graph reaches it: it may break); absent unless fresh
    /// evidence for the subject splits the answer (`subject_evidence: fresh`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tier: Option<String>,
    /// The names its runner selects it by: pytest's node id (`tests/test_a.py::TestA::test_b`;
    /// one per test class that collects it when it is inherited from a base) or libtest's path
    /// inside its test crate (`parser::tests::parses_empty`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_ids: Vec<String>,
}

/// `blast`: what depends on the subject, transitively, and the tests affected.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct BlastAnswer {
    /// The symbol's qualified name, or the file.
    pub subject: String,
    /// How many symbols the walk started from (a file's symbols).
    pub seeds: usize,
    pub depth: u32,
    pub total: usize,
    /// How many items have severity `breaks`.
    pub breaks: usize,
    pub items: Vec<BlastItem>,
    pub tests_affected: Vec<AffectedTest>,
    pub tests_total: usize,
    pub tests_truncated: bool,
    /// The commit the runtime evidence in use was recorded at.
    pub evidence_commit: Option<String>,
    /// How that evidence stands for the subject: `fresh` (its files unchanged since: the tests
    /// are in tiers), `stale` (changed since), `not_recorded`; absent without evidence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subject_evidence: Option<String>,
    /// How many tests are of tier `ran`; absent unless the tests are in tiers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tests_ran: Option<usize>,
    pub next_cursor: Option<String>,
    pub completeness: Completeness,
    pub freshness: Freshness,
    pub next: String,
}

/// `lookup` with a query: symbols ranked by how well their names match.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct LookupAnswer {
    pub query: String,
    pub total: usize,
    pub items: Vec<SymbolRef>,
    /// When nothing matches: the closest names (a typo), as the addressing error lists them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub similar: Vec<SymbolRef>,
    pub next_cursor: Option<String>,
    pub freshness: Freshness,
    pub next: String,
}
