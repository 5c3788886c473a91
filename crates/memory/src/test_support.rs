//! Test helpers: a minimal valid [`Entry`] to vary in tests.

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
