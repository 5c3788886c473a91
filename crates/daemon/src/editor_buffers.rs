//! A connection's unsaved editor buffers (`buffer_update`, `buffer_close`): while any is
//! open, the connection's answers come from a graph built with those texts in place of the
//! files on disk. That graph is built on first use after a change (from a copy of the facts
//! cache, so only the buffered files are extracted again and the working tree's cache never
//! holds a buffer's facts), kept while neither the buffers nor the published graph change,
//! and never published or written to the database: other connections keep seeing the disk.
//!
//! Its freshness names the buffers it holds; a buffered file is not "dirty" in it, since the
//! buffer, not the disk, is what its client asked about.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tether_model::IgnoringPoison;

use tether_index::{build_graph_cached, BufferTexts};
use tether_model::{BufferVersion, Freshness};
use tether_query::Snapshot;

use crate::dirty_files::DirtyFilesCache;
use crate::state::DaemonState;

/// Buffers one connection may have open at once.
pub(crate) const MAX_BUFFERS: usize = 64;
/// Bytes of buffer text one connection may hold.
pub(crate) const MAX_BUFFER_BYTES: usize = 16 * 1024 * 1024;
/// Connections that may hold buffers at once, daemon-wide: each keeps a graph of its own,
/// so this bounds the memory buffers cost.
pub const MAX_CONNECTIONS_WITH_BUFFERS: usize = 4;
/// Bytes of buffer text all connections together may hold.
pub const MAX_TOTAL_BUFFER_BYTES: usize = 32 * 1024 * 1024;

/// What the connections' buffers hold together (daemon-wide).
#[derive(Default)]
pub(crate) struct BufferTotals {
    connections: usize,
    bytes: usize,
}

/// The buffers one connection has open.
#[derive(Default)]
pub(crate) struct EditorBuffers {
    /// By repository-relative path: the text and the version its client gave it.
    open: BTreeMap<String, (Arc<str>, i64)>,
    /// Bumped by every change of `open`.
    generation: u64,
    built: Mutex<Option<BufferedGraph>>,
}

/// The graph built with the buffers of one generation over one published graph.
struct BufferedGraph {
    generation: u64,
    published: Arc<Snapshot>,
    snapshot: Arc<Snapshot>,
    dirty_files: Arc<Mutex<DirtyFilesCache>>,
}

impl EditorBuffers {
    pub(crate) fn is_empty(&self) -> bool {
        self.open.is_empty()
    }

    /// Opens or replaces a buffer (`path` already repository-relative); refused past
    /// [`MAX_BUFFERS`] buffers or [`MAX_BUFFER_BYTES`] of text on this connection, past
    /// [`MAX_TOTAL_BUFFER_BYTES`] on all, or when this connection has none yet and
    /// [`MAX_CONNECTIONS_WITH_BUFFERS`] others have some.
    pub(crate) fn update(
        &mut self,
        totals: &Mutex<BufferTotals>,
        path: String,
        text: String,
        version: i64,
    ) -> Result<(), String> {
        let replaced = self.open.get(&path).map_or(0, |(text, _)| text.len());
        let others: usize = self.bytes() - replaced;
        if !self.open.contains_key(&path) && self.open.len() >= MAX_BUFFERS {
            return Err(format!(
                "at most {MAX_BUFFERS} buffers may be open on one connection; close one first"
            ));
        }
        if others + text.len() > MAX_BUFFER_BYTES {
            return Err(format!(
                "the buffers of one connection may hold at most {MAX_BUFFER_BYTES} bytes"
            ));
        }
        let mut totals = totals.lock().ignoring_poison();
        if self.open.is_empty() && totals.connections >= MAX_CONNECTIONS_WITH_BUFFERS {
            return Err(format!(
                "{MAX_CONNECTIONS_WITH_BUFFERS} other connections hold editor buffers, the most the daemon keeps graphs for; close buffers there, or ask without buffers"
            ));
        }
        if totals.bytes - replaced + text.len() > MAX_TOTAL_BUFFER_BYTES {
            return Err(format!(
                "all connections' buffers together may hold at most {MAX_TOTAL_BUFFER_BYTES} bytes; close some"
            ));
        }
        if self.open.is_empty() {
            totals.connections += 1;
        }
        totals.bytes = totals.bytes - replaced + text.len();
        self.open.insert(path, (Arc::from(text), version));
        self.generation += 1;
        Ok(())
    }

    fn bytes(&self) -> usize {
        self.open.values().map(|(text, _)| text.len()).sum()
    }

    /// Closes a buffer; whether it was open. The last one closed frees the connection's
    /// graph and its place among the connections with buffers.
    pub(crate) fn close(&mut self, totals: &Mutex<BufferTotals>, path: &str) -> bool {
        let Some((text, _)) = self.open.remove(path) else { return false };
        self.generation += 1;
        let mut totals = totals.lock().ignoring_poison();
        totals.bytes -= text.len();
        if self.open.is_empty() {
            totals.connections -= 1;
            drop(totals);
            self.forget_graph();
        }
        true
    }

    /// Closes every buffer (the connection ended).
    pub(crate) fn close_all(&mut self, totals: &Mutex<BufferTotals>) {
        let paths: Vec<String> = self.open.keys().cloned().collect();
        for path in paths {
            self.close(totals, &path);
        }
    }

    /// Drops the graph built with the buffers and gives the memory it held back to the
    /// system (glibc keeps freed memory otherwise, and a graph is large).
    fn forget_graph(&mut self) {
        let built = self.built.get_mut().ignoring_poison().take();
        if built.is_some() {
            drop(built);
            crate::memory_release::give_freed_memory_back();
        }
    }

    /// The open buffers, sorted by path.
    pub(crate) fn versions(&self) -> Vec<BufferVersion> {
        self.open
            .iter()
            .map(|(path, (_, version))| BufferVersion { path: path.clone(), version: *version })
            .collect()
    }

    /// The graph with these buffers over `published` (built now unless it already is), and
    /// the dirty-files cache that belongs to it.
    pub(crate) fn graph(
        &self,
        state: &DaemonState,
        published: &Arc<Snapshot>,
    ) -> (Arc<Snapshot>, Arc<Mutex<DirtyFilesCache>>) {
        let mut built = self.built.lock().ignoring_poison();
        if let Some(graph) = built.as_ref() {
            if graph.generation == self.generation && Arc::ptr_eq(&graph.published, published) {
                return (Arc::clone(&graph.snapshot), Arc::clone(&graph.dirty_files));
            }
        }
        let started = std::time::Instant::now();
        // The options the published graph was built with: the buffers' graph leaves out what
        // it left out.
        let mut options = state.configuration().1.clone();
        options.buffers = BufferTexts {
            texts: self
                .open
                .iter()
                .map(|(path, (text, _))| (path.clone(), Arc::clone(text)))
                .collect(),
        };
        let mut cache = state.facts_cache_copy();
        let snapshot = match build_graph_cached(&options, &mut cache, &|_, _| {}) {
            Ok(built) => Arc::new(Snapshot::new(built.graph, published.meta.clone())),
            // The root vanished: answer from the published graph, which says so too.
            Err(error) => {
                tracing::warn!(%error, "a graph with editor buffers could not be built");
                Arc::clone(published)
            }
        };
        tracing::debug!(
            buffers = self.open.len(),
            seconds = started.elapsed().as_secs_f64(),
            "built a graph with editor buffers"
        );
        let dirty_files = Arc::new(Mutex::new(DirtyFilesCache::default()));
        *built = Some(BufferedGraph {
            generation: self.generation,
            published: Arc::clone(published),
            snapshot: Arc::clone(&snapshot),
            dirty_files: Arc::clone(&dirty_files),
        });
        (snapshot, dirty_files)
    }
}

/// What answers from a graph with buffers say about freshness: the published graph's view of
/// HEAD, the files on disk that differ from it (but the buffered ones), and the buffers.
pub(crate) struct BufferedGraphState<'a> {
    pub(crate) state: &'a DaemonState,
    pub(crate) open: &'a EditorBuffers,
    pub(crate) buffers: Vec<BufferVersion>,
    pub(crate) dirty_files: Arc<Mutex<DirtyFilesCache>>,
}

impl tether_features::GraphState for BufferedGraphState<'_> {
    fn freshness(&self, snapshot: &Snapshot) -> Freshness {
        let mut freshness =
            tether_git::freshness(&self.state.paths.root, snapshot.meta.head_commit.as_deref());
        freshness.files_not_in_graph = Some(self.dirty_files(snapshot));
        freshness.buffers = self.buffers.clone();
        freshness
    }

    fn dirty_files(&self, snapshot: &Snapshot) -> Vec<String> {
        let mut dirty = crate::dirty_files::dirty_files(
            &self.state.paths.root,
            snapshot,
            &self.dirty_files,
            &self.state.configuration().1.exclusions,
        );
        dirty.retain(|path| !self.buffers.iter().any(|buffer| &buffer.path == path));
        dirty
    }

    fn source_line(&self, path: &str, line: u32) -> Option<String> {
        match self.open.open.get(path) {
            Some((text, _)) => tether_features::line_of(text, line),
            None => tether_features::line_on_disk(&self.state.paths.root, path, line),
        }
    }
}
