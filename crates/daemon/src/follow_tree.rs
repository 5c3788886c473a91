//! Following the working tree: a saved, created, deleted or renamed source file is rebuilt
//! into the graph without a commit. File-system events (through `notify`, one watch per
//! folder the index walk enters, so ignored folders such as `target/` cost no watch) are
//! hints; whether a source file's content differs from what the published graph was built
//! from (`dirty_files`, by content hash) is the truth. When events settle for a debounce, a
//! graph with dirty files is rebuilt from the working tree and published. When every event
//! names a source file the graph holds, those files alone are hashed (no `git status`); a
//! save made while a rebuild runs is checked again when that rebuild ends.
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
/// a write, a rename and a metadata change, within a few milliseconds; a `git stash` touches
/// many files). A check of a half-written file is harmless: the next write's event checks again.
const DEBOUNCE: Duration = Duration::from_millis(10);
/// A stream of events is cut after this long, so that it cannot starve the rebuild.
const MAX_SETTLE: Duration = Duration::from_millis(250);
/// How often the stop flag is looked at while no event arrives.
const IDLE_WAKE: Duration = Duration::from_millis(250);

/// What an event says: a source file (or a folder) may have changed, or a new folder needs
/// a watch.
enum TreeEvent {
    /// A source file, or something that may hold some (a removed folder), at this path.
    Changed(PathBuf),
    NewFolder(PathBuf),
    /// `.tether.toml` was written: what the graph leaves out may have changed.
    Configuration,
}

/// Runs until `stop` is set: rebuilds when a source file on disk differs from the graph.
pub(crate) fn follow_tree(state: Arc<DaemonState>, stop: Arc<AtomicBool>) {
    let root = state.paths.root.clone();
    let (sender, events) = channel::<TreeEvent>();
    let watching = Arc::clone(&state);
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else { return };
        let configured = watching.configuration();
        for tree_event in tree_events(&watching.paths.root, &configured.1.exclusions, &event) {
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
    let unwatched = watch_folders(&mut watcher, &root, &state);
    if unwatched > 0 {
        tracing::warn!(
            unwatched,
            "some folders could not be watched: saves there wait for the next HEAD move"
        );
    }
    // Files saved while no daemon ran (the database holds the graph of their last index).
    let mut pending = rebuild_if_dirty(&state, None) == Check::Postponed;
    while !stop.load(Ordering::Relaxed) {
        let Ok(first) = events.recv_timeout(IDLE_WAKE) else {
            // A save seen while another rebuild ran is checked once that one has ended.
            if pending {
                pending = rebuild_if_dirty(&state, None) == Check::Postponed;
            }
            continue;
        };
        let mut new_folders = Vec::new();
        let mut changed = Vec::new();
        let mut configuration_written = false;
        for event in std::iter::once(first).chain(settle(&events)) {
            match event {
                TreeEvent::NewFolder(folder) => new_folders.push(folder),
                TreeEvent::Changed(path) => changed.push(path),
                TreeEvent::Configuration => configuration_written = true,
            }
        }
        if configuration_written {
            tracing::info!("the configuration file was written; rebuilding with it");
            pending = state.rebuild_status().rebuilding;
            if !pending && state.rebuild().is_err() {
                std::thread::sleep(Duration::from_secs(1));
            }
            continue;
        }
        let only_these = new_folders.is_empty().then_some(changed.as_slice());
        for folder in new_folders {
            watch_folders(&mut watcher, &folder, &state);
        }
        // After a postponed check, the files it did not look at may be dirty too.
        let paths = if pending { None } else { only_these };
        pending = rebuild_if_dirty(&state, paths) == Check::Postponed;
    }
}

/// What a check of the working tree did.
#[derive(PartialEq, Eq)]
enum Check {
    /// Found nothing to do, or rebuilt.
    Done,
    /// Another rebuild was running: check again when it ends.
    Postponed,
}

/// Rebuilds when a source file on disk is not what the published graph holds. With `paths`
/// (each a source file the events named), only those are hashed when the graph holds them
/// all; otherwise (or for `None`) git is asked which files changed.
fn rebuild_if_dirty(state: &DaemonState, paths: Option<&[PathBuf]>) -> Check {
    let Some(snapshot) = state.snapshot() else { return Check::Done };
    if state.rebuild_status().rebuilding || git_is_writing_the_tree(&state.paths.root) {
        return Check::Postponed;
    }
    let known = paths.and_then(|paths| changed_known_files(state, &snapshot, paths));
    let dirty = match known {
        Some(changed) => changed,
        None => state.dirty_files_now(&snapshot),
    };
    if dirty.is_empty() {
        return Check::Done;
    }
    tracing::info!(files = dirty.len(), "source files changed on disk; rebuilding");
    if state.rebuild().is_err() {
        // Do not retry in a tight loop: the next save tries again.
        std::thread::sleep(Duration::from_secs(1));
    }
    Check::Done
}

/// A git lock younger than this is a git command at work; an older one was left by a crash.
const FRESH_GIT_LOCK: Duration = Duration::from_secs(5);

/// Whether a git command (a checkout, a stash, a merge) is writing the working tree now: its
/// `index.lock` exists and is fresh. The tree is checked once the command is done, so that a
/// checkout is not built half-written (the HEAD follower rebuilds after it anyway).
fn git_is_writing_the_tree(root: &Path) -> bool {
    let Some(repository) = tether_git::discover(root) else { return false };
    std::fs::metadata(repository.git_dir.join("index.lock"))
        .and_then(|metadata| metadata.modified())
        .is_ok_and(|modified| modified.elapsed().is_ok_and(|age| age < FRESH_GIT_LOCK))
}

/// Of `paths`, the files whose content differs from what `snapshot` holds, when each is a
/// source file the snapshot holds and that is still a file on disk; `None` otherwise (a new,
/// removed or renamed file, a folder: git and the walk must tell what changed).
fn changed_known_files(
    state: &DaemonState,
    snapshot: &tether_query::Snapshot,
    paths: &[PathBuf],
) -> Option<Vec<String>> {
    let root = &state.paths.root;
    let mut relative: Vec<&str> = Vec::with_capacity(paths.len());
    for path in paths {
        relative.push(path.strip_prefix(root).ok()?.to_str()?);
    }
    relative.sort_unstable();
    relative.dedup();
    let mut changed = Vec::new();
    for path in relative {
        let indexed = snapshot.graph.files.iter().find(|file| file.path == path)?;
        // A file gone (or no longer a file) is a removal: git and the walk tell the rest.
        if !std::fs::symlink_metadata(root.join(path)).is_ok_and(|metadata| metadata.is_file()) {
            return None;
        }
        if crate::dirty_files::differs_on_disk(&root.join(path), indexed.content_hash) {
            changed.push(path.to_string());
        }
    }
    Some(changed)
}

/// Watches `folder` and the folders under it the walk enters; how many could not be watched.
fn watch_folders(watcher: &mut impl Watcher, folder: &Path, state: &DaemonState) -> usize {
    let configured = state.configuration();
    tether_index::walked_folders(&state.paths.root, folder, &configured.1.exclusions)
        .iter()
        .filter(|folder| watcher.watch(folder, RecursiveMode::NonRecursive).is_err())
        .count()
}

/// The events that matter of one notification: source files and folders under `root`
/// created, written, removed or renamed. Reads (access events), hidden paths and other files
/// say nothing.
fn tree_events(
    root: &Path,
    exclusions: &tether_config::PathExclusions,
    event: &notify::Event,
) -> Vec<TreeEvent> {
    if matches!(event.kind, EventKind::Access(_)) {
        return Vec::new();
    }
    let mut found = Vec::new();
    for path in &event.paths {
        // `.git` (and the daemon's own files there), and other hidden folders the walk skips.
        let Ok(relative) = path.strip_prefix(root) else { continue };
        if relative == Path::new(tether_config::REPOSITORY_CONFIGURATION_FILE) {
            found.push(TreeEvent::Configuration);
            continue;
        }
        if relative.to_str().is_some_and(|relative| exclusions.excludes(relative, false)) {
            continue;
        }
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
        } else if is_source || matches!(event.kind, EventKind::Remove(_)) {
            // A removed folder is gone from disk: its source files may have been in the graph.
            found.push(TreeEvent::Changed(path.clone()));
        }
    }
    found
}

/// The events that arrive until none has for the debounce interval (or for at most
/// [`MAX_SETTLE`]).
fn settle(events: &Receiver<TreeEvent>) -> Vec<TreeEvent> {
    let started = std::time::Instant::now();
    let mut more = Vec::new();
    while started.elapsed() < MAX_SETTLE {
        match events.recv_timeout(DEBOUNCE) {
            Ok(event) => more.push(event),
            Err(_) => break,
        }
    }
    more
}
