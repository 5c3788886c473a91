//! [`trace_recheck`] (issue 44): whether a premise a trace or entry rests on, through
//! `depends_on` directly or transitively, has since been superseded or resolved, so the
//! conclusion should be looked at again; `Unknown`, never `Fine`, when that cannot be told.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::entry::Entry;
use crate::trace::Trace;

/// What changed a premise.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PremiseChange {
    /// The premise is listed in the `supersedes` of trace (or active entry) `by`.
    Superseded { by: String },
    /// The premise is listed in the `resolves` of trace `by`.
    Resolved { by: String },
}

/// Why [`trace_recheck`] cannot tell whether a conclusion still holds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum UnknownReason {
    /// `id` is asked about or named in a `depends_on` but is neither a trace nor an entry.
    MissingPremise { id: String },
    /// The `depends_on` links loop back on themselves.
    Cycle,
    /// The walk stopped after visiting `visited` premises (the budget) with some left.
    BudgetExhausted { visited: usize },
}

/// The answer of [`trace_recheck`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TraceRecheck {
    /// Every premise was visited and none has been superseded or resolved.
    Fine,
    /// Ids from the conclusion, through its `depends_on` chain, to the changed premise:
    /// e.g. `[conclusion, middle, premise]`; `change` says what changed the premise.
    NeedsRecheck { path: Vec<String>, change: PremiseChange },
    /// The answer cannot be known. `path` is the walk from the conclusion to where it broke
    /// off: the missing id, the id closing the cycle (repeated), or the last premise visited.
    Unknown { reason: UnknownReason, path: Vec<String> },
}

/// Decides whether trace or entry `id` needs a recheck: a premise it depends on, directly or
/// through a chain of `depends_on` across traces and entries, is changed: listed in the
/// `supersedes` or `resolves` of another trace or, for an entry premise, in the `supersedes`
/// of another active entry (discarded entries no longer hold, as in [`crate::needs_recheck`]).
/// `id` itself being superseded does not count: the answer is about its premises.
///
/// Premises are searched breadth first, each one's `depends_on` in written order, so the
/// path reported is a shortest one (the first written among equals); at most `budget`
/// premises are visited (`id` not counted). A premise changed by several reports the first
/// trace naming it (its `supersedes` before its `resolves`), else the first active entry.
/// A definite [`TraceRecheck::NeedsRecheck`] beats any unknown on another branch; else the
/// first missing premise met is reported, then a `depends_on` cycle among the premises
/// visited, then an exhausted budget; only a complete walk is [`TraceRecheck::Fine`].
/// When ids are shared, the first trace with the id, else the first entry, counts.
pub fn trace_recheck(traces: &[Trace], entries: &[Entry], id: &str, budget: usize) -> TraceRecheck {
    let premises = PremiseGraph::new(traces, entries);
    let Some(start_id) = premises.known_id(id) else {
        let reason = UnknownReason::MissingPremise { id: id.to_string() };
        return TraceRecheck::Unknown { reason, path: vec![id.to_string()] };
    };
    let walk = match BreadthFirstWalk::run(&premises, start_id, budget) {
        Ok(walk) => walk,
        Err(needs_recheck) => return needs_recheck,
    };
    if let Some(missing_index) = walk.first_missing {
        let path = walk.path_to(missing_index);
        let id = path.last().cloned().unwrap_or_default();
        return TraceRecheck::Unknown { reason: UnknownReason::MissingPremise { id }, path };
    }
    if let Some(path) = find_dependency_cycle(&premises, start_id, &walk.expanded_ids) {
        return TraceRecheck::Unknown { reason: UnknownReason::Cycle, path };
    }
    if let Some(visited) = walk.budget_exhausted_after {
        let reason = UnknownReason::BudgetExhausted { visited };
        return TraceRecheck::Unknown { reason, path: walk.path_to(visited) };
    }
    TraceRecheck::Fine
}

/// The traces and entries as one `depends_on` graph, with each premise's change; one per call.
struct PremiseGraph<'a> {
    /// Every known id's `depends_on`: the first trace's with that id, else the first entry's.
    depends_on_by_id: HashMap<&'a str, &'a [String]>,
    /// The change reported for each changed premise.
    change_by_premise_id: HashMap<&'a str, PremiseChange>,
}

impl<'a> PremiseGraph<'a> {
    fn new(traces: &'a [Trace], entries: &'a [Entry]) -> PremiseGraph<'a> {
        let mut depends_on_by_id: HashMap<&'a str, &'a [String]> = HashMap::new();
        let mut entry_premise_ids: HashSet<&'a str> = HashSet::new();
        for trace in traces {
            depends_on_by_id.entry(trace.id.as_str()).or_insert(trace.depends_on.as_slice());
        }
        for entry in entries {
            if !depends_on_by_id.contains_key(entry.id.as_str()) {
                depends_on_by_id.insert(entry.id.as_str(), entry.depends_on.as_slice());
                entry_premise_ids.insert(entry.id.as_str());
            }
        }
        let mut change_by_premise_id: HashMap<&'a str, PremiseChange> = HashMap::new();
        let mut note_change = |premise_id: &'a String, change: PremiseChange| {
            change_by_premise_id.entry(premise_id.as_str()).or_insert(change);
        };
        for trace in traces {
            for superseded_id in trace.supersedes.iter().filter(|listed| **listed != trace.id) {
                note_change(superseded_id, PremiseChange::Superseded { by: trace.id.clone() });
            }
            for resolved_id in trace.resolves.iter().filter(|listed| **listed != trace.id) {
                note_change(resolved_id, PremiseChange::Resolved { by: trace.id.clone() });
            }
        }
        for entry in entries.iter().filter(|entry| entry.is_active()) {
            for superseded_id in entry.supersedes.iter().filter(|listed| **listed != entry.id) {
                if entry_premise_ids.contains(superseded_id.as_str()) {
                    note_change(superseded_id, PremiseChange::Superseded { by: entry.id.clone() });
                }
            }
        }
        PremiseGraph { depends_on_by_id, change_by_premise_id }
    }

    /// `id` as stored in the graph, when a trace or entry has it.
    fn known_id(&self, id: &str) -> Option<&'a str> {
        self.depends_on_by_id.get_key_value(id).map(|(known_id, _)| *known_id)
    }

    /// The premises `id` depends on, in written order; empty for an unknown id.
    fn depends_on_of(&self, id: &str) -> &'a [String] {
        self.depends_on_by_id.get(id).copied().unwrap_or(&[])
    }
}

/// A premise reached by the breadth-first walk, and the walked premise it was reached from.
struct WalkedPremise<'a> {
    id: &'a str,
    reached_from: Option<usize>,
}

/// What a breadth-first walk that found no changed premise saw.
struct BreadthFirstWalk<'a> {
    /// Every id reached, the conclusion first (index 0).
    walked_premises: Vec<WalkedPremise<'a>>,
    /// Ids whose `depends_on` were followed: the conclusion and each known premise visited.
    expanded_ids: HashSet<&'a str>,
    /// The first premise visited that is neither a trace nor an entry.
    first_missing: Option<usize>,
    /// When premises were left unvisited for lack of budget: how many were visited.
    budget_exhausted_after: Option<usize>,
}

impl<'a> BreadthFirstWalk<'a> {
    /// Walks the premises of `start_id` breadth first; `Err` carries the
    /// [`TraceRecheck::NeedsRecheck`] answer for the first changed premise visited.
    fn run(
        premises: &PremiseGraph<'a>,
        start_id: &'a str,
        budget: usize,
    ) -> Result<Self, TraceRecheck> {
        let mut walk = BreadthFirstWalk {
            walked_premises: vec![WalkedPremise { id: start_id, reached_from: None }],
            expanded_ids: HashSet::new(),
            first_missing: None,
            budget_exhausted_after: None,
        };
        let mut reached_ids: HashSet<&'a str> = HashSet::from([start_id]);
        // Each premise to visit: its index in `walked_premises`, and its id.
        let mut premises_to_visit: VecDeque<(usize, &'a str)> = VecDeque::from([(0, start_id)]);
        while let Some((premise_index, premise_id)) = premises_to_visit.pop_front() {
            // Index 0 is the conclusion: only its premises are checked and counted. They are
            // visited in index order, so `premise_index - 1` premises were visited before.
            if premise_index > 0 {
                if premise_index > budget {
                    walk.budget_exhausted_after = Some(premise_index - 1);
                    break;
                }
                if let Some(change) = premises.change_by_premise_id.get(premise_id) {
                    let path = walk.path_to(premise_index);
                    return Err(TraceRecheck::NeedsRecheck { path, change: change.clone() });
                }
                if premises.known_id(premise_id).is_none() {
                    walk.first_missing.get_or_insert(premise_index);
                    continue;
                }
            }
            walk.expanded_ids.insert(premise_id);
            for dependency_id in premises.depends_on_of(premise_id).iter().map(String::as_str) {
                if reached_ids.insert(dependency_id) {
                    premises_to_visit.push_back((walk.walked_premises.len(), dependency_id));
                    let reached_from = Some(premise_index);
                    walk.walked_premises.push(WalkedPremise { id: dependency_id, reached_from });
                }
            }
        }
        Ok(walk)
    }

    /// The ids from the conclusion to the walked premise at `premise_index`.
    fn path_to(&self, premise_index: usize) -> Vec<String> {
        let walked_back =
            std::iter::successors(self.walked_premises.get(premise_index), |walked| {
                walked.reached_from.and_then(|index| self.walked_premises.get(index))
            });
        let mut path: Vec<String> = walked_back.map(|walked| walked.id.to_string()).collect();
        path.reverse();
        path
    }
}

/// A `depends_on` cycle among `expanded_ids`, searched depth first from `start_id` in
/// written order: the ids from `start_id` to where the cycle closes, the repeated id last.
/// Needed besides the breadth-first walk, which skips ids it has already reached.
fn find_dependency_cycle<'a>(
    premises: &PremiseGraph<'a>,
    start_id: &'a str,
    expanded_ids: &HashSet<&'a str>,
) -> Option<Vec<String>> {
    let mut fully_searched_ids: HashSet<&'a str> = HashSet::new();
    let mut ids_on_path: HashSet<&'a str> = HashSet::from([start_id]);
    // Each id on the current path, with the index of its next dependency to follow.
    let mut path_stack: Vec<(&'a str, usize)> = vec![(start_id, 0)];
    while let Some(&mut (premise_id, ref mut next_dependency_index)) = path_stack.last_mut() {
        let dependency_id = premises.depends_on_of(premise_id).get(*next_dependency_index);
        *next_dependency_index += 1;
        let Some(dependency_id) = dependency_id.map(String::as_str) else {
            path_stack.pop();
            ids_on_path.remove(premise_id);
            fully_searched_ids.insert(premise_id);
            continue;
        };
        if ids_on_path.contains(dependency_id) {
            let mut cycle_path: Vec<String> =
                path_stack.iter().map(|(on_path_id, _)| on_path_id.to_string()).collect();
            cycle_path.push(dependency_id.to_string());
            return Some(cycle_path);
        }
        if fully_searched_ids.contains(dependency_id) || !expanded_ids.contains(dependency_id) {
            continue;
        }
        ids_on_path.insert(dependency_id);
        path_stack.push((dependency_id, 0));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{EntryStatus, EntryType};
    use crate::test_support::{sample_entry, with_links};

    fn ids(listed: &[&str]) -> Vec<String> {
        listed.iter().map(|id| id.to_string()).collect()
    }

    fn trace(id: &str, depends_on: &[&str]) -> Trace {
        let plain = crate::test_support::sample_trace(id, "a subject", "2026-12-07T10:00:00Z");
        Trace { depends_on: ids(depends_on), ..plain }
    }

    fn superseding(id: &str, superseded: &[&str]) -> Trace {
        Trace { supersedes: ids(superseded), ..trace(id, &[]) }
    }

    fn entry(id: &str, supersedes: &[&str], depends_on: &[&str]) -> Entry {
        with_links(sample_entry(id, EntryType::Decision), supersedes, depends_on)
    }

    fn superseded(path: &[&str], by: &str) -> TraceRecheck {
        let change = PremiseChange::Superseded { by: by.to_string() };
        TraceRecheck::NeedsRecheck { path: ids(path), change }
    }

    fn unknown(reason: UnknownReason, path: &[&str]) -> TraceRecheck {
        TraceRecheck::Unknown { reason, path: ids(path) }
    }

    /// `conclusion → middle → premise`, with `premise` superseded by `newer`.
    fn chain_of_three() -> [Trace; 4] {
        let (conclusion, middle) =
            (trace("conclusion", &["middle"]), trace("middle", &["premise"]));
        [conclusion, middle, trace("premise", &[]), superseding("newer", &["premise"])]
    }

    #[test]
    fn a_directly_superseded_premise_needs_a_recheck() {
        let expected = superseded(&["middle", "premise"], "newer");
        assert_eq!(trace_recheck(&chain_of_three(), &[], "middle", 1), expected);
    }

    #[test]
    fn a_chain_of_three_reports_the_full_path() {
        let expected = superseded(&["conclusion", "middle", "premise"], "newer");
        assert_eq!(trace_recheck(&chain_of_three(), &[], "conclusion", 2), expected);
        assert_eq!(trace_recheck(&chain_of_three(), &[], "conclusion", 1000), expected);
    }

    #[test]
    fn a_resolved_premise_needs_a_recheck() {
        let settled = Trace { resolves: ids(&["premise", "rival"]), ..trace("settled", &[]) };
        let traces = [trace("conclusion", &["premise"]), trace("premise", &[]), settled];
        let change = PremiseChange::Resolved { by: "settled".to_string() };
        let expected = TraceRecheck::NeedsRecheck { path: ids(&["conclusion", "premise"]), change };
        assert_eq!(trace_recheck(&traces, &[], "conclusion", 10), expected);
    }

    #[test]
    fn a_missing_premise_or_conclusion_is_unknown() {
        let traces = [trace("conclusion", &["middle"]), trace("middle", &["ghost"])];
        let ghost = UnknownReason::MissingPremise { id: "ghost".to_string() };
        let expected = unknown(ghost, &["conclusion", "middle", "ghost"]);
        assert_eq!(trace_recheck(&traces, &[], "conclusion", 10), expected);
        let nowhere = UnknownReason::MissingPremise { id: "nowhere".to_string() };
        let expected = unknown(nowhere, &["nowhere"]);
        assert_eq!(trace_recheck(&traces, &[], "nowhere", 10), expected);
    }

    #[test]
    fn a_cycle_is_unknown_even_where_breadth_first_would_skip_it() {
        let cycle = |path: &[&str]| unknown(UnknownReason::Cycle, path);
        let traces = [trace("a", &["b"]), trace("b", &["a"])];
        assert_eq!(trace_recheck(&traces, &[], "a", 10), cycle(&["a", "b", "a"]));
        let traces = [trace("a", &["b", "c"]), trace("b", &["c"]), trace("c", &["b"])];
        assert_eq!(trace_recheck(&traces, &[], "a", 10), cycle(&["a", "b", "c", "b"]));
        let diamond =
            [trace("a", &["b", "c"]), trace("b", &["d"]), trace("c", &["d"]), trace("d", &[])];
        assert_eq!(trace_recheck(&diamond, &[], "a", 10), TraceRecheck::Fine);
    }

    #[test]
    fn a_walk_cut_by_its_budget_is_unknown() {
        let expected =
            unknown(UnknownReason::BudgetExhausted { visited: 1 }, &["conclusion", "middle"]);
        assert_eq!(trace_recheck(&chain_of_three(), &[], "conclusion", 1), expected);
    }

    #[test]
    fn an_entry_premise_superseded_by_an_active_entry_needs_a_recheck() {
        let traces = [trace("conclusion", &["decision"])];
        let entries = [entry("decision", &[], &[]), entry("better-decision", &["decision"], &[])];
        let expected = superseded(&["conclusion", "decision"], "better-decision");
        assert_eq!(trace_recheck(&traces, &entries, "conclusion", 10), expected);
        let mut discarded = entry("better-decision", &["decision"], &[]);
        discarded.status = EntryStatus::Discarded;
        let entries = [entry("decision", &[], &[]), discarded];
        assert_eq!(trace_recheck(&traces, &entries, "conclusion", 10), TraceRecheck::Fine);
    }

    #[test]
    fn fine_when_no_premise_changed_even_if_the_conclusion_did() {
        let traces = [
            trace("conclusion", &["middle"]),
            trace("middle", &["decision"]),
            superseding("newer", &["conclusion"]),
        ];
        let entries = [entry("decision", &[], &[])];
        assert_eq!(trace_recheck(&traces, &entries, "conclusion", 10), TraceRecheck::Fine);
        assert_eq!(trace_recheck(&traces, &entries, "middle", 1), TraceRecheck::Fine);
    }

    #[test]
    fn a_definite_change_on_the_shortest_path_beats_unknowns() {
        let traces = [
            trace("conclusion", &["ghost", "long", "short"]),
            trace("long", &["deep"]),
            trace("deep", &[]),
            trace("short", &["conclusion"]),
            superseding("newer", &["deep", "short"]),
        ];
        let expected = superseded(&["conclusion", "short"], "newer");
        assert_eq!(trace_recheck(&traces, &[], "conclusion", 10), expected);
    }
}
