//! The session driven by an in-memory editor over a scripted daemon.

use std::path::Path;

use lsp_server::Message;
use serde_json::{json, Value};

use crate::documents::uri_of_path;
use crate::test_support::{symbol, Editor, ScriptedDaemon};
use crate::GraphPublished;

const APP: &str = "def helper():\n    return 1\n\n\ndef run():\n    return helper()\n";

/// A repository with `app.py`: `run` (lines 5-6) calls `helper` (lines 1-2) on line 6.
fn scripted(root: &Path) -> ScriptedDaemon {
    std::fs::write(root.join("app.py"), APP).unwrap();
    let mut daemon = ScriptedDaemon::new(root.to_path_buf());
    let module = symbol("m0", "app", "module", "app.py", (1, 6));
    let helper = symbol("h1", "app.helper", "function", "app.py", (1, 2));
    let run = symbol("r2", "app.run", "function", "app.py", (5, 6));
    daemon.outlines.insert("app.py".into(), vec![module, helper.clone(), run.clone()]);
    daemon.callers.insert("h1".into(), vec![(run, "app.py:6".into())]);
    daemon.callees.insert("r2".into(), vec![(helper, "app.py:6".into())]);
    daemon
}

fn app_uri(root: &Path) -> String {
    uri_of_path(&root.join("app.py")).unwrap().as_str().to_string()
}

fn position(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

#[test]
fn requests_before_initialize_are_refused_and_exit_after_shutdown_ends_cleanly() {
    let root = tempfile::tempdir().unwrap();
    let (server, client) = lsp_server::Connection::memory();
    let (_published, receiver) = crossbeam_channel::unbounded::<GraphPublished>();
    let mut daemon = scripted(root.path());
    let session = std::thread::spawn(move || crate::serve(&server, &mut daemon, &receiver));
    let early = lsp_server::Request {
        id: 1.into(),
        method: "textDocument/hover".into(),
        params: position("file:///x.py", 0, 0),
    };
    client.sender.send(Message::Request(early)).unwrap();
    match client.receiver.recv().unwrap() {
        Message::Response(response) => assert_eq!(response.error.unwrap().code, -32002),
        other => panic!("{other:?}"),
    }
    drop(client);
    assert!(session.join().unwrap().is_ok(), "a closed editor ends the session");

    let editor = Editor::start(scripted(root.path()));
    editor.stop().expect("shutdown, then exit");
}

#[test]
fn open_documents_are_the_connections_buffers_until_closed() {
    let root = tempfile::tempdir().unwrap();
    let daemon = scripted(root.path());
    let log = daemon.log.clone();
    let mut editor = Editor::start(daemon);
    let uri = app_uri(root.path());
    editor.open(&uri, APP);
    let readme = uri_of_path(&root.path().join("README.md")).unwrap();
    editor.open(readme.as_str(), "# not source\n");
    editor.notify(
        "textDocument/didChange",
        json!({
            "textDocument": { "uri": uri, "version": 2 },
            "contentChanges": [{ "text": format!("{APP}\n\ndef extra():\n    run()\n") }]
        }),
    );
    editor.notify("textDocument/didClose", json!({ "textDocument": { "uri": uri } }));
    // A request orders the notifications before it: they are handled when it is answered.
    editor.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    let seen: Vec<String> = log.lock().unwrap().clone();
    assert_eq!(
        seen[..3],
        ["buffer_update app.py v1 6", "buffer_update app.py v2 10", "buffer_close app.py"],
        "{seen:?}"
    );
    editor.stop().unwrap();
}

#[test]
fn the_call_hierarchy_starts_at_the_callee_under_the_cursor() {
    let root = tempfile::tempdir().unwrap();
    let mut editor = Editor::start(scripted(root.path()));
    let uri = app_uri(root.path());
    editor.open(&uri, APP);

    // On `helper` in `return helper()`: the callee, not the enclosing `run`.
    let items = editor.request("textDocument/prepareCallHierarchy", position(&uri, 5, 12));
    assert_eq!(items[0]["detail"], "app.helper", "{items}");
    assert_eq!(items[0]["selectionRange"]["start"], json!({ "line": 0, "character": 4 }));
    // In `run`'s body, off any call: `run`.
    let enclosing = editor.request("textDocument/prepareCallHierarchy", position(&uri, 5, 2));
    assert_eq!(enclosing[0]["detail"], "app.run", "{enclosing}");

    let incoming = editor.request("callHierarchy/incomingCalls", json!({ "item": items[0] }));
    assert_eq!(incoming[0]["from"]["detail"], "app.run", "{incoming}");
    let call_site =
        json!({ "start": { "line": 5, "character": 11 }, "end": { "line": 5, "character": 17 } });
    assert_eq!(incoming[0]["fromRanges"], json!([call_site]));

    let outgoing = editor.request("callHierarchy/outgoingCalls", json!({ "item": enclosing[0] }));
    assert_eq!(outgoing[0]["to"]["detail"], "app.helper", "{outgoing}");
    assert_eq!(outgoing[0]["fromRanges"], json!([call_site]));
    editor.stop().unwrap();
}

#[test]
fn code_lenses_count_callers_blast_and_tests_with_lower_bounds_marked() {
    let root = tempfile::tempdir().unwrap();
    let mut daemon = scripted(root.path());
    daemon.lower_bounds.push("r2".into());
    let mut editor = Editor::start(daemon);
    let uri = app_uri(root.path());
    let lenses = editor.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    let lenses = lenses.as_array().unwrap().clone();
    assert_eq!(lenses.len(), 2, "functions get lenses, the module does not: {lenses:?}");
    let titles: Vec<Value> = lenses
        .iter()
        .map(|lens| editor.request("codeLens/resolve", lens.clone())["command"]["title"].clone())
        .collect();
    assert_eq!(titles, ["1 call site · blast 2 · 1 test", "≥0 call sites · blast ≥1 · ≥1 test"]);

    let resolved = editor.request("codeLens/resolve", lenses[0].clone());
    let blast = editor.request("workspace/executeCommand", resolved["command"].clone());
    assert_eq!((blast["subject"].as_str(), blast["total"].as_u64()), (Some("h1"), Some(2)));
    let shown: Vec<&Value> =
        editor.notifications.iter().map(|shown| &shown.params["message"]).collect();
    assert_eq!(shown, [&json!("blast of h1: 2 dependents (1 break) · 1 test · exact")]);

    let gone = json!({ "range": lenses[0]["range"], "data": { "symbol": "deleted" } });
    assert_eq!(editor.request("codeLens/resolve", gone)["command"]["title"], "not in the graph");
    editor.stop().unwrap();
}

/// Kinds turned off in the settings get no lens; a dunder gets one only when something
/// calls it; a mistake in the settings is said, and the rest applied.
#[test]
fn lenses_follow_the_settings_and_skip_protocol_methods_nothing_calls() {
    let root = tempfile::tempdir().unwrap();
    let mut daemon = scripted(root.path());
    let point = symbol("p3", "app.Point", "class", "app.py", (1, 6));
    let eq = symbol("e4", "app.Point.__eq__", "method", "app.py", (1, 2));
    let hash = symbol("h5", "app.Point.__hash__", "method", "app.py", (5, 6));
    let run = symbol("r2", "app.run", "function", "app.py", (5, 6));
    daemon.outlines.get_mut("app.py").unwrap().extend([point, eq, hash]);
    daemon.callers.insert("h5".into(), vec![(run, "app.py:6".into())]);
    let options = json!({ "lenses": { "class": false, "module": true } });
    let mut editor = Editor::start_with(daemon, options);
    let uri = app_uri(root.path());
    let lenses = editor.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    let symbols: Vec<&str> = lenses
        .as_array()
        .unwrap()
        .iter()
        .map(|lens| lens["data"]["symbol"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["h1", "r2", "h5"], "{lenses}");
    let shown: Vec<&Value> =
        editor.notifications.iter().map(|shown| &shown.params["message"]).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].as_str().unwrap().contains("unknown kind \"module\""), "{shown:?}");
    editor.stop().unwrap();
}

#[test]
fn a_new_daemon_connection_gets_the_buffers_again_before_the_request_is_retried() {
    let root = tempfile::tempdir().unwrap();
    let mut daemon = scripted(root.path());
    // Calls: status (1), the buffer (2), then the lens request's outline breaks.
    daemon.reconnect_before_call = Some(3);
    let log = daemon.log.clone();
    let mut editor = Editor::start(daemon);
    let uri = app_uri(root.path());
    editor.open(&uri, APP);
    editor.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
    let seen: Vec<String> = log.lock().unwrap().clone();
    assert_eq!(
        seen,
        [
            "buffer_update app.py v1 6",
            "reconnected",
            "outline app.py",
            "buffer_update app.py v1 6",
            "outline app.py"
        ],
    );
    editor.stop().unwrap();
}

#[test]
fn a_published_graph_asks_the_editor_to_refresh_its_lenses() {
    let root = tempfile::tempdir().unwrap();
    let editor = Editor::start(scripted(root.path()));
    let published = GraphPublished {
        indexed_commit: None,
        changed_files: vec!["app.py".into()],
        changed_files_total: 1,
    };
    editor.published.send(published).unwrap();
    match editor.receive() {
        Message::Request(request) => assert_eq!(request.method, "workspace/codeLens/refresh"),
        other => panic!("{other:?}"),
    }
    editor.stop().unwrap();
}

#[test]
fn hovers_and_references_answer_for_the_symbol_under_the_cursor() {
    let root = tempfile::tempdir().unwrap();
    let mut editor = Editor::start(scripted(root.path()));
    let uri = app_uri(root.path());
    let hover = editor.request("textDocument/hover", position(&uri, 0, 5));
    let markdown = hover["contents"]["value"].as_str().unwrap().to_string();
    assert!(markdown.starts_with("**`app.helper`** · function · `app.py:1`"), "{markdown}");
    assert!(markdown.contains("1 call site · blast 2 · 1 test"), "{markdown}");

    let mut references = position(&uri, 0, 5);
    references["context"] = json!({ "includeDeclaration": true });
    let locations = editor.request("textDocument/references", references);
    let lines: Vec<&Value> =
        locations.as_array().unwrap().iter().map(|l| &l["range"]["start"]["line"]).collect();
    assert_eq!(lines, [&json!(0), &json!(5)], "{locations}");
    editor.stop().unwrap();
}
