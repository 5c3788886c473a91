//! Runtime evidence kept by the daemon: `coverage_import` reads a coverage report with
//! per-test contexts (coverage.py's JSON, or LCOV with `TN:` test names), keeps the lines of files in the repository with each file's
//! content hash on disk and HEAD's commit, and persists them in `runtime-evidence.tsv` in the
//! daemon's folder (read back by the next daemon). A new import replaces the old evidence;
//! a report with no usable file keeps it. The report and the files it names are read only as
//! regular files inside the working tree (`repository_file`), each with a size bound.

use std::path::Path;
use std::sync::{Arc, Mutex};
use tether_model::IgnoringPoison;

use tether_model::{EvidenceFile, RuntimeEvidence};
use tether_protocol::rpc::RpcError;

use crate::state::DaemonState;
use tether_features::repository_file;

/// A report larger than this is refused (a large suite's report is tens of MiB).
const MAX_REPORT_BYTES: u64 = 1 << 30;

/// A covered source file larger than this is not hashed (and its lines are not kept).
const MAX_SOURCE_BYTES: u64 = 64 << 20;

/// A regular file opened for reading, without blocking and checked on the open handle, so a
/// file swapped for a FIFO or a device after its path was checked cannot hold the worker.
fn open_regular_file(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)?;
    if !file.metadata()?.file_type().is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    Ok(file)
}

/// The bytes of a regular file, refusing one that grows past `limit` while it is read (files
/// written meanwhile report another size than they end up with).
fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    open_regular_file(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::other(format!("larger than {limit} bytes")));
    }
    Ok(bytes)
}

fn store_path(folder: &Path) -> std::path::PathBuf {
    folder.join("runtime-evidence.tsv")
}

/// The evidence in force: loaded once from the daemon's folder, replaced by each import.
#[derive(Default)]
pub(crate) struct EvidenceCache {
    loaded: bool,
    evidence: Option<Arc<RuntimeEvidence>>,
}

pub(crate) fn current(
    state: &DaemonState,
    cache: &Mutex<EvidenceCache>,
) -> Option<Arc<RuntimeEvidence>> {
    let mut cache = cache.lock().ignoring_poison();
    if !cache.loaded {
        cache.loaded = true;
        if let Ok(text) = std::fs::read_to_string(store_path(&state.paths.folder)) {
            let (evidence, errors) = RuntimeEvidence::from_text(&text);
            for error in errors.iter().take(3) {
                tracing::warn!(%error, "runtime-evidence.tsv");
            }
            cache.evidence = Some(Arc::new(evidence));
        }
    }
    cache.evidence.clone()
}

/// `coverage_import {"file": PATH, "merge": BOOL}`: PATH is a coverage report inside the
/// repository; with `merge`, it re-recorded some tests, whose evidence it replaces, and the
/// other tests' evidence is kept. The parser's transient memory (a report's names, read and
/// dropped) is given back afterwards, whether the report was kept or refused.
pub(crate) fn import(
    state: &DaemonState,
    cache: &Mutex<EvidenceCache>,
    snapshot: &tether_query::Snapshot,
    file: &str,
    merge: bool,
) -> Result<tether_protocol::wire::CoverageImportAnswer, RpcError> {
    let imported = import_report(state, cache, snapshot, file, merge);
    crate::memory_release::give_freed_memory_back();
    imported
}

fn import_report(
    state: &DaemonState,
    cache: &Mutex<EvidenceCache>,
    snapshot: &tether_query::Snapshot,
    file: &str,
    merge: bool,
) -> Result<tether_protocol::wire::CoverageImportAnswer, RpcError> {
    let relative = repository_file(&state.paths.root, file).map_err(crate::handlers::rpc_error)?;
    let full = state.paths.root.join(&relative);
    let size = std::fs::metadata(&full)
        .map_err(|error| RpcError::invalid_params(format!("cannot read {file}: {error}")))?
        .len();
    if size > MAX_REPORT_BYTES {
        return Err(RpcError::invalid_params(format!(
            "{file} is {size} bytes; reports over {MAX_REPORT_BYTES} are refused"
        )));
    }
    // Streamed: memory follows the report's distinct tests and (line, test) pairs, both
    // capped, not its size.
    let report = open_regular_file(&full)
        .map_err(|error| RpcError::invalid_params(format!("cannot read {file}: {error}")))
        .and_then(|opened| {
            use std::io::Read;
            let limits = tether_evidence::CoverageLimits::default();
            tether_evidence::parse_coverage_report(opened.take(MAX_REPORT_BYTES), limits)
                .map_err(|error| RpcError::invalid_params(format!("{file}: {error}")))
        })?;
    let root =
        std::fs::canonicalize(&state.paths.root).unwrap_or_else(|_| state.paths.root.clone());
    // HEAD now, not the graph's commit: the graph may lag behind a checkout.
    let head = tether_git::discover(&state.paths.root)
        .and_then(|repository| repository.head().ok())
        .and_then(|head| head.commit);
    let mut evidence = RuntimeEvidence { commit: head, ..RuntimeEvidence::default() };
    // The report's context ids, renumbered to those of the files kept.
    let mut kept_ids: Vec<Option<u32>> = vec![None; report.contexts.len()];
    let mut outside = 0usize;
    for covered_file in report.files {
        // Paths are relative to where coverage ran (the repository root, as `coverage json`
        // is run there) or absolute. Only regular files of the working tree are read, by the
        // rules `ownership --path` follows (no `..` out, no link out, no FIFO or device).
        let Ok(path) = repository_file(&state.paths.root, &covered_file.path) else {
            outside += 1;
            continue;
        };
        let Ok(bytes) = read_at_most(&root.join(&path), MAX_SOURCE_BYTES) else {
            outside += 1;
            continue;
        };
        // The same file named twice (relative and absolute): its lines are merged.
        let content_hash = tether_model::stable_hash(&bytes);
        let file = evidence
            .files
            .entry(path)
            .or_insert_with(|| EvidenceFile { content_hash, ..EvidenceFile::default() });
        for (line, contexts) in covered_file.lines {
            let ids: Vec<u32> = contexts
                .into_iter()
                .map(|context| {
                    *kept_ids[context as usize].get_or_insert_with(|| {
                        evidence.contexts.push(report.contexts[context as usize].clone());
                        evidence.contexts.len() as u32 - 1
                    })
                })
                .collect();
            let merged = file.lines.entry(line).or_default();
            merged.extend(ids);
            merged.sort_unstable();
            merged.dedup();
        }
    }
    record_symbols(snapshot, &mut evidence);
    // A report with nothing usable keeps the evidence in force rather than emptying it.
    if evidence.files.is_empty() {
        return Err(RpcError::invalid_params(format!(
            "{file}: no file of the report is a file of this repository ({outside} outside or unreadable); the evidence in force is kept"
        )));
    }
    let mut merged = None;
    if merge {
        if let Some(kept) = current(state, cache) {
            let (with_kept, counts) = kept.merged_with(evidence);
            evidence = with_kept;
            merged = Some(tether_protocol::wire::CoverageMerge {
                tests_kept: counts.tests_kept,
                tests_replaced: counts.tests_replaced,
                files_dropped: counts.files_dropped,
            });
        }
    }
    let written =
        tether_features::write_atomically(&store_path(&state.paths.folder), &evidence.to_text());
    if let Err(error) = &written {
        tracing::warn!(%error, "runtime evidence not persisted");
    }
    let answer = tether_protocol::wire::CoverageImportAnswer {
        files: evidence.files.len(),
        lines: evidence.files.values().map(|file| file.lines.len()).sum::<usize>(),
        contexts: evidence.contexts.len(),
        files_outside_the_repository: outside,
        commit: evidence.commit.clone(),
        persisted: written.is_ok(),
        merged,
        next: "blast {\"symbol\": NAME}: tests_affected now lists the tests recorded executing it (why: executed)".to_string(),
    };
    let mut cache = cache.lock().ignoring_poison();
    cache.loaded = true;
    cache.evidence = Some(Arc::new(evidence));
    Ok(answer)
}

/// Each recorded file's symbols as the graph holds them, when the graph holds the file as it
/// was recorded: evidence for a symbol stays fresh while its own text is unchanged.
fn record_symbols(snapshot: &tether_query::Snapshot, evidence: &mut RuntimeEvidence) {
    let indexed: std::collections::HashMap<&str, u64> =
        snapshot.graph.files.iter().map(|file| (file.path.as_str(), file.content_hash)).collect();
    for (path, file) in &mut evidence.files {
        if indexed.get(path.as_str()) != Some(&file.content_hash) {
            continue;
        }
        file.symbols = snapshot
            .symbols_in_file(path)
            .iter()
            .map(|index| snapshot.symbol(*index))
            .filter(|symbol| symbol.content_hash != 0)
            .map(|symbol| tether_model::RecordedSymbol {
                qualified_name: symbol.qualified_name.clone(),
                content_hash: symbol.content_hash,
                first_line: symbol.body_start_line.max(symbol.span.start_line),
                last_line: symbol.span.end_line,
            })
            .collect();
    }
}
