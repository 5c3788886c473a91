//! Following the working tree: a saved, created, deleted or renamed source file is rebuilt
//! into the graph without a commit. File-system events (through `notify`, one watch per
//! folder the index walk enters, so ignored folders such as `target/` cost no watch) are
//! hints; whether a source file's content differs from what the published graph was built
//! from (`dirty_files`, by content hash) is the truth. When events settle for a debounce, a
//! graph with dirty files is rebuilt from the working tree and published.
//!
//! It deliberately leaves HEAD to `follow`: a checkout changes files too, and whichever
//! follower rebuilds first publishes the tree as it is; the other then finds nothing dirty.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::Duration;

use notify::{EventKind, RecursiveMode, Watcher};

use crate::state::DaemonState;

/// After an event, wait this long for more before checking the files (an editor's save is
/// a write, a rename and a metadata change; a `git stash` touches many files).
const DEBOUNCE: Duration = Duration::from_millis(100);
/// How often the stop flag is looked at while no event arrives.
const IDLE_WAKE: Duration = Duration::from_millis(250);

/// What an event says: a source file (or a folder) may have changed, or a new folder needs
/// a watch.
enum TreeEvent {
    Changed,
    NewFolder(PathBuf),
}

/// Runs until `stop` is set: rebuilds when a source file on disk differs from the graph.
pub(crate) fn follow_tree(state: Arc<DaemonState>, stop: Arc<AtomicBool>) {
    let root = state.paths.root.clone();
    let (sender, events) = channel::<TreeEvent>();
    let watched_root = root.clone();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        for tree_event in tree_events(&watched_root, &event) {
            let _ = sender.send(tree_event);
        }
    });
    let mut watcher = match watcher {
        Ok(watcher) => watcher,
        Err(error) => {
            tracing::warn!(%error, "no file-system events: saved files wait for the next HEAD move");
            return;
        }
    };
    let unwatched = watch_folders(&mut watcher, &root);
    if unwatched > 0 {
        tracing::warn!(
            unwatched,
            "some folders could not be watched: saves there wait for the next HEAD move"
        );
    }
    // Files saved while no daemon ran (the database holds the graph of their last index).
    rebuild_if_dirty(&state);
    while !stop.load(Ordering::Relaxed) {
        let Ok(first) = events.recv_timeout(IDLE_WAKE) else { continue };
        let mut new_folders = Vec::new();
        for event in std::iter::once(first).chain(settle(&events)) {
            if let TreeEvent::NewFolder(folder) = event {
                new_folders.push(folder);
            }
        }
        for folder in new_folders {
            watch_folders(&mut watcher, &folder);
        }
        rebuild_if_dirty(&state);
    }
}

/// Rebuilds when a source file on disk is not what the published graph holds.
fn rebuild_if_dirty(state: &DaemonState) {
    let Some(snapshot) = state.snapshot() else { return };
    if state.rebuild_status().rebuilding {
        return;
    }
    let dirty = state.dirty_files_now(&snapshot);
    if dirty.is_empty() {
        return;
    }
    tracing::info!(files = dirty.len(), "source files changed on disk; rebuilding");
    if state.rebuild().is_err() {
        // Do not retry in a tight loop: the next save tries again.
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// Watches `folder` and the folders under it the walk enters; how many could not be watched.
fn watch_folders(watcher: &mut impl Watcher, folder: &Path) -> usize {
    tether_index::walked_folders(folder)
        .iter()
        .filter(|folder| watcher.watch(folder, RecursiveMode::NonRecursive).is_err())
        .count()
}

/// The events that matter of one notification: source files and folders under `root`
/// created, written, removed or renamed. Reads (access events), hidden paths and other files
/// say nothing.
fn tree_events(root: &Path, event: &notify::Event) -> Vec<TreeEvent> {
    if matches!(event.kind, EventKind::Access(_)) {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut changed = false;
    for path in &event.paths {
        // `.git` (and the daemon's own files there), and other hidden folders the walk skips.
        let Ok(relative) = path.strip_prefix(root) else { continue };
        let is_hidden = relative.components().any(|component| {
            component.as_os_str().to_str().is_some_and(|name| name.starts_with('.'))
        });
        if is_hidden {
            continue;
        }
        let is_source = path.to_str().and_then(tether_model::Language::from_path).is_some();
        // (Only a creation or a rename into place can make a folder to watch.)
        let may_be_new_folder = matches!(event.kind, EventKind::Create(_) | EventKind::Modify(_));
        if may_be_new_folder
            && std::fs::symlink_metadata(path).is_ok_and(|metadata| metadata.is_dir())
        {
            // A folder created or renamed into place: watch it, and what it holds may be new.
            found.push(TreeEvent::NewFolder(path.clone()));
            changed = true;
        }
        // A removed folder is gone from disk: its source files may have been in the graph.
        changed |= is_source || matches!(event.kind, EventKind::Remove(_));
    }
    if changed {
        found.push(TreeEvent::Changed);
    }
    found
}

/// The events that arrive until none has for the debounce interval.
fn settle(events: &Receiver<TreeEvent>) -> Vec<TreeEvent> {
    let mut more = Vec::new();
    while let Ok(event) = events.recv_timeout(DEBOUNCE) {
        more.push(event);
    }
    more
}
