//! The tether daemon: one per repository. It owns the graph database, keeps an immutable
//! in-memory snapshot of the graph for queries, follows git HEAD and the working tree
//! (rebuilding and publishing a new snapshot atomically when HEAD moves or a saved source
//! file differs from the graph), and answers JSON-RPC over a Unix socket.
//!
//! It deliberately does not parse, resolve or query by itself (the index and query crates
//! do), holds no product feature (ownership, changes, context, record: the features crate),
//! writes no JSON text itself (the protocol crate does), and does not update
//! incrementally yet: a HEAD move or a save re-extracts only the changed files but resolves
//! the whole graph again, while the previous snapshot keeps answering.

mod ad_hoc_cypher;
mod bounded_lines;
mod cold_index_pipeline;
mod dirty_files;
mod editor_buffers;
mod follow;
mod follow_tree;
mod handlers;
mod lock;
mod memory_release;
mod paths;
mod private_paths;
mod published_graphs;
mod runtime_evidence;
mod server;
mod state;

pub use ad_hoc_cypher::{
    MAX_AD_HOC_STATEMENT_MEMORY_BYTES, MAX_AD_HOC_STATEMENT_OUTPUT_BYTES,
    MAX_AD_HOC_STATEMENT_TIME, MAX_RUNNING_AD_HOC_STATEMENTS,
};
pub use cold_index_pipeline::{
    index_into_fresh_database, ColdIndexError, ColdIndexOutcome, ColdIndexStoreTimings,
};
pub use lock::{DaemonLock, LockError};
pub use paths::DaemonPaths;
pub use private_paths::{current_uid, open_private_append, peer_uid};
pub use server::{serve, serve_until_idle, server_runtime};
pub use server::{IDLE_TIMEOUT, MAX_CONNECTIONS, MAX_REQUESTS_IN_FLIGHT};
pub use state::{DaemonState, RebuildError};

/// Settles a record a crash interrupted (the daemon at start, a CLI process before it answers).
pub fn recover_interrupted_record(paths: &DaemonPaths) -> Result<(), String> {
    tether_features::recover_interrupted_record(&paths.root, &paths.folder)
}

/// The memory graph of a repository against a snapshot of its code graph, for a process that
/// writes the database without a daemon (`tether index`).
pub fn memory_graph_for(
    paths: DaemonPaths,
    snapshot: &tether_query::Snapshot,
) -> tether_model::MemoryGraph {
    let state = DaemonState::new(paths, tether_store::StoreConfig::default());
    tether_features::memory_graph(&state.feature_context(), snapshot)
}

pub use follow::spawn_follower;
pub use handlers::{apply, handle};
