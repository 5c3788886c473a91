//! Fixture helpers for tether's tests: one fixture format and one `check` helper.
//!
//! A fixture is several files in one string. Each file starts with a `//- /path` line.
//! Inside a file, `$0` marks a cursor (removed from the text), and a trailing comment
//! `calls: a.b.f, a.c.g` (after `#` or `//`) says which qualified names the CALLS edges from
//! that line must reach, exactly; `calls: unresolved` says the line's call sites must stay
//! unresolved, and `calls: none` that the line has no CALLS edge. `hidden: a.b.f by
//! escaped_value` says the line truly calls `a.b.f` in a way the graph may not hold
//! ([`check_hidden`]).
//!
//! ```text
//! //- /pkg/__init__.py
//! //- /pkg/a.py
//! def f(): pass
//! def g():
//!     f()  # calls: pkg.a.f
//! ```

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::Path;

use tether_index::{build_graph, IndexOptions};

mod corpus_score;
pub use corpus_score::{corpus_fixture, score_corpus_program, CorpusScore};
use tether_model::{EdgeKind, Graph, SymbolId};

/// One file of a fixture.
#[derive(Clone, Debug)]
pub struct FixtureFile {
    pub path: String,
    pub text: String,
}

/// A parsed fixture: its files, and the cursor if one was marked.
#[derive(Clone, Debug)]
pub struct Fixture {
    pub files: Vec<FixtureFile>,
    /// The file and 1-based line of `$0`.
    pub cursor: Option<(String, u32)>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        let text = trim_indent(text);
        let mut files: Vec<FixtureFile> = Vec::new();
        let mut cursor = None;
        for line in text.lines() {
            if let Some(path) = line.strip_prefix("//- /") {
                files.push(FixtureFile { path: path.trim().to_string(), text: String::new() });
                continue;
            }
            let Some(file) = files.last_mut() else {
                panic!("fixture text before the first `//- /path` line: {line:?}")
            };
            let line = if let Some(position) = line.find("$0") {
                cursor = Some((file.path.clone(), file.text.lines().count() as u32 + 1));
                format!("{}{}", &line[..position], &line[position + 2..])
            } else {
                line.to_string()
            };
            file.text.push_str(&line);
            file.text.push('\n');
        }
        Fixture { files, cursor }
    }

    /// Writes the files under `root`.
    pub fn write_to(&self, root: &Path) {
        for file in &self.files {
            let path = root.join(&file.path);
            std::fs::create_dir_all(path.parent().expect("fixture paths have a parent"))
                .expect("create fixture folder");
            std::fs::write(&path, &file.text).expect("write fixture file");
        }
    }

    /// The expected CALLS targets of every marked line: (path, line) → qualified names.
    pub fn expected_calls(&self) -> BTreeMap<(String, u32), BTreeSet<String>> {
        let mut expected = BTreeMap::new();
        for file in &self.files {
            for (index, line) in file.text.lines().enumerate() {
                let Some(position) = line.find("calls: ") else { continue };
                let comment_start = line[..position].trim_end();
                if !(comment_start.ends_with('#') || comment_start.ends_with("//")) {
                    continue;
                }
                let targets: BTreeSet<String> = line[position + "calls: ".len()..]
                    .split(',')
                    .map(|target| target.trim().to_string())
                    .filter(|target| !target.is_empty())
                    .collect();
                expected.insert((file.path.clone(), index as u32 + 1), targets);
            }
        }
        expected
    }
}

/// Writes a fixture to a temporary folder and builds its graph with the real pipeline.
pub fn graph_of(fixture: &Fixture) -> (tempfile::TempDir, Graph) {
    let directory = tempfile::tempdir().expect("temporary folder");
    fixture.write_to(directory.path());
    let built =
        build_graph(&IndexOptions::new(directory.path()), &|_, _| {}).expect("fixture indexes");
    (directory, built.graph)
}

/// Builds the fixture's graph, checks every `calls:` marker, and compares the rendering of all
/// CALLS edges and unresolved sites with `expected`.
pub fn check(fixture_text: &str, expected: expect_test::Expect) {
    let fixture = Fixture::parse(fixture_text);
    let (_directory, graph) = graph_of(&fixture);
    let names: BTreeMap<SymbolId, &str> =
        graph.symbols.iter().map(|symbol| (symbol.id, symbol.qualified_name.as_str())).collect();
    let paths: BTreeMap<SymbolId, &str> =
        graph.symbols.iter().map(|symbol| (symbol.id, symbol.path.as_str())).collect();

    let mut failures = Vec::new();
    for ((path, line), targets) in fixture.expected_calls() {
        let actual: BTreeSet<String> = graph
            .edges
            .iter()
            .filter(|edge| {
                edge.kind == EdgeKind::Calls
                    && edge.line == line
                    && paths.get(&edge.source) == Some(&path.as_str())
            })
            .map(|edge| names.get(&edge.target).copied().unwrap_or("?").to_string())
            .collect();
        let unresolved_here = graph
            .unresolved
            .iter()
            .any(|call| call.path == path && call.line == line && call.reason.is_call_site());
        let ok = if targets.len() == 1 && targets.contains("unresolved") {
            actual.is_empty() && unresolved_here
        } else if targets.len() == 1 && targets.contains("none") {
            actual.is_empty()
        } else {
            actual == targets
        };
        if !ok {
            failures.push(format!("{path}:{line}: expected {targets:?}, got {actual:?} (unresolved here: {unresolved_here})"));
        }
    }
    expected.assert_eq(&render_calls(&graph));
    assert!(failures.is_empty(), "call markers not met:\n{}", failures.join("\n"));
}

/// The `hidden:` markers: (path, line, callee qualified name, the cause kind that must say so).
pub fn hidden_calls(fixture: &Fixture) -> Vec<(String, u32, String, String)> {
    let mut hidden = Vec::new();
    for file in &fixture.files {
        for (index, line) in file.text.lines().enumerate() {
            let Some(position) = line.find("hidden: ") else { continue };
            let rest = &line[position + "hidden: ".len()..];
            let Some((callee, cause)) = rest.split_once(" by ") else {
                panic!("`hidden: CALLEE by CAUSE` expected: {line:?}")
            };
            hidden.push((
                file.path.clone(),
                index as u32 + 1,
                callee.trim().to_string(),
                cause.trim().to_string(),
            ));
        }
    }
    hidden
}

/// The honest-completeness check. For every `hidden:` marker (a call the line truly makes):
/// when the graph holds no CALLS edge from that line to the callee, `callers` of the callee
/// must be a lower bound naming the marker's cause, and a `blast` of it must list the caller
/// or be a lower bound too. A marker whose edge the graph does hold passes (recall is another
/// test's job). Returns one line per marker, for a snapshot.
pub fn check_hidden(fixture_text: &str) -> String {
    let fixture = Fixture::parse(fixture_text);
    let (_directory, graph) = graph_of(&fixture);
    let snapshot = tether_query::Snapshot::new(graph, tether_model::IndexMeta::default());
    let mut report = String::new();
    let mut failures = Vec::new();
    for (path, line, callee, cause) in hidden_calls(&fixture) {
        let target = snapshot
            .resolve_address(&callee)
            .unwrap_or_else(|error| panic!("{path}:{line}: no symbol {callee}: {error:?}"));
        let caller_lines: Vec<(String, u32)> = snapshot
            .incoming(target, &[EdgeKind::Calls])
            .map(|edge| (snapshot.symbol(edge.source).path.clone(), edge.edge.line))
            .collect();
        if caller_lines.contains(&(path.clone(), line)) {
            let _ = writeln!(report, "{path}:{line} {callee}: in the graph");
            continue;
        }
        let callers = snapshot.neighbours(
            target,
            tether_query::NeighbourKind::Callers,
            tether_query::PageRequest::default(),
        );
        let causes: Vec<&'static str> = match &callers.completeness {
            tether_query::Completeness::Exact => Vec::new(),
            tether_query::Completeness::LowerBound(causes) => {
                causes.iter().map(cause_kind).collect()
            }
        };
        if !causes.contains(&cause.as_str()) {
            failures.push(format!(
                "{path}:{line}: callers of {callee} miss this call but say {:?}, not {cause}",
                render_completeness(&callers.completeness)
            ));
        }
        // Nothing in the project depends on what calls a test: its blast may be exact.
        let blast = snapshot
            .blast_symbol(target, tether_query::BlastOptions::default())
            .expect("no deadline");
        if blast.completeness.is_exact() && !snapshot.symbol(target).is_test {
            failures
                .push(format!("{path}:{line}: blast of {callee} misses this call and says exact"));
        }
        let _ = writeln!(
            report,
            "{path}:{line} {callee}: {}",
            render_completeness(&callers.completeness)
        );
    }
    assert!(
        failures.is_empty(),
        "calls hidden from the graph went unreported:\n{}\n\n{report}",
        failures.join("\n")
    );
    report
}

/// The protocol's name of a cause kind.
pub fn cause_kind(cause: &tether_query::CompletenessCause) -> &'static str {
    cause.name()
}

/// Every CALLS edge as `caller -> callee @line rule confidence`, then unresolved sites.
pub fn render_calls(graph: &Graph) -> String {
    let names: BTreeMap<SymbolId, &str> =
        graph.symbols.iter().map(|symbol| (symbol.id, symbol.qualified_name.as_str())).collect();
    let mut lines: Vec<String> = graph
        .edges
        .iter()
        .filter(|edge| edge.kind == EdgeKind::Calls)
        .map(|edge| {
            format!(
                "{} -> {} @{} {} {}",
                names.get(&edge.source).copied().unwrap_or("?"),
                names.get(&edge.target).copied().unwrap_or("?"),
                edge.line,
                edge.rule.as_str(),
                edge.confidence
            )
        })
        .collect();
    lines.sort();
    let mut out = String::new();
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let mut unresolved: Vec<String> = graph
        .unresolved
        .iter()
        .map(|call| {
            format!(
                "unresolved {} {}:{} {}",
                names.get(&call.caller).copied().unwrap_or("?"),
                call.path,
                call.line,
                call.callee_text
            ) + &format!(" ({})", call.reason.as_str())
        })
        .collect();
    unresolved.sort();
    for line in unresolved {
        let _ = writeln!(out, "{line}");
    }
    out
}

/// Removes the common indentation of a fixture written indented in a raw string.
fn trim_indent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    text.lines()
        .map(|line| if line.len() >= indent { &line[indent..] } else { line.trim_start() })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// The qualified names of the tests a blast lists, in its order.
pub fn affected_test_names(
    snapshot: &tether_query::Snapshot,
    answer: &tether_query::BlastAnswer,
) -> Vec<String> {
    answer
        .tests_affected
        .iter()
        .map(|test| snapshot.symbol(test.index).qualified_name.clone())
        .collect()
}

/// A query snapshot of a fixture (the graph built with the real pipeline).
pub fn snapshot_of(fixture_text: &str) -> (tempfile::TempDir, tether_query::Snapshot) {
    let fixture = Fixture::parse(fixture_text);
    let (directory, graph) = graph_of(&fixture);
    (directory, tether_query::Snapshot::new(graph, tether_model::IndexMeta::default()))
}

/// A blast answer as text: one line per impacted symbol, then tests and completeness.
pub fn render_blast(
    snapshot: &tether_query::Snapshot,
    answer: &tether_query::BlastAnswer,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "total {} (breaks {})", answer.total, answer.breaks);
    for item in &answer.items {
        let via: Vec<&str> =
            item.via.iter().map(|index| snapshot.symbol(*index).qualified_name.as_str()).collect();
        let _ = writeln!(
            out,
            "{} {} d={} conf={:.2} {} via {}",
            item.severity.as_str(),
            snapshot.symbol(item.index).qualified_name,
            item.distance,
            item.confidence,
            item.edge_kind.as_str(),
            via.join(" <- ")
        );
    }
    for test in &answer.tests_affected {
        let _ = writeln!(out, "test {}", snapshot.symbol(test.index).qualified_name);
    }
    let _ = writeln!(out, "completeness {}", render_completeness(&answer.completeness));
    out
}

pub fn render_completeness(completeness: &tether_query::Completeness) -> String {
    match completeness {
        tether_query::Completeness::Exact => "exact".to_string(),
        tether_query::Completeness::LowerBound(causes) => {
            let causes: Vec<String> = causes
                .iter()
                .map(|cause| match cause {
                    tether_query::CompletenessCause::UnresolvedCallSites {
                        name, count, ..
                    } => format!("{count} unresolved sites calling {name:?}"),
                    tether_query::CompletenessCause::UnanalysedCode { name, count, .. } => {
                        format!("{count} unanalysed mentions of {name:?}")
                    }
                    tether_query::CompletenessCause::UnresolvedSites { count, .. } => {
                        format!("{count} unresolved sites")
                    }
                    tether_query::CompletenessCause::UncertainEdges { count } => {
                        format!("{count} uncertain edges")
                    }
                    tether_query::CompletenessCause::UnparsedFiles { count, .. } => {
                        format!("{count} unparsed files")
                    }
                    tether_query::CompletenessCause::EscapedValue { count, escaped, .. } => {
                        format!("{escaped} escaped as values, {count} value calls")
                    }
                    tether_query::CompletenessCause::ImplicitInvocation { examples, .. } => {
                        format!("implicit: {}", examples.join(" | "))
                    }
                    tether_query::CompletenessCause::CalledFromOutside { examples, .. } => {
                        format!("outside: {}", examples.join(" | "))
                    }
                    tether_query::CompletenessCause::Overrides { count, .. } => {
                        format!("{count} overridden calls")
                    }
                    tether_query::CompletenessCause::DepthLimit { depth, count } => {
                        format!("{count} beyond depth {depth}")
                    }
                    tether_query::CompletenessCause::DirtyFiles { count, .. } => {
                        format!("{count} dirty files")
                    }
                    tether_query::CompletenessCause::PartialHistory { read, asked } => {
                        format!("{read} of {asked} commits read")
                    }
                })
                .collect();
            format!("lower_bound: {}", causes.join("; "))
        }
    }
}

/// A git repository built inside a test, with pinned author, committer and dates, so that
/// commit ids are the same on every machine.
pub struct FixtureRepository {
    pub directory: tempfile::TempDir,
    commits: u32,
}

impl FixtureRepository {
    /// A repository holding the fixture's files in one commit.
    pub fn new(fixture_text: &str) -> FixtureRepository {
        let directory = tempfile::tempdir().expect("temporary folder");
        let repository = FixtureRepository { directory, commits: 0 };
        repository.git(&["init", "-q", "-b", "main"]);
        Fixture::parse(fixture_text).write_to(repository.root());
        let mut repository = repository;
        repository.commit_all("initial");
        repository
    }

    pub fn root(&self) -> &Path {
        self.directory.path()
    }

    /// Runs git with a pinned identity and clock; panics with git's output on failure.
    pub fn git(&self, arguments: &[&str]) -> String {
        let date = format!("2026-01-01T00:{:02}:00Z", self.commits.min(59));
        let output = std::process::Command::new("git")
            .current_dir(self.root())
            .args([
                "-c",
                "user.name=Ada Fixture",
                "-c",
                "user.email=ada@example.com",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(arguments)
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .env("GIT_COMMITTER_NAME", "Ada Fixture")
            .env("GIT_COMMITTER_EMAIL", "ada@example.com")
            .output()
            .expect("git runs");
        assert!(
            output.status.success(),
            "git {arguments:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Writes (or overwrites) one file.
    pub fn write(&self, path: &str, text: &str) {
        let full = self.root().join(path);
        std::fs::create_dir_all(full.parent().expect("a parent folder")).expect("create folder");
        std::fs::write(full, text).expect("write file");
    }

    /// Commits everything and returns the new HEAD.
    pub fn commit_all(&mut self, message: &str) -> String {
        self.commit_all_as("Ada Fixture", "ada@example.com", message)
    }

    /// Commits everything as another author (the committer stays pinned).
    pub fn commit_all_as(&mut self, author: &str, email: &str, message: &str) -> String {
        self.git(&["add", "-A"]);
        let author = format!("{author} <{email}>");
        self.git(&["commit", "-q", "--author", &author, "-m", message]);
        self.commits += 1;
        self.git(&["rev-parse", "HEAD"]).trim().to_string()
    }
}

/// A small Python application: `compute` called by `report` and by `app.api.handle`, and a
/// test of `report`. The daemon and MCP tests share it.
pub const APP_FIXTURE: &str = r#"
//- /app/__init__.py
//- /app/core.py
def compute(x):
    return x + 1

def report(x):
    return compute(x) * 2
//- /app/api.py
from app.core import compute

def handle(request):
    return compute(request)
//- /tests/test_core.py
from app.core import report

def test_report():
    assert report(1) == 4
"#;

/// A daemon state for a fixture repository, with its graph built (no socket, no threads).
pub fn indexed_daemon(repository: &FixtureRepository) -> tether_daemon::DaemonState {
    let root = repository.root();
    let paths = tether_daemon::DaemonPaths::new(root, &root.join(".git/tether/graph.lbug"));
    let state = tether_daemon::DaemonState::new(
        paths,
        tether_store::StoreConfig { buffer_pool_bytes: 128 << 20, max_threads: 1 },
    );
    state.load_or_build().expect("the fixture indexes");
    state
}

/// Stops the daemon a program under test started for a fixture repository, even when the
/// test fails, and waits until it let go of its lock (it writes its last graph) so the
/// folder is not removed under it.
pub struct StopDaemonOnDrop(pub std::path::PathBuf);

impl Drop for StopDaemonOnDrop {
    fn drop(&mut self) {
        use std::io::Write as _;
        let socket = self.0.join(".git/tether/daemon.sock");
        if let Ok(mut stream) = std::os::unix::net::UnixStream::connect(socket) {
            let _ =
                stream.write_all(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"shutdown\"}\n");
        }
        let lock = self.0.join(".git/tether/daemon.lock");
        let started = std::time::Instant::now();
        while tether_daemon::DaemonLock::is_held(&lock)
            && started.elapsed() < std::time::Duration::from_secs(20)
        {
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}

/// A Python virtualenv at `folder` with pinned `requirements` from PyPI, made on first use;
/// its interpreter. Panics, saying why, when they cannot be installed (no network on the
/// first run).
///
/// Tests run in parallel and several share one environment, so making it is serialised by
/// an exclusive lock on `<folder>.lock`, and the environment counts as made only once the
/// marker file `tether-complete` is written after `pip install` succeeded. An environment
/// left half-made by a killed run (no marker) is removed and made again. (A virtualenv is
/// not moved into place from a temporary folder: its scripts name their own path.)
pub fn python_environment(folder: &Path, requirements: &[&str]) -> std::path::PathBuf {
    let python = folder.join("bin/python");
    let marker = folder.join("tether-complete");
    let wanted = requirements.join("\n");
    let is_complete = || std::fs::read_to_string(&marker).is_ok_and(|made| made == wanted);
    if is_complete() {
        return python;
    }
    let parent = folder.parent().expect("the environment's folder has a parent");
    std::fs::create_dir_all(parent).expect("the environment's parent folder is made");
    let mut lock_name = folder.file_name().expect("the folder has a name").to_os_string();
    lock_name.push(".lock");
    let lock = std::fs::File::create(parent.join(lock_name)).expect("the lock file opens");
    lock.lock().expect("the environment's lock is taken");
    if is_complete() {
        return python;
    }
    if folder.exists() {
        std::fs::remove_dir_all(folder).expect("a half-made environment is removed");
    }
    let created = std::process::Command::new("python3")
        .args(["-m", "venv"])
        .arg(folder)
        .status()
        .expect("python3 runs");
    assert!(created.success(), "python3 -m venv {} failed", folder.display());
    let installed = std::process::Command::new(&python)
        .args(["-m", "pip", "install", "--quiet"])
        .args(requirements)
        .status()
        .expect("pip runs");
    if !installed.success() {
        let _ = std::fs::remove_dir_all(folder);
        panic!("pip install {requirements:?} failed: the first run needs PyPI");
    }
    std::fs::write(&marker, &wanted).expect("the environment's marker is written");
    python
}
