//! Request handlers: a call parsed once into a typed `Request` (`protocol::rpc::parse_call`)
//! is applied: one query on the published snapshot, answered as the protocol's typed
//! `Answer`. Handlers are stateless; long work stops at the request's deadline.

use tether_model::{Cancelled, Deadline};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::{self, Answer};
use tether_protocol::{Request, Subject, WalkParams};
use tether_query::{BlastOptions, HealthKind, NeighbourKind, Snapshot, SymbolIndex};

use std::sync::Arc;

use crate::editor_buffers::{BufferedGraphState, EditorBuffers};
use crate::state::DaemonState;
use tether_features::{repository_path, FeatureError, GraphState};

/// Answers one request with no deadline (a CLI process, a benchmark).
pub fn handle(state: &DaemonState, request: Request) -> Result<Answer, RpcError> {
    apply(state, request, Deadline::none())
}

/// The error a request whose deadline passed answers.
pub(crate) fn cancelled(_: Cancelled) -> RpcError {
    RpcError::new(RpcError::TIMEOUT, "the request ran past its deadline and was stopped")
}

/// Carries out a parsed request; work that runs past `deadline` stops and answers a timeout
/// error.
pub fn apply(
    state: &DaemonState,
    request: Request,
    deadline: Deadline,
) -> Result<Answer, RpcError> {
    apply_with_buffers(state, None, request, deadline)
}

/// As [`apply`], on a connection with editor buffers open: graph questions are answered from
/// the graph built with them (built on first use), and freshness names them.
pub(crate) fn apply_with_buffers(
    state: &DaemonState,
    buffers: Option<&EditorBuffers>,
    request: Request,
    deadline: Deadline,
) -> Result<Answer, RpcError> {
    let published = || {
        state.snapshot().ok_or_else(|| {
            RpcError::new(
                RpcError::NOT_READY,
                "the first index is still being built; retry in a moment (`status` shows progress)",
            )
        })
    };
    let buffered = std::cell::OnceCell::new();
    let buffered_graph =
        || -> Result<Option<&(Arc<Snapshot>, BufferedGraphState<'_>)>, RpcError> {
            let Some(buffers) = buffers.filter(|buffers| !buffers.is_empty()) else {
                return Ok(None);
            };
            let published = published()?;
            Ok(Some(buffered.get_or_init(|| {
                let (snapshot, dirty_files) = buffers.graph(state, &published);
                (
                    snapshot,
                    BufferedGraphState {
                        state,
                        open: buffers,
                        buffers: buffers.versions(),
                        dirty_files,
                    },
                )
            })))
        };
    let snapshot = || -> Result<Arc<Snapshot>, RpcError> {
        match buffered_graph()? {
            Some((snapshot, _)) => Ok(Arc::clone(snapshot)),
            None => published(),
        }
    };
    // Who answers freshness: the buffers' graph when the request reads a graph, else the
    // published one (asked only after `snapshot()`, so the graph is built by then).
    let view = || -> &dyn GraphState {
        match buffered.get() {
            Some((_, graph_state)) => graph_state,
            None => state,
        }
    };
    let features = || state.feature_context_with(view());
    match request {
        Request::Status => Ok(Answer::Status(status(state))),
        Request::Reindex => {
            state.rebuild().and_then(|()| state.persist_now()).map_err(|error| {
                RpcError::new(RpcError::INTERNAL_ERROR, format!("rebuild failed: {error}"))
            })?;
            Ok(Answer::Status(status(state)))
        }
        // The published graph, never a connection's buffers: an export is of the repository.
        Request::Export => {
            let published = published()?;
            let mut document = Vec::new();
            tether_protocol::write_export_json(&published.graph, &published.meta, &mut document)
                .map_err(|error| {
                    RpcError::new(RpcError::INTERNAL_ERROR, format!("export failed: {error}"))
                })?;
            let document = String::from_utf8(document).map_err(|error| {
                RpcError::new(RpcError::INTERNAL_ERROR, format!("export is not UTF-8: {error}"))
            })?;
            Ok(Answer::Export(wire::ExportAnswer { document }))
        }
        Request::Cypher { statement } => state.cypher(&statement, deadline).map(Answer::Cypher),
        // The published graph, as `tether index` reports the graph it built.
        Request::IndexReport { report } => {
            let published = published()?;
            Ok(Answer::IndexReport(tether_protocol::index_report_answer(
                &published.graph,
                &published.meta,
                report,
            )))
        }
        Request::Health(health) => {
            // The folder as the repository names it: a link or `..` out of the tree is refused.
            let folder = match health.folder.as_deref().map(str::trim) {
                None | Some("") | Some(".") | Some("./") => None,
                Some(folder) => {
                    Some(repository_path(&state.paths.root, folder).map_err(rpc_error)?)
                }
            };
            let snapshot = snapshot()?;
            let freshness = view().freshness(&snapshot);
            // Read at each request that has a dead code section: a few kilobytes, never stale.
            let packaging = match health.kind {
                None | Some(HealthKind::DeadCode) => {
                    tether_features::declared_entry_points(&state.paths.root)
                }
                Some(_) => tether_features::DeclaredEntryPoints::default(),
            };
            let options = tether_query::HealthOptions {
                folder,
                page: health.page,
                evidence: crate::runtime_evidence::current(state, &state.evidence),
                entry_points: packaging.targets,
                entry_point_problems: packaging.problems,
            };
            let dirty = view().dirty_files(&snapshot);
            let history = churn_history(state, &health, deadline);
            let churn = match &history {
                None => tether_query::ChurnHistory::Unavailable { note: "" },
                Some(tether_features::HistoryRead::Unavailable(note)) => {
                    tether_query::ChurnHistory::Unavailable { note }
                }
                Some(tether_features::HistoryRead::Read { history, read, cut_short, note }) => {
                    tether_query::ChurnHistory::Read {
                        history,
                        read: *read,
                        asked: health.commits,
                        cut_short: *cut_short,
                        note: note.as_deref(),
                    }
                }
            };
            let mut sections = snapshot.health(health.kind, &options, churn);
            // Files changed on disk may hide edges; churn counts commits, which they are not.
            for section in sections.iter_mut().filter(|section| section.kind != HealthKind::Churn) {
                section.completeness.add_dirty_files(&dirty, &tether_model::Language::ALL);
            }
            Ok(Answer::Health(tether_protocol::health_answer(
                &snapshot,
                &sections,
                health.commits,
                &freshness,
            )))
        }
        Request::Outline { path } => {
            let snapshot = snapshot()?;
            let relative = repository_path(&state.paths.root, &path).map_err(rpc_error)?;
            let freshness = view().freshness(&snapshot);
            Ok(Answer::Outline(tether_protocol::outline_answer(&snapshot, &relative, &freshness)))
        }
        Request::Record(params) => tether_features::record(&state.feature_context(), params)
            .map(Answer::Record)
            .map_err(rpc_error),
        Request::RecordTrace(params) => {
            tether_features::record_trace(&state.feature_context(), params)
                .map(Answer::RecordTrace)
                .map_err(rpc_error)
        }
        Request::Recall(params) => {
            Ok(Answer::Recall(tether_features::recall_traces(&state.feature_context(), params)))
        }
        Request::Tree(params) => Ok(Answer::Tree(tether_features::research_tree_answer(
            &state.feature_context(),
            params,
        ))),
        Request::OpenPhases { page } => Ok(Answer::OpenPhases(
            tether_features::open_phases_answer(&state.feature_context(), page),
        )),
        Request::Brief { id } => tether_features::brief_answer(&state.feature_context(), &id)
            .map(Answer::Brief)
            .map_err(rpc_error),
        Request::CoverageImport { file, merge } => {
            // The graph first: the evidence keeps each recorded file's symbols as it holds them.
            let snapshot = published()?;
            crate::runtime_evidence::import(state, &state.evidence, &snapshot, &file, merge)
                .map(Answer::CoverageImport)
        }
        Request::Context { subject } => {
            let snapshot = snapshot()?;
            context(state, &features(), &snapshot, subject, deadline).map(Answer::Context)
        }
        Request::SearchMemory(params) => {
            tether_features::search_memory(&features(), &*snapshot()?, &params, deadline)
                .map(Answer::SearchMemory)
                .map_err(rpc_error)
        }
        Request::Ownership { subject, mut exclude_authors, blame } => {
            // The configuration's authors are left out for every client, as bots are.
            exclude_authors.extend(state.configuration().0.exclude_authors.value.iter().cloned());
            let snapshot = snapshot()?;
            let subject = match subject {
                Subject::Symbol(symbol) => {
                    tether_features::OwnershipSubject::Symbol(address(view(), &snapshot, &symbol)?)
                }
                Subject::Path(path) => tether_features::OwnershipSubject::File(path),
            };
            let features = features();
            tether_features::ownership(
                &features,
                &snapshot,
                subject,
                &exclude_authors,
                blame,
                deadline,
            )
            .map(Answer::Ownership)
            .map_err(rpc_error)
        }
        Request::Changes(params) => {
            let options = blast_options(state, &params.walk, deadline)?;
            let snapshot = snapshot()?;
            tether_features::changes(&features(), &snapshot, &params, options)
                .map(Answer::Changes)
                .map_err(rpc_error)
        }
        Request::Lookup { query, folder, page } => {
            let snapshot = snapshot()?;
            let freshness = view().freshness(&snapshot);
            Ok(match query {
                None => Answer::Census(wire::CensusAnswer {
                    census: census_counts(&snapshot),
                    freshness: tether_protocol::freshness_wire(&freshness),
                    next: "lookup {\"query\": NAME} to find a symbol, then blast or callers on it"
                        .to_string(),
                }),
                Some(query) => {
                    let answer = snapshot.lookup(&query, folder.as_deref(), page);
                    Answer::Lookup(tether_protocol::lookup_answer(&snapshot, &answer, &freshness))
                }
            })
        }
        Request::Blast { subject, walk } => {
            let snapshot = snapshot()?;
            blast(state, view(), &snapshot, subject, &walk, deadline).map(Answer::Blast)
        }
        Request::Callers { symbol, page } => {
            let snapshot = snapshot()?;
            neighbours(view(), &snapshot, NeighbourKind::Callers, &symbol, page)
                .map(Answer::Neighbours)
        }
        Request::Callees { symbol, page } => {
            let snapshot = snapshot()?;
            neighbours(view(), &snapshot, NeighbourKind::Callees, &symbol, page)
                .map(Answer::Neighbours)
        }
        Request::Imports { symbol, page } => {
            let snapshot = snapshot()?;
            neighbours(view(), &snapshot, NeighbourKind::Imports, &symbol, page)
                .map(Answer::Neighbours)
        }
    }
}

fn context(
    state: &DaemonState,
    features: &tether_features::FeatureContext<'_>,
    snapshot: &Snapshot,
    subject: Subject,
    deadline: Deadline,
) -> Result<wire::ContextAnswer, RpcError> {
    let subject = match subject {
        Subject::Symbol(symbol) => tether_features::ContextSubject::Symbol(address(
            features.graph_state,
            snapshot,
            &symbol,
        )?),
        Subject::Path(path) => tether_features::ContextSubject::File(
            repository_path(&state.paths.root, &path).map_err(rpc_error)?,
        ),
    };
    tether_features::context(features, snapshot, subject, deadline).map_err(rpc_error)
}

/// A symbol's blast, or a file's (every symbol in it), weakened by uncommitted edits.
fn blast(
    state: &DaemonState,
    view: &dyn GraphState,
    snapshot: &Snapshot,
    subject: Subject,
    walk: &WalkParams,
    deadline: Deadline,
) -> Result<wire::BlastAnswer, RpcError> {
    let options = blast_options(state, walk, deadline)?;
    let freshness = view.freshness(snapshot);
    let dirty = view.dirty_files(snapshot);
    match subject {
        Subject::Path(file) => {
            let relative = repository_path(&state.paths.root, &file).map_err(rpc_error)?;
            let mut answer = snapshot
                .blast_file(&relative, options)
                .ok_or_else(|| {
                    RpcError::new(
                        RpcError::SYMBOL_NOT_FOUND,
                        format!(
                            "no indexed file {file:?}; paths are relative to the repository root"
                        ),
                    )
                })?
                .map_err(cancelled)?;
            let languages: Vec<_> =
                tether_model::Language::from_path(&relative).into_iter().collect();
            answer.completeness.add_dirty_files(&dirty, &languages);
            // Named as the repository names it, however the client wrote it.
            Ok(tether_protocol::blast_answer(snapshot, &relative, &answer, &freshness))
        }
        Subject::Symbol(symbol) => {
            let subject = address(view, snapshot, &symbol)?;
            let mut answer = snapshot.blast_symbol(subject, options).map_err(cancelled)?;
            let language = snapshot.symbol(subject).language;
            answer.completeness.add_dirty_files(&dirty, &[language]);
            let name = &snapshot.symbol(subject).qualified_name;
            Ok(tether_protocol::blast_answer(snapshot, name, &answer, &freshness))
        }
    }
}

/// `callers`, `callees`, `imports`: one hop, paged, weakened by uncommitted edits.
fn neighbours(
    view: &dyn GraphState,
    snapshot: &Snapshot,
    kind: NeighbourKind,
    symbol: &str,
    page: tether_query::PageRequest,
) -> Result<wire::NeighboursAnswer, RpcError> {
    let freshness = view.freshness(snapshot);
    let subject = address(view, snapshot, symbol)?;
    let mut answer = snapshot.neighbours(subject, kind, page);
    let language = snapshot.symbol(subject).language;
    answer.completeness.add_dirty_files(&view.dirty_files(snapshot), &[language]);
    Ok(tether_protocol::neighbours_answer(snapshot, &answer, &freshness))
}

fn status(state: &DaemonState) -> wire::StatusAnswer {
    let rebuild = state.rebuild_status();
    let snapshot = state.snapshot();
    wire::StatusAnswer {
        root: state.paths.root.display().to_string(),
        database: state.paths.database.display().to_string(),
        socket: state.paths.socket.display().to_string(),
        pid: std::process::id(),
        uptime_seconds: state.started.elapsed().as_secs(),
        ready: snapshot.is_some(),
        rebuilding: rebuild.rebuilding,
        rebuilds: rebuild.rebuilds,
        last_rebuild_seconds: rebuild.last_seconds,
        last_publish_seconds: rebuild.last_publish_seconds,
        last_error: rebuild.last_error,
        indexed_commit: snapshot.as_ref().and_then(|snapshot| snapshot.meta.head_commit.clone()),
        freshness: snapshot
            .as_ref()
            .map(|snapshot| tether_protocol::freshness_wire(&state.freshness(snapshot))),
        census: snapshot.as_ref().map(|snapshot| census_counts(snapshot)),
    }
}

fn census_counts(snapshot: &Snapshot) -> wire::CensusCounts {
    let census = &snapshot.census;
    wire::CensusCounts {
        files: census.files,
        files_skipped: census.files_skipped,
        symbols_by_kind: census
            .symbols_by_kind
            .iter()
            .map(|(kind, count)| (kind.as_str().to_string(), *count))
            .collect(),
        edges_by_kind: census
            .edges_by_kind
            .iter()
            .map(|(kind, count)| (kind.as_str().to_string(), *count))
            .collect(),
        unresolved_calls: census.unresolved_calls,
        diagnostics: census.diagnostics,
    }
}

/// A symbol address, resolved (a column read from the files as `view` sees them); ambiguity
/// and absence are errors with candidates.
fn address(
    view: &dyn GraphState,
    snapshot: &Snapshot,
    symbol: &str,
) -> Result<SymbolIndex, RpcError> {
    let source_line = |path: &str, line: u32| view.source_line(path, line);
    snapshot.resolve_address_in(symbol, &source_line).map_err(address_error)
}

fn address_error(error: tether_query::AddressError) -> RpcError {
    let code = match error {
        tether_query::AddressError::NotFound { .. } => RpcError::SYMBOL_NOT_FOUND,
        tether_query::AddressError::Ambiguous { .. } => RpcError::AMBIGUOUS_SYMBOL,
    };
    let (message, data) = tether_protocol::address_error_data(&error);
    RpcError::address(code, message, &data)
}

/// A feature's error as the JSON-RPC error it is answered with.
pub(crate) fn rpc_error(error: FeatureError) -> RpcError {
    match error {
        FeatureError::Refused(message) => RpcError::invalid_params(message),
        FeatureError::Address(error) => address_error(error),
        FeatureError::Cancelled => cancelled(tether_model::Cancelled),
        FeatureError::Internal(message) => RpcError::new(RpcError::INTERNAL_ERROR, message),
    }
}

/// `depth` (1 to the maximum, default 3), `tests_limit` and the page of a blast (`blast`,
/// `changes`), with the runtime evidence in force.
pub(crate) fn blast_options(
    state: &DaemonState,
    walk: &WalkParams,
    deadline: Deadline,
) -> Result<BlastOptions, RpcError> {
    let depth = walk.depth.unwrap_or(BlastOptions::DEFAULT_DEPTH as usize);
    if depth == 0 || depth > BlastOptions::MAX_DEPTH as usize {
        return Err(RpcError::invalid_params(format!(
            "depth must be 1 to {}",
            BlastOptions::MAX_DEPTH
        )));
    }
    let tests_limit = walk.tests_limit.unwrap_or(BlastOptions::DEFAULT_TESTS_LIMIT);
    if tests_limit == 0 || tests_limit > BlastOptions::MAX_TESTS_LIMIT {
        return Err(RpcError::invalid_params(format!(
            "tests_limit must be 1 to {}",
            BlastOptions::MAX_TESTS_LIMIT
        )));
    }
    Ok(BlastOptions {
        depth: depth as u32,
        page: walk.page,
        deadline,
        evidence: crate::runtime_evidence::current(state, &state.evidence),
        tests_limit,
    })
}

/// How long churn may read history in one request: a share of the request's time (less when
/// every section is asked for); what is left is read in the background for the next answer.
const CHURN_READ_BUDGET: std::time::Duration = std::time::Duration::from_secs(30);
const CHURN_READ_BUDGET_IN_SUMMARY: std::time::Duration = std::time::Duration::from_secs(10);

/// The history churn reads, when the request asks for churn.
fn churn_history(
    state: &DaemonState,
    health: &tether_protocol::HealthParams,
    deadline: Deadline,
) -> Option<tether_features::HistoryRead> {
    let budget = match health.kind {
        Some(HealthKind::Churn) => CHURN_READ_BUDGET,
        None => CHURN_READ_BUDGET_IN_SUMMARY,
        Some(_) => return None,
    };
    // Half of what is left of the request's time at most, so the answer is still made in it.
    let budget = match deadline.remaining() {
        Some(remaining) => budget.min(remaining / 2),
        None => budget,
    };
    let extra_bots = state.configuration().0.exclude_authors.value.clone();
    Some(tether_features::read_history(
        &state.feature_caches.churn,
        &state.paths.root,
        &state.paths.folder,
        health.commits,
        &extra_bots,
        Deadline::after(budget),
    ))
}
