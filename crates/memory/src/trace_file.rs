//! A trace's file, `.memory/traces/<id>.md`: [`parse_trace`] reads it with every problem at
//! its line, [`render_trace`] writes the canonical form, which [`parse_trace`] reads back to
//! the same [`Trace`]. The front matter holds every field (the four steps one line each); the
//! body is free Markdown tether writes as the steps joined by arrows, for people reading the
//! file, and never reads back.

use std::collections::HashMap;

use crate::front_matter::{split_front_matter, RawField, RawItemValue, RawValue};
use crate::parse::FieldReader;
use crate::problem::EntryProblem;
use crate::record::validate_id;
use crate::scalar::{render_inline_list, render_scalar};
use crate::trace::{EvidenceRef, FindingType, Trace, TraceSteps};

/// The front-matter keys of a trace, in the canonical order.
const TRACE_KEYS: [&str; 20] = [
    "id",
    "subject",
    "finding_type",
    "situation",
    "rationale",
    "action",
    "outcome",
    "observed_at",
    "recorded_at",
    "artifacts",
    "run_id",
    "agent_id",
    "subagent_id",
    "evidence",
    "evidence_refs",
    "supersedes",
    "resolves",
    "depends_on",
    "operation_id",
    "type",
];

/// Reads one trace file; `path` is its repository-relative path. Returns the trace and its
/// warnings (unknown keys), or the first error: a missing or malformed field.
pub fn parse_trace(path: &str, text: &str) -> Result<(Trace, Vec<EntryProblem>), EntryProblem> {
    let front_matter = split_front_matter(text)
        .map_err(|error| EntryProblem::error(path, error.line, error.message))?;
    let reader = FieldReader { path };
    let mut warnings = Vec::new();
    let mut fields: HashMap<&str, &RawField> = HashMap::new();
    for field in &front_matter.fields {
        if let Some(first) = fields.insert(field.key.as_str(), field) {
            return Err(reader.error(
                field.line,
                format!("duplicate key `{}` (first on line {})", field.key, first.line),
            ));
        }
        if !TRACE_KEYS.contains(&field.key.as_str()) {
            warnings.push(EntryProblem::warning(
                path,
                field.line,
                format!("unknown key `{}` is ignored", field.key),
            ));
        }
    }
    let optional = |key: &str| -> Result<Option<String>, EntryProblem> {
        fields.get(key).map_or(Ok(None), |field| reader.optional_scalar(field))
    };
    let required = |key: &str| -> Result<String, EntryProblem> {
        match fields.get(key) {
            Some(field) => reader.required_scalar(field),
            None => Err(reader.error(1, format!("missing required field `{key}`"))),
        }
    };
    let list = |key: &str| -> Result<Vec<String>, EntryProblem> {
        let Some(field) = fields.get(key) else { return Ok(Vec::new()) };
        Ok(reader.scalar_list(field)?.into_iter().map(|(value, _)| value).collect())
    };
    let id = required("id")?;
    validate_id(&id)
        .map_err(|invalid| reader.error(line_of(&fields, "id"), format!("bad {invalid}")))?;
    let finding_text = required("finding_type")?;
    let finding_type = FindingType::parse(&finding_text).ok_or_else(|| {
        reader.error(
            line_of(&fields, "finding_type"),
            format!("unknown finding_type `{finding_text}` (expected state or explanation)"),
        )
    })?;
    let mut references = HashMap::new();
    for key in ["supersedes", "resolves", "depends_on"] {
        let ids = list(key)?;
        for referenced in &ids {
            validate_id(referenced).map_err(|invalid| {
                reader.error(line_of(&fields, key), format!("bad `{key}` {invalid}"))
            })?;
        }
        references.insert(key, ids);
    }
    for key in ["observed_at", "recorded_at"] {
        let value = required(key)?;
        if crate::timestamp::parse_timestamp(&value).is_none() {
            return Err(reader.error(
                line_of(&fields, key),
                format!("`{key}` {value:?} is not an RFC 3339 time (2026-12-07T10:00:00Z)"),
            ));
        }
    }
    let mut take = |key: &str| references.remove(key).unwrap_or_default();
    let trace = Trace {
        id,
        subject: required("subject")?,
        finding_type,
        steps: TraceSteps {
            situation: required("situation")?,
            rationale: required("rationale")?,
            action: required("action")?,
            outcome: required("outcome")?,
        },
        observed_at: required("observed_at")?,
        recorded_at: required("recorded_at")?,
        artifacts: list("artifacts")?,
        run_id: optional("run_id")?,
        agent_id: optional("agent_id")?,
        subagent_id: optional("subagent_id")?,
        evidence: list("evidence")?,
        evidence_refs: match fields.get("evidence_refs") {
            Some(field) => evidence_refs(&reader, field)?,
            None => Vec::new(),
        },
        supersedes: take("supersedes"),
        resolves: take("resolves"),
        depends_on: take("depends_on"),
        operation_id: optional("operation_id")?,
        path: path.to_string(),
    };
    Ok((trace, warnings))
}

fn line_of(fields: &HashMap<&str, &RawField>, key: &str) -> u32 {
    fields.get(key).map_or(1, |field| field.line)
}

/// `evidence_refs`: a block list of maps with `source_id`, `locator`, `observed_at`,
/// `summary` and an optional `revision`.
fn evidence_refs(
    reader: &FieldReader<'_>,
    field: &RawField,
) -> Result<Vec<EvidenceRef>, EntryProblem> {
    let items = match &field.value {
        RawValue::Null => return Ok(Vec::new()),
        RawValue::Scalar(_) => {
            return Err(
                reader.error(field.line, "`evidence_refs` must be a list of `- source_id: …` maps")
            )
        }
        RawValue::List(items) => items,
    };
    let mut found = Vec::new();
    for item in items {
        let RawItemValue::Map(keys) = &item.value else {
            return Err(reader.error(item.line, "each evidence ref must be a map with `source_id`"));
        };
        let mut values: HashMap<&str, String> = HashMap::new();
        for key in keys {
            let value = reader.required_scalar(key)?;
            if values.insert(key.key.as_str(), value).is_some() {
                return Err(reader
                    .error(key.line, format!("duplicate key `{}` in an evidence ref", key.key)));
            }
        }
        let mut take = |name: &str| {
            values
                .remove(name)
                .ok_or_else(|| reader.error(item.line, format!("evidence ref is missing `{name}`")))
        };
        let source_id = take("source_id")?;
        let locator = take("locator")?;
        let observed_at = take("observed_at")?;
        let summary = take("summary")?;
        let revision = values.remove("revision");
        if let Some(unknown) = values.keys().next() {
            return Err(reader.error(item.line, format!("unknown evidence ref key `{unknown}`")));
        }
        found.push(EvidenceRef { source_id, locator, revision, observed_at, summary });
    }
    Ok(found)
}

/// The canonical text of a trace file.
pub fn render_trace(trace: &Trace) -> String {
    let mut text = String::from("---\n");
    let mut push = |key: &str, value: String| {
        text.push_str(key);
        text.push_str(": ");
        text.push_str(&value);
        text.push('\n');
    };
    push("id", render_scalar(&trace.id));
    push("type", "trace".to_string());
    push("subject", render_scalar(&trace.subject));
    push("finding_type", trace.finding_type.as_str().to_string());
    for (key, value) in trace.steps.named() {
        push(key, render_scalar(value));
    }
    push("observed_at", render_scalar(&trace.observed_at));
    push("recorded_at", render_scalar(&trace.recorded_at));
    push("artifacts", render_inline_list(&trace.artifacts));
    for (key, value) in [
        ("run_id", &trace.run_id),
        ("agent_id", &trace.agent_id),
        ("subagent_id", &trace.subagent_id),
    ] {
        if let Some(value) = value {
            push(key, render_scalar(value));
        }
    }
    push("evidence", render_inline_list(&trace.evidence));
    if trace.evidence_refs.is_empty() {
        text.push_str("evidence_refs: []\n");
    } else {
        text.push_str("evidence_refs:\n");
        for reference in &trace.evidence_refs {
            text.push_str(&format!("  - source_id: {}\n", render_scalar(&reference.source_id)));
            text.push_str(&format!("    locator: {}\n", render_scalar(&reference.locator)));
            if let Some(revision) = &reference.revision {
                text.push_str(&format!("    revision: {}\n", render_scalar(revision)));
            }
            text.push_str(&format!("    observed_at: {}\n", render_scalar(&reference.observed_at)));
            text.push_str(&format!("    summary: {}\n", render_scalar(&reference.summary)));
        }
    }
    let mut push_list = |key: &str, values: &[String]| {
        text.push_str(&format!("{key}: {}\n", render_inline_list(values)));
    };
    push_list("supersedes", &trace.supersedes);
    push_list("resolves", &trace.resolves);
    push_list("depends_on", &trace.depends_on);
    if let Some(operation_id) = &trace.operation_id {
        text.push_str(&format!("operation_id: {}\n", render_scalar(operation_id)));
    }
    text.push_str("---\n");
    let steps = trace.steps.named().map(|(_, step)| step).join("\n→ ");
    text.push_str(&format!("{steps}\n"));
    text
}

#[cfg(test)]
#[path = "trace_file_tests.rs"]
mod tests;
