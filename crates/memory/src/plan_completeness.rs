//! How complete a plan node is, a number in [0, 1] (issue 45). A leaf phase blends three
//! signals read from its active entries; a container (a subproject or the project) is the
//! mean of its leaf phases, reached through active plans only. The weights and the rules
//! are data: `data/completeness_weights.txt`, read once, documented there.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::entry::{Entry, EntryStatus, EntryType};
use crate::research_tree::{PlanLevel, ResearchTree};

/// The weights of a leaf phase's signals (they sum to 1).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct CompletenessWeights {
    pub concluding_checkpoint: f64,
    pub resolved_threads: f64,
    pub type_balance: f64,
}

const WEIGHTS_FILE: &str = include_str!("../data/completeness_weights.txt");

/// The weights `data/completeness_weights.txt` gives (a test checks the file reads whole).
pub fn completeness_weights() -> CompletenessWeights {
    static WEIGHTS: OnceLock<CompletenessWeights> = OnceLock::new();
    *WEIGHTS.get_or_init(|| {
        parse_weights(WEIGHTS_FILE).expect("data/completeness_weights.txt reads (tested)")
    })
}

fn parse_weights(text: &str) -> Result<CompletenessWeights, String> {
    let mut weights = HashMap::new();
    for line in
        text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
    {
        let (name, value) = line.split_once(' ').ok_or_else(|| format!("`{line}`: no weight"))?;
        let value: f64 = value.trim().parse().map_err(|_| format!("`{line}`: not a number"))?;
        weights.insert(name.to_string(), value);
    }
    let take = |name: &str| weights.get(name).copied().ok_or_else(|| format!("no `{name}`"));
    let parsed = CompletenessWeights {
        concluding_checkpoint: take("concluding_checkpoint")?,
        resolved_threads: take("resolved_threads")?,
        type_balance: take("type_balance")?,
    };
    let sum = parsed.concluding_checkpoint + parsed.resolved_threads + parsed.type_balance;
    if (sum - 1.0).abs() > 1e-9 || weights.len() != 3 {
        return Err(format!("the three weights must sum to 1 (they sum to {sum})"));
    }
    Ok(parsed)
}

/// A leaf phase's signals, each in [0, 1].
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct PhaseSignals {
    pub concluding_checkpoint: f64,
    pub resolved_threads: f64,
    pub type_balance: f64,
    /// Active entries read.
    pub active_entries: usize,
}

impl PhaseSignals {
    pub fn score(&self, weights: &CompletenessWeights) -> f64 {
        if self.active_entries == 0 {
            return 0.0;
        }
        weights.concluding_checkpoint * self.concluding_checkpoint
            + weights.resolved_threads * self.resolved_threads
            + weights.type_balance * self.type_balance
    }
}

/// The signals of the phase at `phase` (a position in `entries`): its active entries,
/// descending through active entries below it.
pub fn phase_signals(entries: &[Entry], tree: &ResearchTree, phase: usize) -> PhaseSignals {
    phase_signals_with(entries, tree, phase, &superseded_by_active(entries))
}

/// The ids some active entry supersedes.
fn superseded_by_active(entries: &[Entry]) -> HashSet<&str> {
    entries
        .iter()
        .filter(|entry| entry.status == EntryStatus::Active)
        .flat_map(|entry| entry.supersedes.iter().map(String::as_str))
        .collect()
}

fn phase_signals_with(
    entries: &[Entry],
    tree: &ResearchTree,
    phase: usize,
    superseded_by_active: &HashSet<&str>,
) -> PhaseSignals {
    let is_active = |position: usize| entries[position].status == EntryStatus::Active;
    let mut active = Vec::new();
    let mut stack: Vec<usize> = tree.children_of(phase).to_vec();
    let mut seen = HashSet::new();
    while let Some(position) = stack.pop() {
        if !seen.insert(position) || !is_active(position) {
            continue;
        }
        if entries[position].entry_type == EntryType::Plan {
            continue; // a plan under a phase breaks the levels; not read here
        }
        active.push(&entries[position]);
        stack.extend_from_slice(tree.children_of(position));
    }
    let count = |types: &[EntryType]| {
        active.iter().filter(|entry| types.contains(&entry.entry_type)).count()
    };
    let threads: Vec<&&Entry> = active
        .iter()
        .filter(|entry| matches!(entry.entry_type, EntryType::Todo | EntryType::Experiment))
        .collect();
    let resolved =
        threads.iter().filter(|entry| superseded_by_active.contains(entry.id.as_str())).count();
    let open_todos = active
        .iter()
        .filter(|entry| entry.entry_type == EntryType::Todo)
        .filter(|entry| !superseded_by_active.contains(entry.id.as_str()))
        .count();
    let settled = count(&[EntryType::Decision, EntryType::Experiment, EntryType::Checkpoint]);
    PhaseSignals {
        concluding_checkpoint: if count(&[EntryType::Checkpoint]) > 0 { 1.0 } else { 0.0 },
        resolved_threads: if threads.is_empty() {
            1.0
        } else {
            resolved as f64 / threads.len() as f64
        },
        type_balance: if settled + open_todos == 0 {
            0.0
        } else {
            settled as f64 / (settled + open_todos) as f64
        },
        active_entries: active.len(),
    }
}

/// The mean of leaf phases' scores; none gives 0.
pub fn mean_of_leaves(scores: &[f64]) -> f64 {
    if scores.is_empty() {
        0.0
    } else {
        scores.iter().sum::<f64>() / scores.len() as f64
    }
}

/// Every placed plan's completeness, by position: a phase its own score, a container the
/// mean of the leaf phases below it through active plans. Each phase is scored once.
pub fn plan_completeness(entries: &[Entry], tree: &ResearchTree) -> HashMap<usize, f64> {
    let weights = completeness_weights();
    let superseded = superseded_by_active(entries);
    let mut scores: HashMap<usize, f64> = tree
        .levels
        .iter()
        .filter(|(_, level)| **level == PlanLevel::Phase)
        .map(|(&phase, _)| {
            (phase, phase_signals_with(entries, tree, phase, &superseded).score(&weights))
        })
        .collect();
    for (&plan, &level) in &tree.levels {
        if level != PlanLevel::Phase {
            let leaves: Vec<f64> = leaf_phases_below(entries, tree, plan)
                .into_iter()
                .map(|phase| scores.get(&phase).copied().unwrap_or(0.0))
                .collect();
            scores.insert(plan, mean_of_leaves(&leaves));
        }
    }
    scores
}

/// The phases below a container, through active plans only.
fn leaf_phases_below(entries: &[Entry], tree: &ResearchTree, container: usize) -> Vec<usize> {
    let mut phases = Vec::new();
    let mut stack = vec![container];
    while let Some(plan) = stack.pop() {
        for &child in tree.children_of(plan) {
            let entry = &entries[child];
            if entry.entry_type != EntryType::Plan || entry.status != EntryStatus::Active {
                continue;
            }
            match tree.levels.get(&child) {
                Some(PlanLevel::Phase) => phases.push(child),
                Some(_) => stack.push(child),
                None => {}
            }
        }
    }
    phases.sort_unstable();
    phases
}

#[cfg(test)]
#[path = "plan_completeness_tests.rs"]
mod tests;
