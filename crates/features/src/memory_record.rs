//! `record`: writing a new memory entry, committed to git and pinned. It runs in three steps:
//! check everything (`read_request`, pure; `prepare_entry`, against the repository; nothing
//! is written on a refusal), journal what is about to happen, then the git steps (commit the
//! files: the pin; write the entry; commit it: `journal_and_commit`). Records are serialized
//! by a lock across processes, and a record interrupted by a crash is settled by the next
//! one, or by the daemon at start (`record_journal`).

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::path::Path;

use crate::FeatureError;
use tether_memory::{Entry, EntryStatus, EntryType, Pin};

use crate::record_journal::{self, RecordJournal};
use crate::FeatureContext;

fn refuse(message: impl Into<String>) -> FeatureError {
    FeatureError::refused(message)
}

fn internal(message: impl Into<String>) -> FeatureError {
    FeatureError::internal(message)
}

/// A repository-relative path that stays inside the repository, normalized; or why not.
fn inside_repository(root: &Path, path: &str) -> Result<String, FeatureError> {
    if path.contains(['\n', '\r', '\0']) {
        return Err(refuse(format!("{path:?}: a path with a line break cannot be recorded")));
    }
    let candidate = Path::new(path);
    if candidate.is_absolute() {
        let canonical =
            candidate.canonicalize().map_err(|_| refuse(format!("{path} does not exist")))?;
        let relative = canonical
            .strip_prefix(root)
            .map_err(|_| refuse(format!("{path} is outside the repository")))?;
        return Ok(relative.to_string_lossy().replace('\\', "/"));
    }
    if path.split(['/', '\\']).any(|part| part == "..") {
        return Err(refuse(format!("{path} escapes the repository")));
    }
    let full = root.join(path);
    let canonical = full.canonicalize().map_err(|_| refuse(format!("{path} does not exist")))?;
    if !canonical.starts_with(root) {
        return Err(refuse(format!("{path} is outside the repository (through a link)")));
    }
    Ok(path.trim_start_matches("./").to_string())
}

/// `.memory` and the entry's type folder must be real folders (or not exist yet): a link
/// there would make `record` write outside the repository.
pub(crate) fn check_memory_folders(root: &Path, entry_path: &str) -> Result<(), FeatureError> {
    let mut folder = root.to_path_buf();
    let parts: Vec<&str> = entry_path.split('/').collect();
    for part in &parts[..parts.len().saturating_sub(1)] {
        folder.push(part);
        match std::fs::symlink_metadata(&folder) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                return Err(refuse(format!("{} is a symbolic link; entries are only written into real folders of the repository", folder.display())));
            }
            Ok(metadata) if !metadata.is_dir() => {
                return Err(refuse(format!("{} is not a folder", folder.display())))
            }
            _ => {}
        }
    }
    Ok(())
}

/// Every id an entry refers to must be valid and name an entry that exists (or, for
/// `supersedes`, any existing entry but itself).
fn check_references(entry: &Entry, existing_ids: &HashSet<String>) -> Result<(), FeatureError> {
    for (field, referenced) in entry.references() {
        tether_memory::validate_id(referenced)
            .map_err(|problem| refuse(format!("{field}: {problem}")))?;
        if referenced == entry.id {
            return Err(refuse(format!("{field}: an entry cannot refer to itself")));
        }
        if !existing_ids.contains(referenced) {
            return Err(refuse(format!(
                "{field} {referenced:?} does not exist: no entry has that id"
            )));
        }
    }
    Ok(())
}

/// The entry's text with its one pin set to the files' commit.
pub fn entry_text_pinned(journal: &RecordJournal, pin: &str) -> String {
    match tether_memory::parse_entry(&journal.entry_path, &journal.entry_text) {
        Ok((mut entry, _)) => {
            entry.pins = vec![Pin { commit: pin.to_string(), files: journal.files.clone() }];
            tether_memory::render_entry(&entry)
        }
        Err(_) => journal.entry_text.clone(),
    }
}

/// What one record request asks for, read strictly.
struct RecordRequest {
    entry_type: EntryType,
    title: String,
    body: String,
    files: Vec<String>,
    commit: Option<String>,
    tags: Vec<String>,
    parent: Option<String>,
    id: Option<String>,
    supersedes: Vec<String>,
    depends_on: Vec<String>,
    related: Vec<String>,
}

/// Checks what a record asks for (nothing is written yet): a known type, a one-line title,
/// files or a commit, not both.
fn read_request(params: tether_protocol::RecordParams) -> Result<RecordRequest, FeatureError> {
    let entry_type = params.entry_type.ok_or_else(|| {
        refuse("missing \"type\" (plan, checkpoint, experiment, decision, todo, note, annotation)")
    })?;
    let entry_type = EntryType::parse(&entry_type).ok_or_else(|| refuse(format!("unknown type {entry_type:?}; use plan, checkpoint, experiment, decision, todo, note or annotation")))?;
    let title = params.title.ok_or_else(|| refuse("the title is empty"))?;
    if title.contains(['\n', '\r']) {
        return Err(refuse("the title must be one line"));
    }
    let request = RecordRequest {
        entry_type,
        title,
        body: params.body,
        files: params.files,
        commit: params.commit,
        tags: params.tags,
        parent: params.parent,
        id: params.id,
        supersedes: params.supersedes,
        depends_on: params.depends_on,
        related: params.related,
    };
    if !request.files.is_empty() && request.commit.is_some() {
        return Err(refuse("pass either \"files\" (commit them now) or \"commit\" (pin an existing commit), not both"));
    }
    Ok(request)
}

/// Settles a record a crash interrupted (see `record_journal`), under the record lock. The
/// daemon calls it at start; every `record` calls it first too.
pub fn recover_interrupted_record(root: &Path, folder: &Path) -> Result<(), String> {
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let Some(repository) = tether_git::discover(&root) else { return Ok(()) };
    if !record_journal::journal_path(folder).exists()
        && !crate::trace_journal::journal_path(folder).exists()
    {
        return Ok(());
    }
    let _lock = record_lock(folder)?;
    record_journal::recover(&repository, &root, folder).map_err(|error| error.to_string())?;
    crate::trace_journal::recover(&repository, &root, folder)
        .map(|_| ())
        .map_err(|error| error.to_string())
}

/// `record`: check the request (`read_request`), take the record lock and settle an
/// interrupted record, check the entry against the repository (`prepare_entry`: nothing is
/// written on a refusal), then journal and commit it (`journal_and_commit`).
pub fn record(
    state: &FeatureContext,
    params: tether_protocol::RecordParams,
) -> Result<tether_protocol::wire::RecordAnswer, FeatureError> {
    let dry_run = params.dry_run;
    let request = read_request(params)?;
    let root = state.root.canonicalize().unwrap_or_else(|_| state.root.to_path_buf());
    let repository = tether_git::discover(&root)
        .ok_or_else(|| refuse("not a git repository: entries are committed to git"))?;
    let _lock = lock_records(state.folder, &repository, &root)?;
    let prepared = prepare_entry(&request, &repository, &root)?;
    let branch = repository.head().ok().and_then(|head| head.branch);
    let mut commits = Vec::new();
    if !prepared.files.is_empty() {
        commits.push(tether_protocol::wire::RecordCommit {
            message: files_message(&request),
            files: prepared.files.clone(),
        });
    }
    commits.push(tether_protocol::wire::RecordCommit {
        message: entry_message(&request),
        files: vec![prepared.entry.path.clone()],
    });
    let (pin_commit, entry_commit, next) = if dry_run {
        // A files record's pin is the files' commit, which a dry run does not make.
        let pin = prepared.entry.pins.first().map(|pin| pin.commit.clone());
        (pin, None, "call again without dry_run to write and commit it".to_string())
    } else {
        let (pin_commit, entry_commit) =
            journal_and_commit(state.folder, &repository, &root, &request, &prepared)?;
        // A file the entry pins shows it whatever its diff touched; a symbol only when the
        // diff changed it.
        let next = match prepared.pin_files.first() {
            Some(file) => format!("context {{\"path\": \"{file}\"}} shows this entry"),
            None => {
                "context {\"path\": ...} on a file its commit changed shows this entry".to_string()
            }
        };
        (pin_commit, Some(entry_commit), next)
    };
    Ok(tether_protocol::wire::RecordAnswer {
        id: prepared.entry.id,
        file: prepared.entry.path,
        pinned_commit: pin_commit,
        pinned_files: prepared.pin_files,
        entry_commit,
        branch,
        commits,
        dry_run,
        next,
    })
}

/// The message of the commit of a record's files.
fn files_message(request: &RecordRequest) -> String {
    format!("{}: {}", request.entry_type.as_str(), request.title)
}

/// The message of the commit of a record's entry.
fn entry_message(request: &RecordRequest) -> String {
    format!("memory: {}: {}", request.entry_type.as_str(), request.title)
}

/// One record at a time, across processes (the lock is held while the file stays open); an
/// interrupted record is settled first.
pub(crate) fn lock_records(
    folder: &Path,
    repository: &tether_git::Repository,
    root: &Path,
) -> Result<std::fs::File, FeatureError> {
    let lock = record_lock(folder).map_err(internal)?;
    record_journal::recover(repository, root, folder)
        .map_err(|error| internal(format!("settling an interrupted record failed: {error}")))?;
    crate::trace_journal::recover(repository, root, folder).map_err(|error| {
        internal(format!("settling an interrupted batch of traces failed: {error}"))
    })?;
    Ok(lock)
}

/// `record.lock` in the daemon's folder, locked (held while the file stays open).
fn record_lock(folder: &Path) -> Result<std::fs::File, String> {
    let lock_path = folder.join("record.lock");
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|error| format!("cannot open {}: {error}", lock_path.display()))?;
    lock.lock().map_err(|error| format!("cannot lock {}: {error}", lock_path.display()))?;
    Ok(lock)
}

/// An entry checked against the repository, ready to be journaled.
struct PreparedEntry {
    entry: Entry,
    /// The files to commit now (the pin), repository-relative.
    files: Vec<String>,
    /// The files the pin names: those committed now, or those of the pinned commit.
    pin_files: Vec<String>,
}

/// The entry a request makes, checked against what the repository holds: a free id, files
/// with changes, a commit that exists, links to entries that exist, folders that are not
/// links, an entry that loads back.
fn prepare_entry(
    request: &RecordRequest,
    repository: &tether_git::Repository,
    root: &Path,
) -> Result<PreparedEntry, FeatureError> {
    let (existing_files, _) = crate::memory_context::memory_files(root);
    let existing = tether_memory::load_entries(&existing_files);
    let existing_ids: HashSet<String> =
        existing.entries.iter().map(|entry| entry.id.clone()).collect();
    // A trace's id is taken too: `depends_on` names either.
    let taken: HashSet<String> =
        existing_ids.iter().cloned().chain(crate::trace_store::trace_file_ids(root)).collect();
    let id = match &request.id {
        Some(id) => {
            tether_memory::validate_id(id)
                .map_err(|problem| refuse(format!("invalid id {id:?}: {problem}")))?;
            if taken.contains(id) {
                return Err(refuse(format!("an entry or trace with id {id:?} exists already")));
            }
            id.clone()
        }
        None => tether_memory::unique_id(&tether_memory::slugify_title(&request.title), &taken),
    };
    let files = files_with_changes(request, repository, root)?;
    let pinned_commit = match &request.commit {
        Some(commit) => Some(
            repository
                .resolve_commit(commit)
                .ok_or_else(|| refuse(format!("no commit {commit:?} in this repository")))?,
        ),
        None => None,
    };
    let pin_files = match &pinned_commit {
        Some(commit) => repository_files_of(repository, commit),
        None => files.clone(),
    };
    let now = timestamp();
    let entry_path = tether_memory::entry_file_path(request.entry_type, &id);
    let entry = Entry {
        id,
        entry_type: request.entry_type,
        title: request.title.clone(),
        status: EntryStatus::Active,
        parent: request.parent.clone(),
        created_at: Some(now.clone()),
        updated_at: Some(now),
        tags: request.tags.clone(),
        // A files record's pin is the files' commit, known only once it is made.
        pins: pinned_commit
            .iter()
            .map(|commit| Pin { commit: commit.clone(), files: pin_files.clone() })
            .collect(),
        supersedes: request.supersedes.clone(),
        depends_on: request.depends_on.clone(),
        related: request.related.clone(),
        body: request.body.clone(),
        path: entry_path.clone(),
    };
    check_references(&entry, &existing_ids)?;
    // The research tree's levels: one project, plans under the project or a subproject.
    tether_memory::check_new_parent(&existing.entries, entry.entry_type, entry.parent.as_deref())
        .map_err(|problem| refuse(format!("parent: {problem}")))?;
    check_memory_folders(root, &entry_path)?;
    if root.join(&entry_path).exists() {
        return Err(refuse(format!("{entry_path} exists already")));
    }
    if let Some(problem) = tether_memory::validate_new_entry(&entry, &existing_ids)
        .into_iter()
        .find(|problem| problem.severity == tether_memory::Severity::Error)
    {
        return Err(refuse(format!("the entry would not load back: {problem}")));
    }
    Ok(PreparedEntry { entry, files, pin_files })
}

/// The request's files, inside the repository, each with changes to commit.
fn files_with_changes(
    request: &RecordRequest,
    repository: &tether_git::Repository,
    root: &Path,
) -> Result<Vec<String>, FeatureError> {
    let files = request
        .files
        .iter()
        .map(|file| inside_repository(root, file))
        .collect::<Result<Vec<_>, _>>()?;
    if files.is_empty() {
        return Ok(files);
    }
    let changed = repository.changed_paths(&files).map_err(|error| internal(error.to_string()))?;
    let unchanged: Vec<&String> = files
        .iter()
        .filter(|file| {
            !changed
                .iter()
                .any(|changed| changed == *file || changed.starts_with(&format!("{file}/")))
        })
        .collect();
    if !unchanged.is_empty() {
        let named: Vec<&str> = unchanged.iter().map(|file| file.as_str()).collect();
        return Err(refuse(format!(
            "nothing to commit in {}: --files names files with changes to record with the entry",
            named.join(", ")
        )));
    }
    Ok(files)
}

/// Journals the record, then runs its git steps; a failed record is rolled back (when even
/// that fails, the journal stays for the next record, or the daemon's start, to settle).
/// Returns (pin, entry commit).
fn journal_and_commit(
    folder: &Path,
    repository: &tether_git::Repository,
    root: &Path,
    request: &RecordRequest,
    prepared: &PreparedEntry,
) -> Result<(Option<String>, String), FeatureError> {
    let staged_before = repository.staged_paths().map_err(|error| internal(error.to_string()))?;
    let files = &prepared.files;
    let journal = RecordJournal {
        head_before: repository.resolve_commit("HEAD"),
        staged_by_us: files.iter().filter(|file| !staged_before.contains(file)).cloned().collect(),
        files: files.clone(),
        files_message: files_message(request),
        entry_message: entry_message(request),
        entry_path: prepared.entry.path.clone(),
        entry_text: tether_memory::render_entry(&prepared.entry),
    };
    record_journal::write(folder, &journal)
        .map_err(|error| internal(format!("cannot write the record journal: {error}")))?;
    let outcome = commit_entry(repository, root, &journal);
    let settled = outcome.is_ok()
        || record_journal::roll_back(repository, root, &journal)
            .map_err(|error| tracing::warn!(%error, "an interrupted record's roll back waits for a retry"))
            .is_ok();
    if settled {
        let _ = record_journal::remove(folder);
    }
    outcome
}

/// The git steps of a journaled record: the files' commit (the pin), then the entry written
/// and committed alone. Returns (pin, entry commit).
fn commit_entry(
    repository: &tether_git::Repository,
    root: &Path,
    journal: &RecordJournal,
) -> Result<(Option<String>, String), FeatureError> {
    let (pin, text) = if journal.files.is_empty() {
        let pin = tether_memory::parse_entry(&journal.entry_path, &journal.entry_text)
            .ok()
            .and_then(|(entry, _)| entry.pins.first().map(|pin| pin.commit.clone()));
        (pin, journal.entry_text.clone())
    } else {
        let pin = repository
            .commit_paths(&journal.files, &journal.files_message)
            .map_err(|error| internal(format!("committing the files failed: {error}")))?
            .to_string();
        let text = entry_text_pinned(journal, &pin);
        (Some(pin), text)
    };
    record_journal::finish_entry(repository, root, journal, &text)
        .map_err(|error| internal(format!("committing the entry failed: {error}")))?;
    let entry_commit = repository.resolve_commit("HEAD").unwrap_or_default();
    Ok((pin, entry_commit))
}

/// The source files a commit changed, for a pin of an existing commit.
fn repository_files_of(repository: &tether_git::Repository, commit: &str) -> Vec<String> {
    let Some(commit) = tether_git::Revision::from_object_id(commit) else { return Vec::new() };
    let parent = repository.parent_or_empty_tree(&commit);
    repository
        .diff(&tether_git::DiffScope::Range(parent, commit), true, tether_model::Deadline::none())
        .map(|diffs| diffs.into_iter().filter_map(|diff| diff.new_path.or(diff.old_path)).collect())
        .unwrap_or_default()
}

/// Now, as an RFC 3339 UTC timestamp to the second (`2026-11-30T05:00:00Z`).
pub(crate) fn timestamp() -> String {
    let now = jiff::Timestamp::now();
    jiff::Timestamp::from_second(now.as_second()).unwrap_or(now).to_string()
}
