//! The durable store of the code graph, in an embedded LadybugDB database.
//!
//! This is the only crate that names `lbug`. It owns the schema (versioned: opening a
//! database of another version is a typed error), bulk-loads a whole [`Graph`] with
//! `COPY … FROM` CSV files, and reads the graph, its census and its metadata back.
//!
//! It deliberately does not parse, resolve or walk files, does not decide where a
//! repository's database lives (the caller passes a path), and does not answer the hot
//! queries of the daemon (those run on an in-memory snapshot; see ARCHITECTURE.md).
//!
//! [`Graph`]: tether_model::Graph

mod csv_writer;
mod error;
mod load;
mod read;
mod schema;

use std::path::{Path, PathBuf};

pub use error::StoreError;
pub use schema::SCHEMA_VERSION;

/// How much memory the database may use.
#[derive(Clone, Copy, Debug)]
pub struct StoreConfig {
    /// The buffer pool cap. LadybugDB's own default is 80 % of physical RAM.
    pub buffer_pool_bytes: u64,
    /// Threads for query execution; 0 lets the engine pick (one per core).
    pub max_threads: u64,
}

impl Default for StoreConfig {
    fn default() -> StoreConfig {
        StoreConfig { buffer_pool_bytes: 256 * 1024 * 1024, max_threads: 0 }
    }
}

/// Where the database lives.
#[derive(Clone, Debug)]
pub enum StoreLocation {
    /// A database file on disk.
    Path(PathBuf),
    /// An in-memory database, for tests.
    InMemory,
}

/// Virtual address space reserved for the database file; far above any code graph.
const MAX_DB_BYTES: u64 = 32 * 1024 * 1024 * 1024;

/// An open graph database.
pub struct GraphStore {
    database: lbug::Database,
    location: StoreLocation,
}

impl GraphStore {
    /// Opens an existing database and checks its schema version.
    pub fn open(path: &Path, config: StoreConfig) -> Result<GraphStore, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing { path: path.to_path_buf() });
        }
        let store = GraphStore::open_raw(StoreLocation::Path(path.to_path_buf()), config)?;
        store.check_schema_version()?;
        Ok(store)
    }

    /// Creates a new, empty database with the current schema. An existing file is an error.
    pub fn create(location: StoreLocation, config: StoreConfig) -> Result<GraphStore, StoreError> {
        if let StoreLocation::Path(path) = &location {
            if path.exists() {
                return Err(StoreError::AlreadyExists { path: path.clone() });
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).map_err(|source| StoreError::Io { path: parent.to_path_buf(), source })?;
            }
        }
        let store = GraphStore::open_raw(location, config)?;
        store.create_schema()?;
        Ok(store)
    }

    fn open_raw(location: StoreLocation, config: StoreConfig) -> Result<GraphStore, StoreError> {
        let system = lbug::SystemConfig::default()
            .buffer_pool_size(config.buffer_pool_bytes)
            .max_num_threads(config.max_threads)
            .max_db_size(MAX_DB_BYTES);
        let database = match &location {
            StoreLocation::Path(path) => lbug::Database::new(path, system),
            StoreLocation::InMemory => lbug::Database::in_memory(system),
        }
        .map_err(|error| StoreError::from_open(&location, error))?;
        Ok(GraphStore { database, location })
    }

    pub(crate) fn connection(&self) -> Result<lbug::Connection<'_>, StoreError> {
        lbug::Connection::new(&self.database).map_err(|error| StoreError::query("open a connection", error))
    }

    /// The database file, or `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        match &self.location {
            StoreLocation::Path(path) => Some(path),
            StoreLocation::InMemory => None,
        }
    }
}

/// Builds a fresh database at `final_path` from a graph, atomically: the graph is written to
/// a sibling file first and renamed over `final_path` only once complete, so a crash halfway
/// leaves the previous database untouched.
pub fn write_fresh_database(final_path: &Path, graph: &tether_model::Graph, meta: &tether_model::IndexMeta, config: StoreConfig) -> Result<load::LoadStats, StoreError> {
    write_fresh_database_with_memory(final_path, graph, &tether_model::MemoryGraph::default(), meta, config)
}

/// Like [`write_fresh_database`], with the memory graph beside the code graph.
pub fn write_fresh_database_with_memory(
    final_path: &Path,
    graph: &tether_model::Graph,
    memory: &tether_model::MemoryGraph,
    meta: &tether_model::IndexMeta,
    config: StoreConfig,
) -> Result<load::LoadStats, StoreError> {
    let building = sibling(final_path, "building");
    for leftover in [building.clone(), sibling(&building, "wal")] {
        if leftover.exists() {
            std::fs::remove_file(&leftover).map_err(|source| StoreError::Io { path: leftover.clone(), source })?;
        }
    }
    let stats = {
        let store = GraphStore::create(StoreLocation::Path(building.clone()), config)?;
        store.load_graph_and_memory(graph, memory, meta)?
    };
    std::fs::rename(&building, final_path).map_err(|source| StoreError::Io { path: final_path.to_path_buf(), source })?;
    let stale_wal = sibling(final_path, "wal");
    let building_wal = sibling(&building, "wal");
    if building_wal.exists() {
        std::fs::rename(&building_wal, &stale_wal).map_err(|source| StoreError::Io { path: stale_wal.clone(), source })?;
    } else if stale_wal.exists() {
        std::fs::remove_file(&stale_wal).map_err(|source| StoreError::Io { path: stale_wal.clone(), source })?;
    }
    Ok(stats)
}

/// `path` with `.suffix` appended (`graph.lbug` → `graph.lbug.wal`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

pub use load::LoadStats;
