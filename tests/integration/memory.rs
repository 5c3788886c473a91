//! The memory graph on a fixture repository: `record` with its refusals, tethers marked
//! `changed` and `referenced`, tethers that survive a line shift and a file rename,
//! staleness counts, `needs_recheck` through a two-step `depends_on` chain, and a malformed
//! entry reported while the others load.

use tether_daemon::DaemonState;
use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository};

const TEXT_TOOLS: &str = r#"
//- /lib/__init__.py
//- /lib/core.py
def parse(text):
    return text.split()

def render(items):
    return ", ".join(items)
//- /lib/other.py
def helper():
    return 1
"#;

fn call(state: &DaemonState, method: &str, params: Value) -> Value {
    crate::handle_json(state, method, &params)
        .unwrap_or_else(|error| panic!("{method} {params} failed: {error:?}"))
}

fn refusal(state: &DaemonState, params: Value) -> String {
    crate::handle_json(state, "record", &params)
        .err()
        .unwrap_or_else(|| panic!("record {params} was accepted"))
        .message
}

fn chain(answer: &Value) -> Vec<(String, String)> {
    answer["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            (
                entry["id"].as_str().unwrap().to_string(),
                entry["tether"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn record_tethers_survive_shifts_and_renames_and_report_staleness() {
    let mut repository = FixtureRepository::new(TEXT_TOOLS);
    let state = indexed_daemon(&repository);

    // Refusals: nothing is written for any of them.
    assert!(refusal(&state, json!({ "type": "musing", "title": "x" })).contains("unknown type"));
    assert!(refusal(&state, json!({ "type": "note", "title": "  " })).contains("title is empty"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "parent": "nope" }))
        .contains("does not exist"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "files": ["../outside.py"] }))
        .contains("escapes"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "files": ["/etc/hostname"] }))
        .contains("outside"));
    // Paths are named as written, not as a debug list (`["lib/core.py"]`).
    let unchanged =
        refusal(&state, json!({ "type": "note", "title": "x", "files": ["lib/core.py"] }));
    assert!(unchanged.contains("nothing to commit in lib/core.py:"), "{unchanged}");
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "commit": "0123456789abcdef0123456789abcdef01234567" })).contains("no commit"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "id": "../evil" }))
        .contains("invalid id"));
    // References must name entries that exist (an entry pointing at a ghost once committed
    // fine and then vanished from search and context).
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "supersedes": ["ghost"] }))
        .contains("does not exist"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "depends_on": ["Not An Id"] }))
        .contains("depends_on"));
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "related": [7] }))
        .contains("list of strings"));
    assert!(refusal(&state, json!({ "type": "note", "title": "two\nlines" })).contains("one line"));
    assert!(!repository.root().join(".memory").exists(), "a refused record writes nothing");

    // A decision recorded with the change it explains: the changed function is tethered.
    repository.write("lib/core.py", "def parse(text):\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n");
    let recorded = call(
        &state,
        "record",
        json!({ "type": "decision", "title": "Split on commas", "body": "CSV input.", "files": ["lib/core.py"] }),
    );
    assert_eq!(recorded["id"], "split-on-commas");
    let context = call(&state, "context", json!({ "symbol": "lib.core.parse" }));
    assert_eq!(chain(&context), [("split-on-commas".to_string(), "changed".to_string())]);
    assert_eq!(context["tip"], "split-on-commas");
    assert_eq!(context["chain"][0]["staleness"]["commits_since"], 0);
    assert!(
        chain(&call(&state, "context", json!({ "symbol": "lib.core.render" }))).is_empty(),
        "render was not changed by the pin"
    );

    // A note pinned to a commit that did not touch a file's symbols is `referenced` on it.
    let pin = repository.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    repository.write(".memory/notes/helper-note.md", &format!("---\nid: helper-note\ntype: note\ntitle: Helper is trivial\nstatus: active\ncreated_at: 2026-01-02T00:00:00Z\nupdated_at: 2026-01-02T00:00:00Z\npins:\n  - commit: {pin}\n    files: [lib/other.py]\n---\nBody.\n"));
    repository.commit_all("note");
    let context = call(&state, "context", json!({ "path": "lib/other.py" }));
    assert_eq!(chain(&context), [("helper-note".to_string(), "referenced".to_string())]);

    // Lines shift above `parse`: the tether holds, and nothing changed in its lines.
    repository.write("lib/core.py", "import os\n\n\ndef parse(text):\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n");
    repository.commit_all("imports");
    wait_for_head(&state, &repository);
    let context = call(&state, "context", json!({ "symbol": "lib.core.parse" }));
    assert_eq!(chain(&context), [("split-on-commas".to_string(), "changed".to_string())]);
    assert_eq!(context["chain"][0]["staleness"]["commits_since"], 0);

    // Two later edits by two authors: the decision predates them.
    repository.write("lib/core.py", "import os\n\n\ndef parse(text):\n    return [word.strip() for word in text.split(\",\")]\n\ndef render(items):\n    return \", \".join(items)\n");
    repository.commit_all_as("Bea", "bea@example.com", "strip words");
    repository.write("lib/core.py", "import os\n\n\ndef parse(text):\n    return [word.strip() for word in text.split(\",\") if word]\n\ndef render(items):\n    return \", \".join(items)\n");
    repository.commit_all_as("Cy", "cy@example.com", "drop empty words");
    wait_for_head(&state, &repository);
    let context = call(&state, "context", json!({ "symbol": "lib.core.parse" }));
    assert_eq!(context["chain"][0]["staleness"]["commits_since"], 2);
    assert_eq!(context["chain"][0]["staleness"]["authors"], json!(["Bea", "Cy"]));

    // The file moves: the tether follows git's rename detection.
    repository.git(&["mv", "lib/core.py", "lib/text.py"]);
    repository.commit_all("rename");
    wait_for_head(&state, &repository);
    let context = call(&state, "context", json!({ "symbol": "lib.text.parse" }));
    assert_eq!(chain(&context), [("split-on-commas".to_string(), "changed".to_string())]);

    // The memory graph is stored beside the code graph.
    state.persist_now().expect("persist");
    let store = tether_store::GraphStore::open(
        &repository.root().join(".git/tether/graph.lbug"),
        tether_store::StoreConfig { buffer_pool_bytes: 128 << 20, max_threads: 1 },
    )
    .unwrap();
    let (_, rows) = store.query_as_text("MATCH (e:Entry)-[t:TETHER]->(s:Symbol) RETURN e.id, t.kind, s.qualified_name ORDER BY e.id").unwrap();
    assert_eq!(
        rows,
        [
            ["helper-note", "referenced", "lib.other"],
            ["split-on-commas", "changed", "lib.text.parse"]
        ]
    );
}

fn wait_for_head(state: &DaemonState, repository: &FixtureRepository) {
    let head = repository.git(&["rev-parse", "HEAD"]).trim().to_string();
    state.rebuild().expect("rebuild");
    assert_eq!(state.snapshot().unwrap().meta.head_commit.as_deref(), Some(head.as_str()));
}

#[test]
fn needs_recheck_through_a_two_step_chain_and_malformed_entries_reported() {
    let mut repository = FixtureRepository::new(TEXT_TOOLS);
    let pin = repository.git(&["rev-parse", "HEAD"]).trim().to_string();
    let entry = |id: &str, title: &str, extra: &str| {
        format!("---\nid: {id}\ntype: decision\ntitle: {title}\nstatus: active\ncreated_at: 2026-01-0{}T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\npins:\n  - commit: {pin}\n    files: [lib/core.py]\n{extra}---\nBody.\n", id.len() % 9 + 1)
    };
    repository.write(".memory/decisions/a.md", &entry("a", "Use parse", "depends_on: [b]\n"));
    repository.write(".memory/decisions/b.md", &entry("b", "Parse is stable", "depends_on: [c]\n"));
    repository.write(".memory/decisions/c.md", &entry("c", "Whitespace split", ""));
    repository.write(".memory/decisions/d.md", &entry("dd", "Comma split", "supersedes: [c]\n"));
    repository.write(".memory/notes/broken.md", "---\nid: broken\ntype: note\ntitle: [unclosed\n");
    repository.commit_all("entries");
    let state = indexed_daemon(&repository);
    let context = call(&state, "context", json!({ "symbol": "lib.core.parse" }));
    let verdicts: Vec<(String, Value)> = context["chain"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| (entry["id"].as_str().unwrap().to_string(), entry["needs_recheck"].clone()))
        .collect();
    let a = verdicts.iter().find(|(id, _)| id == "a").expect("a is tethered");
    assert_eq!(a.1["status"], "needs_recheck", "{context}");
    assert_eq!(a.1["path"], json!(["a", "b", "c", "dd"]));
    let problems = context["memory_problems"].as_array().unwrap();
    assert!(
        problems
            .iter()
            .any(|problem| problem.as_str().unwrap().contains(".memory/notes/broken.md")),
        "{problems:?}"
    );
    assert_eq!(verdicts.len(), 4, "the malformed entry loses no other entry");

    let found = call(&state, "search_memory", json!({ "query": "split" }));
    let ids: Vec<&str> = found["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"c") && ids.contains(&"dd"), "{found}");
}

/// A `.memory` that is a link would make `record` write outside the repository; a file
/// argument is a literal path, never a glob; a refused or failed record leaves nothing staged.
#[test]
fn record_refuses_links_and_takes_file_names_literally() {
    let repository = FixtureRepository::new(TEXT_TOOLS);
    let state = indexed_daemon(&repository);
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), repository.root().join(".memory")).unwrap();
    repository.write("lib/core.py", "def parse(text):\n    return text.split(\";\")\n\ndef render(items):\n    return \", \".join(items)\n");
    assert!(refusal(&state, json!({ "type": "note", "title": "x", "files": ["lib/core.py"] }))
        .contains("symbolic link"));
    assert_eq!(
        std::fs::read_dir(outside.path()).unwrap().count(),
        0,
        "nothing was written through the link"
    );
    assert_eq!(repository.git(&["diff", "--cached", "--name-only"]), "", "nothing was left staged");
    std::fs::remove_file(repository.root().join(".memory")).unwrap();

    // `*.py` names the file called `*.py`, not every Python file.
    repository.write("lib/*.py", "odd = 1\n");
    let recorded = call(
        &state,
        "record",
        json!({ "type": "note", "title": "An odd name", "files": ["lib/*.py"] }),
    );
    let pinned = recorded["pinned_commit"].as_str().unwrap().to_string();
    let committed = repository.git(&["show", "--name-only", "--format=", &pinned]);
    assert_eq!(committed.trim(), "lib/*.py");
    assert!(
        repository.git(&["status", "--porcelain", "--", "lib/core.py"]).starts_with(" M"),
        "the other change stays uncommitted"
    );
}

/// A pin is mapped once, ever: the next daemon reads `pin-tethers.tsv` instead of diffing the
/// commit again (here the file is edited to tether another function, and the restarted daemon
/// answers from the file). A file from another version, or a torn last batch, is ignored.
#[test]
fn mapped_pins_are_persisted_and_read_by_the_next_daemon() {
    let repository = FixtureRepository::new(TEXT_TOOLS);
    let state = indexed_daemon(&repository);
    repository.write("lib/core.py", "def parse(text):\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n");
    let recorded = call(
        &state,
        "record",
        json!({ "type": "decision", "title": "Split on commas", "files": ["lib/core.py"] }),
    );
    assert_eq!(
        chain(&call(&state, "context", json!({ "symbol": "lib.core.parse" }))),
        [("split-on-commas".to_string(), "changed".to_string())]
    );
    let persisted = repository.root().join(".git/tether/pin-tethers.tsv");
    let text = std::fs::read_to_string(&persisted).expect("the mapped pins are persisted");
    let pin = recorded["pinned_commit"].as_str().unwrap();
    assert!(
        text.contains(&format!(
            "P\t{pin}\tlib/core.py\nT\tchanged\tlib/core.py\tparse\tfunction\n"
        )),
        "{text}"
    );
    drop(state);

    std::fs::write(&persisted, text.replace("\tparse\tfunction", "\trender\tfunction")).unwrap();
    let restarted = indexed_daemon(&repository);
    assert!(chain(&call(&restarted, "context", json!({ "symbol": "lib.core.parse" }))).is_empty());
    assert_eq!(
        chain(&call(&restarted, "context", json!({ "symbol": "lib.core.render" }))),
        [("split-on-commas".to_string(), "changed".to_string())]
    );
    drop(restarted);

    // Another version's file is not trusted: the pin is mapped again from git.
    std::fs::write(
        &persisted,
        text.replace("tether-pin-tethers 1", "tether-pin-tethers 0")
            .replace("\tparse\tfunction", "\trender\tfunction"),
    )
    .unwrap();
    let again = indexed_daemon(&repository);
    assert_eq!(
        chain(&call(&again, "context", json!({ "symbol": "lib.core.parse" }))),
        [("split-on-commas".to_string(), "changed".to_string())]
    );
}

#[test]
fn a_dry_run_record_says_what_it_would_commit_and_on_which_branch_and_writes_nothing() {
    let repository = FixtureRepository::new(TEXT_TOOLS);
    let state = indexed_daemon(&repository);
    repository.write("lib/core.py", "def parse(text):\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n");
    let head = repository.git(&["rev-parse", "HEAD"]);
    let status = repository.git(&["status", "--porcelain"]);
    let params = json!({ "type": "decision", "title": "Split on commas", "files": ["lib/core.py"], "dry_run": true });
    let answer = call(&state, "record", params);
    assert_eq!(answer["dry_run"], true, "{answer}");
    assert_eq!(answer["branch"], "main", "{answer}");
    assert_eq!(answer["entry_commit"], Value::Null, "{answer}");
    assert_eq!(
        answer["commits"],
        json!([
            { "message": "decision: Split on commas", "files": ["lib/core.py"] },
            { "message": "memory: decision: Split on commas", "files": [answer["file"].clone()] },
        ]),
        "{answer}"
    );
    assert_eq!(repository.git(&["rev-parse", "HEAD"]), head, "no commit");
    assert_eq!(repository.git(&["status", "--porcelain"]), status, "nothing staged or written");
    assert!(!repository.root().join(".memory").exists());
    // A dry run checks as a record does.
    let refused =
        json!({ "type": "note", "title": "x", "files": ["lib/other.py"], "dry_run": true });
    assert!(refusal(&state, refused).contains("nothing to commit"));
    // The same record without dry_run commits what the dry run said.
    let params =
        json!({ "type": "decision", "title": "Split on commas", "files": ["lib/core.py"] });
    let recorded = call(&state, "record", params);
    assert_eq!(recorded["commits"], answer["commits"], "{recorded}");
    assert_eq!(recorded["dry_run"], false);
    let subjects = repository.git(&["log", "-2", "--format=%s"]);
    assert_eq!(subjects, "memory: decision: Split on commas\ndecision: Split on commas\n");
}

/// A record of a diff that touches no function (a comment at the end of a file) is shown by
/// the file, and its next hint says so: following the hint finds the entry.
#[test]
fn a_records_next_hint_names_a_call_that_shows_the_entry() {
    let repository = FixtureRepository::new(TEXT_TOOLS);
    let state = indexed_daemon(&repository);
    let text = std::fs::read_to_string(repository.root().join("lib/core.py")).unwrap();
    repository.write("lib/core.py", &format!("{text}# parsing stays naive: see the decision\n"));
    let recorded = call(
        &state,
        "record",
        json!({ "type": "decision", "title": "Naive parsing", "files": ["lib/core.py"] }),
    );
    let next = recorded["next"].as_str().unwrap();
    assert_eq!(next, r#"context {"path": "lib/core.py"} shows this entry"#);
    wait_for_head(&state, &repository);
    let context = call(&state, "context", json!({ "path": "lib/core.py" }));
    assert_eq!(chain(&context).len(), 1, "{context}");
    let by_symbol = call(&state, "context", json!({ "symbol": "lib.core.parse" }));
    assert_eq!(chain(&by_symbol).len(), 0, "the diff changed no function: {by_symbol}");
}
