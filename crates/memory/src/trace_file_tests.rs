//! Tests of trace files: the canonical form, the round trip, and malformed files.

use expect_test::expect;

use super::*;
use crate::trace::trace_file_path;

pub(crate) fn sample_trace(id: &str) -> Trace {
    Trace {
        id: id.to_string(),
        subject: "tests/test_parser.py::test_empty@linux".to_string(),
        finding_type: FindingType::State,
        steps: TraceSteps {
            situation: "test_empty fails on an empty file".to_string(),
            rationale: "the tokenizer may return None at EOF".to_string(),
            action: "guarded the EOF branch in tokenize()".to_string(),
            outcome: "test_empty passes; 412 others still pass".to_string(),
        },
        observed_at: "2026-12-07T10:00:00Z".to_string(),
        recorded_at: "2026-12-07T10:00:05Z".to_string(),
        artifacts: vec!["src/parser.py".to_string(), "pkg.parser.tokenize".to_string()],
        run_id: Some("run-17".to_string()),
        agent_id: Some("agent-a".to_string()),
        subagent_id: None,
        evidence: vec!["pytest -q: 413 passed".to_string()],
        evidence_refs: vec![EvidenceRef {
            source_id: "ci-8812".to_string(),
            locator: "https://ci.example/8812".to_string(),
            revision: Some("0123456789abcdef0123456789abcdef01234567".to_string()),
            observed_at: "2026-12-07T09:58:00Z".to_string(),
            summary: "the linux job: \"413 passed\"".to_string(),
        }],
        supersedes: vec!["empty-fails".to_string()],
        resolves: Vec::new(),
        depends_on: vec!["eof-returns-none".to_string()],
        operation_id: Some("op-1".to_string()),
        path: trace_file_path(id),
    }
}

#[test]
fn renders_the_canonical_form() {
    expect![[r#"
        ---
        id: empty-fixed
        type: trace
        subject: tests/test_parser.py::test_empty@linux
        finding_type: state
        situation: test_empty fails on an empty file
        rationale: the tokenizer may return None at EOF
        action: guarded the EOF branch in tokenize()
        outcome: "test_empty passes; 412 others still pass"
        observed_at: 2026-12-07T10:00:00Z
        recorded_at: 2026-12-07T10:00:05Z
        artifacts: [src/parser.py, pkg.parser.tokenize]
        run_id: run-17
        agent_id: agent-a
        evidence: ["pytest -q: 413 passed"]
        evidence_refs:
          - source_id: ci-8812
            locator: https://ci.example/8812
            revision: 0123456789abcdef0123456789abcdef01234567
            observed_at: 2026-12-07T09:58:00Z
            summary: "the linux job: \"413 passed\""
        supersedes: [empty-fails]
        resolves: []
        depends_on: [eof-returns-none]
        operation_id: op-1
        ---
        test_empty fails on an empty file
        → the tokenizer may return None at EOF
        → guarded the EOF branch in tokenize()
        → test_empty passes; 412 others still pass
    "#]]
    .assert_eq(&render_trace(&sample_trace("empty-fixed")));
}

#[test]
fn parsing_a_rendered_trace_gives_it_back() {
    let mut trace = sample_trace("empty-fixed");
    let (parsed, warnings) = parse_trace(&trace.path, &render_trace(&trace)).unwrap();
    assert_eq!(parsed, trace);
    assert!(warnings.is_empty(), "{warnings:?}");
    // Without the optional fields too.
    trace.run_id = None;
    trace.agent_id = None;
    trace.operation_id = None;
    trace.evidence_refs[0].revision = None;
    trace.finding_type = FindingType::Explanation;
    let (parsed, _) = parse_trace(&trace.path, &render_trace(&trace)).unwrap();
    assert_eq!(parsed, trace);
}

#[test]
fn malformed_traces_are_refused_at_their_line() {
    let text = render_trace(&sample_trace("empty-fixed"));
    let check = |from: &str, to: &str| {
        let broken = text.replacen(from, to, 1);
        assert_ne!(broken, text, "{from}");
        let problem = parse_trace(".memory/traces/x.md", &broken).unwrap_err();
        format!("{}: {}", problem.line, problem.message)
    };
    assert_eq!(
        check("finding_type: state", "finding_type: guess"),
        "5: unknown finding_type `guess` (expected state or explanation)"
    );
    assert_eq!(
        check("situation: test_empty fails on an empty file\n", ""),
        "1: missing required field `situation`"
    );
    assert_eq!(
        check("    summary: \"the linux job: \\\"413 passed\\\"\"\n", ""),
        "17: evidence ref is missing `summary`"
    );
    assert_eq!(
        check("depends_on: [eof-returns-none]", "depends_on: [../escape]"),
        "24: bad `depends_on` id `../escape`: must start with a lowercase letter or a digit"
    );
    assert_eq!(
        check("run_id: run-17", "run_id: [a, b]"),
        "13: `run_id` must be a single value, not a list"
    );
    assert_eq!(
        check("agent_id: agent-a", "run_id: again"),
        "14: duplicate key `run_id` (first on line 13)"
    );
}

#[test]
fn a_time_that_is_not_rfc_3339_is_an_error_at_its_line() {
    let text = render_trace(&sample_trace("t"))
        .replace("observed_at: 2026-12-07T10:00:00Z", "observed_at: 2026-12-07T9:00:00Z");
    let problem = parse_trace(".memory/traces/t.md", &text).unwrap_err();
    assert_eq!(
        problem.to_string(),
        ".memory/traces/t.md:10: `observed_at` \"2026-12-07T9:00:00Z\" is not an RFC 3339 time (2026-12-07T10:00:00Z)"
    );
}
