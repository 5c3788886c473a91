//! Tests of recall: seeds by words and anchors, expansion through links, ranking before the
//! limits, and an answer that says what the limits cut.

use super::*;
use crate::test_support::sample_trace;

fn history() -> Vec<Trace> {
    let mut red = sample_trace("build-red", "ci/build@linux", "2026-12-07T08:00:00Z");
    red.steps.situation = "the linux build fails in serde".to_string();
    red.run_id = Some("run-1".to_string());
    let mut green = sample_trace("build-green", "ci/build@linux", "2026-12-07T10:00:00Z");
    green.supersedes = vec!["build-red".to_string()];
    green.evidence = vec!["CI 8812".to_string()];
    let mut cause = sample_trace("serde-cause", "deps/serde", "2026-12-07T09:00:00Z");
    cause.finding_type = crate::trace::FindingType::Explanation;
    cause.depends_on = vec!["build-red".to_string()];
    cause.artifacts = vec!["Cargo.lock".to_string()];
    let flaky_yes =
        sample_trace("flaky-yes", "tests/test_io.py::test_read", "2026-12-07T07:00:00Z");
    let flaky_no = sample_trace("flaky-no", "tests/test_io.py::test_read", "2026-12-07T07:30:00Z");
    let mut settled =
        sample_trace("flaky-settled", "tests/test_io.py::test_read", "2026-12-07T06:00:00Z");
    settled.resolves = vec!["flaky-yes".to_string(), "flaky-no".to_string()];
    vec![red, green, cause, flaky_yes, flaky_no, settled]
}

fn request(query: &str, anchors: &[&str]) -> RecallRequest {
    RecallRequest {
        query: query.to_string(),
        anchors: anchors.iter().map(|anchor| anchor.to_string()).collect(),
        max_nodes: 20,
        max_depth: 2,
        token_budget: 10_000,
    }
}

fn ids(answer: &Recall) -> Vec<&str> {
    answer.traces.iter().map(|trace| trace.id.as_str()).collect()
}

#[test]
fn words_find_seeds_and_links_bring_what_they_rest_on_current_first() {
    let answer = recall(&history(), &request("SERDE linux", &[]));
    // The seed is superseded: the newer observation ranks first, then the explanation that
    // depends on the seed, then the seed itself.
    assert_eq!(ids(&answer), ["build-green", "serde-cause", "build-red"]);
    assert_eq!(answer.traces[2].reason, RecallReason::Matched);
    assert_eq!(
        answer.traces[0].reason,
        RecallReason::Linked { from: "build-red".to_string(), link: "superseded_by" }
    );
    assert_eq!(answer.traces[2].superseded_by, ["build-green"]);
    assert!(!answer.incomplete);
}

#[test]
fn anchors_name_traces_by_id_subject_artifact_or_run() {
    let traces = history();
    let only_seeds = |anchor: &str| {
        let mut asked = request("", &[anchor]);
        asked.max_depth = 0;
        ids(&recall(&traces, &asked)).join(" ")
    };
    assert_eq!(only_seeds("run-1"), "build-red");
    assert_eq!(only_seeds("Cargo.lock"), "serde-cause");
    assert_eq!(only_seeds("build-green"), "build-green");
    assert_eq!(only_seeds("tests/test_io.py::test_read"), "flaky-settled flaky-no flaky-yes");
    assert_eq!(only_seeds("nothing-named-so"), "");
}

#[test]
fn a_resolution_ranks_ahead_of_what_it_settles_and_the_limits_say_what_they_cut() {
    let traces = history();
    let mut asked = request("", &["tests/test_io.py::test_read"]);
    asked.max_nodes = 1;
    let answer = recall(&traces, &asked);
    assert_eq!(ids(&answer), ["flaky-settled"]);
    assert!(answer.incomplete);
    assert_eq!(answer.left_out, 2);
    assert_eq!(answer.read_next, [".memory/traces/flaky-no.md", ".memory/traces/flaky-yes.md"]);
    assert_eq!(answer.traces[0].resolved_by, Vec::<String>::new());
    let mut tight = request("", &["tests/test_io.py::test_read"]);
    tight.token_budget = 1;
    let answer = recall(&traces, &tight);
    assert!(answer.traces.is_empty() && answer.incomplete && answer.left_out == 3);
}
