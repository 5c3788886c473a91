//! The tidy test: ARCHITECTURE.md's invariants checked on the source tree (as rust-analyzer's
//! `xtask/tidy.rs` does). Every `.rs` file opens with `//!`; only `store` names `lbug`; only
//! the binaries (`cli`, `benches`) name `anyhow`; only the boundary crates read or write JSON,
//! each its own format (`protocol`, `lsp`, `mcp`, `evidence`); the crates depend on each other as
//! ARCHITECTURE.md's dependency table says; no source file is over the size limit; the
//! resolver keeps its mutable state in its explicit context only; every crate has a codemap
//! entry, and every workspace path the documents write in backticks exists.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// No source file is longer than this many lines (files are meant to hold one feature).
const MAX_FILE_LINES: usize = 1_000;

/// The crates that read or write JSON, one format each: `protocol` the daemon's own wire
/// (JSON-RPC, answers, export), `lsp` the Language Server Protocol's messages, `mcp` the tool
/// arguments rmcp hands over, `evidence` the reports of coverage tools and cargo. No other
/// crate names `serde_json`, in its sources or in its manifest's `[dependencies]`.
const JSON_BOUNDARY_CRATES: &[&str] = &["protocol", "lsp", "mcp", "evidence"];

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ sits in the workspace").into()
}

/// Every `.rs` file of the workspace's crates, tests and benches, relative to the root.
fn rust_files(root: &Path) -> Vec<String> {
    fn walk(folder: &Path, root: &Path, found: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(folder) else { return };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() && entry.file_name() != "target" {
                walk(&path, root, found);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                found.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut found = Vec::new();
    for top in ["crates", "tests", "benches"] {
        walk(&root.join(top), root, &mut found);
    }
    found.sort();
    found
}

/// The crate a file belongs to (`crates/NAME/…` → NAME; `tests`, `benches`).
fn crate_of(path: &str) -> &str {
    match path.strip_prefix("crates/") {
        Some(rest) => rest.split('/').next().unwrap(),
        None => path.split('/').next().unwrap(),
    }
}

/// The file's code before its unit tests (`#[cfg(test)]`), where "tests aside" applies.
fn code_before_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

#[test]
fn every_file_opens_with_a_module_doc_and_stays_under_the_size_limit() {
    let root = workspace_root();
    let mut problems = Vec::new();
    for path in rust_files(&root) {
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        if !text.starts_with("//!") {
            problems.push(format!("{path}: does not open with a `//!` line"));
        }
        let lines = text.lines().count();
        if lines > MAX_FILE_LINES {
            problems.push(format!("{path}: {lines} lines (limit {MAX_FILE_LINES}): split it"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn engine_and_error_crates_stay_in_their_layers() {
    let root = workspace_root();
    let mut problems = Vec::new();
    // The tests' fixtures are Rust programs in strings (`anyhow::Result` in a fixture): the
    // tests crate is checked by its manifest only.
    for path in rust_files(&root).into_iter().filter(|path| crate_of(path) != "tests") {
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        let owner = crate_of(&path);
        if (text.contains("lbug::") || text.contains("use lbug")) && owner != "store" {
            problems.push(format!("{path}: names lbug (only crates/store does)"));
        }
        if text.contains("anyhow::") && !["cli", "benches"].contains(&owner) {
            problems.push(format!("{path}: names anyhow (only the binaries do: cli, benches)"));
        }
    }
    for (name, dependencies) in manifests(&root) {
        if dependencies.external.contains("lbug") && name != "store" {
            problems.push(format!("{name}/Cargo.toml: depends on lbug"));
        }
        if dependencies.external.contains("anyhow") && !["cli", "benches"].contains(&name.as_str())
        {
            problems.push(format!("{name}/Cargo.toml: depends on anyhow"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn only_the_boundary_crates_read_or_write_json() {
    let root = workspace_root();
    let mut problems = Vec::new();
    for path in rust_files(&root) {
        let owner = crate_of(&path);
        if JSON_BOUNDARY_CRATES.contains(&owner)
            || ["tests", "benches"].contains(&owner)
            || path.ends_with("_tests.rs")
            || path.ends_with("test_support.rs")
        {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        if names_json(code_before_tests(&text)) {
            problems.push(format!(
                "{path}: reads or writes JSON; formats live in the boundary crates {JSON_BOUNDARY_CRATES:?}"
            ));
        }
    }
    for (name, dependencies) in manifests(&root) {
        let boundary = JSON_BOUNDARY_CRATES.contains(&name.as_str());
        if dependencies.external.contains("serde_json")
            && !boundary
            && !["tests", "benches"].contains(&name.as_str())
        {
            problems.push(format!(
                "{name}/Cargo.toml: depends on serde_json (only {JSON_BOUNDARY_CRATES:?} do)"
            ));
        }
    }
    for boundary in JSON_BOUNDARY_CRATES {
        if !root.join("crates").join(boundary).join("Cargo.toml").exists() {
            problems.push(format!(
                "crates/{boundary}: a listed boundary crate is gone: update the list"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The one resolver file that may hold mutable state: the explicit per-worker context.
const RESOLVER_CONTEXT_FILE: &str = "crates/resolve/src/resolution_context.rs";

#[test]
fn the_resolver_keeps_its_state_in_its_explicit_context() {
    let root = workspace_root();
    let mut problems = Vec::new();
    let forbidden = [
        ("thread_local!", "a per-thread cache"),
        ("static mut", "a global"),
        ("Cell<", "interior mutability"),
        ("Mutex<", "a shared lock"),
        ("as *const", "an address-keyed cache"),
        ("AtomicU", "a global counter"),
    ];
    for path in rust_files(&root).into_iter().filter(|path| crate_of(path) == "resolve") {
        if path == RESOLVER_CONTEXT_FILE {
            continue;
        }
        let text = std::fs::read_to_string(root.join(&path)).unwrap();
        for (needle, what) in forbidden {
            if code_before_tests(&text).contains(needle) {
                problems.push(format!(
                    "{path}: `{needle}` ({what}); resolver state lives in {RESOLVER_CONTEXT_FILE}"
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Builds or reads JSON: `json!`, `serde_json`, or the `Value` `protocol` re-exports.
fn names_json(code: &str) -> bool {
    let imports_value = code.match_indices("use tether_protocol::").any(|(at, _)| {
        let statement = &code[at..];
        statement[..statement.find(';').unwrap_or(statement.len())].contains("Value")
    });
    code.contains("json!")
        || code.contains("serde_json")
        || code.contains("tether_protocol::Value")
        || imports_value
}

#[test]
fn crate_dependencies_are_the_ones_architecture_md_draws() {
    let root = workspace_root();
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let drawn = drawn_dependencies(&architecture);
    let actual: BTreeMap<String, BTreeSet<String>> =
        manifests(&root).into_iter().map(|(name, dependencies)| (name, dependencies.own)).collect();
    let render = |graph: &BTreeMap<String, BTreeSet<String>>| {
        graph
            .iter()
            .map(|(name, dependencies)| {
                let list: Vec<&str> = dependencies.iter().map(String::as_str).collect();
                format!("{name}: {}", if list.is_empty() { "-".into() } else { list.join(", ") })
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        render(&drawn),
        render(&actual),
        "ARCHITECTURE.md's dependency table (left) differs from the Cargo.toml files (right)"
    );
}

/// A crate's `[dependencies]` (not dev- or build-): the workspace's own crates by short name
/// (`tether-model` → `model`), and the others.
#[derive(Default)]
struct Dependencies {
    own: BTreeSet<String>,
    external: BTreeSet<String>,
}

fn manifests(root: &Path) -> BTreeMap<String, Dependencies> {
    let mut manifests = BTreeMap::new();
    let mut folders: Vec<(String, PathBuf)> = std::fs::read_dir(root.join("crates"))
        .unwrap()
        .filter_map(Result::ok)
        .map(|entry| (entry.file_name().to_string_lossy().into_owned(), entry.path()))
        .collect();
    folders.push(("tests".into(), root.join("tests")));
    folders.push(("benches".into(), root.join("benches")));
    for (name, folder) in folders {
        let Ok(text) = std::fs::read_to_string(folder.join("Cargo.toml")) else { continue };
        let mut dependencies = Dependencies::default();
        let mut in_dependencies = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                in_dependencies = line == "[dependencies]";
                continue;
            }
            let Some(key) = line.split(['=', '.', ' ']).next().filter(|key| !key.is_empty()) else {
                continue;
            };
            if !in_dependencies || key.starts_with('#') {
                continue;
            }
            match key.strip_prefix("tether-") {
                Some(own) => dependencies.own.insert(own.to_string()),
                None => dependencies.external.insert(key.to_string()),
            };
        }
        manifests.insert(name, dependencies);
    }
    manifests
}

/// The table between `<!-- tidy:dependencies -->` and `<!-- /tidy:dependencies -->`: one
/// `| crate | its dependencies |` row per crate, `-` for none.
fn drawn_dependencies(architecture: &str) -> BTreeMap<String, BTreeSet<String>> {
    let start =
        architecture.find("<!-- tidy:dependencies -->").expect("the table's opening marker");
    let end = architecture.find("<!-- /tidy:dependencies -->").expect("the table's closing marker");
    let mut drawn = BTreeMap::new();
    for row in architecture[start..end].lines().filter(|line| line.starts_with('|')) {
        let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
        let [name, dependencies] = cells[..] else { continue };
        let name = name.trim_matches('`');
        if name == "crate" || name.starts_with('-') {
            continue;
        }
        let dependencies = dependencies
            .split(',')
            .map(|dependency| dependency.trim().trim_matches('`').to_string())
            .filter(|dependency| !dependency.is_empty() && dependency != "-")
            .collect();
        drawn.insert(name.to_string(), dependencies);
    }
    drawn
}

/// The folders whose paths, written in backticks in ARCHITECTURE.md or the README, must exist.
/// Paths elsewhere (`src/lib.rs`, `tests/x.rs`) are examples of a repository tether reads.
const CHECKED_PATH_ROOTS: &[&str] = &[
    "crates/",
    "docs/",
    "benches/",
    "queries/",
    "scripts/",
    ".ci/",
    "tests/integration",
    "tests/golden",
    "tests/corpus",
    "tests/src",
    "tests/lsp_clients",
    "tests/mcp_clients",
];

#[test]
fn the_documents_name_every_crate_and_only_paths_that_exist() {
    let root = workspace_root();
    let rust_file_names: BTreeSet<String> = rust_files(&root)
        .iter()
        .filter_map(|path| path.rsplit('/').next().map(str::to_string))
        .collect();
    let crates: Vec<String> = manifests(&root)
        .into_keys()
        .filter(|name| !["tests", "benches"].contains(&name.as_str()))
        .collect();
    let mut problems = Vec::new();
    for document in ["ARCHITECTURE.md", "README.md"] {
        let text = std::fs::read_to_string(root.join(document)).unwrap();
        for written in backticked_words(&text) {
            if written.contains(['*', '…', '%', '=']) {
                continue;
            }
            for path in expanded_paths(written) {
                let first = path.split('/').next().unwrap_or_default();
                let exists = if CHECKED_PATH_ROOTS.iter().any(|prefix| path.starts_with(prefix)) {
                    root.join(path.trim_end_matches('/')).exists()
                } else if path.contains("/src/") && crates.iter().any(|name| name == first) {
                    // A crate-relative path (`mcp/src/server.rs`).
                    root.join("crates").join(&path).exists()
                } else if !path.contains('/') && path.ends_with(".rs") && !path.starts_with('.') {
                    rust_file_names.contains(&path)
                } else {
                    continue;
                };
                if !exists {
                    problems
                        .push(format!("{document}: `{written}` names no file of the workspace"));
                }
            }
        }
    }
    let architecture = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let codemap = architecture
        .split("## Codemap")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("ARCHITECTURE.md has a Codemap section");
    for name in &crates {
        let entry = format!("{name}/");
        if !codemap.lines().any(|line| line.trim_start().starts_with(&entry)) {
            problems.push(format!("ARCHITECTURE.md: the codemap has no entry for crates/{name}"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The words written in backticks (inline code without spaces).
fn backticked_words(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| !word.is_empty() && !word.contains(char::is_whitespace))
        .collect()
}

/// A path as written, with `<lang>` standing for each language folder and `{a,b}` for each
/// of its choices.
fn expanded_paths(written: &str) -> Vec<String> {
    let languages = written.replace("<lang>", "{python,rust}");
    let Some(open) = languages.find('{') else { return vec![languages] };
    let Some(close) = languages[open..].find('}').map(|at| open + at) else {
        return vec![languages];
    };
    languages[open + 1..close]
        .split(',')
        .flat_map(|choice| {
            expanded_paths(&format!("{}{choice}{}", &languages[..open], &languages[close + 1..]))
        })
        .collect()
}
