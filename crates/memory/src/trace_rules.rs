//! [`check_new_traces`]: the rules a batch of new traces must keep against the traces and
//! entries already recorded (issue 44). A refusal names the field it is about; nothing is
//! written for a refused batch (the caller's business: this crate does no IO).
//!
//! Not checked here: `operation_id` replays (the writer keeps the ids it has seen), whether
//! evidence is true (tether never claims to have verified it), and whether the traces a
//! resolution settles really disagree.

use std::collections::{HashMap, HashSet};

use crate::record::validate_id;
use crate::timestamp::parse_timestamp;
use crate::trace::{EvidenceRef, FindingType, Trace};

/// The longest subject, in characters.
pub const MAX_SUBJECT_CHARS: usize = 500;
/// The longest step, evidence string or artifact, in characters.
pub const MAX_TRACE_TEXT_CHARS: usize = 4_000;

/// Why a batch of traces is refused: the field (`traces[1].supersedes`) and what is wrong.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TraceRefusal {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for TraceRefusal {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(formatter, "{}: {}", self.field, self.message)
    }
}

/// Checks `batch` (in order: a trace may name one before it in the batch) against
/// `existing` traces and the ids of existing entries.
pub fn check_new_traces(
    batch: &[Trace],
    existing: &[Trace],
    entry_ids: &HashSet<&str>,
) -> Result<(), TraceRefusal> {
    let mut known: HashMap<&str, &Trace> =
        existing.iter().map(|trace| (trace.id.as_str(), trace)).collect();
    let mut sources: HashMap<&str, &EvidenceRef> = HashMap::new();
    for reference in existing.iter().flat_map(|trace| &trace.evidence_refs) {
        sources.entry(reference.source_id.as_str()).or_insert(reference);
    }
    for (position, trace) in batch.iter().enumerate() {
        let refuse = |field: &str, message: String| TraceRefusal {
            field: format!("traces[{position}].{field}"),
            message,
        };
        validate_id(&trace.id).map_err(|invalid| refuse("id", format!("bad {invalid}")))?;
        if known.contains_key(trace.id.as_str()) || entry_ids.contains(trace.id.as_str()) {
            return Err(refuse("id", format!("`{}` is already used", trace.id)));
        }
        check_line("subject", &trace.subject, MAX_SUBJECT_CHARS)
            .map_err(|message| refuse("subject", message))?;
        for (field, step) in trace.steps.named() {
            check_line(field, step, MAX_TRACE_TEXT_CHARS)
                .map_err(|message| refuse(field, message))?;
        }
        for (field, value) in
            [("observed_at", &trace.observed_at), ("recorded_at", &trace.recorded_at)]
        {
            check_timestamp(value).map_err(|message| refuse(field, message))?;
        }
        for (field, value) in [
            ("run_id", &trace.run_id),
            ("agent_id", &trace.agent_id),
            ("subagent_id", &trace.subagent_id),
            ("operation_id", &trace.operation_id),
        ] {
            if let Some(value) = value {
                check_line(field, value, MAX_SUBJECT_CHARS)
                    .map_err(|message| refuse(field, message))?;
            }
        }
        for (index, artifact) in trace.artifacts.iter().enumerate() {
            let field = format!("artifacts[{index}]");
            check_line(&field, artifact, MAX_TRACE_TEXT_CHARS)
                .map_err(|message| refuse(&field, message))?;
            if artifact.starts_with('/') || artifact.split('/').any(|part| part == "..") {
                return Err(refuse(
                    &field,
                    format!(
                        "`{artifact}` must be a repository-relative path or a symbol, without `..`"
                    ),
                ));
            }
        }
        for (index, evidence) in trace.evidence.iter().enumerate() {
            let field = format!("evidence[{index}]");
            check_line(&field, evidence, MAX_TRACE_TEXT_CHARS)
                .map_err(|message| refuse(&field, message))?;
        }
        for (index, reference) in trace.evidence_refs.iter().enumerate() {
            let field = |name: &str| format!("evidence_refs[{index}].{name}");
            for (name, value) in [
                ("source_id", &reference.source_id),
                ("locator", &reference.locator),
                ("summary", &reference.summary),
            ] {
                check_line(&field(name), value, MAX_TRACE_TEXT_CHARS)
                    .map_err(|message| refuse(&field(name), message))?;
            }
            check_timestamp(&reference.observed_at)
                .map_err(|message| refuse(&field("observed_at"), message))?;
            if let Some(cited) = sources.get(reference.source_id.as_str()) {
                if (&cited.locator, &cited.revision, &cited.observed_at)
                    != (&reference.locator, &reference.revision, &reference.observed_at)
                {
                    return Err(refuse(&field("source_id"), format!(
                        "`{}` is already cited with locator `{}`, revision `{}`, observed at {}: one source id is one source",
                        reference.source_id, cited.locator, cited.revision.as_deref().unwrap_or("none"), cited.observed_at
                    )));
                }
            }
            sources.entry(reference.source_id.as_str()).or_insert(reference);
        }
        check_supersession(trace, &known).map_err(|(field, message)| refuse(field, message))?;
        check_resolution(trace, &known).map_err(|(field, message)| refuse(field, message))?;
        for premise in &trace.depends_on {
            if !known.contains_key(premise.as_str()) && !entry_ids.contains(premise.as_str()) {
                return Err(refuse(
                    "depends_on",
                    format!("`{premise}` is neither a trace nor an entry"),
                ));
            }
        }
        known.insert(trace.id.as_str(), trace);
    }
    Ok(())
}

/// A newer `state` observation with evidence may supersede earlier `state` traces of its
/// subject; an explanation is never superseded this way.
fn check_supersession(
    trace: &Trace,
    known: &HashMap<&str, &Trace>,
) -> Result<(), (&'static str, String)> {
    if trace.supersedes.is_empty() {
        return Ok(());
    }
    if trace.finding_type != FindingType::State {
        return Err(("supersedes", "only a `state` finding supersedes earlier ones".to_string()));
    }
    if !trace.has_evidence() {
        return Err((
            "supersedes",
            "a trace that supersedes others must carry evidence".to_string(),
        ));
    }
    let observed = parse_timestamp(&trace.observed_at);
    for earlier_id in &trace.supersedes {
        let earlier = same_subject_trace(trace, earlier_id, known, "supersedes")?;
        if earlier.finding_type != FindingType::State {
            return Err((
                "supersedes",
                format!("`{earlier_id}` is an explanation: explanations are never superseded"),
            ));
        }
        if observed <= parse_timestamp(&earlier.observed_at) {
            return Err(("observed_at", format!(
                "{} is not newer than `{earlier_id}`'s observation at {}: only a newer observation supersedes",
                trace.observed_at, earlier.observed_at
            )));
        }
    }
    Ok(())
}

/// A trace with evidence may resolve two or more traces of its subject.
fn check_resolution(
    trace: &Trace,
    known: &HashMap<&str, &Trace>,
) -> Result<(), (&'static str, String)> {
    if trace.resolves.is_empty() {
        return Ok(());
    }
    let distinct: HashSet<&str> = trace.resolves.iter().map(String::as_str).collect();
    if distinct.len() < 2 {
        return Err(("resolves", "a resolution settles two or more traces".to_string()));
    }
    if !trace.has_evidence() {
        return Err(("resolves", "a resolution must carry evidence".to_string()));
    }
    for settled_id in &trace.resolves {
        same_subject_trace(trace, settled_id, known, "resolves")?;
    }
    Ok(())
}

/// The known trace `id` that `trace` names in `field`, when it is about the same subject.
fn same_subject_trace<'a>(
    trace: &Trace,
    id: &str,
    known: &HashMap<&str, &'a Trace>,
    field: &'static str,
) -> Result<&'a Trace, (&'static str, String)> {
    let Some(named) = known.get(id).copied() else {
        return Err((field, format!("`{id}` is not a trace")));
    };
    if named.subject != trace.subject {
        return Err((
            field,
            format!("`{id}` is about `{}`, not `{}`", named.subject, trace.subject),
        ));
    }
    Ok(named)
}

/// One non-empty line of at most `max_chars` characters.
fn check_line(field: &str, value: &str, max_chars: usize) -> Result<(), String> {
    if value.trim().is_empty() {
        return Err(format!("`{field}` must not be empty"));
    }
    if value.contains(['\n', '\r']) {
        return Err(format!("`{field}` must be one line"));
    }
    if let Some(control) =
        value.chars().find(|character| character.is_control() && *character != '\t')
    {
        return Err(format!("`{field}` holds the control character U+{:04X}", u32::from(control)));
    }
    let length = value.chars().count();
    if length > max_chars {
        return Err(format!("`{field}` has {length} characters, over {max_chars}"));
    }
    Ok(())
}

fn check_timestamp(value: &str) -> Result<(), String> {
    parse_timestamp(value)
        .map(|_| ())
        .ok_or_else(|| format!("`{value}` is not an RFC 3339 timestamp like 2026-12-07T10:00:00Z"))
}

#[cfg(test)]
#[path = "trace_rules_tests.rs"]
mod tests;
