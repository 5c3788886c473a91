//! The traces tied to a symbol or file through their `artifacts` (issue 44), for `context`:
//! an artifact naming the file, the symbol's qualified name (or a member of it), or, for a
//! file, any symbol of its module. Current findings first, then newer observations; the
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
pub(crate) struct TraceTarget<'a> {
    pub path: &'a str,
    /// The symbol's qualified name, or the file's module name (whose members count).
    pub qualified_name: Option<&'a str>,
}

impl TraceTarget<'_> {
    fn names(&self, artifact: &str) -> bool {
        if artifact == self.path {
            return true;
        }
        let Some(name) = self.qualified_name else { return false };
        if artifact == name {
            return true;
        }
        artifact
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with("::"))
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
        let file = TraceTarget { path: "app/core.py", qualified_name: Some("app.core") };
        assert_eq!(
            ids(file),
            [
                ("newer".into(), "current".into()),
                ("module".into(), "current".into()),
                ("older".into(), "superseded".into())
            ]
        );
        let class = TraceTarget { path: "app/core.py", qualified_name: Some("app.core.Parser") };
        assert_eq!(
            ids(class),
            [("newer".into(), "current".into()), ("older".into(), "superseded".into())]
        );
    }
}
