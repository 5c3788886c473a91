//! Publishing a fresh database atomically, in one go or in stages that overlap the work
//! producing the graph: create the empty database, load the extracted nodes (and the edges
//! extraction decides), load the rest, close and rename into place.
//!
//! The database is built in a sibling file (`graph.lbug.building`) that is renamed over the
//! final path only once complete, so a crash halfway leaves the previous database untouched;
//! a build that is dropped unfinished removes its sibling file.

use std::path::{Path, PathBuf};
use std::time::Instant;

use tether_model::{Graph, IndexMeta, MemoryGraph};

use crate::load::{LoadStats, LoadedNodes};
use crate::{GraphStore, OpenPurpose, StoreConfig, StoreError, StoreLocation};

/// A database being built beside its final path. Send: one thread may create it while
/// another extracts, and hand it on.
pub struct FreshDatabase {
    final_path: PathBuf,
    building: PathBuf,
    /// `None` once closed for publishing.
    store: Option<GraphStore>,
    scratch: tempfile::TempDir,
    loaded: Option<LoadedNodes>,
    remaining_loaded: bool,
    stats: LoadStats,
}

impl FreshDatabase {
    /// Removes what an interrupted build left beside `final_path` and creates the empty
    /// database with the current schema there. `final_path` itself is not touched.
    pub fn create(final_path: &Path, config: StoreConfig) -> Result<FreshDatabase, StoreError> {
        let started = Instant::now();
        let building = sibling(final_path, "building");
        remove_building_files(&building)?;
        let store = GraphStore::create_for(StoreLocation::Path(building.clone()), config, OpenPurpose::BulkLoad)?;
        let scratch = store.scratch_folder()?;
        let stats = LoadStats { create_seconds: started.elapsed().as_secs_f64(), ..LoadStats::default() };
        Ok(FreshDatabase { final_path: final_path.to_path_buf(), building, store: Some(store), scratch, loaded: None, remaining_loaded: false, stats })
    }

    /// Loads what extraction alone decides: every file record, symbol, diagnostic and edge
    /// of `extracted`, a graph before resolution. Call it at most once, before [`finish`] or
    /// [`load_remaining`]; their graph must then extend this one (resolution only appends
    /// symbols, and its edges must include these).
    ///
    /// [`finish`]: FreshDatabase::finish
    /// [`load_remaining`]: FreshDatabase::load_remaining
    pub fn load_extracted_nodes(&mut self, extracted: &Graph) -> Result<(), StoreError> {
        if self.loaded.is_some() || self.remaining_loaded {
            return Err(StoreError::StagedLoadMismatch { message: "the extracted nodes must be loaded once, first".to_string() });
        }
        let store = self.store.as_ref().expect("the store stays open until finish");
        self.loaded = Some(store.load_extracted_nodes(extracted, self.scratch.path(), &mut self.stats)?);
        Ok(())
    }

    /// Loads whatever of `graph` and `memory` is not loaded yet and the metadata, closes the
    /// database and renames it over the final path: [`load_remaining`], then [`publish`].
    ///
    /// [`load_remaining`]: FreshDatabase::load_remaining
    /// [`publish`]: FreshDatabase::publish
    pub fn finish(mut self, graph: &Graph, memory: &MemoryGraph, meta: &IndexMeta) -> Result<LoadStats, StoreError> {
        self.load_remaining(graph, memory, meta)?;
        self.publish()
    }

    /// Loads whatever of `graph` and `memory` is not loaded yet, and the metadata. Call it
    /// once; with a first stage, `graph` must extend what [`load_extracted_nodes`] loaded.
    ///
    /// [`load_extracted_nodes`]: FreshDatabase::load_extracted_nodes
    pub fn load_remaining(&mut self, graph: &Graph, memory: &MemoryGraph, meta: &IndexMeta) -> Result<(), StoreError> {
        if self.remaining_loaded {
            return Err(StoreError::StagedLoadMismatch { message: "the remaining tables were already loaded".to_string() });
        }
        let store = self.store.as_ref().expect("the store stays open until publish");
        store.load_rest(graph, memory, meta, self.loaded.as_ref(), self.scratch.path(), &mut self.stats)?;
        self.remaining_loaded = true;
        Ok(())
    }

    /// Closes the database and renames it over the final path. Closing checkpoints: the
    /// engine compresses and writes every column chunk loaded since the database was created,
    /// single-threaded, which is most of a load's time after the COPYs themselves.
    pub fn publish(mut self) -> Result<LoadStats, StoreError> {
        if !self.remaining_loaded {
            return Err(StoreError::StagedLoadMismatch { message: "publish came before load_remaining".to_string() });
        }
        let store = self.store.take().expect("the store stays open until publish");
        let closing = Instant::now();
        drop(store);
        self.stats.close_seconds = closing.elapsed().as_secs_f64();
        std::fs::rename(&self.building, &self.final_path).map_err(|source| StoreError::Io { path: self.final_path.clone(), source })?;
        let stale_wal = sibling(&self.final_path, "wal");
        let building_wal = sibling(&self.building, "wal");
        if building_wal.exists() {
            std::fs::rename(&building_wal, &stale_wal).map_err(|source| StoreError::Io { path: stale_wal.clone(), source })?;
        } else if stale_wal.exists() {
            std::fs::remove_file(&stale_wal).map_err(|source| StoreError::Io { path: stale_wal.clone(), source })?;
        }
        Ok(std::mem::take(&mut self.stats))
    }

    /// What has been loaded so far, and how long it took.
    pub fn stats(&self) -> &LoadStats {
        &self.stats
    }
}

impl Drop for FreshDatabase {
    /// An unfinished build closes its database and removes its sibling file; the final path
    /// keeps the previous database. (After `finish` the sibling file has been renamed.)
    fn drop(&mut self) {
        if let Some(store) = self.store.take() {
            drop(store);
            let _ = remove_building_files(&self.building);
        } else if self.building.exists() {
            // `finish` failed after closing: the sibling is incomplete or unpublished.
            let _ = remove_building_files(&self.building);
        }
    }
}

fn remove_building_files(building: &Path) -> Result<(), StoreError> {
    for leftover in [building.to_path_buf(), sibling(building, "wal")] {
        if leftover.exists() {
            std::fs::remove_file(&leftover).map_err(|source| StoreError::Io { path: leftover.clone(), source })?;
        }
    }
    Ok(())
}

/// Builds a fresh database at `final_path` from a graph, atomically: the graph is written to
/// a sibling file first and renamed over `final_path` only once complete, so a crash halfway
/// leaves the previous database untouched.
pub fn write_fresh_database(final_path: &Path, graph: &Graph, meta: &IndexMeta, config: StoreConfig) -> Result<LoadStats, StoreError> {
    write_fresh_database_with_memory(final_path, graph, &MemoryGraph::default(), meta, config)
}

/// Like [`write_fresh_database`], with the memory graph beside the code graph.
pub fn write_fresh_database_with_memory(
    final_path: &Path,
    graph: &Graph,
    memory: &MemoryGraph,
    meta: &IndexMeta,
    config: StoreConfig,
) -> Result<LoadStats, StoreError> {
    FreshDatabase::create(final_path, config)?.finish(graph, memory, meta)
}

/// `path` with `.suffix` appended (`graph.lbug` → `graph.lbug.wal`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}
