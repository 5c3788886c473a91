//! Cold indexing of one working tree: walk, read and extract every file in parallel,
//! resolve the project, and publish the graph to the store atomically.
//!
//! A file that cannot be read or parsed becomes a diagnostic and a `skipped` file record;
//! it never stops the index. This crate deliberately does not watch for changes or update
//! incrementally (the daemon does that), does not write the store (the caller publishes the
//! graph), and prints nothing (the caller reports progress).

mod facts_cache;
mod walk;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use tether_extract::{python_module_name, rust_module_path};
use tether_model::{stable_hash, Diagnostic, DiagnosticKind, FileFacts, FileRecord, FileStatus, Graph, IndexMeta, Language};

pub use facts_cache::{CachedFile, FactsCache};
pub use walk::{walk_tree, WalkedTree};

/// How to index.
#[derive(Clone, Debug)]
pub struct IndexOptions {
    pub root: PathBuf,
    /// Files larger than this are skipped with a diagnostic.
    pub max_file_bytes: u64,
}

impl IndexOptions {
    pub fn new(root: impl Into<PathBuf>) -> IndexOptions {
        IndexOptions { root: root.into(), max_file_bytes: tether_extract::DEFAULT_MAX_FILE_BYTES }
    }
}

/// Seconds spent in each phase.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimings {
    pub walk_seconds: f64,
    pub parse_seconds: f64,
    pub resolve_seconds: f64,
    pub store_seconds: f64,
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
pub fn build_graph(options: &IndexOptions, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<BuiltGraph, IndexError> {
    build_graph_cached(options, &mut FactsCache::throwaway(), progress)
}

/// Like [`build_graph`], re-extracting only files that changed since `cache` was filled, and
/// leaving the cache holding this build's facts.
pub fn build_graph_cached(options: &IndexOptions, cache: &mut FactsCache, progress: &(dyn Fn(usize, usize) + Sync)) -> Result<BuiltGraph, IndexError> {
    let root = &options.root;
    if !root.exists() {
        return Err(IndexError::MissingRoot { path: root.clone() });
    }
    if !root.is_dir() {
        return Err(IndexError::NotAFolder { path: root.clone() });
    }
    let mut timings = PhaseTimings::default();
    let started = Instant::now();
    let tree = walk_tree(root);
    timings.walk_seconds = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let total = tree.sources.len();
    let previous = &cache.files;
    let files: Vec<(String, Arc<CachedFile>, bool)> = tree
        .sources
        .par_iter()
        .map(|(path, language)| {
            let module_name = match language {
                Language::Python => python_module_name(path, |folder| tree.python_packages.contains(folder)),
                Language::Rust => rust_module_path(path, &tree.rust_crates),
            };
            let metadata = std::fs::metadata(root.join(path)).ok();
            let size = metadata.as_ref().map_or(0, |metadata| metadata.len());
            let modified = metadata.as_ref().and_then(|metadata| metadata.modified().ok());
            let reused = previous.get(path).filter(|cached| cached.still_matches(&module_name, size, modified)).cloned();
            let result = match reused {
                Some(cached) => (path.clone(), cached, false),
                None => {
                    let (facts, record, bytes_read) = extract_one(root, path, *language, &module_name, options.max_file_bytes);
                    let interface_hash = tether_resolve::interface_hash(&facts);
                    let version = facts_cache::next_version();
                    (path.clone(), Arc::new(CachedFile { module_name, size, modified, facts, record, bytes_read, version, interface_hash }), true)
                }
            };
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
            result
        })
        .collect();
    timings.parse_seconds = started.elapsed().as_secs_f64();
    let files_extracted = files.iter().filter(|(_, _, extracted)| *extracted).count();
    cache.files = files.iter().map(|(path, cached, _)| (path.clone(), Arc::clone(cached))).collect();

    let versioned: Vec<tether_resolve::VersionedFacts<'_>> = files
        .iter()
        .map(|(_, cached, _)| tether_resolve::VersionedFacts { facts: &cached.facts, version: cached.version, interface_hash: cached.interface_hash })
        .collect();
    let started = Instant::now();
    let resolution = tether_resolve::resolve_cached(&versioned, &mut cache.resolution);
    timings.resolve_seconds = started.elapsed().as_secs_f64();

    let mut graph = Graph::default();
    graph.diagnostics = tree
        .manifest_problems
        .iter()
        .map(|(path, reason)| Diagnostic { path: path.clone(), line: None, kind: DiagnosticKind::Unsupported, message: format!("Cargo manifest not understood: {reason}") })
        .collect();
    let mut bytes_read = 0;
    for (_, cached, _) in &files {
        bytes_read += cached.bytes_read;
        graph.files.push(cached.record.clone());
        graph.symbols.extend(cached.facts.symbols.iter().cloned());
        graph.diagnostics.extend(cached.facts.diagnostics.iter().cloned());
    }
    graph.symbols.extend(resolution.outside_symbols);
    graph.edges = resolution.edges;
    graph.unresolved = resolution.unresolved;
    graph.call_outcomes = resolution.call_outcomes;
    graph.unresolved_reasons = resolution.unresolved_reasons;
    Ok(BuiltGraph { graph, timings, bytes_read, files_extracted })
}

fn extract_one(root: &Path, path: &str, language: Language, module_name: &str, max_file_bytes: u64) -> (FileFacts, FileRecord, u64) {
    let mut record = FileRecord { path: path.to_string(), language, size_bytes: 0, content_hash: 0, status: FileStatus::Skipped };
    let full_path = root.join(path);
    let size = std::fs::metadata(&full_path).map(|metadata| metadata.len()).unwrap_or(0);
    // Never read a huge file into memory only to skip it.
    if size > max_file_bytes {
        record.size_bytes = size;
        let diagnostic = Diagnostic {
            path: path.to_string(),
            line: None,
            kind: DiagnosticKind::TooLarge,
            message: format!("{size} bytes is over the limit of {max_file_bytes} bytes; not parsed"),
        };
        let facts = FileFacts { path: path.to_string(), language: Some(language), diagnostics: vec![diagnostic], ..FileFacts::default() };
        return (facts, record, 0);
    }
    let bytes = match std::fs::read(&full_path) {
        Ok(bytes) => bytes,
        Err(error) => {
            let diagnostic = Diagnostic { path: path.to_string(), line: None, kind: DiagnosticKind::Unreadable, message: format!("cannot read: {error}") };
            let facts = FileFacts { path: path.to_string(), language: Some(language), diagnostics: vec![diagnostic], ..FileFacts::default() };
            return (facts, record, 0);
        }
    };
    record.size_bytes = bytes.len() as u64;
    record.content_hash = stable_hash(&bytes);
    let facts = tether_extract::extract_bytes(path, language, module_name, &bytes, max_file_bytes);
    record.status = if facts.diagnostics.iter().any(|diagnostic| diagnostic.kind.skips_file()) {
        FileStatus::Skipped
    } else if facts.diagnostics.iter().any(|diagnostic| diagnostic.kind == DiagnosticKind::SyntaxError) {
        FileStatus::ParsedWithErrors
    } else {
        FileStatus::Parsed
    };
    (facts, record, bytes.len() as u64)
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
    let head = tether_git::discover(root).and_then(|repository| repository.head().ok()).unwrap_or_default();
    IndexMeta {
        root: root.canonicalize().unwrap_or_else(|_| root.to_path_buf()).display().to_string(),
        head_commit: head.commit,
        head_branch: head.branch,
        indexed_at_unix: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|elapsed| elapsed.as_secs() as i64).unwrap_or(0),
        tether_version: env!("CARGO_PKG_VERSION").to_string(),
    }
}
