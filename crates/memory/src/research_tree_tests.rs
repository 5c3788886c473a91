//! Tests of the research tree's levels: the project, subprojects and phases, and what
//! breaks them (a second root, a plan under a phase or under a non-plan, a missing parent).

use super::*;
use crate::entry::EntryStatus;
use crate::test_support::sample_entry;

fn under(id: &str, entry_type: EntryType, parent: Option<&str>) -> Entry {
    Entry { parent: parent.map(str::to_string), ..sample_entry(id, entry_type) }
}

fn shape() -> Vec<Entry> {
    vec![
        under("project", EntryType::Plan, None),
        under("parser", EntryType::Plan, Some("project")),
        under("tokens", EntryType::Plan, Some("parser")),
        under("use-regex", EntryType::Decision, Some("tokens")),
        under("loose-note", EntryType::Note, None),
    ]
}

#[test]
fn plans_take_their_level_from_their_place() {
    let entries = shape();
    let tree = research_tree(&entries);
    assert_eq!(tree.project, Some(0));
    assert_eq!(tree.levels.get(&1), Some(&PlanLevel::Subproject));
    assert_eq!(tree.levels.get(&2), Some(&PlanLevel::Phase));
    assert_eq!(tree.children_of(2), &[3]);
    assert_eq!(tree.roots, vec![0, 4]);
    assert!(tree.problems.is_empty(), "{:?}", tree.problems);
}

#[test]
fn broken_levels_are_problems_and_the_rest_still_places() {
    let mut entries = shape();
    entries.push(under("second-root", EntryType::Plan, None));
    entries.push(under("too-deep", EntryType::Plan, Some("tokens")));
    entries.push(under("under-a-decision", EntryType::Plan, Some("use-regex")));
    entries.push(under("orphan", EntryType::Todo, Some("ghost")));
    let tree = research_tree(&entries);
    let problems: Vec<String> =
        tree.problems.iter().map(|(id, problem)| format!("{id}: {problem}")).collect();
    assert_eq!(
        problems,
        [
            "second-root: a second root plan: the project is `project`; a plan goes under it",
            "too-deep: a plan under the phase `tokens`: phases hold no plans",
            "under-a-decision: a plan under an entry that is not a plan (or in a cycle): plans go under plans",
            "orphan: its parent `ghost` is not an entry",
        ]
    );
    assert_eq!(tree.levels.get(&2), Some(&PlanLevel::Phase));
}

#[test]
fn record_keeps_the_levels() {
    let entries = shape();
    assert_eq!(
        check_new_parent(&entries, EntryType::Plan, None).unwrap_err(),
        "the project is `project` already: give a plan a parent (the project, or a subproject)"
    );
    assert_eq!(
        check_new_parent(&entries, EntryType::Plan, Some("tokens")).unwrap_err(),
        "`tokens` is a phase: phases hold no plans"
    );
    assert_eq!(
        check_new_parent(&entries, EntryType::Plan, Some("use-regex")).unwrap_err(),
        "`use-regex` is a decision: a plan goes under the project or a subproject"
    );
    assert_eq!(
        check_new_parent(&entries, EntryType::Todo, Some("ghost")).unwrap_err(),
        "parent `ghost` is not an entry"
    );
    assert!(check_new_parent(&entries, EntryType::Plan, Some("parser")).is_ok());
    assert!(check_new_parent(&entries, EntryType::Todo, Some("use-regex")).is_ok());
    assert!(check_new_parent(&entries, EntryType::Note, None).is_ok());
    assert!(check_new_parent(&[], EntryType::Plan, None).is_ok(), "the first plan is the project");
    let discarded = Entry { status: EntryStatus::Discarded, ..under("p", EntryType::Plan, None) };
    assert!(check_new_parent(&[discarded], EntryType::Plan, None).is_err());
}
