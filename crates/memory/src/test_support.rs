//! Test helpers: a minimal valid [`Entry`] and trace to vary in tests.

use crate::entry::{Entry, EntryStatus, EntryType};

/// An active entry with the given id and type, a title, a fixed timestamp and no links.
pub(crate) fn sample_entry(id: &str, entry_type: EntryType) -> Entry {
    Entry {
        id: id.to_string(),
        entry_type,
        title: format!("Title of {id}"),
        status: EntryStatus::Active,
        parent: None,
        created_at: Some("2026-11-30T05:00:00Z".to_string()),
        updated_at: Some("2026-11-30T05:00:00Z".to_string()),
        tags: Vec::new(),
        pins: Vec::new(),
        supersedes: Vec::new(),
        depends_on: Vec::new(),
        related: Vec::new(),
        body: String::new(),
        path: format!(".memory/{}/{id}.md", entry_type.folder_name()),
    }
}

/// Links `entry` to the ids given, builder-style.
pub(crate) fn with_links(mut entry: Entry, supersedes: &[&str], depends_on: &[&str]) -> Entry {
    entry.supersedes = supersedes.iter().map(|id| id.to_string()).collect();
    entry.depends_on = depends_on.iter().map(|id| id.to_string()).collect();
    entry
}

/// A valid `state` trace about `subject`, observed at `observed_at`, with one-line steps, one
/// artifact and no evidence or links.
pub(crate) fn sample_trace(id: &str, subject: &str, observed_at: &str) -> crate::trace::Trace {
    crate::trace::Trace {
        id: id.to_string(),
        subject: subject.to_string(),
        finding_type: crate::trace::FindingType::State,
        steps: crate::trace::TraceSteps {
            situation: "the build is red".to_string(),
            rationale: "a dependency moved".to_string(),
            action: "pinned it".to_string(),
            outcome: "green".to_string(),
        },
        observed_at: observed_at.to_string(),
        recorded_at: "2026-12-07T12:00:00Z".to_string(),
        artifacts: vec!["Cargo.toml".to_string()],
        run_id: None,
        agent_id: None,
        subagent_id: None,
        evidence: Vec::new(),
        evidence_refs: Vec::new(),
        supersedes: Vec::new(),
        resolves: Vec::new(),
        depends_on: Vec::new(),
        operation_id: None,
        path: crate::trace::trace_file_path(id),
    }
}
