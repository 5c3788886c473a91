//! The journal that makes `record` crash-safe. Before its first git step, `record` writes
//! what it is about to do (the files it stages, the entry's text, the commit messages, HEAD
//! before) to `record.journal` in the daemon's folder, by writing a temporary file and
//! renaming it. Whoever takes the record lock next (the next `record`, or the daemon at
//! start) finds a journal left by a crash and settles it, idempotently:
//!
//! - the files' commit (the pin) was not made: roll back, unstaging what `record` staged
//!   (the working tree keeps every change), and drop the entry;
//! - it was made but the entry's commit was not: roll forward, writing the entry pinned to
//!   that commit and committing it;
//! - both were made: only the journal is left to remove.

use std::path::{Path, PathBuf};

use tether_git::{Repository, Revision};

/// What one `record` is doing.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct RecordJournal {
    /// HEAD when the record began (`None` on an unborn branch).
    pub head_before: Option<String>,
    /// The files the record commits first (empty when it pins an existing commit).
    pub files: Vec<String>,
    /// The subset of `files` that were not staged before the record staged them.
    pub staged_by_us: Vec<String>,
    pub files_message: String,
    pub entry_message: String,
    /// The entry's repository-relative path.
    pub entry_path: String,
    /// The entry's text; its pin is filled in once the files' commit exists.
    pub entry_text: String,
}

const HEADER: &str = "tether-record-journal 1";

impl RecordJournal {
    fn render(&self) -> String {
        let mut text =
            format!("{HEADER}\nhead_before {}\n", self.head_before.as_deref().unwrap_or("-"));
        text.push_str(&format!(
            "files_message {}\nentry_message {}\nentry_path {}\n",
            self.files_message, self.entry_message, self.entry_path
        ));
        for file in &self.files {
            text.push_str(&format!("file {file}\n"));
        }
        for file in &self.staged_by_us {
            text.push_str(&format!("staged_by_us {file}\n"));
        }
        text.push('\n');
        text.push_str(&self.entry_text);
        text
    }

    fn parse(text: &str) -> Option<RecordJournal> {
        let (head, entry_text) = text.split_once("\n\n")?;
        let mut lines = head.lines();
        if lines.next()? != HEADER {
            return None;
        }
        let mut journal =
            RecordJournal { entry_text: entry_text.to_string(), ..RecordJournal::default() };
        for line in lines {
            let (key, value) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "head_before" => journal.head_before = (value != "-").then(|| value.to_string()),
                "files_message" => journal.files_message = value.to_string(),
                "entry_message" => journal.entry_message = value.to_string(),
                "entry_path" => journal.entry_path = value.to_string(),
                "file" => journal.files.push(value.to_string()),
                "staged_by_us" => journal.staged_by_us.push(value.to_string()),
                _ => return None,
            }
        }
        (!journal.entry_path.is_empty()).then_some(journal)
    }
}

/// Where the journal lives: beside the daemon's lock.
pub fn journal_path(folder: &Path) -> PathBuf {
    folder.join("record.journal")
}

/// Writes a file by writing a sibling temporary file and renaming it over the path, so a
/// reader sees the old text or the new one, never a torn one.
pub fn write_atomically(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let temporary = path.with_file_name(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|name| name.to_str()).unwrap_or("file"),
        std::process::id()
    ));
    let mut file = std::fs::File::create(&temporary)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&temporary, path)
}

pub fn write(folder: &Path, journal: &RecordJournal) -> std::io::Result<()> {
    write_journal(&journal_path(folder), &journal.render())
}

pub fn remove(folder: &Path) -> std::io::Result<()> {
    remove_if_present(&journal_path(folder))
}

/// Writes a journal (its folder made first), atomically.
pub(crate) fn write_journal(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)?;
    }
    write_atomically(path, text)
}

/// Removes a file; one that is not there is fine.
pub(crate) fn remove_if_present(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// How an interrupted record was settled.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum Recovery {
    Nothing,
    RolledBack { entry_path: String },
    RolledForward { entry_path: String, pin: String },
    AlreadyDone { entry_path: String },
}

/// The commit a message made right after `after`, if HEAD's own history shows it: HEAD or
/// HEAD's parent has that message and `after` as its parent.
pub(crate) fn commit_made_after(
    repository: &Repository,
    after: Option<&str>,
    message: &str,
) -> Option<String> {
    let mut candidate = repository.resolve_commit("HEAD")?;
    for _ in 0..2 {
        let revision = Revision::from_object_id(&candidate)?;
        let parent = repository.resolve_commit(&format!("{candidate}^"));
        if repository.commit_message(&revision).ok()?.trim_end() == message.trim_end()
            && parent.as_deref() == after
        {
            return Some(candidate);
        }
        candidate = parent?;
    }
    None
}

/// Settles a journal left by an interrupted record (see the module's doc). The caller holds
/// the record lock.
pub fn recover(repository: &Repository, root: &Path, folder: &Path) -> std::io::Result<Recovery> {
    let path = journal_path(folder);
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Recovery::Nothing),
        Err(error) => return Err(error),
    };
    let Some(journal) = RecordJournal::parse(&text) else {
        tracing::warn!(path = %path.display(), "an unreadable record journal was set aside");
        std::fs::rename(&path, path.with_extension("journal.unreadable"))?;
        return Ok(Recovery::Nothing);
    };
    let entry_path = journal.entry_path.clone();
    // The commit the entry goes on top of: the files' commit, or HEAD before a record that
    // pins an existing commit. `None`: the files' commit was not made.
    let base = if journal.files.is_empty() {
        Some(journal.head_before.clone())
    } else {
        commit_made_after(repository, journal.head_before.as_deref(), &journal.files_message)
            .map(Some)
    };
    let outcome = match base {
        None => {
            roll_back(repository, root, &journal)?;
            Recovery::RolledBack { entry_path }
        }
        Some(base)
            if commit_made_after(repository, base.as_deref(), &journal.entry_message).is_some() =>
        {
            Recovery::AlreadyDone { entry_path }
        }
        Some(base) => {
            let text = match (&base, journal.files.is_empty()) {
                (Some(pin), false) => crate::memory_record::entry_text_pinned(&journal, pin),
                _ => journal.entry_text.clone(),
            };
            finish_entry(repository, root, &journal, &text)?;
            Recovery::RolledForward { entry_path, pin: base.unwrap_or_default() }
        }
    };
    remove(folder)?;
    tracing::info!(?outcome, "settled an interrupted record");
    Ok(outcome)
}

/// Writes the entry (if it is not there yet) and commits it alone.
pub fn finish_entry(
    repository: &Repository,
    root: &Path,
    journal: &RecordJournal,
    text: &str,
) -> std::io::Result<()> {
    let full = root.join(&journal.entry_path);
    if !full.exists() {
        if let Some(folder) = full.parent() {
            std::fs::create_dir_all(folder)?;
        }
        write_new_file(&full, text)?;
    }
    repository
        .commit_paths(std::slice::from_ref(&journal.entry_path), &journal.entry_message)
        .map_err(std::io::Error::other)?;
    Ok(())
}

/// Writes a file that must not exist yet, atomically: a temporary file hard-linked into
/// place (which fails if something is there), then removed.
pub fn write_new_file(path: &Path, text: &str) -> std::io::Result<()> {
    let temporary = path.with_file_name(format!(
        ".{}.tmp-{}",
        path.file_name().and_then(|name| name.to_str()).unwrap_or("entry"),
        std::process::id()
    ));
    write_atomically(&temporary, text)?;
    let linked = std::fs::hard_link(&temporary, path);
    let _ = std::fs::remove_file(&temporary);
    linked
}

/// Unstages what the record staged and removes an entry file it wrote but did not commit.
/// An error (git's index locked by a git that was killed) leaves the rest for a retry: the
/// caller keeps the journal.
pub fn roll_back(
    repository: &Repository,
    root: &Path,
    journal: &RecordJournal,
) -> std::io::Result<()> {
    if !journal.staged_by_us.is_empty() {
        repository.unstage_paths(&journal.staged_by_us).map_err(std::io::Error::other)?;
    }
    let entry = root.join(&journal.entry_path);
    let tracked = repository.is_tracked(&journal.entry_path);
    if entry.exists() && !tracked {
        repository
            .unstage_paths(std::slice::from_ref(&journal.entry_path))
            .map_err(std::io::Error::other)?;
        std::fs::remove_file(entry)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_journal_reads_back_as_written() {
        let journal = RecordJournal {
            head_before: Some("0123456789abcdef0123456789abcdef01234567".into()),
            files: vec!["src/a b.py".into(), "lib.rs".into()],
            staged_by_us: vec!["lib.rs".into()],
            files_message: "decision: Split on commas".into(),
            entry_message: "memory: decision: Split on commas".into(),
            entry_path: ".memory/decisions/split.md".into(),
            entry_text: "---\nid: split\n---\n\nbody\n\nwith blank lines\n".into(),
        };
        assert_eq!(RecordJournal::parse(&journal.render()), Some(journal.clone()));
        let unborn =
            RecordJournal { head_before: None, files: vec![], staged_by_us: vec![], ..journal };
        assert_eq!(RecordJournal::parse(&unborn.render()), Some(unborn));
        assert_eq!(RecordJournal::parse("garbage\n\ntext"), None);
    }
}
