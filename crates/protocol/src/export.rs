//! The JSON of `tether export --format json` and of the census (`tether index --json`).
//!
//! One document: `{ "format_version", "meta", "census", "files", "symbols", "edges",
//! "unresolved_calls", "diagnostics" }`. Ids are 16-hex-digit strings; lines are 1-based.

use std::collections::BTreeMap;
use std::io::Write;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tether_model::{Census, Graph, IndexMeta};

/// Bumped when a field changes meaning or disappears (adding fields does not bump it).
pub const EXPORT_FORMAT_VERSION: u32 = 1;

#[derive(Serialize)]
pub struct ExportDocument<'a> {
    pub format_version: u32,
    pub meta: MetaDocument,
    pub census: CensusDocument,
    pub files: Vec<FileDocument<'a>>,
    pub symbols: Vec<SymbolDocument<'a>>,
    pub edges: Vec<EdgeDocument>,
    pub unresolved_calls: Vec<UnresolvedDocument<'a>>,
    pub diagnostics: Vec<DiagnosticDocument<'a>>,
}

/// The index that made the graph: its root, HEAD and time.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct MetaDocument {
    pub root: String,
    pub head_commit: Option<String>,
    pub head_branch: Option<String>,
    pub indexed_at_unix: i64,
    pub tether_version: String,
}

/// The graph's counts; with the graph at hand, also how call sites ended and which kinds of
/// diagnostics were met.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct CensusDocument {
    pub files: u64,
    pub files_skipped: u64,
    pub symbols_by_kind: BTreeMap<String, u64>,
    pub edges_by_kind: BTreeMap<String, u64>,
    pub unresolved_calls: u64,
    pub diagnostics: u64,
    /// How call sites ended (present right after indexing; empty when read from a database).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub call_outcomes: BTreeMap<String, u64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unresolved_reasons: BTreeMap<String, u64>,
    /// Diagnostics counted by kind (with the graph at hand).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub diagnostics_by_kind: BTreeMap<String, u64>,
}

#[derive(Serialize)]
pub struct FileDocument<'a> {
    pub path: &'a str,
    pub language: &'static str,
    pub size_bytes: u64,
    pub content_hash: String,
    pub status: &'static str,
}

#[derive(Serialize)]
pub struct SymbolDocument<'a> {
    pub id: String,
    pub kind: &'static str,
    pub name: &'a str,
    pub qualified_name: &'a str,
    pub path: &'a str,
    pub language: &'static str,
    pub start_line: u32,
    pub end_line: u32,
    pub start_byte: u32,
    pub end_byte: u32,
    pub parent: Option<String>,
    pub is_test: bool,
}

#[derive(Serialize)]
pub struct EdgeDocument {
    pub kind: &'static str,
    pub source: String,
    pub target: String,
    pub line: u32,
    pub confidence: f32,
    pub rule: &'static str,
}

#[derive(Serialize)]
pub struct UnresolvedDocument<'a> {
    pub caller: String,
    pub callee_text: &'a str,
    pub callee_name: &'a str,
    pub path: &'a str,
    pub line: u32,
    pub reason: &'static str,
}

#[derive(Serialize)]
pub struct DiagnosticDocument<'a> {
    pub path: &'a str,
    pub line: Option<u32>,
    pub kind: &'static str,
    pub message: &'a str,
}

impl CensusDocument {
    pub fn new(census: &Census, graph: Option<&Graph>) -> CensusDocument {
        CensusDocument {
            files: census.files,
            files_skipped: census.files_skipped,
            symbols_by_kind: census
                .symbols_by_kind
                .iter()
                .map(|(kind, count)| (kind.as_str().to_string(), *count))
                .collect(),
            edges_by_kind: census
                .edges_by_kind
                .iter()
                .map(|(kind, count)| (kind.as_str().to_string(), *count))
                .collect(),
            unresolved_calls: census.unresolved_calls,
            diagnostics: census.diagnostics,
            call_outcomes: graph
                .map(|graph| {
                    graph
                        .call_outcomes
                        .iter()
                        .map(|(outcome, count)| (outcome.as_str().to_string(), *count))
                        .collect()
                })
                .unwrap_or_default(),
            unresolved_reasons: graph
                .map(|graph| {
                    graph
                        .unresolved_reasons
                        .iter()
                        .map(|(reason, count)| (reason.as_str().to_string(), *count))
                        .collect()
                })
                .unwrap_or_default(),
            diagnostics_by_kind: graph
                .map(|graph| {
                    let mut kinds: BTreeMap<String, u64> = BTreeMap::new();
                    for diagnostic in &graph.diagnostics {
                        *kinds.entry(diagnostic.kind.as_str().to_string()).or_default() += 1;
                    }
                    kinds
                })
                .unwrap_or_default(),
        }
    }
}

pub(crate) fn meta_document(meta: &IndexMeta) -> MetaDocument {
    MetaDocument {
        root: meta.root.clone(),
        head_commit: meta.head_commit.clone(),
        head_branch: meta.head_branch.clone(),
        indexed_at_unix: meta.indexed_at_unix,
        tether_version: meta.tether_version.clone(),
    }
}

/// Writes the whole graph as one JSON document.
pub fn write_export_json(
    graph: &Graph,
    meta: &IndexMeta,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // One order whoever holds the graph (the database reads it back in this order; a
    // daemon's published graph is in the order it was built).
    let mut files: Vec<_> = graph.files.iter().collect();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    let mut symbols: Vec<_> = graph.symbols.iter().collect();
    symbols.sort_by(|a, b| {
        (&a.path, a.span.start_byte, &a.qualified_name).cmp(&(
            &b.path,
            b.span.start_byte,
            &b.qualified_name,
        ))
    });
    let kind_order = |kind| tether_model::EdgeKind::ALL.iter().position(|each| *each == kind);
    let mut edges: Vec<_> = graph.edges.iter().collect();
    edges.sort_by_key(|edge| {
        (kind_order(edge.kind), edge.source.as_i64(), edge.target.as_i64(), edge.line)
    });
    let document = ExportDocument {
        format_version: EXPORT_FORMAT_VERSION,
        meta: meta_document(meta),
        census: CensusDocument::new(&graph.census(), None),
        files: files
            .iter()
            .map(|file| FileDocument {
                path: &file.path,
                language: file.language.as_str(),
                size_bytes: file.size_bytes,
                content_hash: format!("{:016x}", file.content_hash),
                status: file.status.as_str(),
            })
            .collect(),
        symbols: symbols
            .iter()
            .map(|symbol| SymbolDocument {
                id: symbol.id.to_string(),
                kind: symbol.kind.as_str(),
                name: &symbol.name,
                qualified_name: &symbol.qualified_name,
                path: &symbol.path,
                language: symbol.language.as_str(),
                start_line: symbol.span.start_line,
                end_line: symbol.span.end_line,
                start_byte: symbol.span.start_byte,
                end_byte: symbol.span.end_byte,
                parent: symbol.parent.map(|parent| parent.to_string()),
                is_test: symbol.is_test,
            })
            .collect(),
        edges: edges
            .iter()
            .map(|edge| EdgeDocument {
                kind: edge.kind.as_str(),
                source: edge.source.to_string(),
                target: edge.target.to_string(),
                line: edge.line,
                confidence: edge.confidence,
                rule: edge.rule.as_str(),
            })
            .collect(),
        unresolved_calls: graph
            .unresolved
            .iter()
            .map(|call| UnresolvedDocument {
                caller: call.caller.to_string(),
                callee_text: &call.callee_text,
                callee_name: &call.callee_name,
                path: &call.path,
                line: call.line,
                reason: call.reason.as_str(),
            })
            .collect(),
        diagnostics: graph
            .diagnostics
            .iter()
            .map(|diagnostic| DiagnosticDocument {
                path: &diagnostic.path,
                line: diagnostic.line,
                kind: diagnostic.kind.as_str(),
                message: &diagnostic.message,
            })
            .collect(),
    };
    serde_json::to_writer(&mut *out, &document)?;
    out.write_all(b"\n")
}
