//! The memory graph in the daemon: entries loaded from `.memory/` (reloaded when the files or
//! HEAD change), tethered to the symbols their pinned commits changed (`MemoryIndex`), and the
//! `search_memory` query over them (`context` is in its own file).

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use tether_model::IgnoringPoison;

use crate::FeatureError;
use tether_git::{Repository, Revision};
use tether_memory::{Entry, EntryProblem, TetherKind};
use tether_model::Deadline;
use tether_model::SymbolKind;
use tether_protocol::wire;
use tether_query::Snapshot;

use crate::changes::module_name_of;
use crate::context::{context, ContextSubject};
use crate::pin_tethers::{name_inside_module, PinTether};
use crate::FeatureContext;

/// The entries as last loaded.
#[derive(Default)]
pub struct LoadedMemory {
    pub entries: Vec<Entry>,
    pub problems: Vec<EntryProblem>,
}

/// Memory state kept between calls. Pins name immutable commits, so their tethers are cached
/// for good; HEAD's history (with its renames), the index by path and staleness are cached
/// per HEAD, and the history is extended, not rebuilt, when HEAD moves forward.
#[derive(Default)]
pub struct MemoryCache {
    signature: Option<MemorySignature>,
    loaded: Arc<LoadedMemory>,
    pub(crate) pin_tethers: HashMap<crate::pin_tethers::PinKey, Arc<Vec<PinTether>>>,
    /// Whether the persisted pins (`pin-tethers.tsv`) were read into `pin_tethers`.
    pub(crate) pin_tethers_loaded: bool,
    history: Option<(String, Arc<History>)>,
    index: Option<(MemorySignature, Arc<MemoryIndex>)>,
    pub(crate) staleness: HashMap<StalenessKey, Arc<Vec<tether_git::CommitAuthor>>>,
}

/// What the memory was loaded from: HEAD's commit and the signature of the `.memory/` files
/// (their names, sizes and modification times: `memory_file_names`).
type MemorySignature = (Option<String>, u64);

/// One staleness question: (entry id, path, first line, last line, pinned commit).
type StalenessKey = (String, String, u32, u32, Option<String>);

/// HEAD's commits oldest first, each with its renames, and each commit's position.
#[derive(Default)]
pub struct History {
    commits: Vec<(String, Vec<(String, String)>)>,
    position: HashMap<String, usize>,
    /// Positions of the commits that rename something, ascending.
    renaming: Vec<usize>,
}

impl History {
    fn new(commits: Vec<(String, Vec<(String, String)>)>) -> History {
        let position = commits
            .iter()
            .enumerate()
            .map(|(index, (commit, _))| (commit.clone(), index))
            .collect();
        let renaming = commits
            .iter()
            .enumerate()
            .filter(|(_, (_, renames))| !renames.is_empty())
            .map(|(index, _)| index)
            .collect();
        History { commits, position, renaming }
    }

    /// Where `path`, as it was at `commit`, is at HEAD.
    fn path_at_head(&self, commit: &str, path: &str) -> String {
        let Some(start) = self.position.get(commit) else { return path.to_string() };
        let first = self.renaming.partition_point(|index| index <= start);
        let mut current = path.to_string();
        for index in &self.renaming[first..] {
            if let Some((_, new)) = self.commits[*index].1.iter().find(|(old, _)| *old == current) {
                current = new.clone();
            }
        }
        current
    }
}

/// Every entry's tethers, by the path each tethered file has at HEAD.
#[derive(Default)]
pub struct MemoryIndex {
    pub loaded: Arc<LoadedMemory>,
    /// (entry position, tether, full pin commit).
    pub(crate) by_path: HashMap<String, Vec<(usize, PinTether, String)>>,
}

/// The `.memory/**/*.md` files of a repository (repository-relative paths, sorted) and a
/// signature of their names, sizes and modification times. Nothing is read. The traces'
/// folder is left out: traces are not entries (`trace_store` reads them).
pub fn memory_file_names(root: &Path) -> (Vec<String>, u64) {
    let mut files = Vec::new();
    let mut stamps = Vec::new();
    let traces = root.join(".memory").join(tether_memory::TRACE_FOLDER);
    let mut stack = vec![root.join(".memory")];
    while let Some(folder) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&folder) else { continue };
        for entry in read.flatten() {
            let Ok(file_type) = entry.file_type() else { continue };
            let path = entry.path();
            if file_type.is_dir() {
                if path != traces {
                    stack.push(path);
                }
            } else if file_type.is_file()
                && path.extension().is_some_and(|extension| extension == "md")
            {
                let Ok(relative) = path.strip_prefix(root) else { continue };
                let relative = relative.to_string_lossy().replace('\\', "/");
                let metadata = entry.metadata().ok();
                stamps.push((
                    relative.clone(),
                    metadata.as_ref().map(|metadata| metadata.len()),
                    metadata.and_then(|metadata| metadata.modified().ok()),
                ));
                files.push(relative);
            }
        }
    }
    files.sort();
    stamps.sort();
    let mut signature = rustc_hash::FxHasher::default();
    std::hash::Hash::hash(&stamps, &mut signature);
    (files, std::hash::Hasher::finish(&signature))
}

/// The `.memory/**/*.md` files with their text, and their signature.
pub fn memory_files(root: &Path) -> (Vec<(String, String)>, u64) {
    let (names, signature) = memory_file_names(root);
    let files = names
        .into_iter()
        .filter_map(|name| std::fs::read_to_string(root.join(&name)).ok().map(|text| (name, text)))
        .collect();
    (files, signature)
}

impl MemoryCache {
    /// The entries, reloaded when `.memory/` or HEAD changed since the last load.
    pub fn current(&mut self, root: &Path, head: Option<String>) -> Arc<LoadedMemory> {
        let (_, files_signature) = memory_file_names(root);
        let signature = (head, files_signature);
        if self.signature.as_ref() != Some(&signature) {
            let (files, _) = memory_files(root);
            let load = tether_memory::load_entries(&files);
            self.loaded = Arc::new(LoadedMemory { entries: load.entries, problems: load.problems });
            self.signature = Some(signature);
        }
        Arc::clone(&self.loaded)
    }
}

/// HEAD's history with renames, extended from the cached one when HEAD moved forward.
fn history(
    state: &FeatureContext,
    repository: &Repository,
    head: &str,
    deadline: Deadline,
) -> Arc<History> {
    let cached = state.caches.memory.lock().ignoring_poison().history.clone();
    let history = match cached {
        Some((cached_head, history)) if cached_head == head => return history,
        Some((cached_head, history)) if is_ancestor_id(repository, &cached_head, head) => {
            let mut commits = history.commits.clone();
            let cached = Revision::from_object_id(&cached_head).expect("checked by is_ancestor_id");
            commits.extend(
                repository.history_with_renames(Some(&cached), deadline).unwrap_or_default(),
            );
            History::new(commits)
        }
        _ => History::new(repository.history_with_renames(None, deadline).unwrap_or_default()),
    };
    let history = Arc::new(history);
    state.caches.memory.lock().ignoring_poison().history =
        Some((head.to_string(), Arc::clone(&history)));
    history
}

/// Whether one commit id is an ancestor of another (both as git printed them).
fn is_ancestor_id(repository: &Repository, ancestor: &str, descendant: &str) -> bool {
    match (Revision::from_object_id(ancestor), Revision::from_object_id(descendant)) {
        (Some(ancestor), Some(descendant)) => repository.is_ancestor(&ancestor, &descendant),
        _ => false,
    }
}

/// The index of the memory as loaded now, rebuilt when `.memory/` or HEAD changed. `None`
/// when the deadline passed before every pin was mapped (the pins mapped so far stay cached,
/// so the next call goes on from there).
pub fn memory_index(
    state: &FeatureContext,
    repository: &Repository,
    snapshot: &Snapshot,
    head: &Option<String>,
    deadline: Deadline,
) -> Option<Arc<MemoryIndex>> {
    let (loaded, signature, cached) = {
        let mut cache = state.caches.memory.lock().ignoring_poison();
        let loaded = cache.current(state.root, head.clone());
        let signature = cache.signature.clone().unwrap_or_default();
        (
            loaded,
            signature.clone(),
            cache
                .index
                .clone()
                .filter(|(indexed, _)| *indexed == signature)
                .map(|(_, index)| index),
        )
    };
    if let Some(index) = cached {
        return Some(index);
    }
    let history =
        head.as_deref().map(|head| history(state, repository, head, deadline)).unwrap_or_default();
    // Every pin's full commit, then the pins mapped in batches (most from the persisted file).
    let mut pins: Vec<(usize, Revision, &Vec<String>)> = Vec::new();
    for (position, entry) in loaded.entries.iter().enumerate() {
        for pin in &entry.pins {
            let commit = match Revision::from_object_id(&pin.commit) {
                Some(full) if history.position.contains_key(full.as_str()) => Some(full),
                _ => repository.resolve_revision(&pin.commit).ok(),
            };
            if let Some(commit) = commit {
                pins.push((position, commit, &pin.files));
            }
        }
    }
    let wanted: Vec<(Revision, Vec<String>)> =
        pins.iter().map(|(_, commit, files)| (commit.clone(), (*files).clone())).collect();
    crate::pin_tethers::ensure_mapped(state, repository, snapshot, &wanted, deadline).ok()?;
    let mut by_path: HashMap<String, Vec<(usize, PinTether, String)>> = HashMap::new();
    for (position, commit, files) in &pins {
        let Some(tethers) = crate::pin_tethers::tethers_of(state, commit, files) else { continue };
        for tether in tethers.iter() {
            let path = history.path_at_head(commit.as_str(), &tether.path);
            by_path.entry(path).or_default().push((*position, tether.clone(), commit.to_string()));
        }
    }
    let index = Arc::new(MemoryIndex { loaded, by_path });
    state.caches.memory.lock().ignoring_poison().index = Some((signature, Arc::clone(&index)));
    Some(index)
}

/// `search_memory`: ranked lexical search over the entries (title above tags above body),
/// filtered by type, status, and the entries tethered to a symbol or path.
pub fn search_memory(
    state: &FeatureContext,
    snapshot: &Snapshot,
    params: &tether_protocol::SearchMemoryParams,
    deadline: Deadline,
) -> Result<wire::SearchMemoryAnswer, FeatureError> {
    let (query, page) = (params.query.as_str(), params.page);
    let mut filters = tether_memory::SearchFilters::default();
    if let Some(entry_type) = &params.entry_type {
        filters.entry_types.push(
            tether_memory::EntryType::parse(entry_type)
                .ok_or_else(|| FeatureError::refused(format!("unknown type {entry_type:?}")))?,
        );
    }
    if let Some(status) = &params.status {
        filters.statuses.push(tether_memory::EntryStatus::parse(status).ok_or_else(|| {
            FeatureError::refused(format!("unknown status {status:?}; use active or discarded"))
        })?);
    }
    let tethered_to = match &params.tethered_to {
        Some(tether_protocol::Subject::Symbol(symbol)) => {
            let source_line = |path: &str, line: u32| state.graph_state.source_line(path, line);
            let index =
                snapshot.resolve_address_in(symbol, &source_line).map_err(FeatureError::Address)?;
            Some(context(state, snapshot, ContextSubject::Symbol(index), deadline)?)
        }
        Some(tether_protocol::Subject::Path(path)) => Some(context(
            state,
            snapshot,
            ContextSubject::File(crate::repository_paths::repository_path(state.root, path)?),
            deadline,
        )?),
        None => None,
    };
    if let Some(answer) = tethered_to {
        filters.allowed_ids = Some(answer.chain.into_iter().map(|entry| entry.id).collect());
    }
    let repository_head = tether_git::discover(state.root)
        .and_then(|repository| repository.head().ok())
        .and_then(|head| head.commit);
    let memory = state.caches.memory.lock().ignoring_poison().current(state.root, repository_head);
    let found = tether_memory::search(&memory.entries, query, &filters);
    let total = found.len();
    let rows: Vec<wire::MemoryHit> = found
        .into_iter()
        .map(|(score, entry)| wire::MemoryHit {
            id: entry.id.clone(),
            entry_type: entry.entry_type.as_str().to_string(),
            title: entry.title.clone(),
            status: entry.status.as_str().to_string(),
            created_at: entry.created_at.clone(),
            tags: entry.tags.clone(),
            file: entry.path.clone(),
            score,
        })
        .collect();
    let (items, next_cursor) = page.apply(rows);
    Ok(wire::SearchMemoryAnswer {
        query: query.to_string(),
        total,
        items,
        next_cursor,
        freshness: tether_protocol::freshness_wire(&state.freshness(snapshot)),
        next: "context {\"symbol\": ...} shows the entries tethered to a symbol, with staleness"
            .to_string(),
    })
}

/// The memory graph to store beside a snapshot's code graph: entries, their links, and their
/// tethers resolved to the snapshot's symbols (`referenced` ones to the file's module).
pub fn memory_graph(state: &FeatureContext, snapshot: &Snapshot) -> tether_model::MemoryGraph {
    let traces =
        crate::trace_tethers::trace_graph(&state.caches.traces.current(state.root), snapshot);
    let Some(repository) = tether_git::discover(state.root) else {
        return tether_model::MemoryGraph { traces, ..Default::default() };
    };
    let head = repository.head().ok().and_then(|head| head.commit);
    let Some(index) = memory_index(state, &repository, snapshot, &head, Deadline::none()) else {
        return tether_model::MemoryGraph { traces, ..Default::default() };
    };
    let mut graph = tether_model::MemoryGraph { traces, ..Default::default() };
    for entry in &index.loaded.entries {
        graph.entries.push(tether_model::MemoryEntryRecord {
            id: entry.id.clone(),
            entry_type: entry.entry_type.as_str().to_string(),
            title: entry.title.clone(),
            status: entry.status.as_str().to_string(),
            created_at: entry.created_at.clone().unwrap_or_default(),
            path: entry.path.clone(),
        });
        if let Some(parent) = &entry.parent {
            graph.links.push(("PARENT", entry.id.clone(), parent.clone()));
        }
        for (kind, targets) in [
            ("SUPERSEDES", &entry.supersedes),
            ("DEPENDS_ON", &entry.depends_on),
            ("RELATED", &entry.related),
        ] {
            graph
                .links
                .extend(targets.iter().map(|target| (kind, entry.id.clone(), target.clone())));
        }
    }
    for (path, tethers) in &index.by_path {
        let symbols = snapshot.symbols_in_file(path);
        let module = module_name_of(snapshot, path);
        for (position, tether, commit) in tethers {
            let target = match (tether.kind, &tether.relative_name) {
                (TetherKind::Changed, Some(relative)) => symbols.iter().copied().find(|index| {
                    let symbol = snapshot.symbol(*index);
                    Some(symbol.kind) == tether.symbol_kind
                        && name_inside_module(&symbol.qualified_name, &module)
                            == Some(relative.as_str())
                }),
                _ => symbols
                    .iter()
                    .copied()
                    .find(|index| snapshot.symbol(*index).kind == SymbolKind::Module),
            };
            if let Some(target) = target {
                graph.tethers.push(tether_model::TetherRecord {
                    entry_id: index.loaded.entries[*position].id.clone(),
                    symbol: snapshot.symbol(target).id,
                    kind: match tether.kind {
                        TetherKind::Changed => "changed",
                        TetherKind::Referenced => "referenced",
                    },
                    pin: commit.clone(),
                });
            }
        }
    }
    graph
}
