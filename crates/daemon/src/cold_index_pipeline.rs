//! A cold index straight into a fresh database, with the database work overlapped: the
//! empty database and its schema are created on a store thread while files are extracted,
//! the extracted nodes (files, project symbols, diagnostics) and the CONTAINS edges
//! extraction decides are COPYed on it while resolution runs, and only what resolution
//! decides (outside symbols, the other edges, unresolved call sites) and the memory graph are
//! loaded after it. Publishing stays atomic
//! (`tether_store::FreshDatabase`): a failure or crash at any point leaves the previous
//! database in place.
//!
//! `tether index` and `tether-bench cold-index` run this; the daemon's own rebuilds publish
//! a snapshot before writing the database and do not.

use std::path::Path;
use std::time::Instant;

use tether_index::{check_root, extract_project, BuiltGraph, FactsCache, IndexError, IndexOptions};
use tether_model::{Graph, IndexMeta, MemoryGraph};
use tether_store::{FreshDatabase, LoadStats, StoreConfig, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum ColdIndexError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Where the store's time went. The first two ran on the store thread beside extraction and
/// resolution; the rest is on the critical path after resolution.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColdIndexStoreTimings {
    /// Creating the empty database and its schema, during extraction.
    pub create_seconds: f64,
    /// COPYing the extracted nodes, during resolution.
    pub extracted_nodes_seconds: f64,
    /// Time the main thread waited for the store thread (for the database to be created,
    /// then for the extracted nodes to be loaded) after its own work was done.
    pub waited_seconds: f64,
    /// Building the memory graph against the finished code graph.
    pub memory_seconds: f64,
    /// Loading the rest, writing the metadata, closing and renaming into place.
    pub finish_seconds: f64,
}

/// The graph built, and how it was stored.
pub struct ColdIndexOutcome {
    /// Its `timings.store_seconds` is the store's time after resolution (waiting, memory
    /// graph, finishing); `timings.store_overlapped_seconds` the store thread's work before.
    pub built: BuiltGraph,
    pub load: LoadStats,
    pub store: ColdIndexStoreTimings,
}

/// Indexes `options.root` into a fresh database at `database` (atomically replacing what is
/// there), overlapping the load with extraction and resolution. `memory_for` builds the
/// memory graph stored beside the code graph from the finished code graph.
pub fn index_into_fresh_database(
    options: &IndexOptions,
    database: &Path,
    config: StoreConfig,
    meta: &IndexMeta,
    memory_for: impl FnOnce(&Graph) -> MemoryGraph,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ColdIndexOutcome, ColdIndexError> {
    // Nothing is created beside a root that cannot be indexed.
    check_root(&options.root)?;
    let mut timings = ColdIndexStoreTimings::default();
    // A cold index keeps nothing for a next build; its facts are freed while the database closes.
    let mut cache = FactsCache::throwaway();

    let (created, extracted) = std::thread::scope(|scope| {
        let creating = scope.spawn(|| FreshDatabase::create(database, config));
        let extracted = extract_project(options, &cache, progress);
        let waiting = Instant::now();
        let created = creating.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        timings.waited_seconds += waiting.elapsed().as_secs_f64();
        (created, extracted)
    });
    // On an extraction error the new database is dropped, which removes it.
    let extracted = extracted?;
    let mut fresh = created?;
    timings.create_seconds = fresh.stats().create_seconds;

    let (mut fresh, loaded, resolved) = std::thread::scope(|scope| {
        let nodes = extracted.extracted_graph();
        let loading = scope.spawn(move || {
            let started = Instant::now();
            let loaded = fresh.load_extracted_nodes(nodes);
            (fresh, loaded, started.elapsed().as_secs_f64())
        });
        let resolved = extracted.resolve(&mut cache);
        let waiting = Instant::now();
        let (fresh, loaded, seconds) =
            loading.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        timings.waited_seconds += waiting.elapsed().as_secs_f64();
        timings.extracted_nodes_seconds = seconds;
        (fresh, loaded, resolved)
    });
    loaded?;
    let mut built = extracted.into_built_graph(resolved);

    let started = Instant::now();
    let memory = memory_for(&built.graph);
    timings.memory_seconds = started.elapsed().as_secs_f64();
    let started = Instant::now();
    fresh.load_remaining(&built.graph, &memory, meta)?;
    // Freeing every file's facts takes a core for tens of milliseconds; closing the database
    // (its checkpoint) runs on one core and leaves the other idle.
    let freeing = std::thread::spawn(move || drop(cache));
    let load = fresh.publish();
    freeing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    let load = load?;
    timings.finish_seconds = started.elapsed().as_secs_f64();

    built.timings.store_seconds =
        timings.waited_seconds + timings.memory_seconds + timings.finish_seconds;
    built.timings.store_overlapped_seconds =
        timings.create_seconds + timings.extracted_nodes_seconds;
    Ok(ColdIndexOutcome { built, load, store: timings })
}
