//! Traces over the daemon's handlers on a fixture repository (issue 44): the deepagents
//! examples (supersession refused for an older observation, needs-recheck through a
//! superseded premise, an operation id replayed, two traces citing one source), a batch as
//! one commit, the session's subject, refusals that write nothing, and recall's ranking,
//! links and limits.

use tether_daemon::DaemonState;
use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository, APP_FIXTURE};

fn call(state: &DaemonState, method: &str, params: Value) -> Value {
    crate::handle_json(state, method, &params)
        .unwrap_or_else(|error| panic!("{method} {params} failed: {error:?}"))
}

fn refusal(state: &DaemonState, params: Value) -> String {
    let error = crate::handle_json(state, "record_trace", &params)
        .err()
        .unwrap_or_else(|| panic!("record_trace {params} was accepted"));
    assert_eq!(error.code, -32602, "{}", error.message);
    error.message
}

/// A `state` trace of `subject` observed at `observed_at` (hour of 2026-12-07).
fn trace(subject: &str, hour: u32, outcome: &str) -> Value {
    json!({
        "subject": subject,
        "situation": format!("test_report checked at {hour}:00"),
        "rationale": "CI said it failed",
        "action": "ran it locally",
        "outcome": outcome,
        "observed_at": format!("2026-12-07T{hour:02}:00:00Z"),
        "artifacts": ["tests/test_core.py", "app.core.report"],
    })
}

fn with(mut value: Value, key: &str, field: Value) -> Value {
    value[key] = field;
    value
}

fn ids(answer: &Value) -> Vec<String> {
    answer["traces"].as_array().unwrap().iter().map(|t| t["id"].as_str().unwrap().into()).collect()
}

fn commits(repository: &FixtureRepository) -> usize {
    repository.git(&["rev-list", "--count", "HEAD"]).trim().parse().unwrap()
}

const SUBJECT: &str = "tests/test_core.py::test_report@linux";

#[test]
fn traces_keep_the_deepagents_rules_and_write_nothing_when_refused() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let state = indexed_daemon(&repository);
    let before = commits(&repository);

    // Refusals name the field and write nothing.
    let one = |trace: Value| json!({ "traces": [trace] });
    let multi_line = with(trace(SUBJECT, 9, "red"), "outcome", json!("red\nthen green"));
    assert!(refusal(&state, one(multi_line)).starts_with("traces[0].outcome:"));
    let bad_time = with(trace(SUBJECT, 9, "red"), "observed_at", json!("yesterday"));
    assert!(refusal(&state, one(bad_time)).starts_with("traces[0].observed_at:"));
    let unknown = with(trace(SUBJECT, 9, "red"), "depends_on", json!(["ghost"]));
    assert!(refusal(&state, one(unknown)).starts_with("traces[0].depends_on"));
    let no_subject = with(trace(SUBJECT, 9, "red"), "subject", Value::Null);
    assert!(refusal(&state, one(no_subject)).starts_with("traces[0].subject: missing"));
    let both = with(with(trace(SUBJECT, 9, "red"), "operation_id", json!("op")), "id", json!("x"));
    assert!(refusal(&state, one(both)).starts_with("traces[0].id: not with operation_id"));
    let bound = json!({ "traces": [trace("other@linux", 9, "red")], "session_subject": SUBJECT });
    assert!(refusal(&state, bound).contains("differs from the session's subject"));
    let bulky = with(trace(SUBJECT, 9, "red"), "evidence", json!(vec!["e".repeat(4000); 70]));
    assert!(refusal(&state, one(bulky)).starts_with("traces[0]: its file would be"));
    let control = with(trace(SUBJECT, 9, "red"), "outcome", json!("red\u{1e}file 3 .env"));
    assert!(refusal(&state, one(control)).contains("control character"));
    assert!(!repository.root().join(".memory").exists(), "a refused batch writes nothing");
    assert_eq!(commits(&repository), before);

    // A batch is one commit; the session's subject fills a trace without one.
    let first = json!({ "subject": SUBJECT, "situation": "s", "rationale": "r", "action": "a",
        "outcome": "o", "observed_at": "2026-12-07T08:00:00Z" });
    let batch = call(
        &state,
        "record_trace",
        json!({ "traces": [trace(SUBJECT, 9, "red on CI"), with(first, "subject", Value::Null)],
                "session_subject": SUBJECT }),
    );
    let red = ids(&batch)[0].clone();
    // An entry cannot take a trace's id (`depends_on` names either).
    let taken = crate::handle_json(
        &state,
        "record",
        &json!({ "type": "note", "title": "x", "id": red, "commit": "HEAD" }),
    )
    .unwrap_err();
    assert!(taken.message.contains("exists already"), "{}", taken.message);
    assert_eq!(ids(&batch).len(), 2);
    assert_eq!(commits(&repository), before + 1, "one commit for the batch");
    assert_eq!(
        repository.git(&["log", "-1", "--format=%s"]).trim(),
        format!("memory: 2 traces: {SUBJECT}")
    );
    assert_eq!(batch["traces"][1]["subject"], SUBJECT);
    assert_eq!(repository.git(&["status", "--porcelain"]), "", "nothing left uncommitted");

    // Supersession: refused for an older observation or without evidence, taken for a
    // newer one with evidence; the superseded trace stays.
    let older = with(trace(SUBJECT, 8, "green"), "supersedes", json!([red]));
    let older = with(older, "evidence", json!(["pytest: 1 passed"]));
    let message = refusal(&state, one(older));
    assert!(message.starts_with("traces[0].observed_at:"), "{message}");
    assert!(message.ends_with("only a newer observation supersedes"), "{message}");
    let unproven = with(trace(SUBJECT, 11, "green"), "supersedes", json!([red]));
    assert!(refusal(&state, one(unproven)).starts_with("traces[0].supersedes"));
    let newer = with(trace(SUBJECT, 11, "green after the fix"), "supersedes", json!([red]));
    let newer = with(newer, "evidence", json!(["pytest tests/test_core.py: 1 passed"]));
    let green = ids(&call(&state, "record_trace", one(newer)))[0].clone();

    // A conclusion resting on the red finding needs a recheck now, through the chain.
    let conclusion = json!({ "subject": "app/core.py::report@linux", "finding_type": "explanation",
        "situation": "report doubled", "rationale": "compute adds one", "action": "read the code",
        "outcome": "the doubling is intended", "observed_at": "2026-12-07T10:00:00Z",
        "depends_on": [red] });
    let conclusion = ids(&call(&state, "record_trace", one(conclusion)))[0].clone();
    let recalled = call(&state, "recall", json!({ "anchors": [conclusion] }));
    let item = recalled["traces"]
        .as_array()
        .unwrap()
        .iter()
        .find(|item| item["id"] == conclusion.as_str())
        .expect("the anchored trace is recalled");
    assert_eq!(item["reason"], format!("anchored by {conclusion}"));
    assert_eq!(item["recheck"]["status"], "needs_recheck", "{recalled}");
    assert_eq!(item["recheck"]["path"], json!([conclusion, red, green]));

    // `context` of a symbol an artifact names lists its traces, current first.
    let context = call(&state, "context", json!({ "symbol": "app.core.report" }));
    // (The batch's second trace names no artifact.)
    assert_eq!(context["traces_total"], 2, "{context}");
    assert_eq!(context["traces"][0]["id"], green.as_str());
    assert_eq!(context["traces"][0]["artifact"], "app.core.report");
    let statuses: Vec<&str> = context["traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["status"].as_str().unwrap())
        .collect();
    assert_eq!(statuses, ["current", "superseded"]);
    let untouched = call(&state, "context", json!({ "symbol": "app.core.compute" }));
    assert!(untouched.get("traces").is_none(), "{untouched}");

    // Recall: the current finding before the one it superseded, both linked.
    let recalled = call(&state, "recall", json!({ "anchors": [SUBJECT], "max_depth": 0 }));
    let order: Vec<(String, String)> = recalled["traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t["id"].as_str().unwrap().into(), t["status"].as_str().unwrap().into()))
        .collect();
    assert_eq!(order[0], (green.clone(), "current".to_string()), "{recalled}");
    assert!(order.contains(&(red.clone(), "superseded".to_string())), "{recalled}");
    assert_eq!(recalled["completeness"], "complete");
    let cut = call(&state, "recall", json!({ "anchors": [SUBJECT], "max_nodes": 1 }));
    assert_eq!(cut["completeness"], "incomplete");
    assert_eq!(cut["traces"].as_array().unwrap().len(), 1);
    assert!(cut["left_out"].as_u64().unwrap() >= 2, "{cut}");
    assert!(cut["read_next"][0].as_str().unwrap().starts_with(".memory/traces/"));
}

#[test]
fn an_operation_id_replays_and_one_source_is_one_source() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let state = indexed_daemon(&repository);
    let cited = |locator: &str, summary: &str| {
        json!([{ "source_id": "ci-run-8812", "locator": locator,
                 "observed_at": "2026-12-07T09:30:00Z", "summary": summary }])
    };
    let request = json!({ "traces": [with(
        with(trace(SUBJECT, 9, "red on CI"), "operation_id", json!("op-1")),
        "evidence_refs",
        cited("tests/test_core.py", "the failing assertion"),
    )] });
    let first = call(&state, "record_trace", request.clone());
    let after_first = commits(&repository);
    // The same request again (a retry after a lost answer): the first ids, nothing written.
    let again = call(&state, "record_trace", request.clone());
    assert_eq!(again["replayed"], true);
    assert_eq!(ids(&again), ids(&first));
    assert_eq!(commits(&repository), after_first);
    // Another request under the used id is refused.
    let other = with(request["traces"][0].clone(), "outcome", json!("green"));
    assert!(refusal(&state, json!({ "traces": [other] })).contains("already recorded trace"));

    // A second trace citing the same source shares it, with its own summary; citing the
    // id with another locator is refused.
    let second = with(
        trace("ci/build@linux", 9, "the build is red"),
        "evidence_refs",
        cited("tests/test_core.py", "the build log's last line"),
    );
    call(&state, "record_trace", json!({ "traces": [second] }));
    let moved = with(
        trace("ci/build@linux", 10, "still red"),
        "evidence_refs",
        cited("tests/elsewhere.py", "x"),
    );
    assert!(refusal(&state, json!({ "traces": [moved] })).contains("ci-run-8812"));
    let recalled = call(&state, "recall", json!({ "query": "red" }));
    let summaries: Vec<&str> = recalled["traces"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["evidence_refs"][0]["summary"].as_str().unwrap())
        .collect();
    assert_eq!(summaries.len(), 2, "{recalled}");
    assert!(
        summaries.contains(&"the failing assertion")
            && summaries.contains(&"the build log's last line")
    );
    // The locator is a repository path: tether says whether it exists at HEAD, no more.
    assert_eq!(recalled["traces"][0]["evidence_refs"][0]["exists_at_head"], true);
    // The database holds them beside the code graph: four steps joined in order, one
    // Evidence node cited twice with each trace's own summary, ABOUT the symbols named.
    // (HEAD moved with each batch: the rebuild a daemon's follower runs, then its write.)
    state.rebuild().expect("rebuild");
    state.persist_now().expect("persist");
    let store = tether_store::GraphStore::open(
        &repository.root().join(".git/tether/graph.lbug"),
        tether_store::StoreConfig { buffer_pool_bytes: 128 << 20, max_threads: 1 },
    )
    .unwrap();
    let (_, rows) = store
        .query_as_text(
            "MATCH (t:Trace)-[:HAS_STEP]->(s:TraceStep)-[:LED_TO]->(:TraceStep)-[:JUSTIFIED]->(:TraceStep)-[:PRODUCED]->(o:TraceStep) \
             RETURN t.subject, s.text, o.text ORDER BY t.subject",
        )
        .unwrap();
    assert_eq!(
        rows,
        [
            ["ci/build@linux", "test_report checked at 9:00", "the build is red"],
            [SUBJECT, "test_report checked at 9:00", "red on CI"],
        ]
    );
    let (_, rows) = store
        .query_as_text("MATCH (t:Trace)-[c:CITES]->(e:Evidence) RETURN e.source_id, c.summary ORDER BY c.summary")
        .unwrap();
    assert_eq!(
        rows,
        [["ci-run-8812", "the build log's last line"], ["ci-run-8812", "the failing assertion"]]
    );
    let (_, rows) = store.query_as_text("MATCH (e:Evidence) RETURN count(*)").unwrap();
    assert_eq!(rows, [["1"]]);
    let (_, rows) = store
        .query_as_text("MATCH (t:Trace)-[a:ABOUT]->(s:Symbol) WHERE t.subject = 'tests/test_core.py::test_report@linux' RETURN a.artifact, s.qualified_name ORDER BY a.artifact")
        .unwrap();
    assert_eq!(rows, [["app.core.report", "app.core.report"], ["tests/test_core.py", "test_core"]]);
    drop(store);

    // The daemon restarted reads the same files: the replay still holds.
    drop(state);
    let state = indexed_daemon(&repository);
    assert_eq!(ids(&call(&state, "record_trace", request)), ids(&first));
    assert_eq!(commits(&repository), after_first + 1);
}

/// Hostile trace files: a FIFO, a link to `/dev/zero`, a huge file and a malformed one in
/// `.memory/traces/` neither hang nor hide the good traces; the unreadable ones are named.
/// A `.memory/traces` that is a link out of the repository is refused for writing.
#[test]
fn hostile_trace_files_are_named_and_never_hang_recall() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let state = indexed_daemon(&repository);
    call(&state, "record_trace", json!({ "traces": [trace(SUBJECT, 9, "red")] }));
    let folder = repository.root().join(".memory/traces");
    let fifo = folder.join("fifo.md");
    let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a path this test owns.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/dev/zero", folder.join("zero.md")).unwrap();
    std::fs::write(folder.join("huge.md"), "x".repeat(300 * 1024)).unwrap();
    std::fs::write(folder.join("broken.md"), "---\nid: broken\nsubject: s\n---\n").unwrap();
    let started = std::time::Instant::now();
    let recalled = call(&state, "recall", json!({ "anchors": [SUBJECT] }));
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(recalled["traces"].as_array().unwrap().len(), 1, "{recalled}");
    let unreadable = recalled["unreadable"].to_string();
    assert!(unreadable.contains("huge.md:1: 307200 bytes"), "{unreadable}");
    assert!(unreadable.contains("broken.md:"), "{unreadable}");

    // The traces' folder a link out of the repository: nothing is written through it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
    std::os::unix::fs::symlink(outside.path(), &folder).unwrap();
    let refused = refusal(&state, json!({ "traces": [trace(SUBJECT, 10, "green")] }));
    assert!(refused.contains("symbolic link"), "{refused}");
    assert_eq!(std::fs::read_dir(outside.path()).unwrap().count(), 0);
}
