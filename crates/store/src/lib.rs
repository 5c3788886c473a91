//! The durable store of the code graph, in an embedded LadybugDB database.
//!
//! This is the only crate that names `lbug`. It owns the schema (versioned: opening a
//! database of another version is a typed error), bulk-loads a whole [`Graph`] with
//! `COPY … FROM` CSV files (in one go, or in stages that overlap extraction and resolution:
//! [`FreshDatabase`]), publishes a fresh database atomically, and reads the graph, its census
//! and its metadata back.
//!
//! It deliberately does not parse, resolve or walk files, does not decide where a
//! repository's database lives (the caller passes a path), and does not answer the hot
//! queries of the daemon (those run on an in-memory snapshot; see ARCHITECTURE.md).
//!
//! [`Graph`]: tether_model::Graph

mod ad_hoc_statement;
mod csv_writer;
mod error;
mod fresh_database;
mod load;
mod read;
mod schema;
mod table_csv;
mod trace_csv;

use std::path::{Path, PathBuf};

pub use ad_hoc_statement::{check_ad_hoc_statement, RefusedStatement, MAX_AD_HOC_STATEMENT_BYTES};
pub use error::StoreError;
pub use read::AdHocRows;
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

/// What a database is opened for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum OpenPurpose {
    /// Reads and small writes: the engine checkpoints after each COPY and whenever its WAL grows.
    Serve,
    /// A fresh database filled by bulk COPYs and published only after it is closed: no
    /// checkpoint until the close, which always makes one.
    BulkLoad,
    /// Reads only: the engine refuses every write (ad-hoc statements, `tether cypher`).
    ReadOnly,
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
        let store = GraphStore::open_raw(
            StoreLocation::Path(path.to_path_buf()),
            config,
            OpenPurpose::Serve,
        )?;
        store.check_schema_version()?;
        Ok(store)
    }

    /// Opens an existing database for reading only: the engine refuses any statement that
    /// writes, so an ad-hoc statement cannot change the graph.
    pub fn open_read_only(path: &Path, config: StoreConfig) -> Result<GraphStore, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing { path: path.to_path_buf() });
        }
        let location = StoreLocation::Path(path.to_path_buf());
        let store = GraphStore::open_raw(location, config, OpenPurpose::ReadOnly)?;
        store.check_schema_version()?;
        Ok(store)
    }

    /// Creates a new, empty database with the current schema. An existing file is an error.
    pub fn create(location: StoreLocation, config: StoreConfig) -> Result<GraphStore, StoreError> {
        GraphStore::create_for(location, config, OpenPurpose::Serve)
    }

    pub(crate) fn create_for(
        location: StoreLocation,
        config: StoreConfig,
        purpose: OpenPurpose,
    ) -> Result<GraphStore, StoreError> {
        if let StoreLocation::Path(path) = &location {
            if path.exists() {
                return Err(StoreError::AlreadyExists { path: path.clone() });
            }
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|source| StoreError::Io { path: parent.to_path_buf(), source })?;
            }
        }
        let store = GraphStore::open_raw(location, config, purpose)?;
        store.create_schema()?;
        Ok(store)
    }

    fn open_raw(
        location: StoreLocation,
        config: StoreConfig,
        purpose: OpenPurpose,
    ) -> Result<GraphStore, StoreError> {
        let system = lbug::SystemConfig::default()
            .buffer_pool_size(config.buffer_pool_bytes)
            .max_num_threads(config.max_threads)
            .max_db_size(MAX_DB_BYTES)
            // Every COPY would otherwise force a checkpoint of its own; a bulk load leaves them
            // to the one checkpoint that closing the database makes.
            .auto_checkpoint(purpose == OpenPurpose::Serve)
            .read_only(purpose == OpenPurpose::ReadOnly);
        let database = match &location {
            StoreLocation::Path(path) => lbug::Database::new(path, system),
            StoreLocation::InMemory => lbug::Database::in_memory(system),
        }
        .map_err(|error| StoreError::from_open(&location, error))?;
        Ok(GraphStore { database, location })
    }

    pub(crate) fn connection(&self) -> Result<lbug::Connection<'_>, StoreError> {
        lbug::Connection::new(&self.database)
            .map_err(|error| StoreError::query("open a connection", error))
    }

    /// The database file, or `None` in memory.
    pub fn path(&self) -> Option<&Path> {
        match &self.location {
            StoreLocation::Path(path) => Some(path),
            StoreLocation::InMemory => None,
        }
    }
}

pub use fresh_database::{write_fresh_database, write_fresh_database_with_memory, FreshDatabase};
pub use load::LoadStats;
