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

use tether_index::{build_graph_cached, BufferTexts, IndexOptions};
use tether_model::{BufferVersion, Freshness};
use tether_query::Snapshot;

use crate::dirty_files::DirtyFilesCache;
use crate::state::DaemonState;

/// Buffers one connection may have open at once.
pub(crate) const MAX_BUFFERS: usize = 64;
/// Bytes of buffer text one connection may hold.
pub(crate) const MAX_BUFFER_BYTES: usize = 16 * 1024 * 1024;

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
    /// [`MAX_BUFFERS`] buffers or [`MAX_BUFFER_BYTES`] of text.
    pub(crate) fn update(
        &mut self,
        path: String,
        text: String,
        version: i64,
    ) -> Result<(), String> {
        let others: usize = self
            .open
            .iter()
            .filter(|(open, _)| **open != path)
            .map(|(_, (text, _))| text.len())
            .sum();
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
        self.open.insert(path, (Arc::from(text), version));
        self.generation += 1;
        Ok(())
    }

    /// Closes a buffer; whether it was open.
    pub(crate) fn close(&mut self, path: &str) -> bool {
        let was_open = self.open.remove(path).is_some();
        if was_open {
            self.generation += 1;
        }
        was_open
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
        let mut built = self.built.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(graph) = built.as_ref() {
            if graph.generation == self.generation && Arc::ptr_eq(&graph.published, published) {
                return (Arc::clone(&graph.snapshot), Arc::clone(&graph.dirty_files));
            }
        }
        let started = std::time::Instant::now();
        let mut options = IndexOptions::new(&state.paths.root);
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
        let mut dirty =
            crate::dirty_files::dirty_files(&self.state.paths.root, snapshot, &self.dirty_files);
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
