//! [`recall`]: the traces that bear on a question (issue 44). Seeds are traces whose
//! subject, steps, artifacts or ids hold every word of the query, or that an anchor names
//! (a trace id, a subject, an artifact path or symbol, a run id); they are expanded through
//! `depends_on`, `supersedes` and `resolves` links (both ways), breadth-first up to a depth.
//! The traces found are ranked before any limit applies: what is current first (not
//! superseded, not settled by a resolution), resolutions ahead of what they settle, newer
//! observations ahead of older ones; then the node limit and the token budget cut the list,
//! and what they cut is counted and named, so the answer says it is incomplete.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::timestamp::parse_timestamp;
use crate::trace::Trace;

/// What to recall and how much.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecallRequest {
    /// Words every seed must hold (case-insensitive); empty with anchors only.
    pub query: String,
    /// Trace ids, subjects, artifacts (paths, symbols) or run ids.
    pub anchors: Vec<String>,
    /// At most this many traces answered (1..=1000).
    pub max_nodes: usize,
    /// Links followed from a seed (0: the seeds only).
    pub max_depth: usize,
    /// At most about this many tokens of trace text (a token is taken as 4 bytes).
    pub token_budget: usize,
}

/// Why a trace is in the answer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecallReason {
    /// It holds the query's words.
    Matched,
    /// An anchor names it.
    Anchored { anchor: String },
    /// Reached from `from` through a link (`depends_on`, `supersedes`, `resolves`, or one of
    /// them followed backwards: `depended_on_by`, `superseded_by`, `resolved_by`).
    Linked { from: String, link: &'static str },
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecalledTrace {
    pub id: String,
    pub reason: RecallReason,
    /// Links from the nearest seed.
    pub depth: usize,
    /// Newer traces that supersede it.
    pub superseded_by: Vec<String>,
    /// Resolutions that settle it.
    pub resolved_by: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Recall {
    /// Ranked: current findings and resolutions first, newer before older.
    pub traces: Vec<RecalledTrace>,
    /// The limits cut traces that were found.
    pub incomplete: bool,
    /// How many were cut.
    pub left_out: usize,
    /// The paths of the first traces cut (at most 5): what to read next.
    pub read_next: Vec<String>,
}

/// The traces of `traces` that bear on `request`, ranked and cut to its limits.
pub fn recall(traces: &[Trace], request: &RecallRequest) -> Recall {
    let by_id: HashMap<&str, &Trace> =
        traces.iter().map(|trace| (trace.id.as_str(), trace)).collect();
    let mut superseded_by: HashMap<&str, Vec<String>> = HashMap::new();
    let mut resolved_by: HashMap<&str, Vec<String>> = HashMap::new();
    let mut links: HashMap<&str, Vec<(&str, &'static str)>> = HashMap::new();
    for trace in traces {
        for (ids, forward, backward) in [
            (&trace.depends_on, "depends_on", "depended_on_by"),
            (&trace.supersedes, "supersedes", "superseded_by"),
            (&trace.resolves, "resolves", "resolved_by"),
        ] {
            for target in ids.iter().filter(|target| by_id.contains_key(target.as_str())) {
                links.entry(trace.id.as_str()).or_default().push((target.as_str(), forward));
                links.entry(target.as_str()).or_default().push((trace.id.as_str(), backward));
            }
        }
        for target in &trace.supersedes {
            superseded_by.entry(target.as_str()).or_default().push(trace.id.clone());
        }
        for target in &trace.resolves {
            resolved_by.entry(target.as_str()).or_default().push(trace.id.clone());
        }
    }
    // Seeds, in the traces' order; then breadth-first expansion.
    let words: Vec<String> = request.query.split_whitespace().map(str::to_lowercase).collect();
    let mut found: Vec<(&Trace, RecallReason, usize)> = Vec::new();
    let mut reached: HashSet<&str> = HashSet::new();
    let mut queue: VecDeque<(&str, usize)> = VecDeque::new();
    for trace in traces {
        let reason = anchor_naming(trace, &request.anchors)
            .map(|anchor| RecallReason::Anchored { anchor })
            .or_else(|| {
                (!words.is_empty() && holds_every_word(trace, &words))
                    .then_some(RecallReason::Matched)
            });
        if let Some(reason) = reason {
            reached.insert(trace.id.as_str());
            queue.push_back((trace.id.as_str(), 0));
            found.push((trace, reason, 0));
        }
    }
    while let Some((id, depth)) = queue.pop_front() {
        if depth >= request.max_depth {
            continue;
        }
        for (next, link) in links.get(id).into_iter().flatten() {
            if reached.insert(next) {
                queue.push_back((next, depth + 1));
                let reason = RecallReason::Linked { from: id.to_string(), link };
                found.push((by_id[next], reason, depth + 1));
            }
        }
    }
    let is_settled = |trace: &Trace| {
        superseded_by.contains_key(trace.id.as_str()) || resolved_by.contains_key(trace.id.as_str())
    };
    found.sort_by(|(a, _, a_depth), (b, _, b_depth)| {
        is_settled(a)
            .cmp(&is_settled(b))
            .then_with(|| (!b.resolves.is_empty()).cmp(&!a.resolves.is_empty()))
            .then_with(|| parse_timestamp(&b.observed_at).cmp(&parse_timestamp(&a.observed_at)))
            .then_with(|| a_depth.cmp(b_depth))
            .then_with(|| a.id.cmp(&b.id))
    });
    let mut answer =
        Recall { traces: Vec::new(), incomplete: false, left_out: 0, read_next: Vec::new() };
    let mut tokens = 0;
    for (trace, reason, depth) in found {
        let cost = trace_tokens(trace);
        if answer.traces.len() >= request.max_nodes || tokens + cost > request.token_budget {
            answer.incomplete = true;
            answer.left_out += 1;
            if answer.read_next.len() < 5 {
                answer.read_next.push(trace.path.clone());
            }
            continue;
        }
        tokens += cost;
        answer.traces.push(RecalledTrace {
            id: trace.id.clone(),
            reason,
            depth,
            superseded_by: superseded_by.get(trace.id.as_str()).cloned().unwrap_or_default(),
            resolved_by: resolved_by.get(trace.id.as_str()).cloned().unwrap_or_default(),
        });
    }
    answer
}

/// The first anchor that names the trace.
fn anchor_naming(trace: &Trace, anchors: &[String]) -> Option<String> {
    anchors
        .iter()
        .find(|anchor| {
            trace.id == **anchor
                || trace.subject == **anchor
                || trace.run_id.as_deref() == Some(anchor.as_str())
                || trace.artifacts.iter().any(|artifact| artifact == *anchor)
        })
        .cloned()
}

fn holds_every_word(trace: &Trace, words: &[String]) -> bool {
    let mut text = format!("{} {}", trace.id, trace.subject);
    for (_, step) in trace.steps.named() {
        text.push(' ');
        text.push_str(step);
    }
    for artifact in &trace.artifacts {
        text.push(' ');
        text.push_str(artifact);
    }
    let text = text.to_lowercase();
    words.iter().all(|word| text.contains(word.as_str()))
}

/// About how many tokens the trace's text takes in an answer.
/// Everything an answer writes of it counts: the steps, subject, id, artifacts, evidence
/// and each citation (source, locator, revision, time, summary), plus the field names.
fn trace_tokens(trace: &Trace) -> usize {
    let steps: usize = trace.steps.named().iter().map(|(_, step)| step.len()).sum();
    let texts = |values: &[String]| values.iter().map(|value| value.len() + 4).sum::<usize>();
    let citations: usize = trace
        .evidence_refs
        .iter()
        .map(|reference| {
            reference.source_id.len()
                + reference.locator.len()
                + reference.revision.as_ref().map_or(0, String::len)
                + reference.observed_at.len()
                + reference.summary.len()
                + 40
        })
        .sum();
    (trace.subject.len()
        + trace.id.len()
        + steps
        + texts(&trace.artifacts)
        + texts(&trace.evidence)
        + texts(&trace.supersedes)
        + texts(&trace.resolves)
        + texts(&trace.depends_on)
        + citations
        + 2 * trace.path.len()
        + 160)
        / 4
}

#[cfg(test)]
#[path = "trace_recall_tests.rs"]
mod tests;
