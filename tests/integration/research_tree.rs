//! The research tree over the daemon's handlers (issue 45): `record` keeps the levels (one
//! project, no plan under a phase), `tree` shows the project, its phases and their
//! completeness (the same score in `open_phases` and `brief`), names the entries that break
//! the levels and still shows the rest; a second `brief` is cached and identical, and an
//! amended descendant invalidates it; no read touches HEAD or the working tree.

use tether_daemon::DaemonState;
use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository, APP_FIXTURE};

fn call(state: &DaemonState, method: &str, params: Value) -> Value {
    crate::handle_json(state, method, &params)
        .unwrap_or_else(|error| panic!("{method} {params} failed: {error:?}"))
}

fn entry(id: &str, kind: &str, parent: Option<&str>, extra: &str, day: u32) -> String {
    let parent = parent.map(|parent| format!("parent: {parent}\n")).unwrap_or_default();
    format!("---\nid: {id}\ntype: {kind}\ntitle: Title of {id}\nstatus: active\n{parent}created_at: 2026-12-{day:02}T00:00:00Z\nupdated_at: 2026-12-{day:02}T00:00:00Z\n{extra}---\nBody.\n")
}

fn write_tree(repository: &mut FixtureRepository) {
    let files = [
        ("plans", "project", "plan", None, "", 1),
        ("plans", "parser", "plan", Some("project"), "", 1),
        ("plans", "tokens", "plan", Some("parser"), "", 2),
        ("plans", "grammar", "plan", Some("parser"), "", 2),
        ("experiments", "try-regex", "experiment", Some("tokens"), "", 3),
        ("decisions", "use-a-lexer", "decision", Some("tokens"), "supersedes: [try-regex]\n", 4),
        ("checkpoints", "tokens-done", "checkpoint", Some("tokens"), "", 5),
        ("todos", "write-grammar", "todo", Some("grammar"), "", 6),
        ("plans", "stray-root", "plan", None, "", 7),
    ];
    for (folder, id, kind, parent, extra, day) in files {
        repository
            .write(&format!(".memory/{folder}/{id}.md"), &entry(id, kind, parent, extra, day));
    }
    repository.commit_all("the research tree");
}

#[test]
fn the_tree_its_open_phases_and_briefs_agree_and_reads_write_nothing() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    write_tree(&mut repository);
    let state = indexed_daemon(&repository);
    let head = repository.git(&["rev-parse", "HEAD"]);

    let tree = call(&state, "tree", json!({ "plans_only": true }));
    assert_eq!(tree["project"], "project");
    let rows: Vec<String> = tree["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|node| {
            format!(
                "{}{} {} {}",
                "  ".repeat(node["depth"].as_u64().unwrap() as usize),
                node["id"].as_str().unwrap(),
                node["level"].as_str().unwrap_or("-"),
                node["completeness"]
            )
        })
        .collect();
    // tokens: a checkpoint, its one thread resolved, all settled: 1; grammar: an open todo
    // only: 0; the subproject and the project: their mean, 0.5. The stray root is no level.
    // Siblings by creation, then id.
    assert_eq!(
        rows,
        [
            "project project 0.5",
            "  parser subproject 0.5",
            "    grammar phase 0.0",
            "    tokens phase 1.0",
            "stray-root - null",
        ]
    );
    assert_eq!(
        tree["problems"],
        json!(["stray-root: a second root plan: the project is `project`; a plan goes under it"])
    );
    let whole = call(&state, "tree", json!({ "limit": 3 }));
    assert_eq!(whole["total"], 9);
    assert_eq!(whole["next_cursor"], "o:3");

    let open = call(&state, "open_phases", json!({}));
    assert_eq!(open["total"], 1);
    assert_eq!(open["items"][0]["id"], "grammar");
    assert_eq!(open["items"][0]["completeness"], 0.0);

    let brief = call(&state, "brief", json!({ "id": "parser" }));
    assert_eq!(brief["completeness"], 0.5, "the same score as the tree's");
    assert_eq!(brief["cached"], false);
    assert_eq!(brief["concluding_checkpoint"]["id"], "tokens-done");
    assert_eq!(brief["open_threads"], 1);
    assert_eq!(brief["central"][0]["id"], "tokens");
    let again = call(&state, "brief", json!({ "id": "parser" }));
    assert_eq!(again["cached"], true);
    assert_eq!(
        Value::Object(
            again.as_object().unwrap().clone().into_iter().filter(|(k, _)| k != "cached").collect()
        ),
        Value::Object(
            brief.as_object().unwrap().clone().into_iter().filter(|(k, _)| k != "cached").collect()
        )
    );
    // A descendant amended (its todo superseded by a new decision): the brief is made again.
    repository.write(
        ".memory/decisions/grammar-by-hand.md",
        &entry("grammar-by-hand", "decision", Some("grammar"), "supersedes: [write-grammar]\n", 8),
    );
    let amended = call(&state, "brief", json!({ "id": "parser" }));
    assert_eq!(amended["cached"], false);
    assert_eq!(amended["open_threads"], 0);
    std::fs::remove_file(repository.root().join(".memory/decisions/grammar-by-hand.md")).unwrap();

    let unknown = crate::handle_json(&state, "brief", &json!({ "id": "ghost" })).unwrap_err();
    assert_eq!(unknown.code, -32602);
    // Reads wrote nothing: HEAD and the working tree are as they were.
    assert_eq!(repository.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(repository.git(&["status", "--porcelain"]), "");
}

#[test]
fn record_keeps_the_levels_of_the_tree() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    write_tree(&mut repository);
    let state = indexed_daemon(&repository);
    let refused = |params: Value| {
        let error = crate::handle_json(&state, "record", &params).unwrap_err();
        assert_eq!(error.code, -32602, "{}", error.message);
        error.message
    };
    assert!(refused(json!({ "type": "plan", "title": "Another project", "commit": "HEAD" }))
        .contains("the project is `project` already"));
    assert!(refused(
        json!({ "type": "plan", "title": "Deeper", "parent": "tokens", "commit": "HEAD" })
    )
    .contains("`tokens` is a phase"));
    assert!(refused(
        json!({ "type": "plan", "title": "Under", "parent": "use-a-lexer", "commit": "HEAD" })
    )
    .contains("is a decision"));
    let recorded = call(
        &state,
        "record",
        json!({ "type": "plan", "title": "Semantics", "parent": "project", "commit": "HEAD" }),
    );
    assert_eq!(recorded["id"], "semantics");
}
