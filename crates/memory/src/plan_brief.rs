//! [`brief`]: a deterministic summary of an entry's subtree (issue 45): its children, the
//! concluding checkpoint (active only), how many of each type lie below, the open threads,
//! the most recent activity, the completeness of a plan, and the most central entries (by
//! their links inside the subtree: parent, supersedes, depends_on, related; the more recent
//! first among equals). No model is involved: the same entries give the same brief.
//! [`subtree_signature`] changes whenever anything below changes, for a cache.
//!
//! Also [`open_phases`]: the active phases not complete, least complete first.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::entry::{Entry, EntryStatus, EntryType};
#[cfg(doc)]
use crate::plan_completeness::plan_completeness;
use crate::research_tree::{PlanLevel, ResearchTree};
use crate::timestamp::parse_timestamp;

/// The most central entries a brief names.
pub const MOST_CENTRAL: usize = 5;

#[derive(Clone, PartialEq, Debug)]
pub struct Brief {
    /// Positions of the direct children, in the entries' order.
    pub children: Vec<usize>,
    /// The newest active checkpoint below (the concluding one).
    pub concluding_checkpoint: Option<usize>,
    /// Entries below by type (all statuses), type names sorted.
    pub types_below: BTreeMap<&'static str, usize>,
    /// Active todos and experiments below that no active entry supersedes.
    pub open_threads: usize,
    /// The latest `updated_at` (or `created_at`) in the subtree, the entry's own included.
    pub last_activity: Option<String>,
    /// For a plan placed in the tree.
    pub completeness: Option<f64>,
    pub level: Option<PlanLevel>,
    /// Positions of the most central entries below, most central first.
    pub central: Vec<usize>,
    /// Entries below (not counting the entry).
    pub size: usize,
}

/// The positions below `root` (not itself), depth first in children order; each once.
fn subtree(tree: &ResearchTree, root: usize) -> Vec<usize> {
    let mut below = Vec::new();
    let mut seen = HashSet::from([root]);
    let mut stack: Vec<usize> = tree.children_of(root).iter().rev().copied().collect();
    while let Some(position) = stack.pop() {
        if seen.insert(position) {
            below.push(position);
            stack.extend(tree.children_of(position).iter().rev().copied());
        }
    }
    below
}

fn activity(entry: &Entry) -> Option<&str> {
    entry.updated_at.as_deref().or(entry.created_at.as_deref())
}

/// The brief of the entry at `root`; `scores` are [`plan_completeness`]'s, made once for
/// the tree.
pub fn brief(
    entries: &[Entry],
    tree: &ResearchTree,
    scores: &HashMap<usize, f64>,
    root: usize,
) -> Brief {
    let below = subtree(tree, root);
    let members: HashSet<&str> =
        below.iter().map(|&position| entries[position].id.as_str()).collect();
    let superseded_by_active: HashSet<&str> = entries
        .iter()
        .filter(|entry| entry.status == EntryStatus::Active)
        .flat_map(|entry| entry.supersedes.iter().map(String::as_str))
        .collect();
    let mut types_below = BTreeMap::new();
    for &position in &below {
        *types_below.entry(entries[position].entry_type.as_str()).or_insert(0) += 1;
    }
    let active = |position: &usize| entries[*position].status == EntryStatus::Active;
    let newest = |positions: &mut dyn Iterator<Item = usize>| {
        positions.max_by(|a, b| {
            parse_timestamp(activity(&entries[*a]).unwrap_or(""))
                .cmp(&parse_timestamp(activity(&entries[*b]).unwrap_or("")))
                .then_with(|| b.cmp(a))
        })
    };
    let concluding_checkpoint = newest(
        &mut below
            .iter()
            .copied()
            .filter(|position| active(position))
            .filter(|position| entries[*position].entry_type == EntryType::Checkpoint),
    );
    let open_threads = below
        .iter()
        .filter(|position| active(position))
        .map(|&position| &entries[position])
        .filter(|entry| matches!(entry.entry_type, EntryType::Todo | EntryType::Experiment))
        .filter(|entry| !superseded_by_active.contains(entry.id.as_str()))
        .count();
    let last_activity = std::iter::once(root)
        .chain(below.iter().copied())
        .filter_map(|position| activity(&entries[position]))
        .max_by_key(|stamp| parse_timestamp(stamp))
        .map(str::to_string);
    let level = tree.levels.get(&root).copied();
    let completeness = level.map(|_| scores.get(&root).copied().unwrap_or(0.0));
    Brief {
        children: tree.children_of(root).to_vec(),
        concluding_checkpoint,
        types_below,
        open_threads,
        last_activity,
        completeness,
        level,
        central: central(entries, &below, &members),
        size: below.len(),
    }
}

/// The entries below with the most links inside the subtree (parent and children, and
/// supersedes, depends_on, related either way), more recent first among equals.
fn central(entries: &[Entry], below: &[usize], members: &HashSet<&str>) -> Vec<usize> {
    let mut degree: HashMap<&str, usize> = HashMap::new();
    for &position in below {
        let entry = &entries[position];
        let linked = entry
            .parent
            .iter()
            .chain(&entry.supersedes)
            .chain(&entry.depends_on)
            .chain(&entry.related)
            .filter(|target| members.contains(target.as_str()) && **target != entry.id);
        for target in linked {
            *degree.entry(entry.id.as_str()).or_insert(0) += 1;
            *degree.entry(target.as_str()).or_insert(0) += 1;
        }
    }
    let mut ranked: Vec<usize> = below
        .iter()
        .copied()
        .filter(|position| degree.get(entries[*position].id.as_str()).is_some_and(|d| *d > 0))
        .collect();
    ranked.sort_by(|a, b| {
        let (a_entry, b_entry) = (&entries[*a], &entries[*b]);
        degree[b_entry.id.as_str()]
            .cmp(&degree[a_entry.id.as_str()])
            .then_with(|| {
                parse_timestamp(activity(b_entry).unwrap_or(""))
                    .cmp(&parse_timestamp(activity(a_entry).unwrap_or("")))
            })
            .then_with(|| a_entry.id.cmp(&b_entry.id))
    });
    ranked.truncate(MOST_CENTRAL);
    ranked
}

/// A signature of the subtree at `root`: each entry's id, type, status, times, parent and
/// links, the entry's own included. Equal signatures mean an equal brief.
pub fn subtree_signature(entries: &[Entry], tree: &ResearchTree, root: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for position in std::iter::once(root).chain(subtree(tree, root)) {
        let entry = &entries[position];
        (
            &entry.id,
            entry.entry_type.as_str(),
            entry.status.as_str(),
            &entry.title,
            &entry.created_at,
            &entry.updated_at,
            &entry.parent,
            &entry.supersedes,
            &entry.depends_on,
            &entry.related,
        )
            .hash(&mut hasher);
    }
    // Supersession from outside the subtree changes what is open inside it.
    for entry in entries.iter().filter(|entry| entry.status == EntryStatus::Active) {
        if !entry.supersedes.is_empty() {
            (&entry.id, &entry.supersedes).hash(&mut hasher);
        }
    }
    hasher.finish()
}

/// The active phases (placed in the tree, under active plans) whose completeness is below 1,
/// least complete first (then in the entries' order), with their scores (`scores` are
/// [`plan_completeness`]'s).
pub fn open_phases(
    entries: &[Entry],
    tree: &ResearchTree,
    scores: &HashMap<usize, f64>,
) -> Vec<(usize, f64)> {
    let parent_of = |position: usize| {
        entries[position]
            .parent
            .as_deref()
            .and_then(|parent| entries.iter().position(|entry| entry.id == parent))
    };
    let mut open: Vec<(usize, f64)> = tree
        .levels
        .iter()
        .filter(|(_, level)| **level == PlanLevel::Phase)
        .map(|(&position, _)| (position, scores.get(&position).copied().unwrap_or(0.0)))
        .filter(|(position, score)| {
            let mut chain_active = entries[*position].status == EntryStatus::Active;
            let mut up = parent_of(*position);
            while let (true, Some(parent)) = (chain_active, up) {
                chain_active = entries[parent].status == EntryStatus::Active;
                up = parent_of(parent);
            }
            chain_active && *score < 1.0
        })
        .collect();
    open.sort_by(|(a, a_score), (b, b_score)| a_score.total_cmp(b_score).then_with(|| a.cmp(b)));
    open
}

#[cfg(test)]
#[path = "plan_brief_tests.rs"]
mod tests;
