//! Cold indexing of one working tree: walk, read and extract every file in parallel, and
//! resolve the project into one graph.
//!
//! A file that cannot be read or parsed becomes a diagnostic and a `skipped` file record;
//! it never stops the index. A build comes in two halves ([`extract_project`], then
//! [`ExtractedProject::resolve`]) so that a caller can store the extracted nodes while
//! resolution runs. This crate deliberately does not watch for changes or update
//! incrementally (the daemon does that), does not write the store (the caller publishes the
//! graph), and prints nothing (the caller reports progress).

mod extract_project;
mod facts_cache;
mod resolve_project;
mod walk;
mod worker_pool;

use std::path::{Path, PathBuf};

use tether_model::{Graph, IndexMeta};

pub use extract_project::{extract_project, ExtractedProject};
pub use facts_cache::{CachedFile, FactsCache};
pub use resolve_project::ResolvedProject;
pub use tether_config::PathExclusions;
pub use walk::{walk_tree, walked_folders, WalkedTree};
pub use worker_pool::on_worker_pool;

/// How to index.
#[derive(Clone, Debug)]
pub struct IndexOptions {
    pub root: PathBuf,
    /// Files larger than this are skipped with a diagnostic.
    pub max_file_bytes: u64,
    /// Unsaved editor buffers, read instead of those files on disk (a file that exists
    /// only as a buffer is indexed too). Empty for the graph of the working tree.
    pub buffers: BufferTexts,
    /// Paths the configuration leaves out (`index.exclude`), beyond `.gitignore`.
    pub exclusions: tether_config::PathExclusions,
}

impl IndexOptions {
    /// The defaults: nothing left out but what `.gitignore` says (see
    /// [`IndexOptions::configured`]).
    pub fn new(root: impl Into<PathBuf>) -> IndexOptions {
        IndexOptions {
            root: root.into(),
            max_file_bytes: tether_extract::DEFAULT_MAX_FILE_BYTES,
            buffers: BufferTexts::default(),
            exclusions: tether_config::PathExclusions::none(),
        }
    }

    /// As the repository's configuration says (`index.exclude`, `index.max_file_bytes`).
    pub fn configured(
        root: impl Into<PathBuf>,
        configuration: &tether_config::Configuration,
    ) -> Result<IndexOptions, tether_config::ConfigError> {
        let root = root.into();
        Ok(IndexOptions {
            exclusions: configuration.path_exclusions(&root)?,
            max_file_bytes: configuration
                .max_file_bytes
                .value
                .unwrap_or(tether_extract::DEFAULT_MAX_FILE_BYTES),
            ..IndexOptions::new(root)
        })
    }
}

/// Editor buffers by repository-relative path: the text a build reads in place of the file.
#[derive(Clone, Default)]
pub struct BufferTexts {
    pub texts: std::collections::BTreeMap<String, std::sync::Arc<str>>,
}

impl std::fmt::Debug for BufferTexts {
    /// The paths, not the texts.
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_list().entries(self.texts.keys()).finish()
    }
}

/// Seconds spent in each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimings {
    pub walk_seconds: f64,
    pub parse_seconds: f64,
    pub resolve_seconds: f64,
    /// Storing the graph after it was built (after resolution, on the critical path).
    pub store_seconds: f64,
    /// Storing done on another thread while extraction and resolution ran (creating the
    /// database, loading the extracted nodes); not on the critical path, not in `store_seconds`.
    pub store_overlapped_seconds: f64,
}

/// A built graph with the figures of its making.
#[derive(Clone, Debug)]
pub struct BuiltGraph {
    pub graph: Graph,
    pub timings: PhaseTimings,
    pub bytes_read: u64,
    /// Files extracted in this build (the rest came from the cache).
    pub files_extracted: usize,
}

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{} does not exist; pass the folder to index", path.display())]
    MissingRoot { path: PathBuf },
    #[error("{} is not a folder; pass the folder to index", path.display())]
    NotAFolder { path: PathBuf },
}

/// Walks, extracts and resolves `options.root` into a graph. `progress(done, total)` is
/// called from worker threads as files finish.
pub fn build_graph(
    options: &IndexOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BuiltGraph, IndexError> {
    build_graph_cached(options, &mut FactsCache::throwaway(), progress)
}

/// Like [`build_graph`], re-extracting only files that changed since `cache` was filled, and
/// leaving the cache holding this build's facts. The two halves, for a caller that wants to
/// work between them (store the extracted nodes while resolution runs): [`extract_project`],
/// then [`ExtractedProject::resolve`] and [`ExtractedProject::into_built_graph`].
pub fn build_graph_cached(
    options: &IndexOptions,
    cache: &mut FactsCache,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BuiltGraph, IndexError> {
    let extracted = extract_project(options, cache, progress)?;
    let resolved = extracted.resolve(cache);
    Ok(extracted.into_built_graph(resolved))
}

/// Checks that `root` is a folder that can be indexed, before anything is written for it.
pub fn check_root(root: &Path) -> Result<(), IndexError> {
    if !root.exists() {
        return Err(IndexError::MissingRoot { path: root.to_path_buf() });
    }
    if !root.is_dir() {
        return Err(IndexError::NotAFolder { path: root.to_path_buf() });
    }
    Ok(())
}

/// Where a repository's database lives by default: inside its git directory, so the
/// working tree stays clean; `.tether/` at the root of a folder outside git.
pub fn default_database_path(root: &Path) -> PathBuf {
    match tether_git::discover(root) {
        Some(repository) => repository.common_dir.join("tether").join("graph.lbug"),
        None => root.join(".tether").join("graph.lbug"),
    }
}

/// The index's metadata: root, HEAD (when in git), time, version.
pub fn index_meta(root: &Path) -> IndexMeta {
    let head = tether_git::discover(root)
        .and_then(|repository| repository.head().ok())
        .unwrap_or_default();
    IndexMeta {
        root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()).display().to_string(),
        head_commit: head.commit,
        head_branch: head.branch,
        indexed_at_unix: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs() as i64)
            .unwrap_or(0),
        tether_version: env!("CARGO_PKG_VERSION").to_string(),
    }
}
