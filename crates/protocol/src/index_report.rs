//! The index report: the census of a graph with how its call sites ended, and, when asked,
//! the callee names most often left unresolved (by reason) and the first diagnostics. One
//! document whoever holds the graph: `tether index` builds it from the graph it just indexed,
//! a running daemon (`index_report`) from its published graph, and the CLI prints either the
//! same way.
//!
//! It deliberately ranks nothing beyond counts: which unresolved names matter is the reader's.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tether_model::{Graph, IndexMeta, UnresolvedCall, UnresolvedReason};

use crate::export::{meta_document, CensusDocument, MetaDocument};

/// How many callee names each reason lists.
pub const REPORTED_NAMES_PER_REASON: usize = 10;
/// How many diagnostics the report spells out (`tether export` lists them all).
pub const REPORTED_DIAGNOSTICS: usize = 50;

/// `index_report`, and `tether index --json` (without `report`, the census document it always
/// wrote: `{meta, census}`).
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct IndexReportAnswer {
    pub meta: MetaDocument,
    pub census: CensusDocument,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub report: Option<IndexReportSections>,
}

impl IndexReportAnswer {
    /// One line of JSON, fields in their declared order (`tether index --json`).
    pub fn to_json_line(&self) -> String {
        serde_json::to_string(self).expect("an index report serializes")
    }
}

/// What `--report` adds to the census.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct IndexReportSections {
    /// For each reason call sites stayed unresolved (in the reasons' documented order), the
    /// callee names met most often, at most ten.
    pub unresolved_names: Vec<UnresolvedNames>,
    /// The first fifty diagnostics, as `path:line: kind: message`.
    pub diagnostics: Vec<String>,
    /// Diagnostics past the fifty listed.
    pub diagnostics_omitted: u64,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct UnresolvedNames {
    pub reason: String,
    pub names: Vec<NameCount>,
}

#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, JsonSchema)]
pub struct NameCount {
    pub name: String,
    pub count: u64,
}

/// The report of `graph`; the sections only `with_sections`.
pub fn index_report_answer(
    graph: &Graph,
    meta: &IndexMeta,
    with_sections: bool,
) -> IndexReportAnswer {
    IndexReportAnswer {
        meta: meta_document(meta),
        census: CensusDocument::new(&graph.census(), Some(graph)),
        report: with_sections.then(|| report_sections(graph)),
    }
}

fn report_sections(graph: &Graph) -> IndexReportSections {
    let unresolved_names = UnresolvedReason::ALL
        .iter()
        .filter_map(|reason| {
            let mut names: BTreeMap<&str, u64> = BTreeMap::new();
            for call in graph.unresolved.iter().filter(|call| call.reason == *reason) {
                *names.entry(reported_name(call)).or_default() += 1;
            }
            if names.is_empty() {
                return None;
            }
            let mut ranked: Vec<(&str, u64)> = names.into_iter().collect();
            ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            ranked.truncate(REPORTED_NAMES_PER_REASON);
            Some(UnresolvedNames {
                reason: reason.as_str().to_string(),
                names: ranked
                    .into_iter()
                    .map(|(name, count)| NameCount { name: name.to_string(), count })
                    .collect(),
            })
        })
        .collect();
    IndexReportSections {
        unresolved_names,
        diagnostics: graph
            .diagnostics
            .iter()
            .take(REPORTED_DIAGNOSTICS)
            .map(|diagnostic| diagnostic.to_string())
            .collect(),
        diagnostics_omitted: graph.diagnostics.len().saturating_sub(REPORTED_DIAGNOSTICS) as u64,
    }
}

/// How the report names an unresolved callee: by its name, or, when it has none
/// (`(self.f)(x)`, `thunk()()`), by its expression, never by an empty string.
fn reported_name(call: &UnresolvedCall) -> &str {
    match call.callee_name.as_str() {
        "" => call.callee_text.as_str(),
        name => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unnamed_callee_is_reported_by_its_expression() {
        let call = |name: &str, text: &str| UnresolvedCall {
            caller: tether_model::SymbolId::from_i64(1),
            callee_text: text.to_string(),
            callee_name: name.to_string(),
            path: "app.py".to_string(),
            line: 3,
            reason: UnresolvedReason::ComplexCallee,
        };
        assert_eq!(reported_name(&call("", "(self.f)(x)")), "(self.f)(x)");
        assert_eq!(reported_name(&call("get", "requests.get")), "get");
        let graph = Graph {
            unresolved: vec![call("", "(self.f)(x)"), call("", "(self.f)(x)"), call("g", "g")],
            ..Graph::default()
        };
        let report = index_report_answer(&graph, &IndexMeta::default(), true).report.unwrap();
        let names = &report.unresolved_names[0].names;
        assert_eq!(
            names.iter().map(|each| (each.name.as_str(), each.count)).collect::<Vec<_>>(),
            [("(self.f)(x)", 2), ("g", 1)]
        );
    }
}
