//! `recall` over the socket: the memory crate's pure [`tether_memory::recall`] over the
//! traces read from `.memory/traces/` (cached), each recalled trace written out whole with
//! its status (current, superseded, resolved), why it is in the answer, whether a premise it
//! rests on changed since (`trace_recheck`), and, for evidence located in the repository,
//! whether that path exists at HEAD. Unreadable trace files are named, never dropped
//! silently.

use std::collections::HashMap;

use tether_memory::{
    PremiseChange, RecallReason, RecallRequest, Trace, TraceRecheck, UnknownReason,
};
use tether_protocol::wire::{EvidenceCitation, RecallAnswer, RecalledTraceItem, Recheck};
use tether_protocol::RecallParams;

use crate::FeatureContext;

/// Premises `trace_recheck` visits per recalled trace before it answers `unknown`.
const RECHECK_BUDGET: usize = 1_000;

/// The most unreadable trace files an answer names.
const MOST_UNREADABLE_NAMED: usize = 20;

/// `recall` (see the module's doc).
pub fn recall_traces(state: &FeatureContext, params: RecallParams) -> RecallAnswer {
    let loaded = state.caches.traces.current(state.root);
    let repository = tether_git::discover(state.root);
    let entries = {
        let head = repository.as_ref().and_then(|repository| repository.head_stamp().0);
        let mut cache = state.caches.memory.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        cache.current(state.root, head)
    };
    let request = RecallRequest {
        query: params.query.clone().unwrap_or_default(),
        anchors: params.anchors.clone(),
        max_nodes: params.max_nodes,
        max_depth: params.max_depth,
        token_budget: params.token_budget,
    };
    let recall = tether_memory::recall(&loaded.traces, &request);
    let by_id: HashMap<&str, &Trace> =
        loaded.traces.iter().map(|trace| (trace.id.as_str(), trace)).collect();
    let recalled: Vec<(&Trace, &tether_memory::RecalledTrace)> = recall
        .traces
        .iter()
        .filter_map(|recalled| by_id.get(recalled.id.as_str()).map(|trace| (*trace, recalled)))
        .collect();
    let at_head = evidence_paths_at_head(repository.as_ref(), &recalled);
    let traces: Vec<RecalledTraceItem> = recalled
        .iter()
        .map(|(trace, recalled)| {
            let recheck = trace_recheck_on_wire(tether_memory::trace_recheck(
                &loaded.traces,
                &entries.entries,
                &trace.id,
                RECHECK_BUDGET,
            ));
            item(trace, recalled, recheck, &at_head)
        })
        .collect();
    let unreadable: Vec<String> = loaded
        .problems
        .iter()
        .filter(|problem| problem.is_error())
        .take(MOST_UNREADABLE_NAMED)
        .map(|problem| problem.to_string())
        .collect();
    let next = if recall.incomplete {
        format!(
            "{} traces were left out: raise max_nodes or token_budget, or read {}",
            recall.left_out,
            recall.read_next.first().map(String::as_str).unwrap_or("the files named")
        )
    } else if traces.is_empty() {
        "no trace matches: try fewer words, or anchors (a path, a subject, a trace id)".to_string()
    } else {
        "record_trace a newer observation with evidence to supersede a state finding".to_string()
    };
    RecallAnswer {
        query: params.query,
        anchors: params.anchors,
        traces,
        completeness: if recall.incomplete { "incomplete" } else { "complete" }.to_string(),
        left_out: recall.left_out,
        read_next: recall.read_next,
        unreadable,
        next,
    }
}

/// Whether each evidence locator that looks like a repository path exists at HEAD, in one
/// git call; locators that are not such paths are absent from the map.
fn evidence_paths_at_head(
    repository: Option<&tether_git::Repository>,
    recalled: &[(&Trace, &tether_memory::RecalledTrace)],
) -> HashMap<String, bool> {
    let Some(repository) = repository else { return HashMap::new() };
    let mut paths: Vec<String> = recalled
        .iter()
        .flat_map(|(trace, _)| &trace.evidence_refs)
        .map(|reference| reference.locator.clone())
        .filter(|locator| looks_like_repository_path(locator))
        .collect();
    paths.sort();
    paths.dedup();
    match repository.paths_at_head(&paths) {
        Ok(there) => paths.into_iter().zip(there).collect(),
        Err(_) => HashMap::new(),
    }
}

/// A relative file path: a folder or an extension, no scheme or `:` (a test id, a
/// `path:line`, `log:x`), no spaces, no `..`. Other locators (`ci-run-8812`) get no answer.
fn looks_like_repository_path(locator: &str) -> bool {
    let file_name = locator.rsplit('/').next().unwrap_or(locator);
    !locator.is_empty()
        && !locator.contains(':')
        && !locator.starts_with('/')
        && !locator.contains(char::is_whitespace)
        && (locator.contains('/') || file_name.contains('.'))
        && !locator.split('/').any(|part| part == ".." || part == "." || part.is_empty())
}

fn trace_recheck_on_wire(recheck: TraceRecheck) -> Recheck {
    match recheck {
        TraceRecheck::Fine => Recheck::Fine,
        TraceRecheck::NeedsRecheck { mut path, change } => {
            let (PremiseChange::Superseded { by } | PremiseChange::Resolved { by }) = change;
            path.push(by);
            Recheck::NeedsRecheck { path }
        }
        TraceRecheck::Unknown { reason, path } => Recheck::Unknown {
            reason: match reason {
                UnknownReason::MissingPremise { id } => {
                    format!("premise {id} is neither a trace nor an entry ({})", path.join(" → "))
                }
                UnknownReason::Cycle => format!("depends_on loops: {}", path.join(" → ")),
                UnknownReason::BudgetExhausted { visited } => {
                    format!("stopped after {visited} premises with more left")
                }
            },
        },
    }
}

fn item(
    trace: &Trace,
    recalled: &tether_memory::RecalledTrace,
    recheck: Recheck,
    at_head: &HashMap<String, bool>,
) -> RecalledTraceItem {
    let status = if !recalled.resolved_by.is_empty() {
        "resolved"
    } else if !recalled.superseded_by.is_empty() {
        "superseded"
    } else {
        "current"
    };
    let reason = match &recalled.reason {
        RecallReason::Matched => "matched".to_string(),
        RecallReason::Anchored { anchor } => format!("anchored by {anchor}"),
        RecallReason::Linked { from, link } => format!("linked from {from} ({link})"),
    };
    RecalledTraceItem {
        id: trace.id.clone(),
        file: trace.path.clone(),
        subject: trace.subject.clone(),
        finding_type: trace.finding_type.as_str().to_string(),
        situation: trace.steps.situation.clone(),
        rationale: trace.steps.rationale.clone(),
        action: trace.steps.action.clone(),
        outcome: trace.steps.outcome.clone(),
        observed_at: trace.observed_at.clone(),
        recorded_at: trace.recorded_at.clone(),
        status: status.to_string(),
        reason,
        depth: recalled.depth,
        artifacts: trace.artifacts.clone(),
        evidence: trace.evidence.clone(),
        evidence_refs: trace
            .evidence_refs
            .iter()
            .map(|reference| EvidenceCitation {
                source_id: reference.source_id.clone(),
                locator: reference.locator.clone(),
                revision: reference.revision.clone(),
                observed_at: reference.observed_at.clone(),
                summary: reference.summary.clone(),
                exists_at_head: at_head.get(&reference.locator).copied(),
            })
            .collect(),
        supersedes: trace.supersedes.clone(),
        superseded_by: recalled.superseded_by.clone(),
        resolves: trace.resolves.clone(),
        resolved_by: recalled.resolved_by.clone(),
        depends_on: trace.depends_on.clone(),
        recheck,
        run_id: trace.run_id.clone(),
        agent_id: trace.agent_id.clone(),
        subagent_id: trace.subagent_id.clone(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_file_paths_are_looked_up_at_head() {
        for path in ["tests/test_core.py", "README.md", "src/a/b.rs", "docs/x"] {
            assert!(super::looks_like_repository_path(path), "{path}");
        }
        for other in [
            "ci-run-8812",
            "tests/test_x.py::test_y",
            "src/a.py:12",
            "log:build.txt",
            "https://ci/1",
            "../x.py",
            "/etc/passwd",
            "a b.py",
        ] {
            assert!(!super::looks_like_repository_path(other), "{other}");
        }
    }
}
