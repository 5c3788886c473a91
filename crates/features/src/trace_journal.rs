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

use crate::record_journal::{commit_made_after, remove_if_present, write_journal, write_new_file};

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

const HEADER: &str = "tether-trace-journal 2";

impl TraceJournal {
    /// The header lines, then per file `file <bytes> <path>` and exactly that many bytes of
    /// text: no text a caller writes can be read as another file.
    fn render(&self) -> String {
        let mut text =
            format!("{HEADER}\nhead_before {}\n", self.head_before.as_deref().unwrap_or("-"));
        text.push_str(&format!("message {}\n", self.message.replace(['\n', '\r'], " ")));
        for (path, body) in &self.files {
            text.push_str(&format!("file {} {path}\n{body}", body.len()));
        }
        text
    }

    /// The journal as written, or `None` when it is not one: a path that is not a trace
    /// file's (`.memory/traces/<id>.md`) makes the whole journal unreadable, so recovery
    /// never removes anything else.
    fn parse(text: &str) -> Option<TraceJournal> {
        let mut rest = text;
        let mut line = || -> Option<&str> {
            let (first, after) = rest.split_once('\n')?;
            rest = after;
            Some(first)
        };
        if line()? != HEADER {
            return None;
        }
        let head = line()?.strip_prefix("head_before ")?;
        let message = line()?.strip_prefix("message ")?.to_string();
        let mut journal = TraceJournal {
            head_before: (head != "-").then(|| head.to_string()),
            message,
            files: Vec::new(),
        };
        while !rest.is_empty() {
            let (header, after) = rest.split_once('\n')?;
            let (length, path) = header.strip_prefix("file ")?.split_once(' ')?;
            let length: usize = length.parse().ok()?;
            let body = after.get(..length)?;
            if !is_trace_file_path(path) {
                return None;
            }
            journal.files.push((path.to_string(), body.to_string()));
            rest = &after[length..];
        }
        (!journal.files.is_empty()).then_some(journal)
    }

    pub fn paths(&self) -> Vec<String> {
        self.files.iter().map(|(path, _)| path.clone()).collect()
    }
}

/// `.memory/traces/<id>.md` with a valid id: the only files a batch writes.
fn is_trace_file_path(path: &str) -> bool {
    path.strip_prefix(&format!(".memory/{}/", tether_memory::TRACE_FOLDER))
        .and_then(|name| name.strip_suffix(".md"))
        .is_some_and(|id| tether_memory::validate_id(id).is_ok())
}

/// Where the journal lives: beside the record journal.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join("trace.journal")
}

pub fn write(folder: &Path, journal: &TraceJournal) -> std::io::Result<()> {
    write_journal(&journal_path(folder), &journal.render())
}

pub fn remove(folder: &Path) -> std::io::Result<()> {
    remove_if_present(&journal_path(folder))
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

/// Unstages and removes the batch's files that no commit holds and that hold the batch's
/// own text (a file someone else put there meanwhile is left alone), with the temporary
/// files a killed writer may have left beside them. An error (git's index locked) leaves
/// the rest for a retry: the caller keeps the journal.
pub fn roll_back(
    repository: &Repository,
    root: &Path,
    journal: &TraceJournal,
) -> std::io::Result<()> {
    let ours: Vec<String> = journal
        .files
        .iter()
        .filter(|(path, text)| {
            !repository.is_tracked(path)
                && std::fs::read_to_string(root.join(path)).is_ok_and(|found| found == *text)
        })
        .map(|(path, _)| path.clone())
        .collect();
    if !ours.is_empty() {
        repository.unstage_paths(&ours).map_err(std::io::Error::other)?;
    }
    for path in &ours {
        remove_if_present(&root.join(path))?;
    }
    for path in journal.paths() {
        remove_temporary_files_of(&root.join(path));
    }
    Ok(())
}

/// Removes the temporary files `write_new_file` writes beside `path` before linking it.
fn remove_temporary_files_of(path: &Path) {
    let (Some(folder), Some(name)) =
        (path.parent(), path.file_name().and_then(|name| name.to_str()))
    else {
        return;
    };
    // `write_new_file` writes `.<name>.tmp-<pid>` through `write_atomically`, which writes
    // `..<name>.tmp-<pid>.tmp-<pid>` first: either may be left.
    let prefixes = [format!(".{name}.tmp-"), format!("..{name}.tmp-")];
    let Ok(read) = std::fs::read_dir(folder) else { return };
    for entry in read.flatten() {
        let is_ours = entry
            .file_name()
            .to_str()
            .is_some_and(|file| prefixes.iter().any(|prefix| file.starts_with(prefix.as_str())));
        if is_ours && entry.file_type().is_ok_and(|kind| kind.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
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
        assert_eq!(TraceJournal::parse("tether-trace-journal 2\nhead_before -\nmessage m\n"), None);
        assert_eq!(TraceJournal::parse("garbage"), None);
        // A file outside the traces' folder makes the journal unreadable: never removed.
        let outside = TraceJournal {
            head_before: None,
            message: "m".into(),
            files: vec![(".env".into(), "x".into())],
        };
        assert_eq!(TraceJournal::parse(&outside.render()), None);
        // Text that looks like a journal line stays text.
        let tricky = TraceJournal {
            head_before: None,
            message: "m".into(),
            files: vec![(".memory/traces/a.md".into(), "x\nfile 3 .env\nabc\n".into())],
        };
        assert_eq!(TraceJournal::parse(&tricky.render()), Some(tricky));
    }
}
