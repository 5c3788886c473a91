//! Request handlers: each method reads its parameters, runs one query on the published
//! snapshot and returns the protocol's JSON. Handlers are stateless; long work stops at the
//! request's deadline.

use tether_model::{Cancelled, Deadline};
use tether_protocol::rpc::RpcError;
use tether_protocol::{json, Value};
use tether_query::{BlastOptions, NeighbourKind, PageRequest, Snapshot, SymbolIndex};

use crate::params::{optional_str, optional_usize, repository_path};
use crate::state::DaemonState;

/// The methods this daemon answers (besides `shutdown`, which the server handles).
pub const METHODS: &[&str] = &[
    "status",
    "lookup",
    "callers",
    "callees",
    "imports",
    "blast",
    "ownership",
    "changes",
    "context",
    "search_memory",
    "record",
    "reindex",
    "coverage_import",
    "shutdown",
];

/// Answers one request with no deadline (a CLI process, a benchmark).
pub fn handle(state: &DaemonState, method: &str, params: &Value) -> Result<Value, RpcError> {
    handle_until(state, method, params, Deadline::none())
}

/// The error a request whose deadline passed answers.
pub(crate) fn cancelled(_: Cancelled) -> RpcError {
    RpcError::new(RpcError::TIMEOUT, "the request ran past its deadline and was stopped")
}

/// Answers one request; work that runs past `deadline` stops and answers a timeout error.
pub fn handle_until(
    state: &DaemonState,
    method: &str,
    params: &Value,
    deadline: Deadline,
) -> Result<Value, RpcError> {
    match method {
        "status" => Ok(status(state)),
        "reindex" => {
            state.rebuild().and_then(|()| state.persist_now()).map_err(|error| {
                RpcError::new(RpcError::INTERNAL_ERROR, format!("rebuild failed: {error}"))
            })?;
            Ok(status(state))
        }
        "record" => crate::memory_record::record(state, params),
        "coverage_import" => crate::runtime_evidence::import(state, &state.evidence, params),
        "lookup" | "callers" | "callees" | "imports" | "blast" | "ownership" | "changes"
        | "context" | "search_memory" => {
            let snapshot = state.snapshot().ok_or_else(|| RpcError::new(RpcError::NOT_READY, "the first index is still being built; retry in a moment (`status` shows progress)"))?;
            let freshness = state.freshness(&snapshot);
            let page =
                PageRequest::new(optional_str(params, "cursor")?, optional_usize(params, "limit")?)
                    .map_err(RpcError::invalid_params)?;
            match method {
                "context" => {
                    let subject =
                        match (optional_str(params, "symbol")?, optional_str(params, "path")?) {
                            (Some(_), _) => crate::memory_context::ContextSubject::Symbol(address(
                                &snapshot, params,
                            )?),
                            (None, Some(path)) => crate::memory_context::ContextSubject::File(
                                repository_path(&state.paths.root, path, false)?,
                            ),
                            (None, None) => {
                                return Err(RpcError::invalid_params(
                                    "name a \"symbol\" or a \"path\"",
                                ))
                            }
                        };
                    crate::memory_context::context(state, &snapshot, subject, deadline)
                }
                "search_memory" => {
                    crate::memory_context::search_memory(state, &snapshot, params, page, deadline)
                }
                "ownership" => {
                    let subject = match optional_str(params, "symbol")? {
                        Some(_) => Some(address(&snapshot, params)?),
                        None => None,
                    };
                    crate::git_queries::ownership(state, &snapshot, params, subject, deadline)
                }
                "changes" => {
                    let options = blast_options(state, params, page, deadline)?;
                    crate::git_queries::changes(state, &snapshot, params, options)
                }
                "lookup" => match optional_str(params, "query")? {
                    None => Ok(json!({
                        "census": census_json(&snapshot),
                        "freshness": tether_protocol::freshness_json(&freshness),
                        "next": "lookup {\"query\": NAME} to find a symbol, then blast or callers on it",
                    })),
                    Some(query) => {
                        let answer = snapshot.lookup(query, optional_str(params, "folder")?, page);
                        Ok(tether_protocol::lookup_json(&snapshot, &answer, &freshness))
                    }
                },
                "blast" => {
                    let options = blast_options(state, params, page, deadline)?;
                    if let Some(file) = optional_str(params, "file")? {
                        let relative = repository_path(&state.paths.root, file, false)?;
                        let mut answer = snapshot
                            .blast_file(&relative, options)
                            .ok_or_else(|| RpcError::new(RpcError::SYMBOL_NOT_FOUND, format!("no indexed file {file:?}; paths are relative to the repository root")))?
                            .map_err(cancelled)?;
                        crate::dirty_files::weaken(
                            &mut answer.completeness,
                            &state.dirty_files(&snapshot),
                            &tether_model::Language::from_path(&relative)
                                .into_iter()
                                .collect::<Vec<_>>(),
                        );
                        return Ok(tether_protocol::blast_json(
                            &snapshot, file, &answer, &freshness,
                        ));
                    }
                    let subject = address(&snapshot, params)?;
                    let mut answer = snapshot.blast_symbol(subject, options).map_err(cancelled)?;
                    crate::dirty_files::weaken(
                        &mut answer.completeness,
                        &state.dirty_files(&snapshot),
                        &[snapshot.symbol(subject).language],
                    );
                    Ok(tether_protocol::blast_json(
                        &snapshot,
                        &snapshot.symbol(subject).qualified_name,
                        &answer,
                        &freshness,
                    ))
                }
                _ => {
                    let kind = match method {
                        "callers" => NeighbourKind::Callers,
                        "callees" => NeighbourKind::Callees,
                        _ => NeighbourKind::Imports,
                    };
                    let subject = address(&snapshot, params)?;
                    let mut answer = snapshot.neighbours(subject, kind, page);
                    crate::dirty_files::weaken(
                        &mut answer.completeness,
                        &state.dirty_files(&snapshot),
                        &[snapshot.symbol(subject).language],
                    );
                    Ok(tether_protocol::neighbours_json(&snapshot, &answer, &freshness))
                }
            }
        }
        other => Err(RpcError::new(
            RpcError::METHOD_NOT_FOUND,
            format!("unknown method {other:?}; methods: {}", METHODS.join(", ")),
        )),
    }
}

fn status(state: &DaemonState) -> Value {
    let rebuild = state.rebuild_status();
    let snapshot = state.snapshot();
    json!({
        "root": state.paths.root.display().to_string(),
        "database": state.paths.database.display().to_string(),
        "socket": state.paths.socket.display().to_string(),
        "pid": std::process::id(),
        "uptime_seconds": state.started.elapsed().as_secs(),
        "ready": snapshot.is_some(),
        "rebuilding": rebuild.rebuilding,
        "rebuilds": rebuild.rebuilds,
        "last_rebuild_seconds": rebuild.last_seconds,
        "last_publish_seconds": rebuild.last_publish_seconds,
        "last_error": rebuild.last_error,
        "indexed_commit": snapshot.as_ref().and_then(|snapshot| snapshot.meta.head_commit.clone()),
        "freshness": snapshot.as_ref().map(|snapshot| tether_protocol::freshness_json(&state.freshness(snapshot))),
        "census": snapshot.as_ref().map(|snapshot| census_json(snapshot)),
    })
}

fn census_json(snapshot: &Snapshot) -> Value {
    let census = &snapshot.census;
    json!({
        "files": census.files,
        "files_skipped": census.files_skipped,
        "symbols_by_kind": census.symbols_by_kind.iter().map(|(kind, count)| (kind.as_str().to_string(), json!(count))).collect::<serde_json::Map<String, Value>>(),
        "edges_by_kind": census.edges_by_kind.iter().map(|(kind, count)| (kind.as_str().to_string(), json!(count))).collect::<serde_json::Map<String, Value>>(),
        "unresolved_calls": census.unresolved_calls,
        "diagnostics": census.diagnostics,
    })
}

/// The `symbol` parameter, resolved; ambiguity and absence are errors with candidates.
fn address(snapshot: &Snapshot, params: &Value) -> Result<SymbolIndex, RpcError> {
    let Some(symbol) = optional_str(params, "symbol")? else {
        return Err(RpcError::invalid_params(
            "missing \"symbol\": a qualified name, a unique suffix, path:line, or an id",
        ));
    };
    snapshot.resolve_address(symbol).map_err(|error| {
        let code = match error {
            tether_query::AddressError::NotFound { .. } => RpcError::SYMBOL_NOT_FOUND,
            tether_query::AddressError::Ambiguous { .. } => RpcError::AMBIGUOUS_SYMBOL,
        };
        let (message, data) = tether_protocol::address_error_json(&error);
        RpcError::new(code, message).with_data(data)
    })
}

/// `depth` (1 to the maximum, default 3) and the page of a blast (`blast`, `changes`), with
/// the runtime evidence in force.
pub(crate) fn blast_options(
    state: &DaemonState,
    params: &Value,
    page: PageRequest,
    deadline: Deadline,
) -> Result<BlastOptions, RpcError> {
    let depth = optional_usize(params, "depth")?.unwrap_or(BlastOptions::DEFAULT_DEPTH as usize);
    if depth == 0 || depth > BlastOptions::MAX_DEPTH as usize {
        return Err(RpcError::invalid_params(format!(
            "depth must be 1 to {}",
            BlastOptions::MAX_DEPTH
        )));
    }
    let tests_limit =
        optional_usize(params, "tests_limit")?.unwrap_or(BlastOptions::DEFAULT_TESTS_LIMIT);
    if tests_limit == 0 || tests_limit > BlastOptions::MAX_TESTS_LIMIT {
        return Err(RpcError::invalid_params(format!(
            "tests_limit must be 1 to {}",
            BlastOptions::MAX_TESTS_LIMIT
        )));
    }
    Ok(BlastOptions {
        depth: depth as u32,
        page,
        deadline,
        evidence: crate::runtime_evidence::current(state, &state.evidence),
        tests_limit,
    })
}
