//! The daemon's shared state: the published snapshot (swapped whole, so a query sees the old
//! graph or the new one, never a mixture), rebuilds, cached freshness, and the announcements
//! of published graphs to subscribers.

use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};
use tether_model::IgnoringPoison;

use tether_index::{build_graph_cached, index_meta, FactsCache, IndexError, IndexOptions};
use tether_model::Freshness;
use tether_protocol::wire::GraphPublished;
use tether_query::Snapshot;
use tether_store::{GraphStore, StoreConfig, StoreError};

use crate::paths::DaemonPaths;

/// A rebuild during which HEAD moved is built again, at most this many times in a row.
const MAX_REBUILD_ATTEMPTS: u32 = 4;

/// Announcements a slow subscriber may fall behind by before it misses the oldest (the next
/// one still arrives).
const PUBLISHED_BACKLOG: usize = 16;

/// Freshness is asked of git at most this often.
const FRESHNESS_TTL: Duration = Duration::from_millis(500);

#[derive(Debug, thiserror::Error)]
pub enum RebuildError {
    #[error(transparent)]
    Index(#[from] IndexError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A configuration file is unusable: the previous graph stays published.
    #[error(transparent)]
    Configuration(#[from] tether_config::ConfigError),
}

/// What `status` reports about rebuilds.
#[derive(Clone, Debug, Default)]
pub struct RebuildStatus {
    pub rebuilding: bool,
    pub rebuilds: u64,
    pub last_seconds: Option<f64>,
    /// From the start of the last rebuild to its graph answering queries.
    pub last_publish_seconds: Option<f64>,
    /// The last rebuild's error, else the last database write's (cleared by a success).
    pub last_error: Option<String>,
    /// The last database write's error: the published graph answers, but a restart would
    /// have to rebuild it.
    pub last_persist_error: Option<String>,
}

pub struct DaemonState {
    pub paths: DaemonPaths,
    /// What the features (ownership, changes, context, record) keep between requests.
    pub(crate) feature_caches: tether_features::FeatureCaches,
    pub store_config: StoreConfig,
    pub started: Instant,
    snapshot: RwLock<Option<Arc<Snapshot>>>,
    /// The previous build's per-file facts; held while a rebuild runs (one at a time).
    facts_cache: Mutex<FactsCache>,
    status: Mutex<RebuildStatus>,
    freshness: Mutex<Option<(Instant, Freshness)>>,
    dirty_files: Mutex<crate::dirty_files::DirtyFilesCache>,
    /// The runtime evidence in force (`coverage_import`).
    pub(crate) evidence: Mutex<crate::runtime_evidence::EvidenceCache>,
    /// The newest published snapshot not yet written to the database.
    unpersisted: Mutex<Option<Arc<Snapshot>>>,
    persist_wanted: Condvar,
    pub(crate) persist_lock: Mutex<()>,
    /// The ad-hoc `cypher` statements running in worker processes.
    pub(crate) ad_hoc: crate::ad_hoc_cypher::AdHocStatements,
    /// What all connections' editor buffers hold together.
    pub(crate) buffer_totals: Mutex<crate::editor_buffers::BufferTotals>,
    /// Where each published graph is announced (`subscribe`).
    published: tokio::sync::broadcast::Sender<Arc<GraphPublished>>,
    /// The configuration the last build read, with the options it made of it.
    configured: RwLock<Arc<(tether_config::Configuration, IndexOptions)>>,
}

impl DaemonState {
    /// What a feature is given: the paths, the caches, and this state's freshness and
    /// dirty-file checks.
    pub fn feature_context(&self) -> tether_features::FeatureContext<'_> {
        self.feature_context_with(self)
    }

    /// A feature's context whose freshness and dirty files `graph_state` answers (a graph
    /// with editor buffers).
    pub(crate) fn feature_context_with<'a>(
        &'a self,
        graph_state: &'a dyn tether_features::GraphState,
    ) -> tether_features::FeatureContext<'a> {
        tether_features::FeatureContext {
            root: &self.paths.root,
            folder: &self.paths.folder,
            caches: &self.feature_caches,
            graph_state,
        }
    }

    /// A copy of the facts cache (sharing its facts), for a build that must not change it.
    pub(crate) fn facts_cache_copy(&self) -> FactsCache {
        self.facts_cache.lock().ignoring_poison().clone()
    }

    pub fn new(paths: DaemonPaths, store_config: StoreConfig) -> DaemonState {
        let defaults = IndexOptions::new(&paths.root);
        DaemonState {
            paths,
            feature_caches: Default::default(),
            store_config,
            started: Instant::now(),
            snapshot: RwLock::new(None),
            facts_cache: Mutex::new(FactsCache::default()),
            status: Mutex::new(RebuildStatus::default()),
            freshness: Mutex::new(None),
            dirty_files: Mutex::new(Default::default()),
            evidence: Mutex::new(Default::default()),
            unpersisted: Mutex::new(None),
            persist_wanted: Condvar::new(),
            persist_lock: Mutex::new(()),
            ad_hoc: crate::ad_hoc_cypher::AdHocStatements::new(
                std::env::current_exe().unwrap_or_else(|_| "tether".into()),
            ),
            buffer_totals: Default::default(),
            published: tokio::sync::broadcast::channel(PUBLISHED_BACKLOG).0,
            configured: RwLock::new(Arc::new((Default::default(), defaults))),
        }
    }

    /// The options of a build, as the configuration files say now (read again for every
    /// build, so that an edit of `.tether.toml` applies at the next one).
    pub(crate) fn index_options(&self) -> Result<IndexOptions, RebuildError> {
        let configuration = tether_config::Configuration::load(&self.paths.root)?;
        let options = IndexOptions::configured(&self.paths.root, &configuration)?;
        *self.configured.write().ignoring_poison() = Arc::new((configuration, options.clone()));
        Ok(options)
    }

    /// The configuration the last build read (the defaults before the first).
    pub(crate) fn configuration(&self) -> Arc<(tether_config::Configuration, IndexOptions)> {
        Arc::clone(&self.configured.read().ignoring_poison())
    }

    /// Ad-hoc `cypher` statements run in `program cypher-worker` (default: this process's
    /// own program, which is `tether`; a test harness names the `tether` it built).
    pub fn run_ad_hoc_statements_in(mut self, program: std::path::PathBuf) -> DaemonState {
        self.ad_hoc = crate::ad_hoc_cypher::AdHocStatements::new(program);
        self
    }

    /// The published snapshot, if the first build finished.
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        self.snapshot.read().ignoring_poison().clone()
    }

    pub fn rebuild_status(&self) -> RebuildStatus {
        self.status.lock().ignoring_poison().clone()
    }

    /// Swaps the new graph in, drops what was cached about the old one, and tells subscribed
    /// connections.
    fn publish(&self, snapshot: Arc<Snapshot>) {
        let previous = self.snapshot.write().ignoring_poison().replace(Arc::clone(&snapshot));
        *self.freshness.lock().ignoring_poison() = None;
        // A graph rebuilt without a HEAD move holds other files than the last check saw.
        self.dirty_files.lock().ignoring_poison().forget();
        if self.published.receiver_count() > 0 {
            let published = crate::published_graphs::published(previous.as_deref(), &snapshot);
            // No receiver left between the count and the send is no error.
            let _ = self.published.send(Arc::new(published));
        }
    }

    /// Notifications of the graphs published from now on (`subscribe`).
    pub(crate) fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Arc<GraphPublished>> {
        self.published.subscribe()
    }

    /// The published graph under HEAD's new metadata, when HEAD moved but no file the graph
    /// was built from differs: each path changed between the two commits is a source file
    /// whose content on disk is what the graph holds, and no source file is dirty (the commit
    /// of a save the graph already published). `None` sends the rebuild the full way: any
    /// other path changed (`.gitignore`, `Cargo.toml`, a new or removed file), or git cannot
    /// tell.
    fn relabelled(&self, repository: &tether_git::Repository) -> Option<Snapshot> {
        let previous = self.snapshot()?;
        let meta = index_meta(&self.paths.root);
        let (Some(old_head), Some(new_head)) = (&previous.meta.head_commit, &meta.head_commit)
        else {
            return None;
        };
        if old_head == new_head || meta.root != previous.meta.root {
            return None;
        }
        let changed = repository.paths_changed_between(old_head, new_head)?;
        for path in &changed {
            let indexed = previous.graph.files.iter().find(|file| &file.path == path)?;
            if crate::dirty_files::differs_on_disk(
                &self.paths.root.join(path),
                indexed.content_hash,
            ) {
                return None;
            }
        }
        if !self.dirty_files_now(&previous).is_empty() {
            return None;
        }
        // HEAD must not have moved again while this looked.
        (index_meta(&self.paths.root).head_commit == meta.head_commit)
            .then(|| previous.with_meta(meta))
    }

    /// At start-up: serve the database as it is if it matches HEAD, else rebuild.
    pub fn load_or_build(&self) -> Result<(), RebuildError> {
        // Every publish holds the cache's lock: held from here to the publish below, a rebuild
        // asked for meanwhile (`reindex` while the daemon starts) waits and publishes after
        // the database's graph instead of being replaced by it; one that ran first is kept.
        let mut cache = self.facts_cache.lock().ignoring_poison();
        if self.snapshot().is_some() {
            tracing::info!("a rebuild published a graph before the database was read; serving it");
            return Ok(());
        }
        match GraphStore::open(&self.paths.database, self.store_config) {
            Ok(store) => {
                let started = Instant::now();
                let graph = store.read_graph()?;
                let meta = store.meta()?;
                drop(store);
                let stored = graph_fingerprint(&graph);
                let head = tether_git::discover(&self.paths.root)
                    .and_then(|repository| repository.head().ok())
                    .and_then(|head| head.commit);
                let matches_head = head == meta.head_commit;
                tracing::info!(
                    symbols = graph.symbols.len(),
                    matches_head,
                    "loaded the graph database"
                );
                self.publish(Arc::new(Snapshot::new(graph, meta)));
                if matches_head {
                    // Fill the facts cache so the first HEAD move re-extracts only what changed.
                    let built = build_graph_cached(&self.index_options()?, &mut cache, &|_, _| {})?;
                    // Another build of tether (older rules) wrote the database: what this one
                    // extracts from the same commit is served and persisted instead.
                    if graph_fingerprint(&built.graph) != stored {
                        tracing::info!("the database's graph is not what this build extracts; publishing this build's");
                        let meta = index_meta(&self.paths.root);
                        self.publish_for_persisting(Snapshot::new(built.graph, meta), started);
                    }
                    return Ok(());
                }
                tracing::info!("HEAD moved while the daemon was down; rebuilding");
                drop(cache);
                self.rebuild().and_then(|()| self.persist_now())
            }
            Err(error) => {
                tracing::info!(%error, "no usable database; building one");
                drop(cache);
                self.rebuild().and_then(|()| self.persist_now())
            }
        }
    }

    /// Rebuilds the whole graph and publishes it. One rebuild runs at a time; queries keep
    /// reading the previous snapshot meanwhile.
    pub fn rebuild(&self) -> Result<(), RebuildError> {
        let mut cache = self.facts_cache.lock().ignoring_poison();
        self.status.lock().ignoring_poison().rebuilding = true;
        let started = Instant::now();
        let result = self.rebuild_now(&mut cache);
        let mut status = self.status.lock().ignoring_poison();
        status.rebuilding = false;
        status.rebuilds += 1;
        status.last_seconds = Some(started.elapsed().as_secs_f64());
        status.last_error = result
            .as_ref()
            .err()
            .map(|error| error.to_string())
            .or_else(|| status.last_persist_error.clone());
        if let Err(error) = &result {
            tracing::error!(%error, "rebuild failed; the previous graph stays published");
        }
        result
    }

    /// Builds (re-extracting only changed files) and publishes; the persister thread then
    /// writes the newest published graph to the database. A crash before it is written loses
    /// nothing: the next start finds HEAD ahead of the database and rebuilds.
    fn rebuild_now(&self, cache: &mut FactsCache) -> Result<(), RebuildError> {
        let started = Instant::now();
        let repository = tether_git::discover(&self.paths.root);
        if let Some(relabelled) =
            repository.as_ref().and_then(|repository| self.relabelled(repository))
        {
            let published_seconds = self.publish_for_persisting(relabelled, started);
            tracing::info!(published_seconds, "HEAD moved to what the graph holds; relabelled it");
            return Ok(());
        }
        // The working tree is read file by file while the build runs: if HEAD moves meanwhile
        // (even away and back), the files may mix two commits under one label. Such a build
        // is not published; it is built again (the cache keeps what it extracted).
        let mut attempt = 0;
        let (meta, built) = loop {
            attempt += 1;
            let before = repository.as_ref().map(tether_git::Repository::head_stamp);
            let meta = index_meta(&self.paths.root);
            let built = build_graph_cached(&self.index_options()?, cache, &|_, _| {})?;
            let after = repository.as_ref().map(tether_git::Repository::head_stamp);
            if before == after {
                break (meta, built);
            }
            tracing::info!(attempt, "HEAD moved during the rebuild; building again so that the graph matches one commit");
            if attempt >= MAX_REBUILD_ATTEMPTS {
                tracing::warn!("HEAD kept moving during {attempt} rebuilds; the previous graph stays published");
                return Ok(());
            }
        };
        let built_seconds = started.elapsed().as_secs_f64();
        let published_seconds =
            self.publish_for_persisting(Snapshot::new(built.graph, meta), started);
        tracing::info!(
            files_extracted = built.files_extracted,
            walk = built.timings.walk_seconds,
            extract = built.timings.parse_seconds,
            resolve = built.timings.resolve_seconds,
            built_seconds,
            published_seconds,
            "published a new graph"
        );
        Ok(())
    }

    /// Publishes `snapshot` and hands it to the persister thread; the seconds since `started`.
    fn publish_for_persisting(&self, snapshot: Snapshot, started: Instant) -> f64 {
        let snapshot = Arc::new(snapshot);
        self.publish(Arc::clone(&snapshot));
        let published_seconds = started.elapsed().as_secs_f64();
        self.status.lock().ignoring_poison().last_publish_seconds = Some(published_seconds);
        *self.unpersisted.lock().ignoring_poison() = Some(snapshot);
        self.persist_wanted.notify_one();
        published_seconds
    }

    /// Writes the newest published-but-unwritten graph to the database; returns whether there
    /// was one. Runs on the persister thread (and synchronously in `persist_now`).
    pub fn persist_pending(&self) -> Result<bool, RebuildError> {
        let _one_writer = self.persist_lock.lock().ignoring_poison();
        let Some(snapshot) = self.unpersisted.lock().ignoring_poison().take() else {
            return Ok(false);
        };
        let started = Instant::now();
        // One engine thread: the write runs beside rebuilds and queries on a small machine.
        let config = StoreConfig { max_threads: 1, ..self.store_config };
        let memory = tether_features::memory_graph(&self.feature_context(), &snapshot);
        let written = tether_store::write_fresh_database_with_memory(
            &self.paths.database,
            &snapshot.graph,
            &memory,
            &snapshot.meta,
            config,
        );
        {
            let mut status = self.status.lock().ignoring_poison();
            match &written {
                Ok(_) => {
                    if status.last_persist_error.take().is_some()
                        && status.last_error.as_deref().is_some_and(|error| {
                            error.starts_with("writing the graph database failed")
                        })
                    {
                        status.last_error = None;
                    }
                }
                Err(error) => {
                    let message = format!("writing the graph database failed (the published graph still answers; a restart would rebuild it): {error}");
                    status.last_persist_error = Some(message.clone());
                    status.last_error = Some(message);
                }
            }
        }
        written?;
        tracing::info!(
            seconds = started.elapsed().as_secs_f64(),
            commit = snapshot.meta.head_commit.as_deref().unwrap_or("none"),
            "persisted the graph"
        );
        Ok(true)
    }

    /// Whether a published graph is still waiting to be (or being) written.
    pub fn persisting(&self) -> bool {
        if self.unpersisted.lock().ignoring_poison().is_some() {
            return true;
        }
        self.persist_lock.try_lock().is_err()
    }

    /// Persists whatever is pending, now (used by `reindex` and at shutdown).
    pub fn persist_now(&self) -> Result<(), RebuildError> {
        self.persist_pending().map(|_| ())
    }

    /// Blocks until a graph is waiting to be persisted, or `timeout` passes.
    pub fn wait_for_persist_work(&self, timeout: Duration) {
        let pending = self.unpersisted.lock().ignoring_poison();
        if pending.is_none() {
            let _ = self.persist_wanted.wait_timeout(pending, timeout);
        }
    }

    /// Source files whose content on disk is not what `snapshot` holds (cached briefly).
    pub(crate) fn dirty_files(&self, snapshot: &Snapshot) -> Vec<String> {
        let configured = self.configuration();
        crate::dirty_files::dirty_files(
            &self.paths.root,
            snapshot,
            &self.dirty_files,
            &configured.1.exclusions,
        )
    }

    /// As [`Self::dirty_files`], read now (a file was just saved): the cache is refreshed.
    pub(crate) fn dirty_files_now(&self, snapshot: &Snapshot) -> Vec<String> {
        self.dirty_files.lock().ignoring_poison().forget();
        self.dirty_files(snapshot)
    }

    /// How the published graph compares with the repository now (cached briefly).
    pub fn freshness(&self, snapshot: &Snapshot) -> Freshness {
        let mut cached = self.freshness.lock().ignoring_poison();
        if let Some((at, freshness)) = cached.as_ref() {
            if at.elapsed() < FRESHNESS_TTL && freshness.indexed_commit == snapshot.meta.head_commit
            {
                return freshness.clone();
            }
        }
        let mut freshness =
            tether_git::freshness(&self.paths.root, snapshot.meta.head_commit.as_deref());
        freshness.files_not_in_graph = Some(self.dirty_files(snapshot));
        *cached = Some((Instant::now(), freshness.clone()));
        freshness
    }
}

impl tether_features::GraphState for DaemonState {
    fn freshness(&self, snapshot: &Snapshot) -> Freshness {
        DaemonState::freshness(self, snapshot)
    }

    fn dirty_files(&self, snapshot: &Snapshot) -> Vec<String> {
        DaemonState::dirty_files(self, snapshot)
    }

    fn source_line(&self, path: &str, line: u32) -> Option<String> {
        tether_features::line_on_disk(&self.paths.root, path, line)
    }
}

/// What a graph holds, in an order-free hash: its symbols, edges (without confidences) and
/// unresolved sites. Two builds of one commit by one build of tether hash alike.
fn graph_fingerprint(graph: &tether_model::Graph) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut symbols: Vec<(u64, &str, &str)> = graph
        .symbols
        .iter()
        .map(|symbol| (symbol.id.0, symbol.kind.as_str(), symbol.qualified_name.as_str()))
        .collect();
    symbols.sort_unstable();
    let mut edges: Vec<(&str, u64, u64, u32, &str)> = graph
        .edges
        .iter()
        .map(|edge| {
            (edge.kind.as_str(), edge.source.0, edge.target.0, edge.line, edge.rule.as_str())
        })
        .collect();
    edges.sort_unstable();
    let mut unresolved: Vec<(&str, u32, &str, &str)> = graph
        .unresolved
        .iter()
        .map(|call| {
            (call.path.as_str(), call.line, call.callee_name.as_str(), call.reason.as_str())
        })
        .collect();
    unresolved.sort_unstable();
    let mut hasher = rustc_hash::FxHasher::default();
    (symbols, edges, unresolved).hash(&mut hasher);
    hasher.finish()
}
