//! `record_trace`: a batch of traces written under `.memory/traces/` and committed as one
//! commit. Checked first, writing nothing on a refusal: the request's shape
//! (`trace_from_params`: a subject, bound to the session's if one is, one-line steps, no
//! explicit id beside an `operation_id`), then, under the record lock, a replay
//! (`operation_replay`: the same request again answers its first ids and writes nothing)
//! and the memory's rules (`check_new_traces`). Then journaled, written and committed
//! (`trace_journal`), so a crash leaves the batch whole or absent.

use std::collections::HashSet;
use std::path::Path;

use tether_memory::{EvidenceRef, FindingType, OperationReplay, Trace, TraceSteps};
use tether_protocol::wire::{RecordTraceAnswer, RecordedTrace};
use tether_protocol::{RecordTraceParams, TraceParams};

use crate::trace_journal::{self, TraceJournal};
use crate::{FeatureContext, FeatureError};

fn refuse(field: String, message: impl std::fmt::Display) -> FeatureError {
    FeatureError::refused(format!("{field}: {message}"))
}

/// One trace as asked, before tether gives it an id (`id` is the caller's, if any).
fn trace_from_params(
    position: usize,
    params: TraceParams,
    session_subject: Option<&str>,
    recorded_at: &str,
) -> Result<Trace, FeatureError> {
    let field = |name: &str| format!("traces[{position}].{name}");
    let subject = match (params.subject, session_subject) {
        (Some(subject), Some(bound)) if subject != bound => {
            return Err(refuse(
                field("subject"),
                format!("{subject:?} differs from the session's subject {bound:?}"),
            ))
        }
        (Some(subject), _) => subject,
        (None, Some(bound)) => bound.to_string(),
        (None, None) => {
            return Err(refuse(
                field("subject"),
                "missing: give one, or bind the session's (tether mcp --subject)",
            ))
        }
    };
    let finding_type = match params.finding_type.as_deref() {
        None => FindingType::State,
        Some(text) => FindingType::parse(text).ok_or_else(|| {
            refuse(field("finding_type"), format!("{text:?} is neither state nor explanation"))
        })?,
    };
    if params.id.is_some() && params.operation_id.is_some() {
        return Err(refuse(
            field("id"),
            "not with operation_id: a retry finds its trace by the operation id, so tether picks the id",
        ));
    }
    let step = |name: &str, value: Option<String>| {
        value.ok_or_else(|| refuse(field(name), "empty: each step is one line of text"))
    };
    Ok(Trace {
        id: params.id.unwrap_or_default(),
        subject,
        finding_type,
        steps: TraceSteps {
            situation: step("situation", params.situation)?,
            rationale: step("rationale", params.rationale)?,
            action: step("action", params.action)?,
            outcome: step("outcome", params.outcome)?,
        },
        observed_at: step("observed_at", params.observed_at)?,
        recorded_at: recorded_at.to_string(),
        artifacts: trimmed(params.artifacts),
        run_id: params.run_id,
        agent_id: params.agent_id,
        subagent_id: params.subagent_id,
        evidence: trimmed(params.evidence),
        evidence_refs: params
            .evidence_refs
            .into_iter()
            .map(|reference| EvidenceRef {
                source_id: reference.source_id,
                locator: reference.locator,
                revision: reference.revision,
                observed_at: reference.observed_at,
                summary: reference.summary,
            })
            .collect(),
        supersedes: trimmed(params.supersedes),
        resolves: trimmed(params.resolves),
        depends_on: trimmed(params.depends_on),
        operation_id: params.operation_id,
        path: String::new(),
    })
}

fn trimmed(values: Vec<String>) -> Vec<String> {
    values.into_iter().map(|value| value.trim().to_string()).collect()
}

/// Ids for the traces without one: the subject's slug, unique among entries, traces and
/// trace files (and the batch's own).
fn assign_ids(batch: &mut [Trace], taken: &mut HashSet<String>) {
    for trace in batch.iter().filter(|trace| !trace.id.is_empty()) {
        taken.insert(trace.id.clone());
    }
    for trace in batch.iter_mut() {
        if trace.id.is_empty() {
            let base = tether_memory::slugify_title(&trace.subject);
            trace.id = tether_memory::unique_id(&base, taken);
            taken.insert(trace.id.clone());
        }
        trace.path = tether_memory::trace_file_path(&trace.id);
    }
}

/// The commit message of a batch.
fn batch_message(batch: &[Trace]) -> String {
    let first = batch.first().map(|trace| trace.subject.as_str()).unwrap_or_default();
    let subject: String = first.chars().take(100).collect();
    match batch.len() {
        1 => format!("memory: trace: {subject}"),
        count => format!("memory: {count} traces: {subject}"),
    }
}

/// `record_trace` (see the module's doc).
pub fn record_trace(
    state: &FeatureContext,
    params: RecordTraceParams,
) -> Result<RecordTraceAnswer, FeatureError> {
    let recorded_at = crate::memory_record::timestamp();
    let session_subject = params.session_subject.as_deref();
    let mut batch = params
        .traces
        .into_iter()
        .enumerate()
        .map(|(position, trace)| trace_from_params(position, trace, session_subject, &recorded_at))
        .collect::<Result<Vec<_>, _>>()?;
    let root = state.root.canonicalize().unwrap_or_else(|_| state.root.to_path_buf());
    let repository = tether_git::discover(&root).ok_or_else(|| {
        FeatureError::refused("not a git repository: traces are committed to git")
    })?;
    let _lock = crate::memory_record::lock_records(state.folder, &repository, &root)?;
    // Read under the lock: the cache checks every file's stamp first.
    let existing = state.caches.traces.current(&root);
    let branch = repository.head().ok().and_then(|head| head.branch);
    if let OperationReplay::Replay { trace_ids } =
        tether_memory::operation_replay(&batch, &existing.traces)
            .map_err(|refusal| FeatureError::refused(refusal.to_string()))?
    {
        let traces = trace_ids
            .iter()
            .filter_map(|id| existing.traces.iter().find(|trace| trace.id == *id))
            .map(recorded)
            .collect();
        return Ok(RecordTraceAnswer {
            traces,
            commit: None,
            branch,
            replayed: true,
            dry_run: params.dry_run,
            next: "recorded before under these operation ids: nothing was written".to_string(),
        });
    }
    let (memory_files, _) = crate::memory_context::memory_files(&root);
    let entries = tether_memory::load_entries(&memory_files).entries;
    let mut taken: HashSet<String> = entries.iter().map(|entry| entry.id.clone()).collect();
    taken.extend(existing.file_ids.iter().cloned());
    taken.extend(existing.traces.iter().map(|trace| trace.id.clone()));
    assign_ids(&mut batch, &mut taken);
    let entry_ids: HashSet<&str> = entries.iter().map(|entry| entry.id.as_str()).collect();
    tether_memory::check_new_traces(&batch, &existing.traces, &entry_ids)
        .map_err(|refusal| FeatureError::refused(refusal.to_string()))?;
    check_files_are_free(&root, &batch, &existing.file_ids)?;
    let texts: Vec<String> = batch.iter().map(tether_memory::render_trace).collect();
    for (position, text) in texts.iter().enumerate() {
        if text.len() as u64 > crate::trace_store::MAX_TRACE_FILE_BYTES {
            return Err(refuse(
                format!("traces[{position}]"),
                format!(
                    "its file would be {} bytes; a trace file holds at most {} (fewer or shorter evidence strings and artifacts)",
                    text.len(),
                    crate::trace_store::MAX_TRACE_FILE_BYTES
                ),
            ));
        }
    }
    let traces: Vec<RecordedTrace> = batch.iter().map(recorded).collect();
    let first = batch.first().map(|trace| trace.subject.clone()).unwrap_or_default();
    let next = format!("recall {{\"anchors\": [{first:?}]}} shows them");
    if params.dry_run {
        return Ok(RecordTraceAnswer {
            traces,
            commit: None,
            branch,
            replayed: false,
            dry_run: true,
            next: "call again without dry_run to write and commit them".to_string(),
        });
    }
    let journal = TraceJournal {
        head_before: repository.resolve_commit("HEAD"),
        message: batch_message(&batch),
        files: batch.iter().map(|trace| trace.path.clone()).zip(texts).collect(),
    };
    let commit = journal_and_commit(state.folder, &repository, &root, &journal)?;
    Ok(RecordTraceAnswer {
        traces,
        commit: Some(commit),
        branch,
        replayed: false,
        dry_run: false,
        next,
    })
}

fn recorded(trace: &Trace) -> RecordedTrace {
    RecordedTrace { id: trace.id.clone(), file: trace.path.clone(), subject: trace.subject.clone() }
}

/// The traces' folder is a real folder of the repository and no trace file is there yet.
fn check_files_are_free(
    root: &Path,
    batch: &[Trace],
    file_ids: &HashSet<String>,
) -> Result<(), FeatureError> {
    for (position, trace) in batch.iter().enumerate() {
        crate::memory_record::check_memory_folders(root, &trace.path)?;
        if file_ids.contains(&trace.id) || std::fs::symlink_metadata(root.join(&trace.path)).is_ok()
        {
            return Err(refuse(
                format!("traces[{position}].id"),
                format!("{} exists already", trace.path),
            ));
        }
    }
    Ok(())
}

/// Journals the batch, writes and commits it; a failed batch is rolled back (when even that
/// fails, the journal stays for the next writer, or the daemon's start, to settle).
fn journal_and_commit(
    folder: &Path,
    repository: &tether_git::Repository,
    root: &Path,
    journal: &TraceJournal,
) -> Result<String, FeatureError> {
    trace_journal::write(folder, journal).map_err(|error| {
        FeatureError::internal(format!("cannot write the trace journal: {error}"))
    })?;
    let outcome = trace_journal::write_and_commit(repository, root, journal)
        .map_err(|error| FeatureError::internal(format!("committing the traces failed: {error}")));
    let settled = outcome.is_ok()
        || trace_journal::roll_back(repository, root, journal)
            .map_err(|error| tracing::warn!(%error, "an interrupted batch's roll back waits for a retry"))
            .is_ok();
    if settled {
        let _ = trace_journal::remove(folder);
    }
    outcome
}
