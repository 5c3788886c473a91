//! Tiers of a blast's tests: with fresh runtime evidence for the subject, the tests it saw
//! execute the subject come first (`tier: ran`), then the ones only the graph reaches
//! (`tier: reachable`), none dropped; stale or missing evidence leaves one tier and says why;
//! `blast --tests ran` prints the first tier as a command line.

use tether_protocol::{json, Value};
use tether_tests::{indexed_daemon, FixtureRepository};

const SHOP: &str = r#"
//- /app/__init__.py
//- /app/prices.py
def discount(x):
    return x * 0.9

def total(items):
    return sum(discount(i) for i in items)

def maybe_discount(x):
    if x:
        return discount(x)
    return 0
//- /app/other.py
def noop():
    return 0
//- /tests/test_prices.py
from app.prices import total, maybe_discount

def test_total():
    assert total([10]) == 9

class TestMaybe:
    def test_zero(self):
        assert maybe_discount(0) == 0
"#;

/// What pytest-cov records for that suite: `discount` (line 2) runs in `test_total` only;
/// `test_zero` reaches it on the graph but takes the other branch.
const REPORT: &str = r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {
  "app/prices.py": {"executed_lines": [1, 2, 4, 5, 7, 8, 10], "contexts": {
    "1": [""], "4": [""], "7": [""],
    "2": ["tests/test_prices.py::test_total|run"],
    "5": ["tests/test_prices.py::test_total|run"],
    "8": ["tests/test_prices.py::TestMaybe::test_zero|run"],
    "10": ["tests/test_prices.py::TestMaybe::test_zero|run"]}}
}}"#;

fn blast(state: &tether_daemon::DaemonState, symbol: &str) -> Value {
    crate::handle_json(state, "blast", &json!({ "symbol": symbol }))
        .unwrap_or_else(|error| panic!("blast failed: {error:?}"))
}

/// Each listed test as `test_id tier`, then the answer's `subject_evidence` and `tests_ran`.
fn tiers_of(answer: &Value) -> (Vec<String>, Value, Value) {
    let tests = answer["tests_affected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| {
            format!(
                "{} {}",
                test["test_ids"]
                    .as_array()
                    .map(|ids| ids
                        .iter()
                        .map(|id| id.as_str().unwrap())
                        .collect::<Vec<_>>()
                        .join(","))
                    .unwrap_or_else(|| "-".to_string()),
                test["tier"].as_str().unwrap_or("-")
            )
        })
        .collect();
    (tests, answer["subject_evidence"].clone(), answer["tests_ran"].clone())
}

#[test]
fn fresh_evidence_puts_the_tests_that_ran_the_subject_first() {
    let mut repository = FixtureRepository::new(SHOP);
    repository.write("coverage.json", REPORT);
    let state = indexed_daemon(&repository);
    // Without evidence: one tier, no tier marks; each test still has its runner's id.
    assert_eq!(
        tiers_of(&blast(&state, "app.prices.discount")),
        (
            vec![
                "tests/test_prices.py::TestMaybe::test_zero -".to_string(),
                "tests/test_prices.py::test_total -".to_string()
            ],
            Value::Null,
            Value::Null
        )
    );
    crate::handle_json(&state, "coverage_import", &json!({ "file": "coverage.json" })).unwrap();
    assert_eq!(tiers_of(&blast(&state, "app.prices.discount")), discount_in_tiers());
    // A file the run did not measure: one tier, and the answer says why.
    assert_eq!(tiers_of(&blast(&state, "app.other.noop")).1, json!("not_recorded"));

    // `blast --tests ran` prints the first tier as a pytest command line; `all` both tiers.
    let root = repository.root().to_path_buf();
    let cli = |arguments: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(arguments)
            .current_dir(&root)
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    drop(state);
    let imported = cli(&["coverage", "import", "--no-daemon", "coverage.json"]);
    assert_eq!(imported.0, Some(0), "{imported:?}");
    assert_eq!(
        cli(&["blast", "--no-daemon", "app.prices.discount", "--tests", "ran"]),
        (Some(0), "python -m pytest tests/test_prices.py::test_total\n".to_string())
    );
    assert_eq!(
        cli(&["blast", "--no-daemon", "app.prices.discount", "--tests", "all"]),
        (
            Some(0),
            "python -m pytest tests/test_prices.py::test_total tests/test_prices.py::TestMaybe::test_zero\n"
                .to_string()
        )
    );
    let (code, text) = cli(&["blast", "--no-daemon", "app.prices.discount"]);
    assert_eq!(code, Some(0));
    assert!(
        text.contains("1 ran it (runtime evidence recorded at")
            && text.contains("  ran it (break if the change breaks):\n    test_prices.test_total")
            && text.contains("  reachable only (may break; not seen executing it):\n    test_prices.TestMaybe.test_zero"),
        "{text}"
    );

    // An edit elsewhere in the file (a function added above, `total` changed) leaves the
    // evidence for `discount` fresh, read at the lines it had then; `total`'s is stale.
    let edited = format!(
        "def first():\n    return 1\n\n{}",
        SHOP_PRICES.replace("sum(", "max(0, sum(").replace("in items)", "in items))")
    );
    repository.write("app/prices.py", &edited);
    repository.commit_all("a function above, and a new total");
    let state = indexed_daemon(&repository);
    assert_eq!(tiers_of(&blast(&state, "app.prices.discount")), discount_in_tiers());
    assert_eq!(tiers_of(&blast(&state, "app.prices.total")).1, json!("stale"));
    drop(state);

    // The subject's own text changed since the recording: one tier, said to be stale.
    repository.write("app/prices.py", &SHOP_PRICES.replace("0.9", "0.8"));
    repository.commit_all("a new discount");
    let state = indexed_daemon(&repository);
    let (tests, subject_evidence, tests_ran) = tiers_of(&blast(&state, "app.prices.discount"));
    assert_eq!((subject_evidence, tests_ran), (json!("stale"), Value::Null));
    assert!(tests.iter().all(|test| test.ends_with(" -")), "{tests:?}");
    drop(state);
    let (code, _) = cli(&["blast", "--no-daemon", "app.prices.discount", "--tests", "ran"]);
    assert_eq!(code, Some(1), "no first tier to run: nothing matched");
}

/// `discount`'s tests in tiers with the report's evidence fresh: `test_total` ran it.
fn discount_in_tiers() -> (Vec<String>, Value, Value) {
    (
        vec![
            "tests/test_prices.py::test_total ran".to_string(),
            "tests/test_prices.py::TestMaybe::test_zero reachable".to_string(),
        ],
        json!("fresh"),
        json!(1),
    )
}

/// `app/prices.py` as the fixture writes it.
const SHOP_PRICES: &str = "def discount(x):\n    return x * 0.9\n\ndef total(items):\n    return sum(discount(i) for i in items)\n\ndef maybe_discount(x):\n    if x:\n        return discount(x)\n    return 0\n";

/// pytest names an inherited test by the class that collects it
/// (`tests/test_io.py::TestText::test_pos`): its evidence is the base method's, which is
/// listed in the first tier with every collecting class's node id.
#[test]
fn evidence_of_an_inherited_test_is_its_base_methods() {
    let fixture = r#"
//- /pkg/__init__.py
//- /pkg/core.py
def pos():
    return 1
//- /tests/test_io.py
from unittest import TestCase
from pkg.core import pos

class BaseChecks:
    def test_pos(self):
        assert pos() == 1

class TestBytes(TestCase, BaseChecks):
    pass

class TestText(TestCase, BaseChecks):
    pass
"#;
    let mut repository = FixtureRepository::new(fixture);
    repository.write(
        "coverage.json",
        r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {
  "pkg/core.py": {"executed_lines": [1, 2], "contexts": {
    "1": [""], "2": ["tests/test_io.py::TestText::test_pos|run", "tests/test_io.py::TestBytes::test_pos|run"]}}}}"#,
    );
    repository.commit_all("the report");
    let state = indexed_daemon(&repository);
    crate::handle_json(&state, "coverage_import", &json!({ "file": "coverage.json" })).unwrap();
    assert_eq!(
        tiers_of(&blast(&state, "pkg.core.pos")),
        (
            vec!["tests/test_io.py::TestBytes::test_pos,tests/test_io.py::TestText::test_pos ran"
                .to_string()],
            json!("fresh"),
            json!(1)
        )
    );
}

/// A report that re-recorded some tests, imported with `merge`, replaces those tests' evidence
/// and keeps every other test's; imported without, it replaces all of it.
#[test]
fn a_merged_report_replaces_only_the_tests_it_ran() {
    let mut repository = FixtureRepository::new(SHOP);
    repository.write("coverage.json", REPORT);
    // `test_zero` ran again, now through `discount`; `test_total` was not run.
    repository.write(
        "again.json",
        r#"{"meta": {"version": "7.6.1", "show_contexts": true}, "files": {
  "app/prices.py": {"executed_lines": [2, 8, 9], "contexts": {
    "2": ["tests/test_prices.py::TestMaybe::test_zero|run"],
    "8": ["tests/test_prices.py::TestMaybe::test_zero|run"],
    "9": ["tests/test_prices.py::TestMaybe::test_zero|run"]}}}}"#,
    );
    repository.commit_all("the reports");
    let state = indexed_daemon(&repository);
    let import = |file: &str, merge: bool| {
        crate::handle_json(&state, "coverage_import", &json!({ "file": file, "merge": merge }))
            .unwrap()
    };
    import("coverage.json", false);
    let merged = import("again.json", true);
    assert_eq!(
        merged["merged"],
        json!({ "tests_kept": 1, "tests_replaced": 1, "files_dropped": 0 })
    );
    assert_eq!(
        tiers_of(&blast(&state, "app.prices.discount")).0,
        ["tests/test_prices.py::TestMaybe::test_zero ran", "tests/test_prices.py::test_total ran"]
    );
    import("again.json", false);
    assert_eq!(
        tiers_of(&blast(&state, "app.prices.discount")).0,
        [
            "tests/test_prices.py::TestMaybe::test_zero ran",
            "tests/test_prices.py::test_total reachable"
        ]
    );
}

/// `blast --tests all` on a crate: one `cargo test` line per package (the name its
/// `Cargo.toml` gives), the tests by their path inside their test crate.
#[test]
fn rust_tests_print_as_one_cargo_line_per_package() {
    let fixture = r#"
//- /Cargo.toml
[package]
name = "price-rules"
version = "0.1.0"
edition = "2021"
//- /src/lib.rs
pub fn discount(x: u32) -> u32 {
    x / 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn halves() {
        assert_eq!(super::discount(4), 2);
    }
}
//- /tests/outside.rs
#[test]
fn from_outside() {
    assert_eq!(price_rules::discount(2), 1);
}
"#;
    let repository = FixtureRepository::new(fixture);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
        .args(["blast", "--no-daemon", "price_rules::discount", "--tests", "all"])
        .current_dir(repository.root())
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "cargo test -p price-rules -- --exact from_outside tests::halves\n",
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}
