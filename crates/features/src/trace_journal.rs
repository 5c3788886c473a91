//! The journal that makes a batch of traces one commit, whole or absent, across crashes
//! (as `record_journal` does for an entry). Before writing any file, `record_trace` writes
//! the batch (HEAD before, the commit message, each trace's path and text) to
//! `trace.journal` in the daemon's folder. Whoever takes the record lock next (the next
//! `record` or `record_trace`, or the daemon at start) settles a journal a crash left:
//!
//! - the batch's commit was made: only the journal is left to remove;
//! - it was not: roll back, unstaging and removing the trace files the batch wrote (they
//!   are new files, so nothing of the user's is touched). The caller never got an answer,
//!   so it retries; an `operation_id` makes the retry safe either way.

use std::path::{Path, PathBuf};

use tether_git::Repository;

use crate::record_journal::{commit_made_after, write_atomically, write_new_file};

/// One batch of traces being recorded.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct TraceJournal {
    /// HEAD when the batch began (`None` on an unborn branch).
    pub head_before: Option<String>,
    /// The commit's message, one line.
    pub message: String,
    /// Each trace file: its repository-relative path and its text.
    pub files: Vec<(String, String)>,
}

const HEADER: &str = "tether-trace-journal 1";
/// Separates the files' texts (a trace file never holds this line: its lines are front
/// matter, one-line fields, and the steps joined by arrows).
const FILE_MARK: &str = "\u{1e}tether-trace-file ";

impl TraceJournal {
    fn render(&self) -> String {
        let mut text =
            format!("{HEADER}\nhead_before {}\n", self.head_before.as_deref().unwrap_or("-"));
        text.push_str(&format!("message {}\n", self.message));
        for (path, body) in &self.files {
            text.push_str(&format!("{FILE_MARK}{path}\n{body}"));
            if !body.ends_with('\n') {
                text.push('\n');
            }
        }
        text
    }

    fn parse(text: &str) -> Option<TraceJournal> {
        let mut parts = text.split(FILE_MARK);
        let mut lines = parts.next()?.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let head = lines.next()?.strip_prefix("head_before ")?;
        let message = lines.next()?.strip_prefix("message ")?.to_string();
        let mut journal = TraceJournal {
            head_before: (head != "-").then(|| head.to_string()),
            message,
            files: Vec::new(),
        };
        for part in parts {
            let (path, body) = part.split_once('\n')?;
            journal.files.push((path.to_string(), body.to_string()));
        }
        (!journal.files.is_empty()).then_some(journal)
    }

    pub fn paths(&self) -> Vec<String> {
        self.files.iter().map(|(path, _)| path.clone()).collect()
    }
}

/// Where the journal lives: beside the record journal.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join("trace.journal")
}

pub fn write(folder: &Path, journal: &TraceJournal) -> std::io::Result<()> {
    std::fs::create_dir_all(folder)?;
    write_atomically(&journal_path(folder), &journal.render())
}

pub fn remove(folder: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(journal_path(folder)) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Writes the batch's files and commits them as one commit; the journal is written first.
pub fn write_and_commit(
    repository: &Repository,
    root: &Path,
    journal: &TraceJournal,
) -> std::io::Result<String> {
    for (path, text) in &journal.files {
        let full = root.join(path);
        if let Some(folder) = full.parent() {
            std::fs::create_dir_all(folder)?;
        }
        write_new_file(&full, text)?;
    }
    let commit = repository
        .commit_paths(&journal.paths(), &journal.message)
        .map_err(std::io::Error::other)?;
    Ok(commit.to_string())
}

/// Unstages and removes the batch's files that no commit holds. An error (git's index
/// locked) leaves the rest for a retry: the caller keeps the journal.
pub fn roll_back(
    repository: &Repository,
    root: &Path,
    journal: &TraceJournal,
) -> std::io::Result<()> {
    let untracked: Vec<String> =
        journal.paths().into_iter().filter(|path| !repository.is_tracked(path)).collect();
    if untracked.is_empty() {
        return Ok(());
    }
    repository.unstage_paths(&untracked).map_err(std::io::Error::other)?;
    for path in &untracked {
        match std::fs::remove_file(root.join(path)) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(error),
            _ => {}
        }
    }
    Ok(())
}

/// How an interrupted batch was settled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum TraceRecovery {
    Nothing,
    RolledBack { files: usize },
    AlreadyDone { commit: String },
}

/// Settles a journal left by an interrupted batch (see the module's doc). The caller holds
/// the record lock.
pub fn recover(
    repository: &Repository,
    root: &Path,
    folder: &Path,
) -> std::io::Result<TraceRecovery> {
    let path = journal_path(folder);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(TraceRecovery::Nothing)
        }
        Err(error) => return Err(error),
    };
    let Some(journal) = TraceJournal::parse(&text) else {
        tracing::warn!(path = %path.display(), "an unreadable trace journal was set aside");
        std::fs::rename(&path, path.with_extension("journal.unreadable"))?;
        return Ok(TraceRecovery::Nothing);
    };
    let outcome =
        match commit_made_after(repository, journal.head_before.as_deref(), &journal.message) {
            Some(commit) => TraceRecovery::AlreadyDone { commit },
            None => {
                roll_back(repository, root, &journal)?;
                TraceRecovery::RolledBack { files: journal.files.len() }
            }
        };
    remove(folder)?;
    tracing::info!(?outcome, "settled an interrupted batch of traces");
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trace_journal_reads_back_as_written() {
        let journal = TraceJournal {
            head_before: Some("0123456789abcdef0123456789abcdef01234567".into()),
            message: "memory: 2 traces: ci/build@linux".into(),
            files: vec![
                (".memory/traces/a.md".into(), "---\nid: a\n---\n\nx → y\n".into()),
                (".memory/traces/b.md".into(), "---\nid: b\n---\n\n\nblank lines\n\n".into()),
            ],
        };
        assert_eq!(TraceJournal::parse(&journal.render()), Some(journal.clone()));
        let unborn = TraceJournal { head_before: None, ..journal };
        assert_eq!(TraceJournal::parse(&unborn.render()), Some(unborn));
        assert_eq!(TraceJournal::parse("tether-trace-journal 1\nhead_before -\nmessage m\n"), None);
        assert_eq!(TraceJournal::parse("garbage"), None);
    }
}
