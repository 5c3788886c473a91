//! Following git HEAD: HEAD is polled (reading `.git/HEAD` and a ref is a few microseconds);
//! when it moves and then stays put for a short debounce (a rebase moves it many times), the
//! graph is rebuilt and published.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::state::DaemonState;

const POLL_INTERVAL: Duration = Duration::from_millis(20);
/// A rebase or a script moves HEAD many times within milliseconds; wait for it to settle.
const DEBOUNCE: Duration = Duration::from_millis(40);

/// Runs until `stop` is set. Rebuilds whenever HEAD differs from the published graph's
/// commit and has been stable for the debounce interval.
pub(crate) fn follow_head(state: Arc<DaemonState>, stop: Arc<AtomicBool>) {
    let Some(repository) = tether_git::discover(&state.paths.root) else {
        tracing::info!("not a git repository: HEAD is not followed");
        return;
    };
    let mut last_seen: Option<String> = None;
    let mut stable_since = Instant::now();
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(POLL_INTERVAL);
        let head = repository.head().ok().and_then(|head| head.commit);
        if head != last_seen {
            last_seen = head.clone();
            stable_since = Instant::now();
            continue;
        }
        if stable_since.elapsed() < DEBOUNCE {
            continue;
        }
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

/// Starts the follower thread.
pub fn spawn_follower(state: Arc<DaemonState>, stop: Arc<AtomicBool>) -> std::thread::JoinHandle<()> {
    let persister_state = Arc::clone(&state);
    let persister_stop = Arc::clone(&stop);
    std::thread::Builder::new()
        .name("tether-persist".into())
        .spawn(move || persist_in_background(persister_state, persister_stop))
        .expect("spawn the persister");
    std::thread::Builder::new().name("tether-follow-head".into()).spawn(move || follow_head(state, stop)).expect("spawn the HEAD follower")
}
