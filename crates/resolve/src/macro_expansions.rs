//! What a macro invocation runs: an invocation of a project `macro_rules!` calls what the
//! macro's expansion calls (the calls written in its rules' right sides, extraction's
//! "calls of the macro"), from the invocation's caller and line, through the macros the
//! expansion invokes in turn.
//!
//! It deliberately does not substitute metavariables (a call whose name an invocation passes
//! is not followed), and adds no edges for a macro whose expansion reaches more than
//! [`MAX_EXPANSION_TARGETS`] targets: the invocation's edge to the macro still leads there.

use std::collections::{BTreeSet, HashSet};

use rustc_hash::FxHashMap as HashMap;
use tether_model::{Edge, EdgeKind, ResolutionRule, SymbolId, SymbolKind};

use crate::resolver::Resolver;

/// Rounds of macros invoking macros followed.
const MAX_NESTED_MACROS: usize = 4;

/// A macro whose expansion reaches more targets than this gets no expansion edges.
const MAX_EXPANSION_TARGETS: usize = 32;

impl Resolver<'_> {
    /// The CALLS edges from each invocation of a project macro to the project symbols its
    /// expansion calls (outside targets, `panic!` or `Ok`, say nothing about what breaks).
    /// An invocation in item position (from a module, which runs no code) writes items, whose
    /// own edges say what they call, and gets none.
    pub(crate) fn macro_expansion_edges(&self, edges: &[Edge]) -> Vec<Edge> {
        macro_expansion_edges(
            edges,
            |id| {
                self.index
                    .sym_of(id)
                    .is_some_and(|sym| self.index.symbol(sym).kind == SymbolKind::Module)
            },
            |id| self.index.sym_of(id).is_some(),
        )
    }
}

fn macro_expansion_edges(
    edges: &[Edge],
    is_module: impl Fn(SymbolId) -> bool,
    is_project: impl Fn(SymbolId) -> bool,
) -> Vec<Edge> {
    let invocations: Vec<&Edge> = edges
        .iter()
        .filter(|edge| {
            edge.kind == EdgeKind::Calls
                && edge.rule == ResolutionRule::Macro
                && is_project(edge.target)
        })
        .collect();
    let macros: HashSet<SymbolId> = invocations.iter().map(|edge| edge.target).collect();
    if macros.is_empty() {
        return Vec::new();
    }
    let mut expansion: HashMap<SymbolId, BTreeSet<SymbolId>> = HashMap::default();
    for edge in edges {
        if edge.kind == EdgeKind::Calls && macros.contains(&edge.source) && is_project(edge.target)
        {
            expansion.entry(edge.source).or_default().insert(edge.target);
        }
    }
    for _ in 0..MAX_NESTED_MACROS {
        let mut changed = false;
        let sources: Vec<SymbolId> = expansion.keys().copied().collect();
        for source in sources {
            let nested: Vec<SymbolId> = expansion[&source]
                .iter()
                .filter(|target| **target != source)
                .filter_map(|target| expansion.get(target))
                .flatten()
                .copied()
                .collect();
            let targets = expansion.get_mut(&source).expect("a key of the map");
            for target in nested {
                changed |= target != source && targets.insert(target);
            }
        }
        if !changed {
            break;
        }
    }
    let existing: HashSet<(SymbolId, SymbolId, u32)> = edges
        .iter()
        .filter(|edge| edge.kind == EdgeKind::Calls)
        .map(|edge| (edge.source, edge.target, edge.line))
        .collect();
    let mut added = HashSet::new();
    let mut expanded = Vec::new();
    for invocation in invocations {
        if is_module(invocation.source) {
            continue;
        }
        let Some(targets) = expansion.get(&invocation.target) else { continue };
        if targets.len() > MAX_EXPANSION_TARGETS {
            continue;
        }
        for target in targets {
            let key = (invocation.source, *target, invocation.line);
            if *target == invocation.source || existing.contains(&key) || !added.insert(key) {
                continue;
            }
            expanded.push(Edge {
                kind: EdgeKind::Calls,
                source: invocation.source,
                target: *target,
                line: invocation.line,
                confidence: ResolutionRule::Macro.confidence(),
                rule: ResolutionRule::Macro,
            });
        }
    }
    expanded
}
