//! A folder's graph built in memory, as the query benchmarks start: the snapshot and a line
//! saying its size and how long it took.

use std::path::Path;
use std::time::Instant;

use tether_index::{build_graph, IndexOptions};
use tether_query::Snapshot;

/// Builds the folder's graph and prints `graph  N symbols, M edges (S s)`.
pub fn snapshot_of_folder(path: &Path) -> anyhow::Result<Snapshot> {
    let started = Instant::now();
    let graph = build_graph(&IndexOptions::new(path), &|_, _| {})?.graph;
    let snapshot = Snapshot::new(graph, tether_index::index_meta(path));
    println!(
        "graph         {} symbols, {} edges ({:.1} s)",
        snapshot.symbols().len(),
        snapshot.graph.edges.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(snapshot)
}
