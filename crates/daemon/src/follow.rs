//! Following git HEAD. File-system events on the git directory and its refs (through
//! `notify`) are hints that wake the follower; HEAD itself, read from `.git`, is the truth.
//! A slow poll covers file systems without events. When HEAD moves and then stays put for a
//! short debounce (a rebase moves it many times), the graph is rebuilt and published.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::Arc;
use std::time::Duration;

use notify::{RecursiveMode, Watcher};

use crate::state::DaemonState;

/// Without events, HEAD is read this often.
const FALLBACK_POLL: Duration = Duration::from_millis(250);
/// After an event, wait this long for more before reading HEAD (bursts settle).
const DEBOUNCE: Duration = Duration::from_millis(15);

/// Runs until `stop` is set. Rebuilds whenever HEAD differs from the published graph's
/// commit and no git event arrived during the debounce interval.
pub(crate) fn follow_head(state: Arc<DaemonState>, stop: Arc<AtomicBool>) {
    let Some(repository) = tether_git::discover(&state.paths.root) else {
        tracing::info!("not a git repository: HEAD is not followed");
        return;
    };
    let (sender, events) = channel::<()>();
    let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if event.is_ok() {
            let _ = sender.send(());
        }
    });
    let _watcher = match watcher {
        Ok(mut watcher) => {
            let mut watched =
                watcher.watch(&repository.git_dir, RecursiveMode::NonRecursive).is_ok();
            watched &= watcher
                .watch(&repository.common_dir.join("refs"), RecursiveMode::Recursive)
                .is_ok();
            if repository.common_dir != repository.git_dir {
                watched &=
                    watcher.watch(&repository.common_dir, RecursiveMode::NonRecursive).is_ok();
            }
            if !watched {
                tracing::warn!(
                    "could not watch every git path; HEAD is also polled every {} ms",
                    FALLBACK_POLL.as_millis()
                );
            }
            Some(watcher)
        }
        Err(error) => {
            tracing::warn!(%error, "no file-system events; HEAD is polled every {} ms", FALLBACK_POLL.as_millis());
            None
        }
    };
    while !stop.load(Ordering::Relaxed) {
        if events.recv_timeout(FALLBACK_POLL).is_ok() {
            settle(&events);
        }
        let head = repository.head().ok().and_then(|head| head.commit);
        let Some(snapshot) = state.snapshot() else { continue };
        if snapshot.meta.head_commit == head || state.rebuild_status().rebuilding {
            continue;
        }
        tracing::info!(head = head.as_deref().unwrap_or("none"), "HEAD moved; rebuilding");
        if state.rebuild().is_err() {
            // Do not retry in a tight loop; try again when HEAD moves next or after a pause.
            std::thread::sleep(Duration::from_secs(5));
        }
    }
}

/// Waits until no event has arrived for the debounce interval.
fn settle(events: &Receiver<()>) {
    while events.recv_timeout(DEBOUNCE).is_ok() {}
}

/// Writes published graphs to the database off the query and rebuild paths, newest first
/// (intermediate graphs of a burst are skipped), until `stop` is set; then writes what is left.
pub(crate) fn persist_in_background(state: Arc<DaemonState>, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        state.wait_for_persist_work(Duration::from_millis(500));
        if let Err(error) = state.persist_pending() {
            tracing::error!(%error, "writing the graph database failed; the published graph still answers");
        }
    }
    let _ = state.persist_pending();
}

/// Starts the followers (HEAD, the working tree) and the persister.
pub fn spawn_follower(
    state: Arc<DaemonState>,
    stop: Arc<AtomicBool>,
) -> std::thread::JoinHandle<()> {
    let persister_state = Arc::clone(&state);
    let persister_stop = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("tether-persist".into())
        .spawn(move || persist_in_background(persister_state, persister_stop))
        .expect("spawn the persister");
    let tree_state = Arc::clone(&state);
    let tree_stop = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("tether-follow-tree".into())
        .spawn(move || crate::follow_tree::follow_tree(tree_state, tree_stop))
        .expect("spawn the working-tree follower");
    std::thread::Builder::new()
        .name("tether-follow-head".into())
        .spawn(move || follow_head(state, stop))
        .expect("spawn the HEAD follower")
}
