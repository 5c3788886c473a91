//! The daemon's shared state: the published snapshot (swapped whole, so a query sees the old
//! graph or the new one, never a mixture), rebuilds, and cached freshness.

use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use tether_index::{build_graph, index_meta, IndexError, IndexOptions};
use tether_model::Freshness;
use tether_query::Snapshot;
use tether_store::{GraphStore, StoreConfig, StoreError};

use crate::paths::DaemonPaths;

/// Freshness is asked of git at most this often.
const FRESHNESS_TTL: Duration = Duration::from_millis(500);

#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What `status` reports about rebuilds.
#[derive(Clone, Debug, Default)]
pub struct RebuildStatus {
    pub rebuilding: bool,
    pub rebuilds: u64,
    pub last_seconds: Option<f64>,
    pub last_error: Option<String>,
}

pub struct DaemonState {
    pub paths: DaemonPaths,
    pub store_config: StoreConfig,
    pub started: Instant,
    snapshot: RwLock<Option<Arc<Snapshot>>>,
    rebuild_lock: Mutex<()>,
    status: Mutex<RebuildStatus>,
    freshness: Mutex<Option<(Instant, Freshness)>>,
}

impl DaemonState {
    pub fn new(paths: DaemonPaths, store_config: StoreConfig) -> DaemonState {
        DaemonState {
            paths,
            store_config,
            started: Instant::now(),
            snapshot: RwLock::new(None),
            rebuild_lock: Mutex::new(()),
            status: Mutex::new(RebuildStatus::default()),
            freshness: Mutex::new(None),
        }
    }

    /// The published snapshot, if the first build finished.
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        self.snapshot.read().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    pub fn rebuild_status(&self) -> RebuildStatus {
        self.status.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).clone()
    }

    fn publish(&self, snapshot: Snapshot) {
        *self.snapshot.write().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some(Arc::new(snapshot));
        *self.freshness.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = None;
    }

    /// At start-up: serve the database as it is if it matches HEAD, else rebuild.
    pub fn load_or_build(&self) -> Result<(), RebuildError> {
        match GraphStore::open(&self.paths.database, self.store_config) {
            Ok(store) => {
                let graph = store.read_graph()?;
                let meta = store.meta()?;
                drop(store);
                let head = tether_git::discover(&self.paths.root).and_then(|repository| repository.head().ok()).and_then(|head| head.commit);
                let matches_head = head == meta.head_commit;
                tracing::info!(symbols = graph.symbols.len(), matches_head, "loaded the graph database");
                self.publish(Snapshot::new(graph, meta));
                if matches_head {
                    return Ok(());
                }
                tracing::info!("HEAD moved while the daemon was down; rebuilding");
                self.rebuild()
            }
            Err(error) => {
                tracing::info!(%error, "no usable database; building one");
                self.rebuild()
            }
        }
    }

    /// Rebuilds the whole graph and publishes it. One rebuild runs at a time; queries keep
    /// reading the previous snapshot meanwhile.
    pub fn rebuild(&self) -> Result<(), RebuildError> {
        let _one_at_a_time = self.rebuild_lock.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        self.status.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).rebuilding = true;
        let started = Instant::now();
        let result = self.rebuild_now();
        let mut status = self.status.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        status.rebuilding = false;
        status.rebuilds += 1;
        status.last_seconds = Some(started.elapsed().as_secs_f64());
        status.last_error = result.as_ref().err().map(|error| error.to_string());
        match &result {
            Ok(()) => tracing::info!(seconds = started.elapsed().as_secs_f64(), "published a new graph"),
            Err(error) => tracing::error!(%error, "rebuild failed; the previous graph stays published"),
        }
        result
    }

    fn rebuild_now(&self) -> Result<(), RebuildError> {
        let meta = index_meta(&self.paths.root);
        let built = build_graph(&IndexOptions::new(&self.paths.root), &|_, _| {})?;
        tether_store::write_fresh_database(&self.paths.database, &built.graph, &meta, self.store_config)?;
        self.publish(Snapshot::new(built.graph, meta));
        Ok(())
    }

    /// How the published graph compares with the repository now (cached briefly).
    pub fn freshness(&self, snapshot: &Snapshot) -> Freshness {
        let mut cached = self.freshness.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((at, freshness)) = cached.as_ref() {
            if at.elapsed() < FRESHNESS_TTL && freshness.indexed_commit == snapshot.meta.head_commit {
                return freshness.clone();
            }
        }
        let freshness = tether_git::freshness(&self.paths.root, snapshot.meta.head_commit.as_deref());
        *cached = Some((Instant::now(), freshness.clone()));
        freshness
    }
}
