//! Publishing a fresh database atomically, in one go or in stages that overlap the work
//! producing the graph: create the empty database, load the extracted nodes (and the edges
//! extraction decides), load the rest, close and rename into place.
//!
//! The database is built in a folder of its own beside the final path
//! (`.graph.lbug.building-XXXXXX/graph.lbug`, unique per build) and renamed over the final
//! path only once complete, so a crash halfway leaves the previous database untouched. The
//! engine's side files of the build (write-ahead log, shadow pages, checkpoint locks) and the
//! CSV scratch files all live in that folder: a build dropped unfinished removes it whole,
//! and the next build removes whatever folder a killed one left (the caller holds the
//! database's lock, so no other build is running).

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
    /// The build's own folder, removed whole when the build ends either way.
    folder: Option<tempfile::TempDir>,
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
        let parent = parent_folder(final_path);
        std::fs::create_dir_all(&parent)
            .map_err(|source| StoreError::Io { path: parent.clone(), source })?;
        remove_leftover_builds(final_path)?;
        let name = final_name(final_path);
        let folder = tempfile::Builder::new()
            .prefix(&format!(".{name}.building-"))
            .tempdir_in(&parent)
            .map_err(|source| StoreError::Io { path: parent.clone(), source })?;
        let building = folder.path().join(&name);
        let store = GraphStore::create_for(
            StoreLocation::Path(building.clone()),
            config,
            OpenPurpose::BulkLoad,
        )?;
        let scratch = store.scratch_folder()?;
        let stats =
            LoadStats { create_seconds: started.elapsed().as_secs_f64(), ..LoadStats::default() };
        Ok(FreshDatabase {
            final_path: final_path.to_path_buf(),
            building,
            folder: Some(folder),
            store: Some(store),
            scratch,
            loaded: None,
            remaining_loaded: false,
            stats,
        })
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
            return Err(StoreError::StagedLoadMismatch {
                message: "the extracted nodes must be loaded once, first".to_string(),
            });
        }
        let store = self.store.as_ref().expect("the store stays open until finish");
        self.loaded =
            Some(store.load_extracted_nodes(extracted, self.scratch.path(), &mut self.stats)?);
        Ok(())
    }

    /// Loads whatever of `graph` and `memory` is not loaded yet and the metadata, closes the
    /// database and renames it over the final path: [`load_remaining`], then [`publish`].
    ///
    /// [`load_remaining`]: FreshDatabase::load_remaining
    /// [`publish`]: FreshDatabase::publish
    pub fn finish(
        mut self,
        graph: &Graph,
        memory: &MemoryGraph,
        meta: &IndexMeta,
    ) -> Result<LoadStats, StoreError> {
        self.load_remaining(graph, memory, meta)?;
        self.publish()
    }

    /// Loads whatever of `graph` and `memory` is not loaded yet, and the metadata. Call it
    /// once; with a first stage, `graph` must extend what [`load_extracted_nodes`] loaded.
    ///
    /// [`load_extracted_nodes`]: FreshDatabase::load_extracted_nodes
    pub fn load_remaining(
        &mut self,
        graph: &Graph,
        memory: &MemoryGraph,
        meta: &IndexMeta,
    ) -> Result<(), StoreError> {
        if self.remaining_loaded {
            return Err(StoreError::StagedLoadMismatch {
                message: "the remaining tables were already loaded".to_string(),
            });
        }
        let store = self.store.as_ref().expect("the store stays open until publish");
        store.load_rest(
            graph,
            memory,
            meta,
            self.loaded.as_ref(),
            self.scratch.path(),
            &mut self.stats,
        )?;
        self.remaining_loaded = true;
        Ok(())
    }

    /// Closes the database and renames it over the final path. Closing checkpoints: the
    /// engine compresses and writes every column chunk loaded since the database was created,
    /// single-threaded, which is most of a load's time after the COPYs themselves.
    pub fn publish(mut self) -> Result<LoadStats, StoreError> {
        if !self.remaining_loaded {
            return Err(StoreError::StagedLoadMismatch {
                message: "publish came before load_remaining".to_string(),
            });
        }
        let store = self.store.take().expect("the store stays open until publish");
        let closing = Instant::now();
        drop(store);
        self.stats.close_seconds = closing.elapsed().as_secs_f64();
        std::fs::rename(&self.building, &self.final_path)
            .map_err(|source| StoreError::Io { path: self.final_path.clone(), source })?;
        // The previous database's side files belong to a file that is gone now.
        remove_side_files(&self.final_path)?;
        let building_wal = sibling(&self.building, "wal");
        if building_wal.exists() {
            let wal = sibling(&self.final_path, "wal");
            std::fs::rename(&building_wal, &wal)
                .map_err(|source| StoreError::Io { path: wal.clone(), source })?;
        }
        // The build's folder (scratch files, engine leftovers) goes with it.
        drop(self.folder.take());
        restrict_to_owner(&self.final_path);
        Ok(std::mem::take(&mut self.stats))
    }

    /// What has been loaded so far, and how long it took.
    pub fn stats(&self) -> &LoadStats {
        &self.stats
    }
}

impl Drop for FreshDatabase {
    /// An unfinished build closes its database and removes its folder; the final path keeps
    /// the previous database. (After `publish` the database has been renamed out of it.)
    fn drop(&mut self) {
        drop(self.store.take());
        drop(self.folder.take());
    }
}

fn parent_folder(path: &Path) -> PathBuf {
    path.parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

fn final_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "graph.lbug".to_string())
}

/// Removes what killed builds left beside `final_path`: their folders
/// (`.graph.lbug.building-*`), the sibling files of builds before folders
/// (`graph.lbug.building`, `graph.lbug.building.wal`, `….wal.checkpoint`, `….shadow`, checkpoint
/// locks), and CSV scratch folders (`tether-load-*`).
fn remove_leftover_builds(final_path: &Path) -> Result<(), StoreError> {
    let parent = parent_folder(final_path);
    let name = final_name(final_path);
    let folder_prefix = format!(".{name}.building-");
    let file_prefix = format!("{name}.building");
    let Ok(entries) = std::fs::read_dir(&parent) else { return Ok(()) };
    for entry in entries.flatten() {
        let entry_name = entry.file_name().to_string_lossy().into_owned();
        let path = entry.path();
        let Ok(file_type) = entry.file_type() else { continue };
        let removed = if file_type.is_dir()
            && (entry_name.starts_with(&folder_prefix) || entry_name.starts_with("tether-load-"))
        {
            std::fs::remove_dir_all(&path)
        } else if !file_type.is_dir() && entry_name.starts_with(&file_prefix) {
            std::fs::remove_file(&path)
        } else {
            continue;
        };
        removed.map_err(|source| StoreError::Io { path, source })?;
    }
    Ok(())
}

/// Removes the engine's side files of a database file that was just replaced: its
/// write-ahead log and anything a checkpoint left (`graph.lbug.wal`, `graph.lbug.shadow`,
/// `graph.lbug.wal.checkpoint`, `graph.lbug.checkpoint.*.lock`, …).
fn remove_side_files(final_path: &Path) -> Result<(), StoreError> {
    let parent = parent_folder(final_path);
    let side_prefix = format!("{}.", final_name(final_path));
    let Ok(entries) = std::fs::read_dir(&parent) else { return Ok(()) };
    for entry in entries.flatten() {
        let entry_name = entry.file_name().to_string_lossy().into_owned();
        if entry_name.starts_with(&side_prefix)
            && entry.file_type().is_ok_and(|file_type| !file_type.is_dir())
        {
            let path = entry.path();
            std::fs::remove_file(&path).map_err(|source| StoreError::Io { path, source })?;
        }
    }
    Ok(())
}

/// The database holds the code of the repository: readable by its owner only.
fn restrict_to_owner(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
}

/// Builds a fresh database at `final_path` from a graph, atomically: the graph is written to
/// a sibling file first and renamed over `final_path` only once complete, so a crash halfway
/// leaves the previous database untouched.
pub fn write_fresh_database(
    final_path: &Path,
    graph: &Graph,
    meta: &IndexMeta,
    config: StoreConfig,
) -> Result<LoadStats, StoreError> {
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
