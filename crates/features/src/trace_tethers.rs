//! The traces tied to a symbol or file through their `artifacts` (issue 44), for `context`:
//! an artifact naming the file, the symbol's qualified name (or a member of it), or, for a
//! file, the qualified name of a symbol the file defines (so a package's `__init__.py` or a
//! crate's `lib.rs` is not about every name below it). Current findings first, then newer observations; the
//! first [`MOST_CONTEXT_TRACES`] are listed, the rest counted.
//!
//! Artifacts are the strings the trace was recorded with: a file renamed since, or a symbol
//! renamed, no longer matches (unlike an entry's pins, which git's rename detection follows).

use std::collections::HashSet;

use tether_memory::Trace;
use tether_protocol::wire::ContextTrace;

/// The most traces a `context` answer lists.
pub const MOST_CONTEXT_TRACES: usize = 10;

/// What an artifact may name to tie a trace to the subject.
pub(crate) enum TraceTarget<'a> {
    /// A symbol in its file: its qualified name, or a member of it (`Class.method`).
    Symbol { path: &'a str, qualified_name: &'a str },
    /// A file: its path, or the qualified name of a symbol it defines.
    File { path: &'a str, qualified_names: HashSet<&'a str> },
}

impl TraceTarget<'_> {
    fn names(&self, artifact: &str) -> bool {
        match self {
            TraceTarget::Symbol { path, qualified_name } => {
                artifact == *path
                    || artifact == *qualified_name
                    || artifact
                        .strip_prefix(qualified_name)
                        .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("::"))
            }
            TraceTarget::File { path, qualified_names } => {
                artifact == *path || qualified_names.contains(artifact)
            }
        }
    }
}

/// The traces tied to `target`, ranked, the first [`MOST_CONTEXT_TRACES`] of them, and how
/// many there are.
pub(crate) fn traces_about(traces: &[Trace], target: &TraceTarget) -> (Vec<ContextTrace>, usize) {
    let superseded: HashSet<&str> =
        traces.iter().flat_map(|trace| trace.supersedes.iter().map(String::as_str)).collect();
    let resolved: HashSet<&str> =
        traces.iter().flat_map(|trace| trace.resolves.iter().map(String::as_str)).collect();
    let mut found: Vec<(&Trace, &str, &'static str)> = traces
        .iter()
        .filter_map(|trace| {
            let artifact = trace.artifacts.iter().find(|artifact| target.names(artifact))?;
            let status = if resolved.contains(trace.id.as_str()) {
                "resolved"
            } else if superseded.contains(trace.id.as_str()) {
                "superseded"
            } else {
                "current"
            };
            Some((trace, artifact.as_str(), status))
        })
        .collect();
    found.sort_by(|(a, _, a_status), (b, _, b_status)| {
        (*a_status != "current")
            .cmp(&(*b_status != "current"))
            .then_with(|| {
                tether_memory::parse_timestamp(&b.observed_at)
                    .cmp(&tether_memory::parse_timestamp(&a.observed_at))
            })
            .then_with(|| a.id.cmp(&b.id))
    });
    let total = found.len();
    let listed = found
        .into_iter()
        .take(MOST_CONTEXT_TRACES)
        .map(|(trace, artifact, status)| ContextTrace {
            id: trace.id.clone(),
            subject: trace.subject.clone(),
            status: status.to_string(),
            finding_type: trace.finding_type.as_str().to_string(),
            outcome: trace.steps.outcome.clone(),
            observed_at: trace.observed_at.clone(),
            artifact: artifact.to_string(),
            file: trace.path.clone(),
        })
        .collect();
    (listed, total)
}

/// The traces as the database stores them (`tether_model::TraceGraph`): an artifact is
/// `ABOUT` a symbol when it names one symbol's qualified name exactly, or a file of the graph
/// (then its module); a name several symbols share ties to none of them.
pub(crate) fn trace_graph(
    loaded: &crate::LoadedTraces,
    snapshot: &tether_query::Snapshot,
) -> tether_model::TraceGraph {
    use tether_model::{CitationRecord, EvidenceRecord, TraceAboutRecord, TraceRecord};
    let mut graph = tether_model::TraceGraph::default();
    for trace in &loaded.traces {
        let text = |value: &Option<String>| value.clone().unwrap_or_default();
        graph.traces.push(TraceRecord {
            id: trace.id.clone(),
            subject: trace.subject.clone(),
            finding_type: trace.finding_type.as_str().to_string(),
            situation: trace.steps.situation.clone(),
            rationale: trace.steps.rationale.clone(),
            action: trace.steps.action.clone(),
            outcome: trace.steps.outcome.clone(),
            observed_at: trace.observed_at.clone(),
            recorded_at: trace.recorded_at.clone(),
            path: trace.path.clone(),
            run_id: text(&trace.run_id),
            agent_id: text(&trace.agent_id),
            subagent_id: text(&trace.subagent_id),
            operation_id: text(&trace.operation_id),
        });
        for (kind, targets) in [
            ("TRACE_SUPERSEDES", &trace.supersedes),
            ("RESOLVES", &trace.resolves),
            ("TRACE_DEPENDS_ON", &trace.depends_on),
            ("TRACE_DEPENDS_ON_ENTRY", &trace.depends_on),
        ] {
            graph
                .links
                .extend(targets.iter().map(|target| (kind, trace.id.clone(), target.clone())));
        }
        for reference in &trace.evidence_refs {
            graph.evidence.push(EvidenceRecord {
                source_id: reference.source_id.clone(),
                locator: reference.locator.clone(),
                revision: reference.revision.clone().unwrap_or_default(),
                observed_at: reference.observed_at.clone(),
            });
            graph.citations.push(CitationRecord {
                trace_id: trace.id.clone(),
                source_id: reference.source_id.clone(),
                summary: reference.summary.clone(),
            });
        }
        for artifact in &trace.artifacts {
            let named = match snapshot.symbols_named(artifact) {
                [only] => Some(*only),
                _ => snapshot.symbols_in_file(artifact).iter().copied().find(|index| {
                    let symbol = snapshot.symbol(*index);
                    symbol.kind == tether_model::SymbolKind::Module && symbol.parent.is_none()
                }),
            };
            if let Some(index) = named {
                graph.about.push(TraceAboutRecord {
                    trace_id: trace.id.clone(),
                    symbol: snapshot.symbol(index).id,
                    artifact: artifact.clone(),
                });
            }
        }
    }
    graph
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traced(id: &str, hour: u32, artifacts: &[&str]) -> Trace {
        let step = || "x".to_string();
        Trace {
            id: id.to_string(),
            subject: "s@linux".to_string(),
            finding_type: tether_memory::FindingType::State,
            steps: tether_memory::TraceSteps {
                situation: step(),
                rationale: step(),
                action: step(),
                outcome: step(),
            },
            observed_at: format!("2026-12-07T{hour:02}:00:00Z"),
            recorded_at: "2026-12-07T13:00:00Z".to_string(),
            artifacts: artifacts.iter().map(|artifact| artifact.to_string()).collect(),
            run_id: None,
            agent_id: None,
            subagent_id: None,
            evidence: Vec::new(),
            evidence_refs: Vec::new(),
            supersedes: Vec::new(),
            resolves: Vec::new(),
            depends_on: Vec::new(),
            operation_id: None,
            path: tether_memory::trace_file_path(id),
        }
    }

    #[test]
    fn artifacts_tie_traces_to_a_file_its_symbols_and_their_members() {
        let mut newer = traced("newer", 11, &["app.core.Parser.parse"]);
        newer.supersedes = vec!["older".to_string()];
        let traces = [
            traced("older", 9, &["app/core.py"]),
            newer,
            traced("elsewhere", 12, &["app/other.py", "app.core_extra.f"]),
            traced("module", 8, &["app.core"]),
        ];
        let ids = |target: TraceTarget| -> Vec<(String, String)> {
            traces_about(&traces, &target).0.into_iter().map(|t| (t.id, t.status)).collect()
        };
        let names = HashSet::from(["app.core", "app.core.Parser", "app.core.Parser.parse"]);
        let file = TraceTarget::File { path: "app/core.py", qualified_names: names };
        assert_eq!(
            ids(file),
            [
                ("newer".into(), "current".into()),
                ("module".into(), "current".into()),
                ("older".into(), "superseded".into())
            ]
        );
        let class = TraceTarget::Symbol { path: "app/core.py", qualified_name: "app.core.Parser" };
        assert_eq!(
            ids(class),
            [("newer".into(), "current".into()), ("older".into(), "superseded".into())]
        );
    }
}
