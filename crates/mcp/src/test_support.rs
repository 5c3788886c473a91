//! Test doubles: a daemon caller answering canned answers per method and recording each
//! request, and canned answers shaped like the daemon's (written as JSON, read back typed).

use std::collections::HashMap;
use std::sync::Mutex;

use tether_protocol::rpc::RpcError;
use tether_protocol::wire::Answer;
use tether_protocol::{json, Method, Request, Value};

use crate::DaemonCaller;

/// Answers each method with its canned result; records every request.
#[derive(Default)]
pub struct CannedDaemonCaller {
    answers: HashMap<String, Result<Answer, RpcError>>,
    pub recorded_calls: Mutex<Vec<Request>>,
}

impl CannedDaemonCaller {
    /// `answer` is the JSON the daemon would write; it must have the method's shape.
    pub fn answering(
        mut self,
        method: &str,
        answer: Result<Value, RpcError>,
    ) -> CannedDaemonCaller {
        let typed = answer.map(|answer| typed_answer(method, answer));
        self.answers.insert(method.to_string(), typed);
        self
    }

    pub fn calls(&self) -> Vec<Request> {
        self.recorded_calls.lock().map(|calls| calls.clone()).unwrap_or_default()
    }
}

/// A canned answer read back as the method's typed answer.
pub fn typed_answer(method: &str, answer: Value) -> Answer {
    let method = Method::from_name(method).expect("a known method");
    Answer::from_json(method, answer).unwrap_or_else(|error| panic!("a canned answer: {error}"))
}

/// The request a call with these JSON params parses into.
pub fn request_of(method: &str, params: Value) -> Request {
    Request::parse(method, &params).expect("valid params")
}

impl DaemonCaller for CannedDaemonCaller {
    fn call(&self, request: &Request) -> Result<Answer, RpcError> {
        if let Ok(mut calls) = self.recorded_calls.lock() {
            calls.push(request.clone());
        }
        let method = request.method().as_str();
        self.answers.get(method).cloned().unwrap_or_else(|| {
            Err(RpcError::new(RpcError::METHOD_NOT_FOUND, format!("unknown method {method:?}")))
        })
    }
}

pub fn sample_freshness() -> Value {
    json!({
        "indexed_commit": "0123456789abcdef0123456789abcdef01234567",
        "head_commit": "0123456789abcdef0123456789abcdef01234567",
        "head_branch": "main",
        "head_moved": false,
        "uncommitted_files": ["app/core.py", "app/api.py"],
        "stale": true,
    })
}

/// One blast item at `distance`, named `app.module_<number>.handler_<number>`.
pub fn sample_blast_item(number: usize, distance: u64) -> Value {
    let name = format!("app.module_{number}.handler_{number}");
    let mut via = vec![json!("app.core.compute")];
    if distance > 1 {
        via.push(json!("app.api.handle"));
    }
    via.push(json!(name));
    json!({
        "id": format!("{number:016x}"),
        "qualified_name": name,
        "kind": "function",
        "path": format!("app/module_{number}.py"),
        "line": 10 + number,
        "end_line": 20 + number,
        "is_test": false,
        "distance": distance,
        "severity": if distance == 1 { "breaks" } else { "maybe" },
        "confidence": 0.95,
        "edge": "CALLS",
        "site": format!("app/module_{number}.py:{}", 12 + number),
        "via": via,
    })
}

/// A blast answer with `item_count` items of `total`, lower-bound completeness.
pub fn sample_blast_answer(item_count: usize, total: usize, next_cursor: Option<&str>) -> Value {
    json!({
        "subject": "app.core.compute",
        "seeds": 1,
        "depth": 3,
        "total": total,
        "breaks": 2,
        "items": (0..item_count).map(|number| sample_blast_item(number, if number < 2 { 1 } else { 2 })).collect::<Vec<_>>(),
        "tests_affected": [{
            "id": "7ef08205a940bc9a", "qualified_name": "tests.test_core.test_compute", "kind": "function",
            "path": "tests/test_core.py", "line": 4, "end_line": 6, "is_test": true,
            "why": ["static"],
        }],
        "tests_total": 1,
        "tests_truncated": false,
        "evidence_commit": null,
        "next_cursor": next_cursor,
        "completeness": {
            "status": "lower_bound",
            "causes": [
                { "kind": "unresolved_call_sites", "name": "compute", "count": 3, "examples": [{ "site": "app/dyn.py:7", "callee": "obj.compute" }] },
                { "kind": "uncertain_edges", "count": 1 },
            ],
        },
        "freshness": sample_freshness(),
        "next": "callers {\"symbol\": \"app.module_0.handler_0\"} to see how the top dependent uses it",
    })
}

/// The -32002 error the daemon answers for an ambiguous address.
pub fn sample_ambiguous_error() -> RpcError {
    RpcError::new(RpcError::AMBIGUOUS_SYMBOL, "\"compute\" matches 2 symbols; call again with one of these ids or qualified names").with_data(json!({
        "kind": "ambiguous",
        "address": "compute",
        "candidates": [
            { "id": "aaaaaaaaaaaaaaaa", "qualified_name": "app.core.compute", "kind": "function", "path": "app/core.py", "line": 1 },
            { "id": "bbbbbbbbbbbbbbbb", "qualified_name": "app.legacy.compute", "kind": "function", "path": "app/legacy.py", "line": 9 },
        ],
    }))
}
