//! The research tree (issue 45): one project per repository (the root plan), its plan
//! children the subprojects, theirs the phases; every other entry hangs under the most
//! specific plan node or entry it relates to (`parent`). [`research_tree`] reads the tree out
//! of the entries, reporting every entry that breaks a level as a problem (it still places
//! what it can); [`check_new_parent`] holds the levels a new entry must keep, for `record`.
//!
//! It deliberately scores nothing: completeness is `plan_completeness`'s.

use std::collections::HashMap;

use crate::entry::{Entry, EntryType};

/// Where a plan stands in the tree.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlanLevel {
    Project,
    Subproject,
    Phase,
}

impl PlanLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            PlanLevel::Project => "project",
            PlanLevel::Subproject => "subproject",
            PlanLevel::Phase => "phase",
        }
    }

    fn below(self) -> Option<PlanLevel> {
        match self {
            PlanLevel::Project => Some(PlanLevel::Subproject),
            PlanLevel::Subproject => Some(PlanLevel::Phase),
            PlanLevel::Phase => None,
        }
    }
}

/// The entries as a tree: each entry's children (by position in the entries, in their
/// order), the roots, the level of each placed plan, and what breaks the levels.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct ResearchTree {
    /// Entries without a parent (or whose parent is missing), in the entries' order.
    pub roots: Vec<usize>,
    pub children: HashMap<usize, Vec<usize>>,
    /// Each plan's level, by its position; plans that break a level have none.
    pub levels: HashMap<usize, PlanLevel>,
    /// The project: the first root plan.
    pub project: Option<usize>,
    /// `(entry id, what is wrong)`, in the entries' order.
    pub problems: Vec<(String, String)>,
}

impl ResearchTree {
    pub fn children_of(&self, position: usize) -> &[usize] {
        self.children.get(&position).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The tree of `entries` (see the module's doc).
pub fn research_tree(entries: &[Entry]) -> ResearchTree {
    let position_of: HashMap<&str, usize> =
        entries.iter().enumerate().map(|(position, entry)| (entry.id.as_str(), position)).collect();
    let mut tree = ResearchTree::default();
    for (position, entry) in entries.iter().enumerate() {
        match entry.parent.as_deref() {
            None => tree.roots.push(position),
            Some(parent) => match position_of.get(parent) {
                Some(&parent_position) if parent_position != position => {
                    tree.children.entry(parent_position).or_default().push(position)
                }
                _ => {
                    tree.problems
                        .push((entry.id.clone(), format!("its parent `{parent}` is not an entry")));
                    tree.roots.push(position);
                }
            },
        }
    }
    // Levels, from the project down; a plan in the wrong place gets none.
    for &root in &tree.roots {
        if entries[root].entry_type != EntryType::Plan {
            continue;
        }
        if entries[root].parent.is_some() {
            continue; // its parent is missing: reported above
        }
        match tree.project {
            None => tree.project = Some(root),
            Some(project) => {
                tree.problems.push((
                    entries[root].id.clone(),
                    format!(
                        "a second root plan: the project is `{}`; a plan goes under it",
                        entries[project].id
                    ),
                ));
                continue;
            }
        }
        let mut stack = vec![(root, PlanLevel::Project)];
        let mut seen = std::collections::HashSet::new();
        while let Some((plan, level)) = stack.pop() {
            if !seen.insert(plan) {
                continue;
            }
            tree.levels.insert(plan, level);
            for child in tree.children_of(plan).to_vec() {
                if entries[child].entry_type != EntryType::Plan {
                    continue;
                }
                match level.below() {
                    Some(below) => stack.push((child, below)),
                    None => tree.problems.push((
                        entries[child].id.clone(),
                        format!(
                            "a plan under the phase `{}`: phases hold no plans",
                            entries[plan].id
                        ),
                    )),
                }
            }
        }
    }
    // Plans under entries that are not plans: no level.
    for (position, entry) in entries.iter().enumerate() {
        let placed = tree.levels.contains_key(&position);
        let reported = tree.problems.iter().any(|(id, _)| *id == entry.id);
        if entry.entry_type == EntryType::Plan && !placed && !reported {
            tree.problems.push((
                entry.id.clone(),
                "a plan under an entry that is not a plan (or in a cycle): plans go under plans"
                    .to_string(),
            ));
        }
    }
    tree.problems.sort_by_key(|(id, _)| position_of.get(id.as_str()).copied());
    tree
}

/// Whether a new entry of `entry_type` may go under `parent` (an id), given the entries
/// there are: the parent must exist; a plan without a parent is the project, refused when
/// there is one; a plan goes under the project or a subproject only. Returns what is wrong.
pub fn check_new_parent(
    entries: &[Entry],
    entry_type: EntryType,
    parent: Option<&str>,
) -> Result<(), String> {
    let tree = research_tree(entries);
    let Some(parent) = parent else {
        if entry_type != EntryType::Plan {
            return Ok(());
        }
        return match tree.project {
            Some(project) => Err(format!(
                "the project is `{}` already: give a plan a parent (the project, or a subproject)",
                entries[project].id
            )),
            None => Ok(()),
        };
    };
    let Some(position) = entries.iter().position(|entry| entry.id == parent) else {
        return Err(format!("parent `{parent}` is not an entry"));
    };
    if entry_type != EntryType::Plan {
        return Ok(());
    }
    match (entries[position].entry_type, tree.levels.get(&position)) {
        (EntryType::Plan, Some(PlanLevel::Phase)) => {
            Err(format!("`{parent}` is a phase: phases hold no plans"))
        }
        (EntryType::Plan, Some(_)) => Ok(()),
        (EntryType::Plan, None) => {
            Err(format!("`{parent}` is a plan out of the tree (see the tree's problems)"))
        }
        (other, _) => Err(format!(
            "`{parent}` is a {}: a plan goes under the project or a subproject",
            other.as_str()
        )),
    }
}

#[cfg(test)]
#[path = "research_tree_tests.rs"]
mod tests;
