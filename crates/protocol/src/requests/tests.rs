//! The requests' parser and writer: every request round-trips, bad parameters are refused
//! with messages naming what to pass.

use super::*;
use serde_json::json;

use neighbours::MISSING_SYMBOL;

fn refused(method: &str, params: Value) -> String {
    let error = WireRequest::parse(method, &params).unwrap_err();
    format!("{} {}", error.code, error.message)
}

#[test]
fn a_call_is_parsed_once_into_its_typed_request() {
    let blast = Request::parse("blast", &json!({"file": "a.py", "symbol": "x", "depth": 2}));
    let Ok(Request::Blast { subject, walk }) = blast else { panic!("{blast:?}") };
    assert_eq!((subject, walk.depth, walk.page.limit), (Subject::Path("a.py".into()), Some(2), 20));
    assert_eq!(Request::parse("status", &Value::Null), Ok(Request::Status));
    let record =
        Request::parse("record", &json!({"type": " decision ", "title": "", "files": ["a"]}));
    let Ok(Request::Record(record)) = record else { panic!("{record:?}") };
    assert_eq!(
        (record.entry_type.as_deref(), record.title, record.files),
        (Some("decision"), None, vec!["a".to_string()])
    );
    for method in Method::ALL {
        assert_eq!(Method::from_name(method.as_str()), Some(method));
        assert_eq!(method.specification().method, method, "METHODS is in Method::ALL's order");
    }
    assert_eq!(
        WireRequest::parse("buffer_close", &json!({"path": "a.py"})),
        Ok(BufferRequest::Close { path: "a.py".into() }.into())
    );
    assert_eq!(
        Request::parse("shutdown", &Value::Null).unwrap_err().message,
        "shutdown belongs to a connection to the daemon, not to a question"
    );
}

#[test]
fn every_request_written_as_params_parses_back_to_itself() {
    let page = PageRequest::new(Some("o:40"), Some(5)).unwrap();
    let walk = WalkParams { depth: Some(2), tests_limit: None, page };
    let requests = [
        Request::Status,
        Request::Lookup { query: Some("parse".into()), folder: None, page },
        Request::Callers { symbol: "a.b".into(), page },
        Request::Blast { subject: Subject::Path("a.py".into()), walk },
        Request::Blast { subject: Subject::Symbol("a.b".into()), walk },
        Request::Ownership {
            subject: Subject::Path("a.py".into()),
            exclude_authors: vec!["bot".into()],
            blame: BlameParams { follow_moves: false, ignore_revs_file: true },
        },
        Request::Changes(ChangesParams {
            scope: Some("staged".into()),
            base: None,
            range: None,
            include_whitespace: true,
            walk,
        }),
        Request::Context { subject: Subject::Symbol("a.b".into()) },
        Request::SearchMemory(SearchMemoryParams {
            query: "x".into(),
            entry_type: Some("note".into()),
            status: None,
            tethered_to: Some(Subject::Path("a.py".into())),
            page,
        }),
        Request::Record(RecordParams {
            entry_type: Some("note".into()),
            title: Some("T".into()),
            files: vec!["a.py".into()],
            ..RecordParams::default()
        }),
        Request::CoverageImport { file: "c.json".into(), merge: false },
        Request::CoverageImport { file: "c.json".into(), merge: true },
        Request::RecordTrace(RecordTraceParams {
            traces: vec![TraceParams {
                subject: Some("ci/build@linux".into()),
                situation: Some("red".into()),
                rationale: Some("why".into()),
                action: Some("did".into()),
                outcome: Some("green".into()),
                observed_at: Some("2026-12-07T10:00:00Z".into()),
                artifacts: vec!["a.py".into()],
                evidence_refs: vec![EvidenceRefParams {
                    source_id: "ci-1".into(),
                    locator: "https://ci/1".into(),
                    revision: Some("abc".into()),
                    observed_at: "2026-12-07T09:00:00Z".into(),
                    summary: "the log".into(),
                }],
                operation_id: Some("op-1".into()),
                ..TraceParams::default()
            }],
            session_subject: Some("s".into()),
            dry_run: true,
        }),
        Request::Recall(RecallParams {
            query: Some("build red".into()),
            anchors: vec!["a.py".into()],
            ..RecallParams::default()
        }),
    ];
    for request in requests {
        let params = request.to_params();
        assert_eq!(
            Request::parse(request.method().as_str(), &params),
            Ok(request.clone()),
            "{params}"
        );
    }
}

#[test]
fn unknown_names_wrong_types_and_missing_subjects_are_refused() {
    assert_eq!(
        refused("callers", json!({"symbol": "x", "depht": 2})),
        "-32602 callers does not take \"depht\"; it takes symbol, limit, cursor"
    );
    assert_eq!(
        refused("status", json!({"verbose": true})),
        "-32602 status does not take \"verbose\"; it takes no parameters"
    );
    assert_eq!(
        refused("blast", json!({"symbol": "x", "depth": "3"})),
        "-32602 \"depth\" must be a non-negative integer"
    );
    assert_eq!(
        refused("record", json!({"files": [1]})),
        "-32602 \"files\" must be a list of strings"
    );
    assert_eq!(
        refused(
            "buffer_update",
            json!({"path": "a.py", "text": "", "version": 9223372036854775808u64})
        ),
        "-32602 \"version\" must be an integer from 0 to 9223372036854775807"
    );
    assert!(WireRequest::parse(
        "buffer_update",
        &json!({"path": "a.py", "text": "", "version": 9223372036854775807u64})
    )
    .is_ok());
    assert_eq!(refused("callers", json!({})), format!("-32602 {MISSING_SYMBOL}"));
    assert_eq!(refused("context", json!({})), "-32602 name a \"symbol\" or a \"path\"");
    assert_eq!(
        refused("lookup", json!(["x"])),
        "-32602 \"params\" must be an object of named parameters"
    );
    assert!(refused("lookup", json!({"cursor": "zz"})).contains("invalid cursor"));
    assert!(refused("frobnicate", json!({}))
        .starts_with("-32601 unknown method \"frobnicate\"; methods: status, lookup"));
}

#[test]
fn traces_are_read_strictly_down_to_their_evidence() {
    let trace = json!({"situation": "s", "rationale": "r", "action": "a", "outcome": "o",
        "observed_at": "2026-12-07T10:00:00Z"});
    assert!(WireRequest::parse("record_trace", &json!({"traces": [trace]})).is_ok());
    assert_eq!(
        refused("record_trace", json!({"traces": []})),
        "-32602 \"traces\" is empty: give one trace or more"
    );
    assert_eq!(
        refused("record_trace", json!({"traces": [{"situation": "s"}]})),
        "-32602 \"traces[0].rationale\" is missing"
    );
    let mut extra = trace.clone();
    extra["sbject"] = json!("x");
    assert!(refused("record_trace", json!({"traces": [trace, extra]}))
        .starts_with("-32602 traces[1] does not take \"sbject\"; it takes subject"));
    let mut wrong = trace.clone();
    wrong["artifacts"] = json!("a.py");
    assert_eq!(
        refused("record_trace", json!({"traces": [wrong]})),
        "-32602 traces[0]: \"artifacts\" must be a list of strings"
    );
    let mut cited = trace.clone();
    cited["evidence_refs"] = json!([{"source_id": "x", "locator": "l", "observed_at": "t",
        "summary": 3}]);
    assert_eq!(
        refused("record_trace", json!({"traces": [cited]})),
        "-32602 traces[0].evidence_refs[0]: \"summary\" must be a string"
    );
    let many: Vec<Value> = (0..=MAX_TRACES_PER_BATCH).map(|_| trace.clone()).collect();
    assert_eq!(
        refused("record_trace", json!({"traces": many})),
        "-32602 \"traces\" holds 101 objects; at most 100 are taken at once"
    );
    assert_eq!(
        refused("record_trace", json!({"traces": ["x"]})),
        "-32602 \"traces[0]\" must be an object"
    );
}

#[test]
fn recall_needs_words_or_anchors_and_keeps_its_bounds() {
    assert_eq!(
        refused("recall", json!({"anchors": [" "]})),
        "-32602 give a \"query\" (words) or \"anchors\" (trace ids, subjects, paths, run ids)"
    );
    assert_eq!(
        refused("recall", json!({"query": "x", "max_nodes": 0})),
        "-32602 \"max_nodes\" must be from 1 to 1000; 0 is out of range"
    );
    assert_eq!(
        refused("recall", json!({"query": "x", "max_nodes": 1001})),
        "-32602 \"max_nodes\" must be from 1 to 1000; 1001 is out of range"
    );
    assert_eq!(
        refused("recall", json!({"query": "x", "token_budget": 0})),
        "-32602 \"token_budget\" must be from 1 to 100000; 0 is out of range"
    );
    let Ok(Request::Recall(recall)) = Request::parse("recall", &json!({"query": " x "})) else {
        panic!()
    };
    assert_eq!((recall.query.as_deref(), recall.max_nodes, recall.max_depth), (Some("x"), 20, 2));
}
