//! `tree`, `open_phases` and `brief` over the socket (issue 45): the memory crate's pure
//! research tree, completeness and briefs over the entries the memory cache holds, paged,
//! with the tree's problems named. Briefs are cached (bounded), keyed by the entry and its
//! subtree's signature, so an unchanged subtree answers `cached: true`; nothing is written.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tether_memory::{Entry, EntryStatus, EntryType, ResearchTree};
use tether_protocol::wire::{BriefAnswer, BriefEntry, OpenPhasesAnswer, TreeAnswer, TreeNode};
use tether_protocol::TreeParams;
use tether_query::PageRequest;

use crate::memory_context::LoadedMemory;
use crate::{FeatureContext, FeatureError};

/// The most briefs kept; past it the cache starts again.
const MOST_CACHED_BRIEFS: usize = 512;

/// Briefs made, by entry id, with the subtree signature they were made from; and the tree
/// and scores of the entries last loaded (the memory cache hands out the same `Arc` until a
/// file changes).
#[derive(Default)]
pub struct BriefCache {
    briefs: Mutex<HashMap<String, (u64, BriefAnswer)>>,
    tree: Mutex<Option<ScoredTree>>,
}

/// The tree of one load of the entries, with every placed plan's completeness.
#[derive(Clone)]
struct ScoredTree {
    loaded: Arc<LoadedMemory>,
    tree: Arc<ResearchTree>,
    scores: Arc<HashMap<usize, f64>>,
}

/// The entries now, their tree and scores (made again only when the entries were reloaded).
fn scored_tree(state: &FeatureContext) -> ScoredTree {
    let loaded = entries_now(state);
    let mut cached =
        state.caches.briefs.tree.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some(scored) = cached.as_ref().filter(|scored| Arc::ptr_eq(&scored.loaded, &loaded)) {
        return scored.clone();
    }
    let tree = tether_memory::research_tree(&loaded.entries);
    let scores = tether_memory::plan_completeness(&loaded.entries, &tree);
    let scored = ScoredTree { loaded, tree: Arc::new(tree), scores: Arc::new(scores) };
    *cached = Some(scored.clone());
    scored
}

fn entries_now(state: &FeatureContext) -> Arc<LoadedMemory> {
    let head = tether_git::discover(state.root).and_then(|repository| repository.head_stamp().0);
    let mut cache = state.caches.memory.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    cache.current(state.root, head)
}

fn rounded(score: f64) -> f64 {
    (score * 1000.0).round() / 1000.0
}

/// Children in the order a reader wants them: plans first, then by creation, then by id.
fn ordered_children(entries: &[Entry], tree: &ResearchTree, position: usize) -> Vec<usize> {
    let mut children = tree.children_of(position).to_vec();
    children.sort_by_cached_key(|child| {
        let entry = &entries[*child];
        (
            entry.entry_type != EntryType::Plan,
            tether_memory::parse_timestamp(entry.created_at.as_deref().unwrap_or("")),
            entry.id.clone(),
        )
    });
    children
}

/// `tree` (see the module's doc): depth first from the project, then the other roots.
pub fn research_tree_answer(state: &FeatureContext, params: TreeParams) -> TreeAnswer {
    let ScoredTree { loaded, tree, scores } = scored_tree(state);
    let entries = &loaded.entries;
    let shown = |position: usize| {
        let entry = &entries[position];
        (params.include_discarded || entry.status == EntryStatus::Active)
            && (!params.plans_only || entry.entry_type == EntryType::Plan)
    };
    let mut roots = tree.roots.clone();
    roots.sort_by_key(|root| Some(*root) != tree.project);
    let mut rows = Vec::new();
    let mut stack: Vec<(usize, usize)> =
        roots.iter().rev().filter(|root| shown(**root)).map(|root| (*root, 0)).collect();
    let mut seen = std::collections::HashSet::new();
    while let Some((position, depth)) = stack.pop() {
        if !seen.insert(position) {
            continue;
        }
        let children: Vec<usize> = ordered_children(entries, &tree, position)
            .into_iter()
            .filter(|child| shown(*child))
            .collect();
        rows.push(node(entries, &tree, &scores, position, depth, children.len()));
        stack.extend(children.iter().rev().map(|child| (*child, depth + 1)));
    }
    let total = rows.len();
    let (items, next_cursor) = params.page.apply(rows);
    let mut problems: Vec<String> =
        tree.problems.iter().map(|(id, problem)| format!("{id}: {problem}")).collect();
    problems.extend(
        loaded
            .problems
            .iter()
            .filter(|problem| problem.is_error())
            .map(|problem| problem.to_string()),
    );
    let next = match (&next_cursor, tree.project) {
        (Some(cursor), _) => format!("tree {{\"cursor\": \"{cursor}\"}} for the next page"),
        (None, Some(project)) => {
            format!("brief {{\"id\": \"{}\"}} summarises the project", entries[project].id)
        }
        (None, None) => {
            "record {\"type\": \"plan\", \"title\": ...} without a parent makes the project"
                .to_string()
        }
    };
    TreeAnswer {
        project: tree.project.map(|project| entries[project].id.clone()),
        total,
        items,
        problems,
        next_cursor,
        next,
    }
}

fn node(
    entries: &[Entry],
    tree: &ResearchTree,
    scores: &HashMap<usize, f64>,
    position: usize,
    depth: usize,
    children: usize,
) -> TreeNode {
    let entry = &entries[position];
    TreeNode {
        id: entry.id.clone(),
        entry_type: entry.entry_type.as_str().to_string(),
        title: entry.title.clone(),
        status: entry.status.as_str().to_string(),
        depth,
        parent: entry.parent.clone(),
        level: tree.levels.get(&position).map(|level| level.as_str().to_string()),
        completeness: scores.get(&position).copied().map(rounded),
        children,
        file: entry.path.clone(),
    }
}

/// `open_phases`: the active phases not complete, least complete first.
pub fn open_phases_answer(state: &FeatureContext, page: PageRequest) -> OpenPhasesAnswer {
    let ScoredTree { loaded, tree, scores } = scored_tree(state);
    let entries = &loaded.entries;
    let rows: Vec<TreeNode> = tether_memory::open_phases(entries, &tree, &scores)
        .into_iter()
        .map(|(position, _)| {
            let children = tree.children_of(position).len();
            node(entries, &tree, &scores, position, 2, children)
        })
        .collect();
    let total = rows.len();
    let (items, next_cursor) = page.apply(rows);
    let next = match (&next_cursor, items.first()) {
        (Some(cursor), _) => format!("open_phases {{\"cursor\": \"{cursor}\"}} for the next page"),
        (None, Some(first)) => format!("brief {{\"id\": \"{}\"}} says what it holds", first.id),
        (None, None) => "every active phase is complete".to_string(),
    };
    OpenPhasesAnswer { total, items, next_cursor, next }
}

fn brief_entry(entry: &Entry) -> BriefEntry {
    BriefEntry {
        id: entry.id.clone(),
        entry_type: entry.entry_type.as_str().to_string(),
        title: entry.title.clone(),
        status: entry.status.as_str().to_string(),
    }
}

/// `brief` of entry `id`: from the cache when its subtree's signature is unchanged.
pub fn brief_answer(state: &FeatureContext, id: &str) -> Result<BriefAnswer, FeatureError> {
    let ScoredTree { loaded, tree, scores } = scored_tree(state);
    let entries = &loaded.entries;
    let position = entries.iter().position(|entry| entry.id == id).ok_or_else(|| {
        FeatureError::refused(format!("no entry has the id {id:?}: tree lists the entries"))
    })?;
    let signature = tether_memory::subtree_signature(entries, &tree, position);
    let cache = &state.caches.briefs;
    if let Some((cached_signature, answer)) =
        cache.briefs.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).get(id)
    {
        if *cached_signature == signature {
            return Ok(BriefAnswer { cached: true, ..answer.clone() });
        }
    }
    let brief = tether_memory::brief(entries, &tree, &scores, position);
    let answer = BriefAnswer {
        entry: brief_entry(&entries[position]),
        level: brief.level.map(|level| level.as_str().to_string()),
        completeness: brief.completeness.map(rounded),
        children: brief.children.iter().map(|child| brief_entry(&entries[*child])).collect(),
        concluding_checkpoint: brief.concluding_checkpoint.map(|at| brief_entry(&entries[at])),
        types_below: brief
            .types_below
            .iter()
            .map(|(entry_type, count)| (entry_type.to_string(), *count))
            .collect(),
        open_threads: brief.open_threads,
        last_activity: brief.last_activity.clone(),
        central: brief.central.iter().map(|at| brief_entry(&entries[*at])).collect(),
        size: brief.size,
        cached: false,
        next: match brief.central.first() {
            Some(first) => format!(
                "context or brief {{\"id\": \"{}\"}}: its most linked entry",
                entries[*first].id
            ),
            None => "tree shows where it stands".to_string(),
        },
    };
    let mut briefs = cache.briefs.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if briefs.len() >= MOST_CACHED_BRIEFS {
        briefs.clear();
    }
    briefs.insert(id.to_string(), (signature, answer.clone()));
    Ok(answer)
}
