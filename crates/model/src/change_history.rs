//! A repository's change history as churn reads it: commits newest first, each with the
//! source files it changed and the hunks of each (line ranges on both sides), authors through
//! `.mailmap`. Plain data: `git` reads it, the daemon caches it, `query` ranks it.

/// One changed hunk: lines `old_start..old_start+old_count` became `new_start..+new_count`.
/// A count of 0 means a pure insertion (old) or deletion (new) after that line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hunk {
    pub old_start: u32,
    pub old_count: u32,
    pub new_start: u32,
    pub new_count: u32,
}

/// A source file one commit changed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChangedFile {
    /// Its path after the commit (before it, for a deletion).
    pub path: String,
    /// The path it had before, when the commit renamed it.
    pub renamed_from: Option<String>,
    /// The commit deleted it.
    pub deleted: bool,
    pub hunks: Vec<Hunk>,
}

impl ChangedFile {
    /// Lines the commit added and deleted in the file.
    pub fn lines_added_and_deleted(&self) -> (u64, u64) {
        self.hunks.iter().fold((0, 0), |(added, deleted), hunk| {
            (added + u64::from(hunk.new_count), deleted + u64::from(hunk.old_count))
        })
    }
}

/// One commit (not a merge) and the source files it changed.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChangedCommit {
    pub commit: String,
    /// Through `.mailmap`.
    pub author: String,
    pub email: String,
    /// Author time, seconds since the epoch.
    pub time: i64,
    pub files: Vec<ChangedFile>,
}

/// The newest commits of HEAD's history, newest first: those HEAD gained since the history
/// was first read (`tip` moved forward), then those read page by page from `paged_from`.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ChangeHistory {
    /// The commit the history starts from (HEAD when it was last read); `None` without one.
    pub tip: Option<String>,
    /// The commit older pages are read from (`git log <paged_from> --skip=<paged>`): git's
    /// order of a history is not the order of its parts once merges bring in older commits,
    /// so paging goes on from where it began.
    pub paged_from: Option<String>,
    /// How many of `commits` (the last ones) were read from `paged_from`.
    pub paged: usize,
    pub commits: Vec<ChangedCommit>,
    /// Whether `paged_from`'s oldest commit is in `commits` (nothing older to read).
    pub reached_root: bool,
}
