//! `record`: writing a new memory entry, committed to git and pinned. Every input is checked
//! before anything is written; records are serialized by a lock, so concurrent records never
//! clobber each other.

use std::collections::HashSet;
use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use tether_memory::{Entry, EntryStatus, EntryType, Pin};
use tether_protocol::rpc::RpcError;
use tether_protocol::{json, Value};

use crate::state::DaemonState;

fn refuse(message: impl Into<String>) -> RpcError {
    RpcError::invalid_params(message)
}

/// A repository-relative path that stays inside the repository, normalized; or why not.
fn inside_repository(root: &Path, path: &str) -> Result<String, RpcError> {
    let candidate = Path::new(path);
    if candidate.is_absolute() {
        let canonical = candidate.canonicalize().map_err(|_| refuse(format!("{path} does not exist")))?;
        let relative = canonical.strip_prefix(root).map_err(|_| refuse(format!("{path} is outside the repository")))?;
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

pub fn record(state: &DaemonState, params: &Value) -> Result<Value, RpcError> {
    let root = state.paths.root.canonicalize().unwrap_or_else(|_| state.paths.root.clone());
    let repository = tether_git::discover(&root).ok_or_else(|| refuse("not a git repository: entries are committed to git"))?;
    let text = |name: &str| params.get(name).and_then(Value::as_str).map(str::trim).filter(|text| !text.is_empty());
    let entry_type = text("type").ok_or_else(|| refuse("missing \"type\" (plan, checkpoint, experiment, decision, todo, note, annotation)"))?;
    let entry_type = EntryType::parse(entry_type).ok_or_else(|| refuse(format!("unknown type {entry_type:?}; use plan, checkpoint, experiment, decision, todo, note or annotation")))?;
    let title = text("title").ok_or_else(|| refuse("the title is empty"))?.to_string();
    let body = params.get("body").and_then(Value::as_str).unwrap_or("").to_string();
    let files: Vec<String> = params.get("files").and_then(Value::as_array).map(|files| files.iter().filter_map(|file| file.as_str().map(str::to_string)).collect()).unwrap_or_default();
    let commit = text("commit");
    if !files.is_empty() && commit.is_some() {
        return Err(refuse("pass either \"files\" (commit them now) or \"commit\" (pin an existing commit), not both"));
    }
    let tags: Vec<String> = params.get("tags").and_then(Value::as_array).map(|tags| tags.iter().filter_map(|tag| tag.as_str().map(str::to_string)).collect()).unwrap_or_default();

    // One record at a time, across processes.
    let lock_path = state.paths.lock.with_file_name("record.lock");
    let lock = OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("cannot open {}: {error}", lock_path.display())))?;
    lock.lock().map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("cannot lock {}: {error}", lock_path.display())))?;

    let (existing_files, _) = crate::memory_context::memory_files(&root);
    let existing = tether_memory::load_entries(&existing_files);
    let existing_ids: HashSet<String> = existing.entries.iter().map(|entry| entry.id.clone()).collect();
    let parent = match text("parent") {
        Some(parent) if !existing_ids.contains(parent) => return Err(refuse(format!("parent {parent:?} does not exist"))),
        other => other.map(str::to_string),
    };
    let id = match text("id") {
        Some(id) => {
            tether_memory::validate_id(id).map_err(|problem| refuse(format!("invalid id {id:?}: {problem}")))?;
            if existing_ids.contains(id) {
                return Err(refuse(format!("an entry with id {id:?} exists already")));
            }
            id.to_string()
        }
        None => tether_memory::unique_id(&tether_memory::slugify_title(&title), &existing_ids),
    };
    let files = files.iter().map(|file| inside_repository(&root, file)).collect::<Result<Vec<_>, _>>()?;
    if !files.is_empty() {
        let changed = repository.changed_paths(&files).map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, error.to_string()))?;
        let unchanged: Vec<&String> = files.iter().filter(|file| !changed.iter().any(|changed| changed == *file || changed.starts_with(&format!("{file}/")))).collect();
        if !unchanged.is_empty() {
            return Err(refuse(format!("nothing to commit in {unchanged:?}: files must have changes")));
        }
    }
    let pinned_commit = match commit {
        Some(commit) => Some(repository.resolve_commit(commit).ok_or_else(|| refuse(format!("no commit {commit:?} in this repository")))?),
        None => None,
    };

    // Everything is valid: commit the files first (their commit is the pin), then the entry.
    let now = timestamp();
    let entry_path = tether_memory::entry_file_path(entry_type, &id);
    let pin_commit = if files.is_empty() {
        pinned_commit.clone()
    } else {
        Some(repository.commit_paths(&files, &format!("{}: {title}", entry_type.as_str())).map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("committing the files failed: {error}")))?)
    };
    let pin_files = if files.is_empty() {
        pinned_commit.as_ref().map(|commit| repository_files_of(&repository, commit)).unwrap_or_default()
    } else {
        files.clone()
    };
    let entry = Entry {
        id: id.clone(),
        entry_type,
        title: title.clone(),
        status: EntryStatus::Active,
        parent,
        created_at: Some(now.clone()),
        updated_at: Some(now),
        tags,
        pins: pin_commit.iter().map(|commit| Pin { commit: commit.clone(), files: pin_files.clone() }).collect(),
        supersedes: string_list(params, "supersedes"),
        depends_on: string_list(params, "depends_on"),
        related: string_list(params, "related"),
        body,
        path: entry_path.clone(),
    };
    let full = root.join(&entry_path);
    if let Some(folder) = full.parent() {
        std::fs::create_dir_all(folder).map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("cannot create {}: {error}", folder.display())))?;
    }
    // `create_new`: never overwrite an entry, even one written by another tool meanwhile.
    let mut file = OpenOptions::new().write(true).create_new(true).open(&full).map_err(|error| refuse(format!("cannot create {entry_path}: {error}")))?;
    file.write_all(tether_memory::render_entry(&entry).as_bytes()).map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("cannot write {entry_path}: {error}")))?;
    drop(file);
    let entry_commit = repository
        .commit_paths(std::slice::from_ref(&entry_path), &format!("memory: {}: {title}", entry_type.as_str()))
        .map_err(|error| RpcError::new(RpcError::INTERNAL_ERROR, format!("committing the entry failed: {error}")))?;
    Ok(json!({
        "id": id,
        "file": entry_path,
        "pinned_commit": pin_commit,
        "pinned_files": pin_files,
        "entry_commit": entry_commit,
        "next": format!("context {{\"symbol\": ...}} on a symbol those files define shows this entry"),
    }))
}

/// The source files a commit changed, for a pin of an existing commit.
fn repository_files_of(repository: &tether_git::Repository, commit: &str) -> Vec<String> {
    let parent = repository.parent_or_empty_tree(commit);
    repository
        .diff(&tether_git::DiffScope::Range(parent, commit.to_string()), true)
        .map(|diffs| diffs.into_iter().filter_map(|diff| diff.new_path.or(diff.old_path)).collect())
        .unwrap_or_default()
}

fn string_list(params: &Value, name: &str) -> Vec<String> {
    params.get(name).and_then(Value::as_array).map(|items| items.iter().filter_map(|item| item.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

/// Now, as an RFC 3339 UTC timestamp (`2026-11-30T05:00:00Z`).
fn timestamp() -> String {
    let seconds = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|elapsed| elapsed.as_secs() as i64).unwrap_or(0);
    let days = seconds.div_euclid(86_400);
    let time = seconds.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", time / 3600, time % 3600 / 60, time % 60)
}
