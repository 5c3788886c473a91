//! The git-backed queries: `ownership` (blame aggregated by author, cached per HEAD) and
//! `changes` (the blast radius of a diff). Both degrade to a note, never an error, where git
//! cannot answer.

use std::collections::HashMap;
use std::sync::Mutex;
use tether_model::IgnoringPoison;

use crate::FeatureError;
use tether_git::{aggregate_ownership, Blame, BlameOptions, DiffScope, GitError};
use tether_model::Deadline;
use tether_protocol::wire;
use tether_query::{BlastOptions, Snapshot};

use crate::cancelled;
use crate::changes::{changed_symbols, SideFactsCache};
use crate::repository_paths::repository_file;
use crate::FeatureContext;

/// The largest file `ownership --path` counts the lines of (a larger one is refused).
const MAX_OWNERSHIP_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Blame results for one HEAD, by (path, first line, last line, options).
#[derive(Default)]
pub struct BlameCache {
    head: Option<String>,
    entries: HashMap<(String, u32, u32, BlameOptions), Blame>,
}

/// The caches the git queries keep between calls.
#[derive(Default)]
pub struct GitQueryCaches {
    pub blame: Mutex<BlameCache>,
    pub side_facts: Mutex<SideFactsCache>,
}

/// What `ownership` attributes: a symbol's lines, or a whole file (a repository path).
pub enum OwnershipSubject {
    Symbol(tether_query::SymbolIndex),
    File(String),
}

pub fn ownership(
    state: &FeatureContext,
    snapshot: &Snapshot,
    subject: OwnershipSubject,
    extra_bots: &[String],
    blame_params: tether_protocol::BlameParams,
    deadline: Deadline,
) -> Result<wire::OwnershipAnswer, FeatureError> {
    let options = BlameOptions {
        follow_moves: blame_params.follow_moves,
        ignore_revs_file: blame_params.ignore_revs_file,
    };
    let (path, start, end, subject_wire) = match subject {
        OwnershipSubject::Symbol(index) => {
            let symbol = snapshot.symbol(index);
            (
                symbol.path.clone(),
                symbol.span.start_line,
                symbol.span.end_line,
                wire::SymbolOrFile::Symbol(tether_protocol::symbol_ref(snapshot, index)),
            )
        }
        OwnershipSubject::File(path) => {
            let path = repository_file(state.root, &path)?;
            let lines = count_lines(&state.root.join(&path))?;
            (path.clone(), 1, lines.max(1), wire::SymbolOrFile::File { path })
        }
    };
    let freshness = state.freshness(snapshot);
    let answer = |note: Option<String>, ownership: tether_git::Ownership, blame: &[String]| {
        tether_protocol::ownership_answer(
            subject_wire.clone(),
            (&path, start, end),
            &ownership,
            blame,
            note.as_deref(),
            &freshness,
        )
    };
    let Some(repository) = tether_git::discover(state.root) else {
        return Ok(answer(
            Some("not a git repository: nobody to blame".into()),
            Default::default(),
            &[],
        ));
    };
    let head = repository.head().ok().and_then(|head| head.commit);
    let lines = {
        let mut cache = state.caches.git.blame.lock().ignoring_poison();
        if cache.head != head {
            cache.head = head.clone();
            cache.entries.clear();
        }
        cache.entries.get(&(path.clone(), start, end, options)).cloned()
    };
    let blame = match lines {
        Some(blame) => blame,
        None => match repository.blame(&path, start, end, options, deadline) {
            Ok(blame) => {
                let mut cache = state.caches.git.blame.lock().ignoring_poison();
                cache.entries.insert((path.clone(), start, end, options), blame.clone());
                blame
            }
            Err(GitError::Cancelled { .. }) => return Err(cancelled(tether_model::Cancelled)),
            Err(error) => {
                let note = if head.is_none() {
                    "no commits yet: every line is new".to_string()
                } else {
                    format!("blame unavailable (untracked or new file?): {error}")
                };
                return Ok(answer(Some(note), Default::default(), &[]));
            }
        },
    };
    let ownership = aggregate_ownership(&blame.lines, extra_bots);
    let note = (ownership.uncommitted_lines > 0)
        .then(|| format!("{} lines are not committed yet", ownership.uncommitted_lines));
    Ok(answer(note, ownership, &blame.options_used))
}

pub fn changes(
    state: &FeatureContext,
    snapshot: &Snapshot,
    params: &tether_protocol::ChangesParams,
    options: BlastOptions,
) -> Result<wire::ChangesAnswer, FeatureError> {
    let include_whitespace = params.include_whitespace;
    let (scope_name, base, range) =
        (params.scope.as_deref(), params.base.as_deref(), params.range.as_deref());
    let freshness = state.freshness(snapshot);
    let Some(repository) = tether_git::discover(state.root) else {
        return Ok(wire::ChangesAnswer::NotARepository {
            changed: Vec::new(),
            note: "not a git repository: no diff to map".to_string(),
            freshness: tether_protocol::freshness_wire(&freshness),
        });
    };
    // User revisions become checked object ids before git sees them as revisions.
    let revision = |text: &str| {
        repository.resolve_revision(text).map_err(|error| FeatureError::refused(error.to_string()))
    };
    let scope = match (scope_name, base, range) {
        (_, Some(base), _) => DiffScope::Base(revision(base)?),
        (_, _, Some(range)) => match range.split_once("..") {
            Some((from, to)) if !from.is_empty() && !to.is_empty() && !to.starts_with('.') => {
                DiffScope::Range(revision(from)?, revision(to)?)
            }
            _ => return Err(FeatureError::refused("\"range\" must be A..B")),
        },
        (None | Some("all"), None, None) => DiffScope::All,
        (Some("unstaged"), None, None) => DiffScope::Unstaged,
        (Some("staged"), None, None) => DiffScope::Staged,
        (Some(other), None, None) => {
            return Err(FeatureError::refused(format!(
                "unknown scope {other:?}; use unstaged, staged, all, or pass base or range"
            )))
        }
    };
    let git_error = |error: GitError| match error {
        GitError::Cancelled { .. } => cancelled(tether_model::Cancelled),
        error => FeatureError::refused(format!("git could not diff that scope: {error}")),
    };
    let sides = repository.diff_sides(&scope).map_err(git_error)?;
    let diffs = repository.diff(&scope, include_whitespace, options.deadline).map_err(git_error)?;
    let changed = {
        let mut cache = state.caches.git.side_facts.lock().ignoring_poison();
        changed_symbols(&repository, snapshot, &diffs, &sides, &mut cache, options.deadline)
            .map_err(git_error)?
    };
    // Blast from what the graph knows of the changed symbols (added ones have no dependents yet).
    let mut seeds = Vec::new();
    for symbol in changed.iter().filter(|symbol| symbol.change.seeds_blast()) {
        seeds.extend(
            snapshot
                .symbols_named(&symbol.qualified_name)
                .iter()
                .copied()
                .filter(|index| snapshot.symbol(*index).kind == symbol.kind),
        );
    }
    seeds.sort_unstable();
    seeds.dedup();
    let mut blast = snapshot.blast_symbols(&seeds, options).map_err(cancelled)?;
    let mut languages: Vec<tether_model::Language> =
        seeds.iter().map(|seed| snapshot.symbol(*seed).language).collect();
    languages.sort();
    languages.dedup();
    blast.completeness.add_dirty_files(&state.dirty_files(snapshot), &languages);
    Ok(tether_protocol::changes_answer(
        snapshot,
        changed_rows(&changed),
        diffs.len(),
        &blast,
        &freshness,
    ))
}

/// The number of lines of a regular file, read in bounded chunks.
fn count_lines(path: &std::path::Path) -> Result<u32, FeatureError> {
    use std::io::Read;
    let refuse = |why: String| FeatureError::refused(format!("{}: {why}", path.display()));
    let file = std::fs::File::open(path).map_err(|error| refuse(error.to_string()))?;
    let length = file.metadata().map_err(|error| refuse(error.to_string()))?.len();
    if length > MAX_OWNERSHIP_FILE_BYTES {
        return Err(refuse(format!(
            "{length} bytes is over the {} MiB ownership reads",
            MAX_OWNERSHIP_FILE_BYTES >> 20
        )));
    }
    let mut lines = 0u32;
    let mut last = b'\n';
    let mut buffer = vec![0u8; 64 * 1024];
    let mut reader = file.take(MAX_OWNERSHIP_FILE_BYTES);
    loop {
        let read = reader.read(&mut buffer).map_err(|error| refuse(error.to_string()))?;
        if read == 0 {
            break;
        }
        lines = lines
            .saturating_add(buffer[..read].iter().filter(|byte| **byte == b'\n').count() as u32);
        last = buffer[read - 1];
    }
    Ok(if last == b'\n' { lines } else { lines + 1 })
}

fn changed_rows(changed: &[crate::changes::ChangedSymbol]) -> Vec<wire::ChangedSymbol> {
    changed
        .iter()
        .map(|symbol| wire::ChangedSymbol {
            qualified_name: symbol.qualified_name.clone(),
            kind: symbol.kind.as_str().to_string(),
            path: symbol.path.clone(),
            line: symbol.line,
            change: symbol.change.as_str().to_string(),
            lines_changed: symbol.lines_changed,
            renamed_from: symbol.renamed_from.clone(),
        })
        .collect()
}
