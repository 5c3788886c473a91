//! The completeness rules as golden cases (issue 45): a container is the mean of its leaf
//! phases (0.7 → 0.7; 0.7 and 0.1 → 0.4; none → 0); a phase whose entries are all discarded
//! scores 0; a messy phase never outranks a clean one; a thread is resolved only by a
//! successor that supersedes it, never by a bare discard.

use super::*;
use crate::research_tree::research_tree;
use crate::test_support::sample_entry;

fn under(id: &str, entry_type: EntryType, parent: &str) -> Entry {
    Entry { parent: Some(parent.to_string()), ..sample_entry(id, entry_type) }
}

fn discarded(entry: Entry) -> Entry {
    Entry { status: EntryStatus::Discarded, ..entry }
}

fn superseding(entry: Entry, ids: &[&str]) -> Entry {
    Entry { supersedes: ids.iter().map(|id| id.to_string()).collect(), ..entry }
}

/// A project with one subproject holding the phases given (each a list of entries under it).
fn project(phases: Vec<(&str, Vec<Entry>)>) -> Vec<Entry> {
    let mut entries = vec![
        Entry { parent: None, ..sample_entry("project", EntryType::Plan) },
        under("sub", EntryType::Plan, "project"),
    ];
    for (phase, children) in phases {
        entries.push(under(phase, EntryType::Plan, "sub"));
        entries.extend(children);
    }
    entries
}

fn score_of(entries: &[Entry], id: &str) -> f64 {
    let tree = research_tree(entries);
    let position = entries.iter().position(|entry| entry.id == id).unwrap();
    (plan_completeness(entries, &tree)[&position] * 1000.0).round() / 1000.0
}

#[test]
fn the_weights_file_reads_whole_and_sums_to_one() {
    let weights = completeness_weights();
    assert_eq!(
        (weights.concluding_checkpoint, weights.resolved_threads, weights.type_balance),
        (0.5, 0.25, 0.25)
    );
    assert!(parse_weights("concluding_checkpoint 0.5\nresolved_threads 0.5\ntype_balance 0.5")
        .unwrap_err()
        .contains("sum to 1"));
}

#[test]
fn a_container_is_the_mean_of_its_leaf_phases() {
    assert_eq!(mean_of_leaves(&[0.7]), 0.7);
    assert!((mean_of_leaves(&[0.7, 0.1]) - 0.4).abs() < 1e-12);
    assert_eq!(mean_of_leaves(&[]), 0.0);
    // A phase concluded (1.0) and one with an open todo only (0: no checkpoint, its one
    // thread open, nothing settled): the subproject and the project are at 0.5.
    let entries = project(vec![
        ("done", vec![under("checkpoint", EntryType::Checkpoint, "done")]),
        ("open", vec![under("todo", EntryType::Todo, "open")]),
    ]);
    assert_eq!(score_of(&entries, "done"), 1.0);
    assert_eq!(score_of(&entries, "open"), 0.0);
    assert_eq!(score_of(&entries, "sub"), 0.5);
    assert_eq!(score_of(&entries, "project"), 0.5);
    // A discarded phase is not below the container any more; a project without phases is 0.
    let mut dropped = entries.clone();
    let open = dropped.iter_mut().find(|entry| entry.id == "open").unwrap();
    open.status = EntryStatus::Discarded;
    assert_eq!(score_of(&dropped, "sub"), 1.0);
    assert_eq!(score_of(&project(Vec::new()), "project"), 0.0);
}

#[test]
fn all_discarded_is_zero_and_messy_never_outranks_clean() {
    let all_discarded = project(vec![(
        "phase",
        vec![
            discarded(under("a", EntryType::Checkpoint, "phase")),
            discarded(under("b", EntryType::Decision, "phase")),
        ],
    )]);
    assert_eq!(score_of(&all_discarded, "phase"), 0.0);
    let mut messy_children = vec![under("kept", EntryType::Checkpoint, "messy")];
    for index in 0..9 {
        let kind = [EntryType::Experiment, EntryType::Todo, EntryType::Decision][index % 3];
        messy_children.push(discarded(under(&format!("abandoned-{index}"), kind, "messy")));
    }
    let clean_children = vec![
        under("decided", EntryType::Decision, "clean"),
        under("concluded", EntryType::Checkpoint, "clean"),
    ];
    let entries = project(vec![("messy", messy_children), ("clean", clean_children)]);
    assert!(score_of(&entries, "messy") <= score_of(&entries, "clean"));
    assert_eq!(score_of(&entries, "clean"), 1.0);
}

#[test]
fn a_thread_is_resolved_by_a_successor_never_by_a_discard() {
    let followed_up = project(vec![(
        "phase",
        vec![
            under("try-regex", EntryType::Experiment, "phase"),
            superseding(under("use-parser", EntryType::Decision, "phase"), &["try-regex"]),
        ],
    )]);
    // One thread, resolved; two settled entries, no open todo; no checkpoint: 0.5.
    assert_eq!(score_of(&followed_up, "phase"), 0.5);
    let dropped = project(vec![(
        "phase",
        vec![
            discarded(under("try-regex", EntryType::Experiment, "phase")),
            under("todo", EntryType::Todo, "phase"),
        ],
    )]);
    // The discarded experiment is not read; the todo is an open thread: 0.
    assert_eq!(score_of(&dropped, "phase"), 0.0);
    let signals = {
        let tree = research_tree(&followed_up);
        phase_signals(&followed_up, &tree, 2)
    };
    assert_eq!(
        (signals.concluding_checkpoint, signals.resolved_threads, signals.type_balance),
        (0.0, 1.0, 1.0)
    );
}
