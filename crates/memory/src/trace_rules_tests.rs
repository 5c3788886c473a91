//! Tests of the rules a new trace keeps: the deepagents examples (supersession refused for
//! an older observation, two traces citing one source) and every refusal.

use std::collections::HashSet;

use super::*;

fn trace(id: &str, subject: &str, observed_at: &str) -> Trace {
    crate::test_support::sample_trace(id, subject, observed_at)
}

fn cited(source_id: &str, locator: &str, summary: &str) -> EvidenceRef {
    EvidenceRef {
        source_id: source_id.to_string(),
        locator: locator.to_string(),
        revision: None,
        observed_at: "2026-12-07T09:00:00Z".to_string(),
        summary: summary.to_string(),
    }
}

fn refusal(batch: &[Trace], existing: &[Trace]) -> String {
    let entries: HashSet<&str> = ["a-decision"].into_iter().collect();
    check_new_traces(batch, existing, &entries).unwrap_err().to_string()
}

fn accepted(batch: &[Trace], existing: &[Trace]) {
    let entries: HashSet<&str> = ["a-decision"].into_iter().collect();
    check_new_traces(batch, existing, &entries).unwrap();
}

#[test]
fn a_newer_state_with_evidence_supersedes_an_older_one_of_its_subject() {
    let old = trace("build-red", "ci/build@linux", "2026-12-07T08:00:00Z");
    let mut new = trace("build-green", "ci/build@linux", "2026-12-07T10:00:00Z");
    new.supersedes = vec!["build-red".to_string()];
    new.evidence = vec!["CI run 8812 green".to_string()];
    accepted(std::slice::from_ref(&new), std::slice::from_ref(&old));
    // In one batch too: a trace may name one before it.
    accepted(&[old.clone(), new.clone()], &[]);

    let mut older = new.clone();
    older.observed_at = "2026-12-07T07:00:00Z".to_string();
    assert_eq!(
        refusal(&[older], std::slice::from_ref(&old)),
        "traces[0].observed_at: 2026-12-07T07:00:00Z is not newer than `build-red`'s observation at 2026-12-07T08:00:00Z: only a newer observation supersedes"
    );
    let mut same_time = new.clone();
    same_time.observed_at = "2026-12-07T09:00:00+01:00".to_string();
    assert!(
        refusal(&[same_time], std::slice::from_ref(&old)).starts_with("traces[0].observed_at: ")
    );

    let mut without_evidence = new.clone();
    without_evidence.evidence.clear();
    assert_eq!(
        refusal(&[without_evidence], std::slice::from_ref(&old)),
        "traces[0].supersedes: a trace that supersedes others must carry evidence"
    );
    let mut elsewhere = new.clone();
    elsewhere.subject = "ci/build@macos".to_string();
    assert_eq!(
        refusal(&[elsewhere], std::slice::from_ref(&old)),
        "traces[0].supersedes: `build-red` is about `ci/build@linux`, not `ci/build@macos`"
    );
    let mut explanation = old.clone();
    explanation.finding_type = FindingType::Explanation;
    assert_eq!(
        refusal(std::slice::from_ref(&new), &[explanation]),
        "traces[0].supersedes: `build-red` is an explanation: explanations are never superseded"
    );
    let mut explaining = new.clone();
    explaining.finding_type = FindingType::Explanation;
    assert_eq!(
        refusal(&[explaining], std::slice::from_ref(&old)),
        "traces[0].supersedes: only a `state` finding supersedes earlier ones"
    );
    assert_eq!(refusal(&[new], &[]), "traces[0].supersedes: `build-red` is not a trace");
}

#[test]
fn two_traces_cite_one_source_only_as_the_same_source() {
    let mut first = trace("first", "ci/build@linux", "2026-12-07T08:00:00Z");
    first.evidence_refs = vec![cited("ci-8812", "https://ci.example/8812", "the build failed")];
    let mut second = trace("second", "ci/build@linux", "2026-12-07T08:30:00Z");
    second.evidence_refs = vec![cited("ci-8812", "https://ci.example/8812", "its log names serde")];
    accepted(std::slice::from_ref(&second), std::slice::from_ref(&first));
    accepted(&[first.clone(), second.clone()], &[]);
    let mut elsewhere = second.clone();
    elsewhere.evidence_refs[0].locator = "https://ci.example/9000".to_string();
    assert_eq!(
        refusal(&[elsewhere], std::slice::from_ref(&first)),
        "traces[0].evidence_refs[0].source_id: `ci-8812` is already cited with locator `https://ci.example/8812`, revision `none`, observed at 2026-12-07T09:00:00Z: one source id is one source"
    );
    let mut later = second;
    later.evidence_refs[0].observed_at = "2026-12-07T09:30:00Z".to_string();
    assert!(
        refusal(&[first.clone(), later], &[]).starts_with("traces[1].evidence_refs[0].source_id: ")
    );
}

#[test]
fn a_resolution_settles_two_or_more_traces_of_its_subject_with_evidence() {
    let yes = trace("flaky-yes", "tests/test_io.py::test_read", "2026-12-07T08:00:00Z");
    let no = trace("flaky-no", "tests/test_io.py::test_read", "2026-12-07T08:10:00Z");
    let mut settles = trace("flaky-settled", "tests/test_io.py::test_read", "2026-12-07T09:00:00Z");
    settles.resolves = vec!["flaky-yes".to_string(), "flaky-no".to_string()];
    settles.evidence = vec!["100 runs: 3 failures".to_string()];
    accepted(std::slice::from_ref(&settles), &[yes.clone(), no.clone()]);
    let mut one = settles.clone();
    one.resolves = vec!["flaky-yes".to_string(), "flaky-yes".to_string()];
    assert_eq!(
        refusal(&[one], &[yes.clone(), no.clone()]),
        "traces[0].resolves: a resolution settles two or more traces"
    );
    let mut without_evidence = settles.clone();
    without_evidence.evidence.clear();
    assert_eq!(
        refusal(&[without_evidence], &[yes.clone(), no.clone()]),
        "traces[0].resolves: a resolution must carry evidence"
    );
    let mut other = no.clone();
    other.subject = "tests/test_io.py::test_write".to_string();
    assert_eq!(
        refusal(&[settles], &[yes, other]),
        "traces[0].resolves: `flaky-no` is about `tests/test_io.py::test_write`, not `tests/test_io.py::test_read`"
    );
}

#[test]
fn malformed_fields_are_refused_by_name() {
    let existing = [trace("known", "s", "2026-12-07T08:00:00Z")];
    let check = |edit: &dyn Fn(&mut Trace)| {
        let mut new = trace("new", "s", "2026-12-07T09:00:00Z");
        edit(&mut new);
        refusal(&[new], &existing)
    };
    assert_eq!(
        check(&|t| t.steps.action = " ".to_string()),
        "traces[0].action: `action` must not be empty"
    );
    assert_eq!(
        check(&|t| t.steps.outcome = "a\nb".to_string()),
        "traces[0].outcome: `outcome` must be one line"
    );
    assert_eq!(
        check(&|t| t.subject = "x".repeat(501)),
        "traces[0].subject: `subject` has 501 characters, over 500"
    );
    assert_eq!(
        check(&|t| t.observed_at = "yesterday".to_string()),
        "traces[0].observed_at: `yesterday` is not an RFC 3339 timestamp like 2026-12-07T10:00:00Z"
    );
    assert_eq!(check(&|t| t.id = "known".to_string()), "traces[0].id: `known` is already used");
    assert_eq!(
        check(&|t| t.id = "a-decision".to_string()),
        "traces[0].id: `a-decision` is already used"
    );
    assert_eq!(
        check(&|t| t.depends_on = vec!["missing".to_string()]),
        "traces[0].depends_on: `missing` is neither a trace nor an entry"
    );
    assert_eq!(
        check(&|t| t.artifacts = vec!["../outside".to_string()]),
        "traces[0].artifacts[0]: `../outside` must be a repository-relative path or a symbol, without `..`"
    );
    let mut premises = trace("new", "s", "2026-12-07T09:00:00Z");
    premises.depends_on = vec!["known".to_string(), "a-decision".to_string()];
    accepted(&[premises], &existing);
}

#[test]
fn a_control_character_in_a_line_is_refused() {
    let mut trace = trace("t", "s@linux", "2026-12-07T10:00:00Z");
    trace.steps.outcome = "x\u{1e}tether-trace-file .env".to_string();
    assert_eq!(
        check_new_traces(&[trace], &[], &HashSet::new()).unwrap_err().to_string(),
        "traces[0].outcome: `outcome` holds the control character U+001E"
    );
}
