//! The git-backed queries: `ownership` (blame aggregated by author, cached per HEAD) and
//! `changes` (the blast radius of a diff). Both degrade to a note, never an error, where git
//! cannot answer.

use std::collections::HashMap;
use std::sync::Mutex;

use tether_git::{aggregate_ownership, BlameLine, DiffScope};
use tether_protocol::rpc::RpcError;
use tether_protocol::{json, Value};
use tether_query::{BlastOptions, PageRequest, Snapshot};

use crate::changes::{changed_symbols, ChangeKind, SideFactsCache};
use crate::state::DaemonState;

/// Blame results for one HEAD, by (path, first line, last line).
#[derive(Default)]
pub struct BlameCache {
    head: Option<String>,
    entries: HashMap<(String, u32, u32), Vec<BlameLine>>,
}

/// The caches the git queries keep between calls.
#[derive(Default)]
pub struct GitQueryCaches {
    pub blame: Mutex<BlameCache>,
    pub side_facts: Mutex<SideFactsCache>,
}

pub fn ownership(state: &DaemonState, snapshot: &Snapshot, params: &Value, subject: Option<tether_query::SymbolIndex>) -> Result<Value, RpcError> {
    let extra_bots: Vec<String> = params.get("exclude_authors").and_then(Value::as_array).map(|names| names.iter().filter_map(|name| name.as_str().map(str::to_string)).collect()).unwrap_or_default();
    let (path, start, end, subject_json) = match subject {
        Some(index) => {
            let symbol = snapshot.symbol(index);
            (symbol.path.clone(), symbol.span.start_line, symbol.span.end_line, tether_protocol::symbol_json(snapshot, index))
        }
        None => {
            let path = params.get("path").and_then(Value::as_str).ok_or_else(|| RpcError::invalid_params("name a \"symbol\" or a \"path\""))?;
            let path = path.strip_prefix("./").unwrap_or(path).to_string();
            let lines = std::fs::read_to_string(state.paths.root.join(&path)).map(|text| text.lines().count() as u32).unwrap_or(0);
            (path.clone(), 1, lines.max(1), json!({ "path": path }))
        }
    };
    let freshness = state.freshness(snapshot);
    let answer = |note: Option<String>, ownership: tether_git::Ownership| {
        tether_protocol::ownership_json(subject_json.clone(), &path, start, end, &ownership, note.as_deref(), &freshness)
    };
    let Some(repository) = tether_git::discover(&state.paths.root) else {
        return Ok(answer(Some("not a git repository: nobody to blame".into()), Default::default()));
    };
    let head = repository.head().ok().and_then(|head| head.commit);
    let lines = {
        let mut cache = state.git_caches.blame.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if cache.head != head {
            cache.head = head.clone();
            cache.entries.clear();
        }
        cache.entries.get(&(path.clone(), start, end)).cloned()
    };
    let lines = match lines {
        Some(lines) => lines,
        None => match repository.blame(&path, start, end) {
            Ok(lines) => {
                let mut cache = state.git_caches.blame.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                cache.entries.insert((path.clone(), start, end), lines.clone());
                lines
            }
            Err(error) => {
                let note = if head.is_none() { "no commits yet: every line is new".to_string() } else { format!("blame unavailable (untracked or new file?): {error}") };
                return Ok(answer(Some(note), Default::default()));
            }
        },
    };
    let ownership = aggregate_ownership(&lines, &extra_bots);
    let note = (ownership.uncommitted_lines > 0).then(|| format!("{} lines are not committed yet", ownership.uncommitted_lines));
    Ok(answer(note, ownership))
}

pub fn changes(state: &DaemonState, snapshot: &Snapshot, params: &Value, options: BlastOptions) -> Result<Value, RpcError> {
    let scope = match (params.get("scope").and_then(Value::as_str), params.get("base").and_then(Value::as_str), params.get("range").and_then(Value::as_str)) {
        (_, Some(base), _) => DiffScope::Base(base.to_string()),
        (_, _, Some(range)) => match range.split_once("..") {
            Some((from, to)) if !from.is_empty() && !to.is_empty() && !to.starts_with('.') => DiffScope::Range(from.to_string(), to.to_string()),
            _ => return Err(RpcError::invalid_params("\"range\" must be A..B")),
        },
        (None | Some("all"), None, None) => DiffScope::All,
        (Some("unstaged"), None, None) => DiffScope::Unstaged,
        (Some("staged"), None, None) => DiffScope::Staged,
        (Some(other), None, None) => return Err(RpcError::invalid_params(format!("unknown scope {other:?}; use unstaged, staged, all, or pass base or range"))),
    };
    let include_whitespace = params.get("include_whitespace").and_then(Value::as_bool).unwrap_or(false);
    let freshness = state.freshness(snapshot);
    let Some(repository) = tether_git::discover(&state.paths.root) else {
        return Ok(json!({ "changed": [], "note": "not a git repository: no diff to map", "freshness": tether_protocol::freshness_json(&freshness) }));
    };
    let git_error = |error: tether_git::GitError| RpcError::invalid_params(format!("git could not diff that scope: {error}"));
    let sides = repository.diff_sides(&scope).map_err(git_error)?;
    let diffs = repository.diff(&scope, include_whitespace).map_err(git_error)?;
    let changed = {
        let mut cache = state.git_caches.side_facts.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        changed_symbols(&repository, snapshot, &diffs, &sides, &mut cache).map_err(git_error)?
    };
    // Blast from what the graph knows of the changed symbols (added ones have no dependents yet).
    let mut seeds = Vec::new();
    for symbol in changed.iter().filter(|symbol| symbol.change != ChangeKind::Added) {
        seeds.extend(snapshot.symbols_named(&symbol.qualified_name).iter().copied().filter(|index| snapshot.symbol(*index).kind == symbol.kind));
    }
    seeds.sort_unstable();
    seeds.dedup();
    let blast = snapshot.blast_symbols(&seeds, options);
    Ok(tether_protocol::changes_json(snapshot, &changed_rows(&changed), diffs.len(), &blast, &freshness))
}

fn changed_rows(changed: &[crate::changes::ChangedSymbol]) -> Vec<Value> {
    changed
        .iter()
        .map(|symbol| {
            json!({
                "qualified_name": symbol.qualified_name,
                "kind": symbol.kind.as_str(),
                "path": symbol.path,
                "line": symbol.line,
                "change": symbol.change.as_str(),
                "lines_changed": symbol.lines_changed,
                "renamed_from": symbol.renamed_from,
            })
        })
        .collect()
}

/// The page a `changes` answer's blast uses.
pub fn blast_options(params: &Value, page: PageRequest) -> Result<BlastOptions, RpcError> {
    let depth = params.get("depth").and_then(Value::as_u64).map(|depth| depth as u32).unwrap_or(BlastOptions::DEFAULT_DEPTH);
    if depth == 0 || depth > BlastOptions::MAX_DEPTH {
        return Err(RpcError::invalid_params(format!("depth must be 1 to {}", BlastOptions::MAX_DEPTH)));
    }
    Ok(BlastOptions { depth, page })
}
