//! `tether coverage run` with a real pytest, pytest-cov and coverage.py: code a test runs in
//! a thread it starts, and in a Python process it starts, is attributed to that test.

use tether_protocol::Value;
use tether_tests::{python_environment, FixtureRepository};

const SUITE: &str = r#"
//- /app/__init__.py
//- /app/work.py
def in_thread():
    return 1


def in_child():
    return 2
//- /tests/test_spawn.py
import subprocess
import sys
import threading

from app import work


def test_thread():
    out = []
    thread = threading.Thread(target=lambda: out.append(work.in_thread()))
    thread.start()
    thread.join()
    assert out == [1]


def test_child():
    code = "from app import work; print(work.in_child())"
    ran = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert ran.stdout.strip() == "2"
"#;

#[test]
fn a_thread_and_a_subprocess_a_test_starts_are_attributed_to_it() {
    let repository = FixtureRepository::new(SUITE);
    repository.write(".gitignore", ".coverage*\n");
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("coverage-7.18.0");
    let python =
        python_environment(&folder, &["pytest==9.2.0", "pytest-cov==7.1.0", "coverage==7.18.0"]);
    let python = python.to_str().unwrap();
    let cli = |arguments: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(arguments)
            .current_dir(repository.root())
            .env_remove("PYTHONPATH")
            .env_remove("PYTEST_PLUGINS")
            .output()
            .unwrap();
        let printed = String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "tether {arguments:?}: {printed}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider"];
    let recording = ["--cov=app", "--cov-context=test", "tests"];
    let mut arguments = vec!["coverage", "run", "--no-daemon", "--python", python, "--"];
    arguments.extend(pytest);
    arguments.extend(recording);
    cli(&arguments);
    let executed_by = |symbol: &str| -> Vec<String> {
        let answer: Value =
            serde_json::from_str(&cli(&["blast", "--no-daemon", "--json", symbol])).unwrap();
        answer["tests_affected"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|test| test["why"].as_array().unwrap().iter().any(|why| why == "executed"))
            .map(|test| test["qualified_name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(executed_by("app.work.in_thread"), ["test_spawn.test_thread"]);
    assert_eq!(executed_by("app.work.in_child"), ["test_spawn.test_child"]);
}
