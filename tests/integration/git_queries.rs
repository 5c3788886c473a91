//! `ownership` and `changes` on fixture repositories with several authors, a bot, a mailmap,
//! a rename, whitespace-only edits, and staged against unstaged changes.

use tether_daemon::DaemonState;
use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository};

const LIBRARY: &str = r#"
//- /lib/__init__.py
//- /lib/core.py
def parse(text):
    return text.split()

def render(items):
    return ", ".join(items)
//- /lib/api.py
from lib.core import parse, render

def handle(text):
    return render(parse(text))
//- /tests/test_api.py
from lib.api import handle

def test_handle():
    assert handle("a b") == "a, b"
"#;

fn call(state: &DaemonState, method: &str, params: Value) -> Value {
    crate::handle_json(state, method, &params)
        .unwrap_or_else(|error| panic!("{method} failed: {error:?}"))
}

fn owners(answer: &Value) -> Vec<(String, u64)> {
    answer["owners"]
        .as_array()
        .unwrap()
        .iter()
        .map(|owner| {
            (owner["author"].as_str().unwrap().to_string(), owner["lines"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn ownership_aggregates_blame_by_author_through_the_mailmap_without_bots() {
    let mut repository = FixtureRepository::new(LIBRARY);
    repository.write("lib/core.py", "def parse(text):\n    words = text.split()\n    return words\n\ndef render(items):\n    return \", \".join(items)\n");
    repository.commit_all_as("Bea Old", "bea@old.example", "parse in two steps");
    repository.write("lib/core.py", "def parse(text):\n    words = text.split()\n    return words\n\ndef render(items):\n    return \" | \".join(items)\n");
    repository.commit_all_as(
        "dependabot[bot]",
        "49699333+dependabot[bot]@users.noreply.github.com",
        "bump",
    );
    repository.write(".mailmap", "Bea New <bea@new.example> Bea Old <bea@old.example>\n");
    repository.commit_all("mailmap");
    let state = indexed_daemon(&repository);

    let answer = call(&state, "ownership", json!({ "symbol": "lib.core.parse" }));
    assert_eq!(owners(&answer), [("Bea New".to_string(), 2), ("Ada Fixture".to_string(), 1)]);
    assert_eq!(answer["owners"][0]["email"], "bea@new.example");
    assert_eq!(answer["owners"][0]["latest"]["summary"], "parse in two steps");

    let answer = call(&state, "ownership", json!({ "symbol": "lib.core.render" }));
    assert_eq!(owners(&answer), [("Ada Fixture".to_string(), 1)]);
    assert_eq!(answer["excluded_bot_lines"], 1);

    // Uncommitted lines are reported as such, not attributed.
    repository.write("lib/core.py", "def parse(text):\n    words = text.split()\n    return list(words)\n\ndef render(items):\n    return \" | \".join(items)\n");
    let answer = call(&state, "ownership", json!({ "path": "lib/core.py" }));
    assert_eq!(answer["not_committed_yet"], 1);

    // An untracked file degrades to a note, never an error.
    repository.write("lib/new.py", "def fresh():\n    return 1\n");
    let answer = call(&state, "ownership", json!({ "path": "lib/new.py" }));
    assert!(answer["note"].as_str().unwrap().contains("blame unavailable"), "{answer}");
}

/// A function long enough for git to recognise when it moves (40 alphanumeric characters).
const FORMAT_REPORT: &str = "def format_report(summary_lines, heading_text):\n    joined_summary = \"\\n\".join(summary_lines)\n    return heading_text + \"\\n\" + joined_summary\n";

#[test]
fn ownership_credits_moved_code_to_its_author_and_skips_listed_reformats() {
    let mut repository = FixtureRepository::new(LIBRARY);
    let core = std::fs::read_to_string(repository.root().join("lib/core.py")).unwrap();
    repository.write("lib/core.py", &format!("{core}\n{FORMAT_REPORT}"));
    repository.commit_all("format_report");
    repository.write("lib/core.py", &core);
    repository.write("lib/reports.py", FORMAT_REPORT);
    repository.commit_all_as("Mo Mover", "mo@example.com", "move format_report to its module");
    let state = indexed_daemon(&repository);
    let names = |answer: &Value| -> Vec<String> {
        owners(answer).into_iter().map(|(author, _)| author).collect()
    };

    let plain = json!({ "path": "lib/reports.py", "follow_moves": false });
    let plain = call(&state, "ownership", plain);
    assert_eq!(names(&plain), ["Mo Mover"], "plain blame credits who moved it");
    assert_eq!(plain["blame_options"], json!([]));
    let followed = call(&state, "ownership", json!({ "path": "lib/reports.py" }));
    assert_eq!(owners(&followed), [("Ada Fixture".to_string(), 3)], "{followed}");
    assert_eq!(followed["blame_options"], json!(["-w", "-M", "-C"]));

    // A mass reformat, listed in .git-blame-ignore-revs, is skipped: its lines go to the
    // commit before it (git does not follow them further through the move from there).
    repository.write("lib/reports.py", &FORMAT_REPORT.replace('"', "'"));
    let reformat = repository.commit_all_as("Cy Formatter", "cy@example.com", "single quotes");
    repository.write(".git-blame-ignore-revs", &format!("# single quotes\n{reformat}\n"));
    repository.commit_all("ignore the reformat in blame");
    let skipped = call(&state, "ownership", json!({ "path": "lib/reports.py" }));
    assert_eq!(names(&skipped), ["Mo Mover"], "{skipped}");
    assert_eq!(
        skipped["blame_options"],
        json!(["-w", "-M", "-C", "--ignore-revs-file .git-blame-ignore-revs"])
    );
    let counted =
        call(&state, "ownership", json!({ "path": "lib/reports.py", "ignore_revs_file": false }));
    assert!(names(&counted).contains(&"Cy Formatter".to_string()), "{counted}");

    // A revision git cannot read in the file: blame still answers, without the file.
    repository.write(".git-blame-ignore-revs", "not-a-revision\n");
    repository.commit_all("a broken ignore list");
    let broken = call(&state, "ownership", json!({ "path": "lib/reports.py" }));
    assert_eq!(broken["blame_options"], json!(["-w", "-M", "-C"]), "{broken}");
    assert!(names(&broken).contains(&"Cy Formatter".to_string()), "{broken}");
}

fn changed(answer: &Value) -> Vec<(String, String)> {
    answer["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|symbol| {
            (
                symbol["qualified_name"].as_str().unwrap().to_string(),
                symbol["change"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn changes_map_hunks_to_added_modified_and_deleted_symbols_then_blast() {
    let repository = FixtureRepository::new(LIBRARY);
    let state = indexed_daemon(&repository);
    // Unstaged: modify `parse`, add a function, delete `render`'s body line by line is a modification.
    repository.write(
        "lib/core.py",
        "def parse(text):\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n\ndef brand_new():\n    return 1\n",
    );
    let answer = call(&state, "changes", json!({ "scope": "unstaged" }));
    assert_eq!(
        changed(&answer),
        [
            ("lib.core.parse".to_string(), "modified".to_string()),
            ("lib.core.brand_new".to_string(), "added".to_string())
        ]
    );
    let tests: Vec<&str> = answer["tests_affected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["qualified_name"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["test_api.test_handle"]);
    assert!(answer["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|item| item["qualified_name"] == "lib.api.handle" && item["severity"] == "breaks"));

    // Staged changes are told apart from unstaged ones.
    repository.git(&["add", "lib/core.py"]);
    repository.write("lib/api.py", "from lib.core import parse, render\n\ndef handle(text):\n    return render(parse(text.strip()))\n");
    assert_eq!(changed(&call(&state, "changes", json!({ "scope": "staged" }))).len(), 2);
    assert_eq!(
        changed(&call(&state, "changes", json!({ "scope": "unstaged" }))),
        [("lib.api.handle".to_string(), "modified".to_string())]
    );
    assert_eq!(changed(&call(&state, "changes", json!({ "scope": "all" }))).len(), 3);
}

#[test]
fn comment_only_changes_are_said_as_such_and_seed_no_blast() {
    let repository = FixtureRepository::new(LIBRARY);
    let state = indexed_daemon(&repository);
    // A comment appended to the module, and one inside `parse`: no code changed.
    repository.write(
        "lib/core.py",
        "def parse(text):\n    # split on blanks\n    return text.split()\n\ndef render(items):\n    return \", \".join(items)\n# c\n",
    );
    let answer = call(&state, "changes", json!({ "scope": "unstaged" }));
    assert_eq!(
        changed(&answer),
        [
            ("lib.core".to_string(), "comments".to_string()),
            ("lib.core.parse".to_string(), "comments".to_string())
        ]
    );
    assert_eq!(answer["tests_affected"], json!([]), "{answer}");
    assert_eq!(answer["items"], json!([]), "{answer}");
    // A code line beside the comment makes it a modification again.
    repository.write(
        "lib/core.py",
        "def parse(text):\n    # split on commas\n    return text.split(\",\")\n\ndef render(items):\n    return \", \".join(items)\n",
    );
    let answer = call(&state, "changes", json!({ "scope": "unstaged" }));
    assert_eq!(changed(&answer), [("lib.core.parse".to_string(), "modified".to_string())]);
    assert_eq!(answer["tests_affected"].as_array().map(Vec::len), Some(1), "{answer}");
}

#[test]
fn changes_ignore_whitespace_edits_see_deletions_and_keep_renames_whole() {
    let mut repository = FixtureRepository::new(LIBRARY);
    let first = repository.git(&["rev-parse", "HEAD"]).trim().to_string();
    let state = indexed_daemon(&repository);
    // Whitespace only: nothing changed unless asked.
    repository.write("lib/core.py", "def parse(text):\n    return text.split()   \n\ndef render(items):\n    return \", \".join(items)\n");
    assert!(changed(&call(&state, "changes", json!({}))).is_empty());
    assert_eq!(
        changed(&call(&state, "changes", json!({ "include_whitespace": true }))),
        [("lib.core.parse".to_string(), "modified".to_string())]
    );

    // A deletion and a rename in one commit, seen through a range.
    repository.write("lib/core.py", "def parse(text):\n    return text.split()\n");
    repository.git(&["mv", "lib/api.py", "lib/service.py"]);
    let second = repository.commit_all("drop render, rename api");
    let answer = call(&state, "changes", json!({ "range": format!("{first}..{second}") }));
    let rows = changed(&answer);
    assert!(rows.contains(&("lib.core.render".to_string(), "deleted".to_string())), "{rows:?}");
    assert!(
        !rows.iter().any(|(_, change)| change == "added"),
        "a renamed file is not a deletion plus an addition: {rows:?}"
    );
    assert!(
        answer["items"]
            .as_array()
            .unwrap()
            .iter()
            .any(|item| item["qualified_name"] == "lib.api.handle"),
        "render's callers are impacted"
    );

    assert_eq!(
        crate::handle_json(&state, "changes", &json!({ "range": "nonsense" })).unwrap_err().code,
        -32602
    );
}

/// A rebuild is published only if HEAD stayed put while the working tree was read; the stamp
/// it compares changes even when HEAD goes away and comes back (`A → B → A`), which a bare
/// commit comparison would miss.
#[test]
fn the_head_stamp_sees_a_move_away_and_back() {
    let mut repository = FixtureRepository::new(LIBRARY);
    repository.git(&["checkout", "-q", "-b", "other"]);
    repository.write("lib/core.py", "def parse(text):\n    return []\n");
    repository.commit_all("other");
    repository.git(&["checkout", "-q", "main"]);
    let git = tether_git::discover(repository.root()).unwrap();
    let before = git.head_stamp();
    assert_eq!(git.head_stamp(), before, "nothing moved");
    repository.git(&["checkout", "-q", "other"]);
    repository.git(&["checkout", "-q", "main"]);
    let after = git.head_stamp();
    assert_eq!(after.0, before.0, "the same commit again");
    assert_ne!(after, before, "but the stamp saw it move");
}

/// Paths git quotes or pads in its output (a space, a tab, a quote, non-ASCII) still map onto
/// their symbols, and a staged rename keeps its new path.
#[test]
fn changes_read_odd_paths_exactly() {
    let mut repository = FixtureRepository::new(LIBRARY);
    for name in ["lib/sp ace.py", "lib/ta\tb.py", "lib/q\"uote.py", "lib/é.py"] {
        repository.write(name, "def odd(x):\n    return x\n");
    }
    repository.commit_all("odd names");
    let state = indexed_daemon(&repository);
    for name in ["lib/sp ace.py", "lib/ta\tb.py", "lib/q\"uote.py", "lib/é.py"] {
        repository.write(name, "def odd(x):\n    return x + 1\n");
    }
    let answer = call(&state, "changes", json!({ "scope": "unstaged" }));
    let mut changed: Vec<(String, String)> = answer["changed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|symbol| {
            (
                symbol["path"].as_str().unwrap().to_string(),
                symbol["qualified_name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    changed.sort();
    let paths: Vec<&str> = changed.iter().map(|(path, _)| path.as_str()).collect();
    assert_eq!(paths, ["lib/q\"uote.py", "lib/sp ace.py", "lib/ta\tb.py", "lib/é.py"], "{answer}");
    repository.git(&["checkout", "-q", "--", "."]);
    repository.git(&["mv", "lib/sp ace.py", "lib/new name.py"]);
    let git = tether_git::discover(repository.root()).unwrap();
    assert_eq!(git.changed_paths(&["lib".to_string()]).unwrap(), ["lib/new name.py"]);
}

/// A file on disk that is not what the graph holds (a new untracked file, an edit after the
/// graph was built, a deletion) makes answers about its language lower bounds naming it; the
/// same content again makes them exact.
#[test]
fn files_the_graph_does_not_reflect_weaken_answers() {
    let repository = FixtureRepository::new(LIBRARY);
    let state = indexed_daemon(&repository);
    let exact = |answer: &Value| answer["completeness"]["status"] == "exact";
    let causes = |answer: &Value| answer["completeness"]["causes"].to_string();
    let answer = call(&state, "callers", json!({ "symbol": "lib.core.render" }));
    assert!(exact(&answer), "{answer}");

    repository.write(
        "lib/extra.py",
        "from lib.core import render\n\ndef extra():\n    return render([])\n",
    );
    std::thread::sleep(std::time::Duration::from_millis(600));
    let answer = call(&state, "callers", json!({ "symbol": "lib.core.render" }));
    assert!(
        !exact(&answer)
            && causes(&answer).contains("dirty_files")
            && causes(&answer).contains("lib/extra.py"),
        "{answer}"
    );
    let blast = call(&state, "blast", json!({ "symbol": "lib.core.render" }));
    assert!(causes(&blast).contains("dirty_files"), "{blast}");

    std::fs::remove_file(repository.root().join("lib/extra.py")).unwrap();
    let original = std::fs::read_to_string(repository.root().join("lib/api.py")).unwrap();
    repository.write("lib/api.py", &format!("{original}\ndef more():\n    return render([])\n"));
    std::thread::sleep(std::time::Duration::from_millis(600));
    let answer = call(&state, "callers", json!({ "symbol": "lib.core.render" }));
    assert!(causes(&answer).contains("lib/api.py"), "{answer}");

    repository.write("lib/api.py", &original);
    std::thread::sleep(std::time::Duration::from_millis(600));
    let answer = call(&state, "callers", json!({ "symbol": "lib.core.render" }));
    assert!(exact(&answer), "the same content again: {answer}");
}
