//! The first half of a build: walk the tree, then read and extract every file in parallel
//! (reusing the cached facts of unchanged files), and gather what extraction alone decides
//! (file records, the project's symbols, diagnostics, and the CONTAINS edges of everything
//! but impls) into a graph.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rayon::prelude::*;
use tether_extract::{python_module_name, rust_module_path};
use tether_model::{
    stable_hash, Diagnostic, DiagnosticKind, FileFacts, FileRecord, FileStatus, Graph, Language,
};

use crate::facts_cache::{self, CachedFile, FactsCache};
use crate::{check_root, walk_tree, IndexError, IndexOptions, PhaseTimings};

/// A project whose files are extracted but not yet resolved. Resolve it with
/// [`ExtractedProject::resolve`]; meanwhile [`ExtractedProject::extracted_graph`] can be
/// stored, since resolution only adds to it.
pub struct ExtractedProject {
    /// Files, the project's symbols and every diagnostic, in file order, and the CONTAINS
    /// edges extraction decides (`tether_resolve::extracted_contains_edges`).
    pub(crate) graph: Graph,
    /// By path, with whether this build extracted the file (else it came from the cache).
    pub(crate) files: Vec<(String, Arc<CachedFile>, bool)>,
    pub(crate) bytes_read: u64,
    pub(crate) timings: PhaseTimings,
}

impl ExtractedProject {
    /// What extraction alone decides: every file record, every project symbol, every
    /// diagnostic, and the CONTAINS edges of every symbol but impls. The built graph starts
    /// with exactly these nodes (resolution appends its external and builtin symbols after
    /// them) and holds these edges among its own (resolution decides every edge again).
    pub fn extracted_graph(&self) -> &Graph {
        &self.graph
    }

    /// Walk and extraction seconds so far.
    pub fn timings(&self) -> PhaseTimings {
        self.timings
    }
}

/// Walks `options.root` and extracts its files, re-extracting only those that changed since
/// `cache` was filled. `progress(done, total)` is called from worker threads as files finish.
pub fn extract_project(
    options: &IndexOptions,
    cache: &FactsCache,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<ExtractedProject, IndexError> {
    let root = &options.root;
    check_root(root)?;
    let mut timings = PhaseTimings::default();
    let started = Instant::now();
    let tree = walk_tree(root, &options.exclusions);
    timings.walk_seconds = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let done = AtomicUsize::new(0);
    let previous = &cache.files;
    // Files that exist only as an editor buffer are indexed as well.
    let mut sources = tree.sources.clone();
    for path in options.buffers.texts.keys() {
        if options.exclusions.excludes(path, false) {
            continue;
        }
        if let Some(language) = Language::from_path(path) {
            if !sources.iter().any(|(source, _)| source == path) {
                sources.push((path.clone(), language));
            }
        }
    }
    sources.sort();
    let total = sources.len();
    let files: Vec<(String, Arc<CachedFile>, bool)> = crate::on_worker_pool(|| {
        sources
            .par_iter()
            .map(|(path, language)| {
                let module_name = match language {
                    Language::Python => {
                        python_module_name(path, |folder| tree.python_packages.contains(folder))
                    }
                    Language::Rust => rust_module_path(path, &tree.rust_crates),
                };
                let buffer = options.buffers.texts.get(path);
                let metadata = match buffer {
                    Some(_) => None,
                    None => std::fs::metadata(root.join(path)).ok(),
                };
                let size = metadata.as_ref().map_or(0, |metadata| metadata.len());
                let modified = metadata.as_ref().and_then(|metadata| metadata.modified().ok());
                // A buffer's facts are never reused: without a modification time they match
                // no later build (`CachedFile::still_matches`).
                let reused = previous
                    .get(path)
                    .filter(|cached| cached.still_matches(&module_name, size, modified))
                    .cloned();
                let result = match reused {
                    Some(cached) => (path.clone(), cached, false),
                    None => {
                        let (facts, record, bytes_read) = match buffer {
                            Some(text) => extract_read(
                                path,
                                *language,
                                &module_name,
                                text.as_bytes(),
                                options.max_file_bytes,
                            ),
                            None => extract_one(
                                root,
                                path,
                                *language,
                                &module_name,
                                options.max_file_bytes,
                            ),
                        };
                        let interface_hash = tether_resolve::interface_hash(&facts);
                        let version = facts_cache::next_version();
                        (
                            path.clone(),
                            Arc::new(CachedFile {
                                module_name,
                                size,
                                modified,
                                facts,
                                record,
                                bytes_read,
                                version,
                                interface_hash,
                            }),
                            true,
                        )
                    }
                };
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                result
            })
            .collect()
    });
    timings.parse_seconds = started.elapsed().as_secs_f64();

    let diagnostics = tree
        .manifest_problems
        .iter()
        .map(|(path, reason)| Diagnostic {
            path: path.clone(),
            line: None,
            kind: DiagnosticKind::Unsupported,
            message: format!("Cargo manifest not understood: {reason}"),
        })
        .chain(tree.unreadable.iter().map(|(path, reason)| Diagnostic {
            path: path.clone(),
            line: None,
            kind: DiagnosticKind::Unreadable,
            message: reason.clone(),
        }))
        .collect();
    let mut graph = Graph { diagnostics, ..Graph::default() };
    let mut bytes_read = 0;
    for (_, cached, _) in &files {
        bytes_read += cached.bytes_read;
        graph.files.push(cached.record.clone());
        graph.symbols.extend(cached.facts.symbols.iter().cloned());
        graph.diagnostics.extend(cached.facts.diagnostics.iter().cloned());
    }
    graph.edges = tether_resolve::extracted_contains_edges(&graph.symbols);
    Ok(ExtractedProject { graph, files, bytes_read, timings })
}

fn extract_one(
    root: &Path,
    path: &str,
    language: Language,
    module_name: &str,
    max_file_bytes: u64,
) -> (FileFacts, FileRecord, u64) {
    let mut record = FileRecord {
        path: path.to_string(),
        language,
        size_bytes: 0,
        content_hash: 0,
        status: FileStatus::Skipped,
    };
    let full_path = root.join(path);
    let metadata = std::fs::symlink_metadata(&full_path);
    let size = metadata.as_ref().map(|metadata| metadata.len()).unwrap_or(0);
    // Replaced by a FIFO or a device since the walk: never opened (a FIFO would block).
    if metadata.as_ref().is_ok_and(|metadata| !metadata.is_file()) {
        let diagnostic = Diagnostic {
            path: path.to_string(),
            line: None,
            kind: DiagnosticKind::Unreadable,
            message: "not a regular file; not read".to_string(),
        };
        let facts = FileFacts {
            path: path.to_string(),
            language: Some(language),
            diagnostics: vec![diagnostic],
            ..FileFacts::default()
        };
        return (facts, record, 0);
    }
    // Never read a huge file into memory only to skip it.
    if size > max_file_bytes {
        record.size_bytes = size;
        let diagnostic = Diagnostic {
            path: path.to_string(),
            line: None,
            kind: DiagnosticKind::TooLarge,
            message: format!(
                "{size} bytes is over the limit of {max_file_bytes} bytes; not parsed"
            ),
        };
        let facts = FileFacts {
            path: path.to_string(),
            language: Some(language),
            diagnostics: vec![diagnostic],
            ..FileFacts::default()
        };
        return (facts, record, 0);
    }
    let bytes = match read_at_most(&full_path, max_file_bytes) {
        Ok(bytes) => bytes,
        Err(error) => {
            let diagnostic = Diagnostic {
                path: path.to_string(),
                line: None,
                kind: DiagnosticKind::Unreadable,
                message: format!("cannot read: {error}"),
            };
            let facts = FileFacts {
                path: path.to_string(),
                language: Some(language),
                diagnostics: vec![diagnostic],
                ..FileFacts::default()
            };
            return (facts, record, 0);
        }
    };
    extract_read(path, language, module_name, &bytes, max_file_bytes)
}

/// A file's facts and record from its bytes (read from disk, or an editor buffer's).
fn extract_read(
    path: &str,
    language: Language,
    module_name: &str,
    bytes: &[u8],
    max_file_bytes: u64,
) -> (FileFacts, FileRecord, u64) {
    let mut record = FileRecord {
        path: path.to_string(),
        language,
        size_bytes: bytes.len() as u64,
        content_hash: stable_hash(bytes),
        status: FileStatus::Skipped,
    };
    let facts = tether_extract::extract_bytes(path, language, module_name, bytes, max_file_bytes);
    record.status = if facts.diagnostics.iter().any(|diagnostic| diagnostic.kind.skips_file()) {
        FileStatus::Skipped
    } else if facts
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.kind == DiagnosticKind::SyntaxError)
    {
        FileStatus::ParsedWithErrors
    } else {
        FileStatus::Parsed
    };
    (facts, record, bytes.len() as u64)
}

/// A file's bytes, reading at most one byte past `limit` (a file that grew past the limit
/// since its size was taken is still refused, without reading it whole).
fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    Ok(bytes)
}
