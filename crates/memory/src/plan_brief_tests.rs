//! Tests of briefs and open phases: the same score as `plan_completeness`, the concluding
//! checkpoint active only, centrality by links, a signature that moves with any change below.

use super::*;
use crate::plan_completeness::plan_completeness;
use crate::research_tree::research_tree;
use crate::test_support::sample_entry;

fn under(id: &str, entry_type: EntryType, parent: Option<&str>, at: &str) -> Entry {
    Entry {
        parent: parent.map(str::to_string),
        created_at: Some(at.to_string()),
        updated_at: Some(at.to_string()),
        ..sample_entry(id, entry_type)
    }
}

fn entries() -> Vec<Entry> {
    let mut decided =
        under("decided", EntryType::Decision, Some("phase-a"), "2026-12-02T00:00:00Z");
    decided.supersedes = vec!["tried".to_string()];
    let mut later = under("later-note", EntryType::Note, Some("phase-a"), "2026-12-05T00:00:00Z");
    later.related = vec!["decided".to_string()];
    vec![
        under("project", EntryType::Plan, None, "2026-12-01T00:00:00Z"),
        under("sub", EntryType::Plan, Some("project"), "2026-12-01T00:00:00Z"),
        under("phase-a", EntryType::Plan, Some("sub"), "2026-12-01T00:00:00Z"),
        under("tried", EntryType::Experiment, Some("phase-a"), "2026-12-01T12:00:00Z"),
        decided,
        Entry {
            status: EntryStatus::Discarded,
            ..under(
                "old-checkpoint",
                EntryType::Checkpoint,
                Some("phase-a"),
                "2026-12-06T00:00:00Z",
            )
        },
        later,
        under("phase-b", EntryType::Plan, Some("sub"), "2026-12-01T00:00:00Z"),
        under("open-todo", EntryType::Todo, Some("phase-b"), "2026-12-03T00:00:00Z"),
        under("done-phase", EntryType::Plan, Some("sub"), "2026-12-01T00:00:00Z"),
        under("concluded", EntryType::Checkpoint, Some("done-phase"), "2026-12-04T00:00:00Z"),
    ]
}

fn id(entries: &[Entry], position: usize) -> &str {
    &entries[position].id
}

#[test]
fn a_brief_summarises_a_subtree_with_the_same_score_as_the_tree() {
    let entries = entries();
    let tree = research_tree(&entries);
    let scores = plan_completeness(&entries, &tree);
    let phase = brief(&entries, &tree, &scores, 2);
    let children: Vec<&str> = phase.children.iter().map(|p| id(&entries, *p)).collect();
    assert_eq!(children, ["tried", "decided", "old-checkpoint", "later-note"]);
    assert_eq!(phase.concluding_checkpoint, None, "the only checkpoint is discarded");
    assert_eq!(
        phase.types_below.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>(),
        ["checkpoint 1", "decision 1", "experiment 1", "note 1"]
    );
    assert_eq!(phase.open_threads, 0, "the experiment is superseded by the decision");
    assert_eq!(phase.last_activity.as_deref(), Some("2026-12-06T00:00:00Z"));
    assert_eq!(phase.completeness, Some(scores[&2]));
    let central: Vec<&str> = phase.central.iter().map(|p| id(&entries, *p)).collect();
    assert_eq!(central, ["decided", "later-note", "tried"]);
    let project = brief(&entries, &tree, &scores, 0);
    assert_eq!(project.completeness, Some(scores[&0]));
    assert_eq!(project.concluding_checkpoint.map(|p| id(&entries, p)), Some("concluded"));
    assert_eq!(project.size, entries.len() - 1);
}

#[test]
fn open_phases_are_the_active_incomplete_ones_least_complete_first() {
    let mut entries = entries();
    let tree = research_tree(&entries);
    let open: Vec<(&str, f64)> = open_phases(&entries, &tree, &plan_completeness(&entries, &tree))
        .into_iter()
        .map(|(p, s)| (id(&entries, p), s))
        .collect();
    assert_eq!(open, [("phase-b", 0.0), ("phase-a", 0.5)]);
    entries[1].status = EntryStatus::Discarded; // the subproject
    let tree = research_tree(&entries);
    assert!(
        open_phases(&entries, &tree, &plan_completeness(&entries, &tree)).is_empty(),
        "phases under a discarded plan are not open"
    );
}

#[test]
fn the_signature_moves_with_any_change_below_and_only_then() {
    let entries = entries();
    let tree = research_tree(&entries);
    let before = subtree_signature(&entries, &tree, 2);
    assert_eq!(before, subtree_signature(&entries, &tree, 2));
    let mut amended = entries.clone();
    amended[6].status = EntryStatus::Discarded; // later-note, below phase-a
    assert_ne!(before, subtree_signature(&amended, &research_tree(&amended), 2));
    let mut elsewhere = entries.clone();
    elsewhere[8].title = "Another title".to_string(); // open-todo, under phase-b
    assert_eq!(before, subtree_signature(&elsewhere, &research_tree(&elsewhere), 2));
}
