//! Crashes at random points: `tether index` and `tether record` are killed (SIGKILL) at
//! spread-out moments, and the next run must recover: the index completes and matches HEAD,
//! no scratch folder or engine side file of a killed build is left, and a record is either
//! committed whole (the files' commit, then the entry pinned to it) or not at all, with
//! nothing left staged; a batch of traces likewise. The number of runs is bounded for CI; the delays come from a fixed
//! seed, so a failure reproduces.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use tether_tests::{FixtureRepository, APP_FIXTURE};

/// A small deterministic generator (xorshift), so the kill moments are the same every run.
struct Moments(u64);

impl Moments {
    fn next_millis(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

fn tether(repository: &Path, arguments: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"));
    command
        .args(arguments)
        .current_dir(repository)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
        .env("GIT_AUTHOR_NAME", "Ada Fixture")
        .env("GIT_AUTHOR_EMAIL", "ada@example.com")
        .env("GIT_COMMITTER_NAME", "Ada Fixture")
        .env("GIT_COMMITTER_EMAIL", "ada@example.com");
    command
}

/// Starts the command and kills it `millis` later, unless it ended before. The kill takes
/// its process group: tether and the git it runs die together, as in a crash of the session
/// (a git left running would race the recovery that follows, which a restart, seconds
/// later, does not).
fn run_and_kill_after(mut command: Command, millis: u64) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
    let mut child = command.spawn().expect("start tether");
    let deadline = std::time::Instant::now() + Duration::from_millis(millis);
    while std::time::Instant::now() < deadline {
        if child.try_wait().ok().flatten().is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    // SAFETY: a plain kill(2) of the group this test created for the child.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let _ = child.wait();
}

fn leftovers(folder: &Path) -> Vec<String> {
    std::fs::read_dir(folder)
        .map(|entries| {
            entries
                .flatten()
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| {
                    name.contains(".building")
                        || name.starts_with("tether-load-")
                        || (name.starts_with("graph.lbug.") && name != "graph.lbug.wal")
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn builds_left_by_killed_runs_are_removed_and_the_next_index_succeeds() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let folder = repository.root().join(".git/tether");
    std::fs::create_dir_all(folder.join(".graph.lbug.building-old/tether-load-x")).unwrap();
    std::fs::create_dir_all(folder.join("tether-load-abc")).unwrap();
    for name in [
        "graph.lbug.building",
        "graph.lbug.building.wal",
        "graph.lbug.building.wal.checkpoint",
        "graph.lbug.building.shadow",
        ".graph.lbug.building-old/graph.lbug.wal",
    ] {
        std::fs::write(folder.join(name), b"left by a killed build").unwrap();
    }
    // A write-ahead log of some other database beside the final path ("Database ID … does
    // not match" once made every later open fail).
    std::fs::write(folder.join("graph.lbug.wal"), b"not this database's log").unwrap();
    let status = tether(repository.root(), &["index", "."]).status().unwrap();
    assert!(status.success());
    assert_eq!(leftovers(&folder), Vec::<String>::new());
    let status = tether(repository.root(), &["callers", "app.core.compute", "--no-daemon"])
        .status()
        .unwrap();
    assert!(status.success(), "the database that index wrote opens");
}

#[test]
fn an_index_killed_at_any_point_is_recovered_by_the_next_one() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let folder = repository.root().join(".git/tether");
    let mut moments = Moments(0x5eed_7e7e);
    for _ in 0..6 {
        run_and_kill_after(
            tether(repository.root(), &["index", "."]),
            10 + moments.next_millis(900),
        );
    }
    let output = tether(repository.root(), &["index", ".", "--json"])
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(output.status.success());
    let census: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(census["census"]["edges_by_kind"]["CALLS"], 3, "{census}");
    assert_eq!(leftovers(&folder), Vec::<String>::new());
}

#[test]
fn a_record_killed_at_any_point_is_committed_whole_or_not_at_all() {
    let mut moments = Moments(0xdec1_5105);
    let mut outcomes = Vec::new();
    for run in 0..7u64 {
        let repository = FixtureRepository::new(APP_FIXTURE);
        repository.write(
            "app/core.py",
            "def compute(x):\n    return x + 2\n\ndef report(x):\n    return compute(x) * 2\n",
        );
        let title = format!("Compute adds two {run}");
        let record = tether(
            repository.root(),
            &[
                "record",
                "--no-daemon",
                "--type",
                "decision",
                "--title",
                &title,
                "--files",
                "app/core.py",
            ],
        );
        // The first run is killed before it can start, the last one only long after it ended;
        // the others anywhere between.
        let delay = match run {
            0 => 5,
            6 => 10_000,
            _ => 50 + moments.next_millis(1_500),
        };
        run_and_kill_after(record, delay);
        // What the daemon does at start (and every record first).
        let paths = tether_daemon::DaemonPaths::new(
            repository.root(),
            &repository.root().join(".git/tether/graph.lbug"),
        );
        if let Err(error) = tether_daemon::recover_interrupted_record(&paths) {
            // git killed while holding its index lock leaves it behind, and git (so tether)
            // refuses to touch the index until someone removes it: the journal waits.
            let lock = repository.root().join(".git/index.lock");
            assert!(
                lock.exists() && format!("{error:?}").contains("index.lock"),
                "run {run}: recovery failed: {error:?}"
            );
            std::fs::remove_file(&lock).unwrap();
            tether_daemon::recover_interrupted_record(&paths)
                .expect("an interrupted record is settled once git's lock is gone");
        }
        assert_eq!(
            repository.git(&["diff", "--cached", "--name-only"]),
            "",
            "run {run}: the record left files staged"
        );
        let log = repository.git(&["log", "--format=%s"]);
        let files_committed = log.lines().any(|subject| subject == format!("decision: {title}"));
        let entry_committed =
            log.lines().any(|subject| subject == format!("memory: decision: {title}"));
        assert_eq!(
            files_committed, entry_committed,
            "run {run}: half a record was committed:\n{log}"
        );
        let untracked =
            repository.git(&["status", "--porcelain", "--untracked-files=all", "--", ".memory"]);
        assert_eq!(untracked, "", "run {run}: an entry was left uncommitted");
        if entry_committed {
            let pin = repository.git(&[
                "log",
                "-1",
                "--format=%H",
                "--grep",
                &format!("^decision: {title}$"),
            ]);
            let entries =
                repository.git(&["ls-tree", "-r", "--name-only", "HEAD", "--", ".memory"]);
            let entry_path = entries.lines().next().expect("the entry is in HEAD").to_string();
            let text = repository.git(&["show", &format!("HEAD:{entry_path}")]);
            assert!(
                text.contains(pin.trim()),
                "run {run}: the entry is not pinned to the files' commit:\n{text}"
            );
            assert_eq!(
                repository.git(&["status", "--porcelain", "--", "app/core.py"]),
                "",
                "the files' change is committed"
            );
        } else {
            assert!(
                repository.git(&["status", "--porcelain", "--", "app/core.py"]).starts_with(" M"),
                "run {run}: the user's change is kept"
            );
        }
        outcomes.push(entry_committed);
    }
    // The first and last runs make sure both endings occur.
    assert!(outcomes.contains(&true) && outcomes.contains(&false), "{outcomes:?}");
}

/// A batch of three traces killed at any moment is one commit with all three, or nothing:
/// no trace file left behind, nothing staged; retried under its operation ids it is
/// recorded once.
#[test]
fn a_batch_of_traces_killed_at_any_point_is_committed_whole_or_not_at_all() {
    let mut moments = Moments(0x7ace_5eed);
    let mut outcomes = Vec::new();
    for run in 0..6u64 {
        let repository = FixtureRepository::new(APP_FIXTURE);
        let traces: Vec<String> = (0..3)
            .map(|index| {
                format!(
                    r#"{{"subject": "ci/build@linux", "situation": "run {run} step {index}", "rationale": "r", "action": "a", "outcome": "o", "observed_at": "2026-12-07T10:00:0{index}Z", "operation_id": "op-{run}-{index}"}}"#
                )
            })
            .collect();
        let batch = repository.root().join("batch.json");
        std::fs::write(&batch, format!("[{}]", traces.join(","))).unwrap();
        let command = || {
            tether(
                repository.root(),
                &["record-trace", "--no-daemon", "--json-file", batch.to_str().unwrap()],
            )
        };
        let delay = match run {
            0 => 5,
            5 => 10_000,
            _ => 50 + moments.next_millis(1_200),
        };
        run_and_kill_after(command(), delay);
        let paths = tether_daemon::DaemonPaths::new(
            repository.root(),
            &repository.root().join(".git/tether/graph.lbug"),
        );
        if tether_daemon::recover_interrupted_record(&paths).is_err() {
            let _ = std::fs::remove_file(repository.root().join(".git/index.lock"));
            tether_daemon::recover_interrupted_record(&paths)
                .expect("an interrupted batch is settled once git's lock is gone");
        }
        assert_eq!(repository.git(&["diff", "--cached", "--name-only"]), "", "run {run}: staged");
        let committed =
            repository.git(&["ls-tree", "-r", "--name-only", "HEAD", "--", ".memory/traces"]);
        let count = committed.lines().count();
        assert!(count == 0 || count == 3, "run {run}: {count} of 3 traces committed");
        let untracked =
            repository.git(&["status", "--porcelain", "--untracked-files=all", "--", ".memory"]);
        assert_eq!(untracked, "", "run {run}: a trace file was left uncommitted");
        // The retry: recorded once, whether the first attempt got through or not.
        let mut retry = command();
        assert!(retry.status().unwrap().success(), "run {run}: the retry failed");
        let committed =
            repository.git(&["ls-tree", "-r", "--name-only", "HEAD", "--", ".memory/traces"]);
        assert_eq!(committed.lines().count(), 3, "run {run}: the retry recorded it once");
        outcomes.push(count == 3);
    }
    assert!(outcomes.contains(&true) && outcomes.contains(&false), "{outcomes:?}");
}

/// Two `tether start`s at once (a daemon was just killed, two clients come back) make one
/// daemon: starters take turns, and the second finds the first's lock held.
#[test]
fn two_starts_at_once_make_one_daemon() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let starts: Vec<std::process::Child> =
        (0..3).map(|_| tether(repository.root(), &["start", "."]).spawn().unwrap()).collect();
    for mut start in starts {
        assert!(start.wait().unwrap().success());
    }
    let root = repository.root().canonicalize().unwrap();
    let serving = || {
        std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
            .map(|cmdline| String::from_utf8_lossy(&cmdline).replace('\0', " "))
            .filter(|cmdline| {
                cmdline.contains(" serve ") && cmdline.contains(&root.display().to_string())
            })
            .count()
    };
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(serving(), 1, "one daemon serves the repository");
    // No second daemon was even spawned (one would have logged that it lost the lock).
    let log = std::fs::read_to_string(repository.root().join(".git/tether/daemon.log"))
        .unwrap_or_default();
    assert!(!log.contains("already serves"), "a second daemon was started:\n{log}");
    assert!(tether(repository.root(), &["stop", "."]).status().unwrap().success());
    let stopped = std::time::Instant::now();
    while serving() > 0 && stopped.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(serving(), 0, "the daemon stopped");
}

/// A database another build of tether wrote (older rules: here, a graph without its CALLS
/// edges) for the very commit checked out is not served as it is: the daemon publishes and
/// persists what this build extracts.
#[test]
fn a_graph_another_build_of_tether_wrote_for_head_is_replaced_by_this_builds() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let state = tether_tests::indexed_daemon(&repository);
    let built = state.snapshot().expect("a graph is published");
    let calls = |graph: &tether_model::Graph| {
        graph.edges.iter().filter(|edge| edge.kind == tether_model::EdgeKind::Calls).count()
    };
    assert!(calls(&built.graph) > 0);
    let mut older = built.graph.clone();
    older.edges.retain(|edge| edge.kind != tether_model::EdgeKind::Calls);
    let database = repository.root().join(".git/tether/graph.lbug");
    let config = tether_store::StoreConfig { buffer_pool_bytes: 128 << 20, max_threads: 1 };
    drop(state);
    tether_store::write_fresh_database(&database, &older, &built.meta, config)
        .expect("the older graph is written");

    let paths = tether_daemon::DaemonPaths::new(repository.root(), &database);
    let state = tether_daemon::DaemonState::new(paths, config);
    state.load_or_build().expect("the database loads");
    let served = state.snapshot().expect("a graph is published");
    assert_eq!(calls(&served.graph), calls(&built.graph), "this build's graph is served");
    state.persist_now().expect("it is persisted");
    let reopened = tether_store::GraphStore::open(&database, config).expect("the database opens");
    let stored = reopened.read_graph().expect("the graph reads");
    assert_eq!(calls(&stored), calls(&built.graph), "and persisted");
    drop(reopened);
    drop(state);

    // Its own database, read back, is what it extracts: nothing is published again.
    let paths = tether_daemon::DaemonPaths::new(repository.root(), &database);
    let state = tether_daemon::DaemonState::new(paths, config);
    state.load_or_build().expect("the database loads");
    assert!(!state.persist_pending().expect("nothing fails"), "nothing to persist");
}
