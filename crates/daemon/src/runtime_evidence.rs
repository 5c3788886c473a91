//! Runtime evidence kept by the daemon: `coverage_import` reads a coverage report with
//! per-test contexts (coverage.py's JSON, or LCOV with `TN:` test names), keeps the lines of files in the repository with each file's
//! content hash on disk and HEAD's commit, and persists them in `runtime-evidence.tsv` in the
//! daemon's folder (read back by the next daemon). A new import replaces the old evidence.

use std::path::Path;
use std::sync::{Arc, Mutex};

use tether_model::{EvidenceFile, RuntimeEvidence};
use tether_protocol::rpc::RpcError;

use crate::state::DaemonState;
use tether_features::repository_path;

/// A report larger than this is refused (a large suite's report is tens of MiB).
const MAX_REPORT_BYTES: u64 = 1 << 30;

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
    let mut cache = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
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

/// `coverage_import {"file": PATH}`: PATH is a coverage report inside the repository.
pub(crate) fn import(
    state: &DaemonState,
    cache: &Mutex<EvidenceCache>,
    file: &str,
) -> Result<tether_protocol::wire::CoverageImportAnswer, RpcError> {
    let relative =
        repository_path(&state.paths.root, file, true).map_err(crate::handlers::rpc_error)?;
    let full = state.paths.root.join(&relative);
    let size = std::fs::metadata(&full)
        .map_err(|error| RpcError::invalid_params(format!("cannot read {file}: {error}")))?
        .len();
    if size > MAX_REPORT_BYTES {
        return Err(RpcError::invalid_params(format!(
            "{file} is {size} bytes; reports over {MAX_REPORT_BYTES} are refused"
        )));
    }
    let text = std::fs::read_to_string(&full)
        .map_err(|error| RpcError::invalid_params(format!("cannot read {file}: {error}")))?;
    let covered = tether_protocol::parse_coverage_report(&text)
        .map_err(|error| RpcError::invalid_params(format!("{file}: {error}")))?;
    let root =
        std::fs::canonicalize(&state.paths.root).unwrap_or_else(|_| state.paths.root.clone());
    // HEAD now, not the graph's commit: the graph may still be building when a report arrives.
    let head = tether_git::discover(&state.paths.root)
        .and_then(|repository| repository.head().ok())
        .and_then(|head| head.commit);
    let mut evidence = RuntimeEvidence { commit: head, ..RuntimeEvidence::default() };
    let mut context_ids = std::collections::HashMap::new();
    let mut outside = 0usize;
    for covered_file in covered {
        // Paths are relative to where coverage ran (the repository root, as `coverage json`
        // is run there) or absolute.
        let absolute = Path::new(&covered_file.path);
        let path = match absolute
            .strip_prefix(&root)
            .or_else(|_| absolute.strip_prefix(&state.paths.root))
        {
            Ok(inside) => inside.to_string_lossy().into_owned(),
            Err(_) if absolute.is_relative() => covered_file.path.clone(),
            Err(_) => {
                outside += 1;
                continue;
            }
        };
        let Ok(bytes) = std::fs::read(root.join(&path)) else {
            outside += 1;
            continue;
        };
        let mut lines = std::collections::BTreeMap::new();
        for (line, contexts) in covered_file.lines {
            let ids: Vec<u32> = contexts
                .into_iter()
                .map(|context| {
                    let next = context_ids.len() as u32;
                    *context_ids.entry(context.clone()).or_insert_with(|| {
                        evidence.contexts.push(context);
                        next
                    })
                })
                .collect();
            lines.insert(line, ids);
        }
        evidence
            .files
            .insert(path, EvidenceFile { content_hash: tether_model::stable_hash(&bytes), lines });
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
        next: "blast {\"symbol\": NAME}: tests_affected now lists the tests recorded executing it (why: executed)".to_string(),
    };
    let mut cache = cache.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    cache.loaded = true;
    cache.evidence = Some(Arc::new(evidence));
    Ok(answer)
}
