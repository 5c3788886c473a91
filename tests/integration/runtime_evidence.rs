//! Runtime evidence: a coverage.py JSON report with per-test contexts adds the tests it saw
//! executing a symbol to `blast` (why: executed), even where no path of the graph reaches
//! them; evidence for a file changed since is marked stale; a new report replaces the old
//! one and survives the daemon; reports without contexts are refused.

use tether_daemon::DaemonState;
use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository};

const APP: &str = r#"
//- /app/__init__.py
//- /app/hooks.py
REGISTRY = {}

def on_start():
    return 1

def helper():
    return 2
//- /tests/test_hooks.py
from app.hooks import helper

def test_helper():
    assert helper() == 2

class TestRegistry:
    def test_started(self):
        import app.hooks
        assert app.hooks.REGISTRY
"#;

/// The report pytest-cov and `coverage json --show-contexts` write, for these tests: line 4
/// (`on_start`'s body) ran in `TestRegistry::test_started`, reached through the framework.
const REPORT: &str = r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {
  "app/hooks.py": {"executed_lines": [1, 3, 4, 6, 7], "contexts": {
    "1": [""], "4": ["tests/test_hooks.py::TestRegistry::test_started|run"],
    "7": ["tests/test_hooks.py::test_helper|run", "tests/test_hooks.py::TestRegistry::test_started[fast]|setup"]}},
  "/elsewhere/site-packages/lib.py": {"executed_lines": [1], "contexts": {"1": ["tests/test_hooks.py::test_helper|run"]}}
}}"#;

fn call(state: &DaemonState, method: &str, params: Value) -> Value {
    crate::handle_json(state, method, &params)
        .unwrap_or_else(|error| panic!("{method} failed: {error:?}"))
}

fn tests_of(answer: &Value) -> Vec<String> {
    answer["tests_affected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| {
            let why: Vec<&str> =
                test["why"].as_array().unwrap().iter().map(|why| why.as_str().unwrap()).collect();
            format!(
                "{} {} {}",
                test["qualified_name"].as_str().unwrap(),
                why.join("+"),
                test["evidence"].as_str().unwrap_or("-")
            )
        })
        .collect()
}

#[test]
fn recorded_tests_join_the_static_ones_and_go_stale_with_their_file() {
    let mut repository = FixtureRepository::new(APP);
    repository.write("coverage.json", REPORT);
    let state = indexed_daemon(&repository);
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }))),
        Vec::<String>::new()
    );

    let imported = call(&state, "coverage_import", json!({ "file": "coverage.json" }));
    assert_eq!(
        (
            imported["files"].as_u64(),
            imported["contexts"].as_u64(),
            imported["files_outside_the_repository"].as_u64()
        ),
        (Some(1), Some(2), Some(1))
    );
    let blast = call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }));
    assert_eq!(tests_of(&blast), ["test_hooks.TestRegistry.test_started executed fresh"]);
    assert_eq!(blast["evidence_commit"].as_str().map(str::len), Some(40));
    // Evidence never makes an answer exact that was not.
    let helper = call(&state, "blast", json!({ "symbol": "app.hooks.helper" }));
    assert_eq!(
        tests_of(&helper),
        [
            "test_hooks.test_helper static+executed fresh",
            "test_hooks.TestRegistry.test_started executed fresh"
        ]
    );

    // The next daemon reads the persisted evidence; a changed file makes it stale.
    repository.write(
        "app/hooks.py",
        "REGISTRY = {}\n\ndef on_start():\n    return 10\n\ndef helper():\n    return 2\n",
    );
    repository.commit_all("change on_start");
    let state = indexed_daemon(&repository);
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }))),
        ["test_hooks.TestRegistry.test_started executed stale"]
    );
}

#[test]
fn reports_without_contexts_or_outside_the_repository_are_refused() {
    let repository = FixtureRepository::new(APP);
    repository.write("plain.json", r#"{"meta": {"show_contexts": false}, "files": {}}"#);
    let state = indexed_daemon(&repository);
    let error = crate::handle_json(&state, "coverage_import", &json!({ "file": "plain.json" }))
        .unwrap_err();
    assert!(error.message.contains("--cov-context=test"), "{}", error.message);
    let error = crate::handle_json(&state, "coverage_import", &json!({ "file": "/etc/passwd" }))
        .unwrap_err();
    assert!(error.message.contains("outside the repository"), "{}", error.message);
}

/// A report's file keys are read only as regular files of the working tree: `..` out of it,
/// an absolute path climbing out, a link to `/dev/zero`, a FIFO and `/etc/passwd` are counted
/// outside, never read, hashed or stored; the import finishes at once. A report with no usable
/// file is refused and the evidence in force stays.
#[test]
fn report_keys_outside_the_tree_links_fifos_and_devices_are_never_read() {
    let repository = FixtureRepository::new(APP);
    repository.write("coverage.json", REPORT);
    std::os::unix::fs::symlink("/dev/zero", repository.root().join("app/zero.py")).unwrap();
    let fifo = repository.root().join("app/fifo.py");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let root = repository.root().display().to_string();
    let context = r#"{"1": ["tests/test_hooks.py::test_helper|run"]}"#;
    let hostile_keys = [
        "../../../../dev/zero".to_string(),
        "../../../../etc/passwd".to_string(),
        format!("{root}/../outside/x.py"),
        "app/zero.py".to_string(),
        "app/fifo.py".to_string(),
    ];
    let files: Vec<String> = hostile_keys
        .iter()
        .map(|key| format!(r#"{}: {{"executed_lines": [1], "contexts": {context}}}"#, json!(key)))
        .chain([r#""app/hooks.py": {"executed_lines": [4], "contexts": {"4": ["tests/test_hooks.py::test_helper|run"]}}"#.to_string()])
        .collect();
    let hostile =
        format!(r#"{{"meta": {{"show_contexts": true}}, "files": {{{}}}}}"#, files.join(", "));
    repository.write("hostile.json", &hostile);
    let state = indexed_daemon(&repository);
    let started = std::time::Instant::now();
    let imported = call(&state, "coverage_import", json!({ "file": "hostile.json" }));
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(
        (imported["files"].as_u64(), imported["files_outside_the_repository"].as_u64()),
        (Some(1), Some(5)),
        "{imported}"
    );
    let stored = std::fs::read_to_string(state.paths.folder.join("runtime-evidence.tsv"))
        .expect("the evidence is persisted");
    for name in ["passwd", "zero", "fifo", "outside"] {
        assert!(!stored.contains(name), "{name} stored:\n{stored}");
    }

    // Nothing usable: refused, and the evidence in force stays.
    repository.write("empty.json", r#"{"meta": {"show_contexts": true}, "files": {}}"#);
    repository.write(
        "outside.json",
        &format!(r#"{{"meta": {{"show_contexts": true}}, "files": {{{}}}}}"#, files[1]),
    );
    for report in ["empty.json", "outside.json"] {
        let error =
            crate::handle_json(&state, "coverage_import", &json!({ "file": report })).unwrap_err();
        assert!(error.message.contains("evidence in force is kept"), "{report}: {}", error.message);
    }
    let blast = call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }));
    assert_eq!(tests_of(&blast), ["test_hooks.test_helper executed fresh"]);
    // The report itself must be a regular file of the tree.
    for report in ["app/zero.py", "app/fifo.py"] {
        let error =
            crate::handle_json(&state, "coverage_import", &json!({ "file": report })).unwrap_err();
        assert!(
            error.message.contains("not a regular file") || error.message.contains("outside"),
            "{report}: {}",
            error.message
        );
    }
}

/// Reports past a cap are refused naming it, and the evidence in force stays: a report
/// larger than the size cap (not read at all), one naming more distinct tests than the cap;
/// a report of many contexts, all of one test's parameters and phases, folds to that test.
#[test]
fn reports_past_their_caps_are_refused_and_the_evidence_in_force_stays() {
    let repository = FixtureRepository::new(APP);
    repository.write("coverage.json", REPORT);
    let state = indexed_daemon(&repository);
    call(&state, "coverage_import", json!({ "file": "coverage.json" }));

    let huge = std::fs::File::create(repository.root().join("huge.json")).unwrap();
    huge.set_len(2 << 30).unwrap();
    let limits = tether_evidence::CoverageLimits::default();
    let names: Vec<String> =
        (0..=limits.contexts).map(|n| format!("\"tests/test_hooks.py::test_{n}\"")).collect();
    repository.write(
        "many.json",
        &format!(
            r#"{{"meta": {{"show_contexts": true}}, "files": {{"app/hooks.py": {{"contexts": {{"4": [{}]}}}}}}}}"#,
            names.join(", ")
        ),
    );
    for (report, cap) in [("huge.json", "are refused"), ("many.json", "distinct tests, the cap")] {
        let error =
            crate::handle_json(&state, "coverage_import", &json!({ "file": report })).unwrap_err();
        assert!(error.message.contains(cap), "{report}: {}", error.message);
    }
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }))),
        ["test_hooks.TestRegistry.test_started executed fresh"]
    );

    let variants: Vec<String> = (0..limits.contexts * 2)
        .map(|n| format!("\"tests/test_hooks.py::test_helper[{n}]|{}\"", ["run", "setup"][n % 2]))
        .collect();
    repository.write(
        "folded.json",
        &format!(
            r#"{{"meta": {{"show_contexts": true}}, "files": {{"app/hooks.py": {{"contexts": {{"4": [{}]}}}}}}}}"#,
            variants.join(", ")
        ),
    );
    let imported = call(&state, "coverage_import", json!({ "file": "folded.json" }));
    assert_eq!(imported["contexts"].as_u64(), Some(1), "{imported}");
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "app.hooks.on_start" }))),
        ["test_hooks.test_helper executed fresh"]
    );
}

/// `tether coverage run -- CMD` runs the suite, has coverage.py write its report (a stand-in
/// Python here, which writes the report a real run would), imports it, and removes it.
#[test]
fn coverage_run_records_writes_and_imports_the_report() {
    use std::os::unix::fs::PermissionsExt;
    let repository = FixtureRepository::new(APP);
    repository.write("fake-python", &format!("#!/bin/sh\n# called as: fake-python -m coverage json --show-contexts -o FILE\ncat > \"$6\" <<'REPORT'\n{REPORT}\nREPORT\n"));
    let fake = repository.root().join("fake-python");
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    let run = |arguments: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(arguments)
            .current_dir(repository.root())
            .output()
            .unwrap();
        (
            output.status.success(),
            String::from_utf8_lossy(&output.stdout).into_owned()
                + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let (ok, output) = run(&[
        "coverage",
        "run",
        "--no-daemon",
        "--python",
        fake.to_str().unwrap(),
        "--",
        "touch",
        "suite-ran",
    ]);
    assert!(ok, "{output}");
    assert!(
        output.contains("runtime evidence: 1 files, 2 executed lines, 2 test contexts"),
        "{output}"
    );
    assert!(repository.root().join("suite-ran").exists());
    assert!(
        !repository.root().join(".coverage.tether.json").exists(),
        "the report is removed once imported"
    );
    let (ok, output) = run(&["blast", "--no-daemon", "app.hooks.on_start"]);
    assert!(
        ok && output
            .contains("test_hooks.TestRegistry.test_started (tests/test_hooks.py:7) [executed]"),
        "{output}"
    );
}

/// A crate whose test reaches `on_start` only through a function pointer chosen at run time:
/// no static edge finds it, the instrumented run does.
const CRATE: &str = r#"
//- /Cargo.toml
[package]
name = "hooks"
version = "0.1.0"
edition = "2021"

[workspace]
//- /src/lib.rs
pub fn on_start() -> u32 {
    7
}

pub fn helper() -> u32 {
    2
}

pub fn run_hook(name: &str) -> u32 {
    let hooks: Vec<(&str, fn() -> u32)> = vec![("start", on_start)];
    hooks.iter().find(|(hook, _)| *hook == name).map_or(0, |(_, hook)| hook())
}

#[cfg(test)]
mod tests {
    #[test]
    fn helper_is_two() {
        assert_eq!(super::helper(), 2);
    }
}
//- /tests/hooks_run.rs
#[test]
fn start_hook_runs() {
    let name = std::env::args().next().map(|_| "start").unwrap();
    assert_eq!(hooks::run_hook(name), 7);
}
"#;

/// `tether coverage cargo` builds the tests instrumented, runs each alone, and imports what
/// each executed as `ROOT_FILE::libtest::path` contexts, for unit and integration tests.
#[test]
fn coverage_cargo_records_each_rust_test_alone() {
    let repository = FixtureRepository::new(CRATE);
    repository.write(".gitignore", "/target\n");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
        .args(["coverage", "cargo", "--no-daemon", "--jobs", "2"])
        .current_dir(repository.root())
        .env("CARGO_TARGET_DIR", repository.root().join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}");
    assert!(
        printed.contains("recording coverage of 2 tests in 2 test executables")
            && printed.contains("2 test contexts"),
        "{printed}"
    );
    assert!(
        !repository.root().join(".coverage.tether.lcov").exists(),
        "the tracefile is removed once imported"
    );
    let state = indexed_daemon(&repository);
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "hooks::on_start" }))),
        ["hooks_run::start_hook_runs executed fresh"]
    );
    assert_eq!(
        tests_of(&call(&state, "blast", json!({ "symbol": "hooks::helper" }))),
        ["hooks::tests::helper_is_two static+executed fresh"]
    );
}
