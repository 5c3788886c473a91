//! The reverse walk of a blast: breadth first from the seeds over the dependency edges (and
//! from an override to the base method whose calls may dispatch to it), keeping for each
//! symbol reached its distance, the best path's confidence and whether an uncertain edge lies
//! on it. It goes on past the depth (without listing) so that every test reached counts.

use std::collections::VecDeque;

use rustc_hash::FxHashMap as HashMap;

use tether_model::{Cancelled, Deadline, DeadlineTicker, EdgeKind};

use crate::neighbours::is_uncertain;
use crate::snapshot::{Snapshot, SymbolIndex};

/// What a dependent depends through. REFERENCES (the symbol used as a value: its receiver
/// may call it) is always uncertain, so what it reaches is `maybe`.
const DEPENDENCY_EDGES: [EdgeKind; 5] = [
    EdgeKind::Calls,
    EdgeKind::Imports,
    EdgeKind::Inherits,
    EdgeKind::Implements,
    EdgeKind::References,
];

/// The confidence of a dispatch from a base method's call to an override.
const OVERRIDE_CONFIDENCE: f32 = 0.5;

/// How a symbol was first reached.
pub(crate) struct Reached {
    pub(crate) distance: u32,
    pub(crate) previous: Option<SymbolIndex>,
    pub(crate) edge_kind: EdgeKind,
    pub(crate) site_line: u32,
    pub(crate) confidence: f32,
    pub(crate) uncertain: bool,
}

/// What the walk found.
pub(crate) struct Walk {
    pub(crate) reached: HashMap<SymbolIndex, Reached>,
    /// Uncertain edges walked within the depth.
    pub(crate) uncertain_edges: usize,
    /// Modules whose import-time code (top level, class bodies) calls what was reached, with
    /// the distance of that code.
    pub(crate) import_time: HashMap<SymbolIndex, u32>,
    /// Symbols at the depth limit with dependents beyond it.
    pub(crate) frontier_with_more: usize,
}

impl Walk {
    /// Reaches `dependent` by `candidate`: the first time, or again at the same distance
    /// with more confidence. Whether it was new (and is to be walked from).
    fn offer(&mut self, dependent: SymbolIndex, candidate: Reached) -> bool {
        match self.reached.get(&dependent) {
            None => {
                self.reached.insert(dependent, candidate);
                true
            }
            Some(existing)
                if existing.distance == candidate.distance
                    && existing.confidence < candidate.confidence =>
            {
                self.reached.insert(dependent, candidate);
                false
            }
            Some(_) => false,
        }
    }
}

impl Snapshot {
    pub(crate) fn walk_dependents(
        &self,
        seeds: &[SymbolIndex],
        depth: u32,
        deadline: Deadline,
    ) -> Result<Walk, Cancelled> {
        let mut ticker = DeadlineTicker::new(deadline, 1024);
        let mut walk = Walk {
            reached: HashMap::default(),
            uncertain_edges: 0,
            import_time: HashMap::default(),
            frontier_with_more: 0,
        };
        let mut queue: VecDeque<SymbolIndex> = VecDeque::new();
        for seed in seeds {
            let start = Reached {
                distance: 0,
                previous: None,
                edge_kind: EdgeKind::Contains,
                site_line: 0,
                confidence: 1.0,
                uncertain: false,
            };
            walk.reached.insert(*seed, start);
            queue.push_back(*seed);
        }
        while let Some(current) = queue.pop_front() {
            ticker.tick()?;
            let before = queue.len();
            self.reach_dependents(&mut walk, current, depth, &mut queue);
            self.reach_overridden(&mut walk, current, depth, &mut queue);
            if walk.reached[&current].distance == depth && queue.len() > before {
                walk.frontier_with_more += 1;
            }
        }
        Ok(walk)
    }

    /// One step from `current` over its incoming dependency edges.
    fn reach_dependents(
        &self,
        walk: &mut Walk,
        current: SymbolIndex,
        depth: u32,
        queue: &mut VecDeque<SymbolIndex>,
    ) {
        let (distance, confidence, uncertain) = {
            let state = &walk.reached[&current];
            (state.distance, state.confidence, state.uncertain)
        };
        for edge in self.incoming(current, &DEPENDENCY_EDGES) {
            let dependent = edge.source;
            // Code that runs (a function reached by certain edges, not a class or a value
            // passed along) called at import time runs the change when its module loads.
            if edge.edge.kind == EdgeKind::Calls
                && !uncertain
                && !is_uncertain(edge.edge.rule)
                && self.symbol(current).kind.is_callable()
            {
                if let Some(module) = self.import_time_module(dependent) {
                    walk.import_time.entry(module).or_insert(distance + 1);
                }
            }
            let edge_uncertain =
                is_uncertain(edge.edge.rule) || edge.edge.kind == EdgeKind::References;
            if edge_uncertain && distance < depth {
                walk.uncertain_edges += 1;
            }
            let candidate = Reached {
                distance: distance + 1,
                previous: Some(current),
                edge_kind: edge.edge.kind,
                site_line: edge.edge.line,
                confidence: confidence * edge.edge.confidence,
                uncertain: uncertain || edge_uncertain,
            };
            if walk.offer(dependent, candidate) {
                queue.push_back(dependent);
            }
        }
    }

    /// A call through a base's method (`self.save()` in the base, a base-typed value) may
    /// dispatch to this override: the base method's callers depend on it too.
    fn reach_overridden(
        &self,
        walk: &mut Walk,
        current: SymbolIndex,
        depth: u32,
        queue: &mut VecDeque<SymbolIndex>,
    ) {
        let (distance, confidence) = {
            let state = &walk.reached[&current];
            (state.distance, state.confidence)
        };
        for overridden in self.overridden_methods(current) {
            if walk.reached.contains_key(&overridden) {
                continue;
            }
            if distance < depth {
                walk.uncertain_edges += 1;
            }
            let candidate = Reached {
                distance: distance + 1,
                previous: Some(current),
                edge_kind: EdgeKind::Inherits,
                // A line of the base method's own file (the override may be in another).
                site_line: self.symbol(overridden).span.start_line,
                confidence: confidence * OVERRIDE_CONFIDENCE,
                uncertain: true,
            };
            walk.reached.insert(overridden, candidate);
            queue.push_back(overridden);
        }
    }
}
