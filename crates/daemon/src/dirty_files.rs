//! Which source files on disk are not what the published graph holds: edited, added or
//! deleted since it was built. The graph is built from the working tree, so a file with
//! uncommitted changes may well be in it; a file counts as dirty only when its content now
//! differs from the content the graph was built from (by hash), when it is new (untracked or
//! not indexed), or when it is gone. Answers about a language with dirty files are lower
//! bounds (`dirty_files`): callers may hide in them until the graph reflects them.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};
use tether_model::IgnoringPoison;

use tether_query::Snapshot;

/// Asked of git at most this often.
const TTL: Duration = Duration::from_millis(500);
/// Changed files hashed at most per check; past this many, the rest count as dirty unread.
const MAX_FILES_HASHED: usize = 500;

/// The last check, for one graph.
#[derive(Default)]
pub(crate) struct DirtyFilesCache {
    checked: Option<(Instant, Option<String>, usize, Vec<String>)>,
}

impl DirtyFilesCache {
    /// Drops the last check: the next one asks git again.
    pub(crate) fn forget(&mut self) {
        self.checked = None;
    }
}

/// The source files whose content is not what `snapshot` was built from, sorted; files the
/// configuration leaves out of the graph (`index.exclude`) are never counted.
pub(crate) fn dirty_files(
    root: &Path,
    snapshot: &Snapshot,
    cache: &std::sync::Mutex<DirtyFilesCache>,
    exclusions: &tether_config::PathExclusions,
) -> Vec<String> {
    let identity = (snapshot.meta.head_commit.clone(), snapshot.graph.files.len());
    {
        let cached = cache.lock().ignoring_poison();
        if let Some((at, commit, files, dirty)) = &cached.checked {
            if at.elapsed() < TTL && (commit, files) == (&identity.0, &identity.1) {
                return dirty.clone();
            }
        }
    }
    let dirty = compute(root, snapshot, exclusions);
    cache.lock().ignoring_poison().checked =
        Some((Instant::now(), identity.0, identity.1, dirty.clone()));
    dirty
}

/// Whether the file at `on_disk` is not the content whose hash the graph holds: edited, or
/// deleted (or no longer a file, or unreadable), so the graph's symbols for it are stale.
pub(crate) fn differs_on_disk(on_disk: &Path, content_hash: u64) -> bool {
    match std::fs::symlink_metadata(on_disk) {
        Ok(metadata) if metadata.is_file() => std::fs::read(on_disk)
            .map(|bytes| tether_model::stable_hash(&bytes) != content_hash)
            .unwrap_or(true),
        _ => true,
    }
}

fn compute(
    root: &Path,
    snapshot: &Snapshot,
    exclusions: &tether_config::PathExclusions,
) -> Vec<String> {
    let Some(repository) = tether_git::discover(root) else { return Vec::new() };
    let Some(changes) = repository.source_file_changes() else { return Vec::new() };
    let indexed: HashMap<&str, u64> =
        snapshot.graph.files.iter().map(|file| (file.path.as_str(), file.content_hash)).collect();
    let changed_paths: std::collections::HashSet<&str> =
        changes.iter().map(|change| change.path.as_str()).collect();
    let mut dirty = Vec::new();
    for (position, change) in changes.iter().enumerate() {
        let path = change.path.as_str();
        if exclusions.excludes(path, false) && !indexed.contains_key(path) {
            continue;
        }
        let on_disk = root.join(path);
        let differs = match indexed.get(path) {
            // Not in the graph: new, or not indexed yet (a symlink never is: the walk does not
            // follow them).
            None => std::fs::symlink_metadata(&on_disk).is_ok_and(|metadata| metadata.is_file()),
            Some(_) if position >= MAX_FILES_HASHED => true,
            Some(hash) => differs_on_disk(&on_disk, *hash),
        };
        if differs {
            dirty.push(change.path.clone());
        }
        if let Some(original) = &change.original_path {
            if indexed.contains_key(original.as_str()) {
                dirty.push(original.clone());
            }
        }
    }
    // A file of the graph that is gone from disk, though git does not list it (an untracked
    // file deleted): the graph still holds its symbols.
    for file in &snapshot.graph.files {
        if !changed_paths.contains(file.path.as_str())
            && std::fs::symlink_metadata(root.join(&file.path)).is_err()
        {
            dirty.push(file.path.clone());
        }
    }
    dirty.sort();
    dirty.dedup();
    dirty
}
