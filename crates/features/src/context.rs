//! `context`: the memory entries tethered to a symbol or file, oldest first, with the tip to
//! read first, each entry's staleness (the commits after its pin that touched the subject)
//! and whether its assumptions need a recheck.

use std::collections::HashMap;
use std::sync::Arc;
use tether_model::IgnoringPoison;

use tether_git::{Repository, Revision};
use tether_memory::{Entry, TetherKind};
use tether_model::{Deadline, SymbolKind};
use tether_protocol::wire;
use tether_query::{Snapshot, SymbolIndex};

use crate::changes::module_name_of;
use crate::memory_context::{memory_index, MemoryIndex};
use crate::pin_tethers::name_inside_module;
use crate::{FeatureContext, FeatureError};

/// What a `context` question is about.
pub enum ContextSubject {
    Symbol(SymbolIndex),
    File(String),
}

/// What `context` looks for: the subject's file, its name inside its module (none for a
/// module or a file), its kind and lines, and how the answer names it.
struct ContextTarget {
    path: String,
    relative: Option<String>,
    kind: Option<SymbolKind>,
    span: Option<(u32, u32)>,
    subject: wire::SymbolOrFile,
}

fn context_target(snapshot: &Snapshot, subject: &ContextSubject) -> ContextTarget {
    match subject {
        ContextSubject::Symbol(index) => {
            let symbol = snapshot.symbol(*index);
            let module = module_name_of(snapshot, &symbol.path);
            let relative =
                name_inside_module(&symbol.qualified_name, &module).unwrap_or_default().to_string();
            ContextTarget {
                path: symbol.path.clone(),
                relative: (symbol.kind != SymbolKind::Module).then_some(relative),
                kind: Some(symbol.kind),
                span: Some((symbol.span.start_line, symbol.span.end_line)),
                subject: wire::SymbolOrFile::Symbol(tether_protocol::symbol_ref(snapshot, *index)),
            }
        }
        ContextSubject::File(path) => ContextTarget {
            path: path.clone(),
            relative: None,
            kind: None,
            span: None,
            subject: wire::SymbolOrFile::File { path: path.clone() },
        },
    }
}

/// `context`: every entry tethered to a symbol or file, oldest first, with the tip, staleness
/// and needs-recheck verdicts.
pub fn context(
    state: &FeatureContext,
    snapshot: &Snapshot,
    subject: ContextSubject,
    deadline: Deadline,
) -> Result<wire::ContextAnswer, FeatureError> {
    let freshness = tether_protocol::freshness_wire(&state.freshness(snapshot));
    let repository = tether_git::discover(state.root);
    let head = repository
        .as_ref()
        .and_then(|repository| repository.head().ok())
        .and_then(|head| head.commit);
    let target = context_target(snapshot, &subject);
    let Some(repository) = repository else {
        return Ok(wire::ContextAnswer {
            subject: target.subject,
            chain: Vec::new(),
            tip: None,
            note: Some("not a git repository: entries cannot be tethered".to_string()),
            memory_problems: None,
            traces: Vec::new(),
            traces_total: 0,
            freshness,
            next: None,
        });
    };
    let index = memory_index(state, &repository, snapshot, &head, deadline)
        .ok_or(FeatureError::Cancelled)?;
    let memory = &index.loaded;
    let chain = tethered_entries(&index, &target);
    let tip_candidates: Vec<(&Entry, TetherKind)> =
        chain.iter().map(|(entry, kind, _)| (*entry, *kind)).collect();
    let tip = tether_memory::tip(&tip_candidates).map(|entry| entry.id.clone());
    let rows = chain
        .iter()
        .map(|(entry, kind, commit)| {
            let later =
                staleness(state, &repository, commit, &target.path, target.span, &head, deadline);
            context_row(&memory.entries, entry, *kind, commit, &later)
        })
        .collect();
    let loaded_traces = state.caches.traces.current(state.root);
    let trace_target = match &subject {
        ContextSubject::Symbol(index) => crate::trace_tethers::TraceTarget::Symbol {
            path: &target.path,
            qualified_name: snapshot.symbol(*index).qualified_name.as_str(),
        },
        ContextSubject::File(path) => crate::trace_tethers::TraceTarget::File {
            path,
            qualified_names: snapshot
                .symbols_in_file(path)
                .iter()
                .map(|index| snapshot.symbol(*index).qualified_name.as_str())
                .collect(),
        },
    };
    let (traces, traces_total) =
        crate::trace_tethers::traces_about(&loaded_traces.traces, &trace_target);
    let next = match &tip {
        Some(id) => format!(
            "read {} for the decision behind it; ownership {{...}} for whom to ask",
            memory.entries.iter().find(|entry| &entry.id == id).map(|entry| entry.path.as_str()).unwrap_or("")
        ),
        None => "no entry is tethered to it; tether record --type note --title ... --commit SHA adds one".to_string(),
    };
    Ok(wire::ContextAnswer {
        subject: target.subject,
        chain: rows,
        tip,
        note: None,
        memory_problems: Some(memory.problems.iter().map(|problem| problem.to_string()).collect()),
        traces,
        traces_total,
        freshness,
        next: Some(next),
    })
}

/// The entries tethered to the target, each once (a changed tether before a reference),
/// oldest first, with the commit of the pin that tethers them.
fn tethered_entries<'index>(
    index: &'index MemoryIndex,
    target: &ContextTarget,
) -> Vec<(&'index Entry, TetherKind, String)> {
    let mut best: HashMap<usize, (TetherKind, String)> = HashMap::new();
    for (position, tether, commit) in index.by_path.get(&target.path).into_iter().flatten() {
        let matches = match (&target.relative, tether.kind) {
            // A symbol: changed tethers with its name, or its file referenced.
            (Some(relative), TetherKind::Changed) => {
                tether.relative_name.as_ref() == Some(relative) && tether.symbol_kind == target.kind
            }
            (_, TetherKind::Referenced) => true,
            // A file (or a module): every tether in it.
            (None, TetherKind::Changed) => true,
        };
        if matches && best.get(position).is_none_or(|(kind, _)| *kind == TetherKind::Referenced) {
            best.insert(*position, (tether.kind, commit.clone()));
        }
    }
    let mut chain: Vec<(&Entry, TetherKind, String)> = best
        .into_iter()
        .map(|(position, (kind, commit))| (&index.loaded.entries[position], kind, commit))
        .collect();
    chain.sort_by(|a, b| {
        let key = |entry: &Entry| {
            (entry.created_at.as_deref().and_then(tether_memory::parse_timestamp), entry.id.clone())
        };
        key(a.0).cmp(&key(b.0))
    });
    chain
}

/// One entry of the chain: what it is, how it is tethered, and whether the code moved on
/// since (`later`: the commits after its pin that touched the subject).
fn context_row(
    entries: &[Entry],
    entry: &Entry,
    kind: TetherKind,
    commit: &str,
    later: &[tether_git::CommitAuthor],
) -> wire::ContextEntry {
    let mut authors: Vec<&str> = later.iter().map(|commit| commit.author.as_str()).collect();
    authors.sort_unstable();
    authors.dedup();
    let needs_recheck = match tether_memory::needs_recheck(entries, &entry.id) {
        tether_memory::RecheckVerdict::Fine => wire::Recheck::Fine,
        tether_memory::RecheckVerdict::NeedsRecheck { path } => {
            wire::Recheck::NeedsRecheck { path }
        }
        tether_memory::RecheckVerdict::Unknown { reason } => wire::Recheck::Unknown { reason },
    };
    let summary = if later.is_empty() {
        "the code has not changed since this entry's pin".to_string()
    } else {
        let plural = |count: usize| if count == 1 { "" } else { "s" };
        format!(
            "this {} predates {} later edit{} by {} author{}",
            entry.entry_type.as_str(),
            later.len(),
            plural(later.len()),
            authors.len(),
            plural(authors.len())
        )
    };
    wire::ContextEntry {
        id: entry.id.clone(),
        entry_type: entry.entry_type.as_str().to_string(),
        title: entry.title.clone(),
        status: entry.status.as_str().to_string(),
        created_at: entry.created_at.clone(),
        file: entry.path.clone(),
        tether: match kind {
            TetherKind::Changed => "changed",
            TetherKind::Referenced => "referenced",
        }
        .to_string(),
        pin: commit.to_string(),
        staleness: wire::EntryStaleness {
            changed_since_pin: !later.is_empty(),
            commits_since: later.len(),
            authors: authors.iter().map(|author| author.to_string()).collect(),
            summary,
        },
        needs_recheck,
    }
}

/// Commits after the pin that touched the subject (its current lines, or the file).
fn staleness(
    state: &FeatureContext,
    repository: &Repository,
    pin: &str,
    path: &str,
    span: Option<(u32, u32)>,
    head: &Option<String>,
    deadline: Deadline,
) -> Arc<Vec<tether_git::CommitAuthor>> {
    let (start, end) = span.unwrap_or((0, 0));
    let key = (pin.to_string(), path.to_string(), start, end, head.clone());
    if let Some(cached) = state.caches.memory.lock().ignoring_poison().staleness.get(&key) {
        return Arc::clone(cached);
    }
    let Some(pin) = Revision::from_object_id(pin) else { return Arc::default() };
    let commits = match span {
        Some((start, end)) => repository.commits_touching_since(path, start, end, &pin, deadline),
        None => repository.commits_touching_file_since(path, &pin, deadline),
    }
    .unwrap_or_default();
    let commits = Arc::new(commits);
    state.caches.memory.lock().ignoring_poison().staleness.insert(key, Arc::clone(&commits));
    commits
}
