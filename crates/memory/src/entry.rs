//! The memory entry model: [`Entry`], its [`EntryType`] and [`EntryStatus`], and [`Pin`]s
//! tying an entry to files at a commit.

/// What kind of record an entry is. Each type has its own folder under `.memory/`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum EntryType {
    Plan,
    Checkpoint,
    Experiment,
    Decision,
    Todo,
    Note,
    Annotation,
}

impl EntryType {
    /// Every type, in the documented order.
    pub const ALL: [EntryType; 7] = [
        EntryType::Plan,
        EntryType::Checkpoint,
        EntryType::Experiment,
        EntryType::Decision,
        EntryType::Todo,
        EntryType::Note,
        EntryType::Annotation,
    ];

    /// The spelling used in front matter (`type: decision`).
    pub fn as_str(self) -> &'static str {
        match self {
            EntryType::Plan => "plan",
            EntryType::Checkpoint => "checkpoint",
            EntryType::Experiment => "experiment",
            EntryType::Decision => "decision",
            EntryType::Todo => "todo",
            EntryType::Note => "note",
            EntryType::Annotation => "annotation",
        }
    }

    /// Reads the front-matter spelling; `None` for anything else (case-sensitive).
    pub fn parse(text: &str) -> Option<EntryType> {
        EntryType::ALL.into_iter().find(|entry_type| entry_type.as_str() == text)
    }

    /// The folder under `.memory/` holding entries of this type (the plural).
    pub fn folder_name(self) -> &'static str {
        match self {
            EntryType::Plan => "plans",
            EntryType::Checkpoint => "checkpoints",
            EntryType::Experiment => "experiments",
            EntryType::Decision => "decisions",
            EntryType::Todo => "todos",
            EntryType::Note => "notes",
            EntryType::Annotation => "annotations",
        }
    }

    /// Decisions, experiments and checkpoints: the entries worth surfacing unasked.
    pub fn is_high_signal(self) -> bool {
        matches!(self, EntryType::Decision | EntryType::Experiment | EntryType::Checkpoint)
    }
}

/// Whether an entry still holds. Discarded entries stay on disk as history.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum EntryStatus {
    #[default]
    Active,
    Discarded,
}

impl EntryStatus {
    /// Every status, in the documented order.
    pub const ALL: [EntryStatus; 2] = [EntryStatus::Active, EntryStatus::Discarded];

    /// The spelling used in front matter (`status: active`).
    pub fn as_str(self) -> &'static str {
        match self {
            EntryStatus::Active => "active",
            EntryStatus::Discarded => "discarded",
        }
    }

    /// Reads the front-matter spelling; `None` for anything else (case-sensitive).
    pub fn parse(text: &str) -> Option<EntryStatus> {
        EntryStatus::ALL.into_iter().find(|status| status.as_str() == text)
    }
}

/// Files an entry is about, as they were at one commit.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Pin {
    /// A full commit id: 40 (SHA-1) or 64 (SHA-256) hex digits, kept as written.
    pub commit: String,
    /// Repository-relative paths (never absolute, never containing `..`).
    pub files: Vec<String>,
}

/// One memory entry: a `.memory/<type folder>/<id>.md` file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entry {
    /// Unique among the repository's entries: `[a-z0-9][a-z0-9._-]*`, at most 100 chars.
    pub id: String,
    pub entry_type: EntryType,
    /// Never empty.
    pub title: String,
    pub status: EntryStatus,
    /// The id of the entry this one belongs under, if any.
    pub parent: Option<String>,
    /// RFC 3339 timestamps, kept as written (see [`crate::parse_timestamp`] to order them).
    pub created_at: Option<String>,
    pub updated_at: Option<String>,
    pub tags: Vec<String>,
    pub pins: Vec<Pin>,
    /// Ids of entries this one replaces.
    pub supersedes: Vec<String>,
    /// Ids of entries this one builds on; when one of them is superseded, this entry needs
    /// a recheck (see [`crate::needs_recheck`]).
    pub depends_on: Vec<String>,
    /// Ids of entries worth reading alongside this one.
    pub related: Vec<String>,
    /// Everything after the closing `---` line, verbatim.
    pub body: String,
    /// The entry file's repository-relative path, e.g. `.memory/decisions/use-ladybug.md`.
    pub path: String,
}

impl Entry {
    /// Whether the entry is [`EntryStatus::Active`].
    pub fn is_active(&self) -> bool {
        self.status == EntryStatus::Active
    }

    /// Every id this entry refers to, with the field naming it, in field order.
    pub fn references(&self) -> Vec<(&'static str, &str)> {
        let mut references: Vec<(&'static str, &str)> = Vec::new();
        if let Some(parent) = &self.parent {
            references.push(("parent", parent));
        }
        for (field, ids) in [
            ("supersedes", &self.supersedes),
            ("depends_on", &self.depends_on),
            ("related", &self.related),
        ] {
            references.extend(ids.iter().map(|id| (field, id.as_str())));
        }
        references
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_and_status_spellings_round_trip() {
        for entry_type in EntryType::ALL {
            assert_eq!(EntryType::parse(entry_type.as_str()), Some(entry_type));
            assert!(entry_type.folder_name().starts_with(entry_type.as_str()));
        }
        for status in EntryStatus::ALL {
            assert_eq!(EntryStatus::parse(status.as_str()), Some(status));
        }
        assert_eq!(EntryType::parse("Decision"), None);
        assert_eq!(EntryStatus::parse("done"), None);
        assert_eq!(EntryStatus::default(), EntryStatus::Active);
    }
}
