//! The `tether` program behaves like ripgrep and cargo: exit codes that say what happened
//! (0, 1 nothing matched, 2 usage, 3 daemon), quiet success when a reader closes the pipe,
//! `-C DIR` on every command, paths from the current folder or absolute, help with examples,
//! completions and a manual page, `next:` hints written as commands, `--color`, and no
//! surprise index of a folder outside git.

use std::io::{BufRead, BufReader, Read};
use std::os::unix::net::UnixListener;
use std::path::Path;
use std::process::{Command, Stdio};

use tether_tests::{FixtureRepository, StopDaemonOnDrop, APP_FIXTURE};

/// What one run of `tether` did.
struct Ran {
    code: i32,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Ran {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "exit {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

fn tether_command(folder: &Path, arguments: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"));
    command.args(arguments).current_dir(folder).stdin(Stdio::null());
    command
}

/// Runs `tether ARGUMENTS` in `folder` with no standard input.
fn tether(folder: &Path, arguments: &[&str]) -> Ran {
    let output = tether_command(folder, arguments).output().expect("tether runs");
    Ran {
        code: output.status.code().expect("tether exits (no signal)"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `tether ARGUMENTS` with its standard output a pipe whose reader is gone before the
/// first write (what `| head` does once it has its lines): every write fails with EPIPE.
fn tether_into_a_closed_pipe(folder: &Path, arguments: &[&str]) -> Ran {
    let mut child = tether_command(folder, arguments)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tether starts");
    drop(child.stdout.take());
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    let status = child.wait().unwrap();
    Ran { code: status.code().unwrap_or(-1), stdout: String::new(), stderr }
}

#[test]
fn exit_codes_say_whether_it_matched_was_misused_or_could_not_reach_the_daemon() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root();
    let ran = tether(root, &["lookup", "compute", "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    // Nothing matched: an answer, printed, with exit code 1 (as grep and ripgrep do).
    let ran = tether(root, &["lookup", "zzz_no_such_name", "--no-daemon"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("0 symbols match"), "{ran:?}");
    let ran = tether(root, &["lookup", "zzz_no_such_name", "--no-daemon", "--json"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stdout.contains("\"total\": 0"), "{ran:?}");
    let ran = tether(root, &["callers", "app.core.no_such_function", "--no-daemon"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    assert!(ran.stderr.contains("no symbol matches"), "{ran:?}");
    let ran = tether(root, &["blast", "--file", "app/no_such_file.py", "--no-daemon"]);
    assert_eq!(ran.code, 1, "{ran:?}");
    // Usage errors: clap's own and tether's checks alike.
    for arguments in [
        &["callers", "app.core.compute", "--limit", "0"][..],
        &["callers", "app.core.compute", "--limit", "201"],
        &["blast", "app.core.compute", "--depth", "9"],
        &["blast", "app.core.compute", "--tests-limit", "0"],
        &["callers", "app.core.compute", "-C", "/no/such/folder"],
        &["index", "-C", "/no/such/folder"],
        &["index", ".", "-C", "."],
        &["-C", ".", "index", "."],
        &["blast", "--no-daemon"],
        &["cypher", "MATCH (s) RETURN s", "--no-such-option"],
        &["cypher", " "],
        &["man", "no-such-command"],
        &["callers", "app.core.compute", "--cursor", "not-a-cursor", "--no-daemon"],
    ] {
        let ran = tether(root, arguments);
        assert_eq!(ran.code, 2, "tether {arguments:?}: {ran:?}");
        assert!(ran.stderr.contains("error"), "tether {arguments:?}: {ran:?}");
    }
    let ran = tether(root, &["callers", "app.core.compute", "--limit", "201"]);
    assert!(ran.stderr.contains("1..=200"), "the bounds are named: {ran:?}");
    let ran = tether(root, &["callers", "app.core.compute", "-C", "/no/such/folder"]);
    assert!(ran.stderr.contains("/no/such/folder does not exist"), "{ran:?}");
    // No daemon runs: `status` cannot reach one.
    let ran = tether(root, &["status"]);
    assert_eq!(ran.code, 3, "{ran:?}");
    assert!(ran.stderr.contains("no tether daemon is running"), "{ran:?}");
}

#[test]
fn a_daemon_that_dies_during_a_request_is_a_daemon_failure_naming_its_log() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let paths = tether_daemon::DaemonPaths::new(&root, &root.join(".git/tether/graph.lbug"));
    paths.prepare().unwrap();
    // A daemon that takes the request and dies before answering.
    let listener = UnixListener::bind(&paths.socket).unwrap();
    let dying_daemon = std::thread::spawn(move || {
        let (connection, _) = listener.accept().unwrap();
        let mut request = String::new();
        BufReader::new(&connection).read_line(&mut request).unwrap();
        request
    });
    let ran = tether(&root, &["callers", "app.core.compute"]);
    assert!(dying_daemon.join().unwrap().contains("\"callers\""));
    assert_eq!(ran.code, 3, "{ran:?}");
    assert!(ran.stderr.contains(&paths.log.display().to_string()), "names the log: {ran:?}");
    assert!(ran.stderr.contains("may have crashed"), "{ran:?}");
}

#[test]
fn output_closed_by_its_reader_ends_quietly_with_success() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root();
    assert_eq!(tether(root, &["index"]).code, 0);
    for arguments in [
        &["export"][..],
        &["cypher", "MATCH (s:Symbol) RETURN s.qualified_name"],
        &["lookup", "compute", "--no-daemon"],
        &["lookup", "compute", "--no-daemon", "--json"],
        &["completions", "bash"],
        &["man"],
    ] {
        let ran = tether_into_a_closed_pipe(root, arguments);
        assert_eq!(ran.code, 0, "tether {arguments:?}: {ran:?}");
        assert_eq!(ran.stderr, "", "tether {arguments:?} says nothing: {ran:?}");
    }
    let _stop = StopDaemonOnDrop(root.to_path_buf());
    assert_eq!(tether(root, &["start"]).code, 0);
    for arguments in [&["status", "--json"][..], &["status"], &["callers", "app.core.compute"]] {
        let ran = tether_into_a_closed_pipe(root, arguments);
        assert_eq!(ran.code, 0, "tether {arguments:?}: {ran:?}");
        assert_eq!(ran.stderr, "", "tether {arguments:?} says nothing: {ran:?}");
    }
}

#[test]
fn every_command_takes_dash_c_and_paths_from_here_or_absolute() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let here = elsewhere.path();
    let dir = root.to_str().unwrap();
    let ran = tether(here, &["index", "-C", dir]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains(&format!("Indexed {dir}")), "{ran:?}");
    // The positional folder still works.
    assert_eq!(tether(here, &["index", dir, "--json"]).code, 0);
    let ran = tether(here, &["cypher", "MATCH (s:Symbol) RETURN count(*)", "-C", dir]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let exported = here.join("graph.json");
    let ran = tether(here, &["export", "-C", dir, "-o", exported.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(std::fs::read_to_string(&exported).unwrap().contains("app.core.compute"));
    let ran = tether(here, &["status", "-C", dir]);
    assert_eq!(ran.code, 3, "{ran:?}");
    assert!(ran.stderr.contains(dir), "{ran:?}");
    let ran = tether(here, &["callers", "app.core.compute", "-C", dir, "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    // Before the command too, as with git.
    let ran = tether(here, &["-C", dir, "callers", "app.core.compute", "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("app.api.handle"), "{ran:?}");
    let ran = tether(here, &["-C", dir, "index", "--json"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    {
        let _stop = StopDaemonOnDrop(root.clone());
        let ran = tether(here, &["start", "-C", dir]);
        assert_eq!(ran.code, 0, "{ran:?}");
        let ran = tether(here, &["status", "-C", dir]);
        assert_eq!(ran.code, 0, "{ran:?}");
        assert!(ran.stdout.contains(&format!("serving {dir}")), "{ran:?}");
        let ran = tether(here, &["stop", "-C", dir]);
        assert_eq!(ran.code, 0, "{ran:?}");
    }
    // From inside app/: a path:line, --file and --folder taken from here; absolute too.
    let app = root.join("app");
    let from_app = |arguments: &[&str]| {
        let mut arguments = arguments.to_vec();
        arguments.extend(["-C", "..", "--no-daemon"]);
        tether(&app, &arguments)
    };
    let ran = from_app(&["callers", "core.py:1"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("callers of app.core.compute"), "{ran:?}");
    let ran = from_app(&["blast", "--file", "core.py"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("app.api.handle"), "{ran:?}");
    let absolute = app.join("core.py");
    let ran = from_app(&["blast", "--file", absolute.to_str().unwrap()]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("app.api.handle"), "{ran:?}");
    let ran = from_app(&["lookup", "test_report", "--folder", "."]);
    assert_eq!(ran.code, 1, "tests/ is not under app/: {ran:?}");
    let ran = from_app(&["lookup", "compute", "--folder", "."]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("app.core.compute"), "{ran:?}");
    // Without -C, a subfolder means its repository, as in git and cargo: the graph stays the
    // whole repository's (a root of app/ alone would rename app.core.compute core.compute,
    // lose its caller in app/api.py, and take the other files for changed ones).
    let ran = tether(&app, &["callers", "core.py:1", "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(
        ran.stdout.contains("callers of app.core.compute (function, app/core.py:1): 2"),
        "{ran:?}"
    );
    assert!(ran.stdout.contains("complete: exact"), "{ran:?}");
    let ran = tether(&app, &["index"]);
    assert!(ran.stdout.contains(&format!("Indexed {dir} ")), "{ran:?}");
    let ran = tether(&root, &["callers", "app.core.compute", "--no-daemon"]);
    assert!(ran.stdout.contains("app.api.handle"), "{ran:?}");
}

#[test]
fn help_names_the_exit_codes_and_completions_and_the_manual_generate() {
    let folder = tempfile::tempdir().unwrap();
    let here = folder.path();
    let ran = tether(here, &["--help"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    for expected in ["Exit codes:", "3  the daemon could not be reached", "Main commands:"] {
        assert!(ran.stdout.contains(expected), "{expected}: {ran:?}");
    }
    let ran = tether(here, &["blast", "--help"]);
    assert!(ran.stdout.contains("Examples:\n  tether blast app.core.compute"), "{ran:?}");
    for shell in ["bash", "zsh", "fish"] {
        let ran = tether(here, &["completions", shell]);
        assert_eq!(ran.code, 0, "{shell}: {ran:?}");
        assert!(ran.stdout.contains("search-memory"), "{shell} completes a subcommand");
        assert!(ran.stdout.contains("limit"), "{shell} completes an option");
    }
    let ran = tether(here, &["man"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.starts_with(".ie") || ran.stdout.contains(".TH tether"), "{ran:?}");
    assert!(ran.stdout.contains("blast"), "{ran:?}");
    let ran = tether(here, &["man", "blast"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains(".TH tether-blast"), "{ran:?}");
    assert!(ran.stdout.contains("depth"), "{ran:?}");
}

#[test]
fn text_hints_are_commands_to_type_and_json_keeps_the_protocol_form() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root();
    let ran = tether(root, &["callers", "app.core.compute", "--limit", "1", "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let hint = ran.stdout.lines().find_map(|line| line.strip_prefix("next: ")).unwrap();
    assert_eq!(
        hint, "tether callers app.core.compute --limit 1 --cursor o:1 for the next page",
        "{ran:?}"
    );
    // The hint runs as it is written.
    let command = hint.strip_suffix(" for the next page").unwrap();
    let mut words: Vec<&str> = command.split(' ').skip(1).collect();
    words.push("--no-daemon");
    let next_page = tether(root, &words);
    assert_eq!(next_page.code, 0, "{next_page:?}");
    let first = ran.stdout.lines().nth(1).unwrap();
    let second = next_page.stdout.lines().nth(1).unwrap();
    assert_ne!(first, second, "the next page holds the other caller");
    let last = tether(root, &["callers", "app.core.compute", "--no-daemon"]);
    assert!(
        last.stdout.contains(
            "next: tether blast app.core.compute for everything that depends on it, transitively"
        ),
        "{last:?}"
    );
    let json =
        tether(root, &["callers", "app.core.compute", "--limit", "1", "--no-daemon", "--json"]);
    assert!(
        json.stdout.contains(r#""next": "callers {\"symbol\": \"app.core.compute\", \"cursor\": \"o:1\"} for the next page""#),
        "{json:?}"
    );
    let ran = tether(root, &["blast", "--file", "app/core.py", "--limit", "1", "--no-daemon"]);
    assert!(
        ran.stdout.contains("next: tether blast --file app/core.py --limit 1 --cursor o:1"),
        "{ran:?}"
    );
}

#[test]
fn color_is_only_on_a_terminal_unless_asked_for() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root();
    let piped = tether(root, &["lookup", "compute", "--no-daemon"]);
    assert!(!piped.stdout.contains('\u{1b}'), "{piped:?}");
    let always = tether(root, &["lookup", "compute", "--no-daemon", "--color", "always"]);
    assert!(always.stdout.starts_with("\u{1b}[1m"), "a bold header: {always:?}");
    assert!(always.stdout.contains("\u{1b}[2mnext: "), "a dim hint: {always:?}");
    let never = tether(root, &["--color", "never", "lookup", "compute", "--no-daemon"]);
    assert!(!never.stdout.contains('\u{1b}'), "{never:?}");
}

#[test]
fn a_query_outside_git_refuses_to_index_the_folder_by_surprise() {
    let folder = tempfile::tempdir().unwrap();
    let dir = folder.path().to_str().unwrap();
    std::fs::write(folder.path().join("tool.py"), "def main():\n    return 1\n").unwrap();
    let ran = tether(folder.path(), &["lookup", "main"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(
        ran.stderr.contains(&format!("run `tether index {dir}`"))
            || ran.stderr.contains("run `tether index .`"),
        "{ran:?}"
    );
    let ran = tether(Path::new("/"), &["callers", "main", "-C", dir, "--no-daemon"]);
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains(&format!("run `tether index {dir}` first")), "{ran:?}");
    assert!(!folder.path().join(".tether").exists(), "nothing was created: {ran:?}");
    // Once indexed on purpose, it answers.
    assert_eq!(tether(folder.path(), &["index"]).code, 0);
    let ran = tether(folder.path(), &["lookup", "main", "--no-daemon"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    assert!(ran.stdout.contains("tool.main"), "{ran:?}");
}

/// Runs `tether ARGUMENTS` in `folder` with standard input and standard error on a new
/// terminal (a pseudo-terminal) whose person types `typed`; standard output is a pipe.
fn tether_at_a_terminal(folder: &Path, arguments: &[&str], typed: &str) -> Ran {
    use std::io::Write;
    use std::os::fd::{FromRawFd, OwnedFd};
    let (mut controller, mut terminal) = (0, 0);
    // SAFETY: openpty writes two new descriptors, owned below.
    let opened = unsafe {
        libc::openpty(
            &mut controller,
            &mut terminal,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(opened, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned by nothing else.
    let (controller, terminal) =
        unsafe { (OwnedFd::from_raw_fd(controller), OwnedFd::from_raw_fd(terminal)) };
    let mut keyboard = std::fs::File::from(controller.try_clone().unwrap());
    keyboard.write_all(typed.as_bytes()).unwrap();
    let output = tether_command(folder, arguments)
        .stdin(Stdio::from(terminal.try_clone().unwrap()))
        .stderr(Stdio::from(terminal))
        .output()
        .unwrap();
    drop(controller);
    Ran {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::new(),
    }
}

#[test]
fn at_a_terminal_the_query_asks_before_indexing_a_folder_outside_git() {
    let folder = tempfile::tempdir().unwrap();
    std::fs::write(folder.path().join("tool.py"), "def main():\n    return 1\n").unwrap();
    let ran = tether_at_a_terminal(folder.path(), &["lookup", "main", "--no-daemon"], "n\n");
    assert_eq!(ran.code, 2, "no: refused: {ran:?}");
    assert!(!folder.path().join(".tether").exists(), "{ran:?}");
    let ran = tether_at_a_terminal(folder.path(), &["lookup", "main", "--no-daemon"], "y\n");
    assert_eq!(ran.code, 0, "yes: indexed and answered: {ran:?}");
    assert!(ran.stdout.contains("tool.main"), "{ran:?}");
}

/// A daemon with `--idle-exit` stops once no client has been connected for that long, and not
/// while one is; it writes its graph and lets go of its lock on the way out.
#[test]
fn a_daemon_with_an_idle_exit_stops_when_no_client_is_connected() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let mut daemon = tether_command(&root, &["serve", "--idle-exit", "2s"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("tether serve starts");
    let socket = root.join(".git/tether/daemon.sock");
    let started = std::time::Instant::now();
    let client = loop {
        if let Ok(client) = std::os::unix::net::UnixStream::connect(&socket) {
            break client;
        }
        assert!(started.elapsed().as_secs() < 60, "the daemon never listened");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    // A connected client keeps it serving past the idle time.
    std::thread::sleep(std::time::Duration::from_secs(4));
    assert!(daemon.try_wait().unwrap().is_none(), "it stopped with a client connected");
    drop(client);
    let closed = std::time::Instant::now();
    let status = loop {
        if let Some(status) = daemon.try_wait().unwrap() {
            break status;
        }
        assert!(closed.elapsed().as_secs() < 30, "still serving 30 s after the last client left");
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(status.success(), "{status}");
    assert!(closed.elapsed().as_millis() >= 1500, "it stopped before its idle time");
    assert!(!socket.exists(), "the socket is removed");
    let refused = tether(&root, &["serve", "--idle-exit", "soon"]);
    assert_eq!(refused.code, 2, "{refused:?}");
}

/// While a daemon owns the database, `export` asks it for its published graph instead of
/// refusing (the same document, byte for byte, as the database's export), and `cypher` asks
/// it to run the statement read-only.
#[test]
fn export_and_cypher_go_through_a_running_daemon() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let root_text = root.display().to_string();
    let indexed = tether(&root, &["index", "-C", &root_text]);
    assert_eq!(indexed.code, 0, "{indexed:?}");
    let offline = tether(&root, &["export"]);
    assert_eq!(offline.code, 0, "{offline:?}");
    assert!(offline.stdout.contains("\"app.core.compute\""), "{offline:?}");

    let started = tether(&root, &["start"]);
    assert_eq!(started.code, 0, "{started:?}");
    let through_the_daemon = tether(&root, &["export"]);
    assert_eq!(through_the_daemon.code, 0, "{through_the_daemon:?}");
    assert_eq!(through_the_daemon.stdout, offline.stdout);
    let file = root.join("export.json");
    let to_file = tether(&root, &["export", "-o", &file.display().to_string()]);
    assert_eq!(to_file.code, 0, "{to_file:?}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), offline.stdout);
    // cypher too, read-only: the engine refuses a write and the graph keeps its symbols.
    let count = "MATCH (s:Symbol) WHERE s.name = 'compute' RETURN s.qualified_name";
    let cypher = tether(&root, &["cypher", count]);
    assert_eq!(
        (cypher.code, cypher.stdout.as_str()),
        (0, "s.qualified_name\napp.core.compute\n"),
        "{cypher:?}"
    );
    let write = tether(&root, &["cypher", "MATCH (s:Symbol) DETACH DELETE s"]);
    assert_eq!(write.code, 2, "{write:?}");
    assert!(write.stderr.contains("read-only"), "{write:?}");
    let again = tether(&root, &["cypher", count]);
    assert_eq!(again.stdout, cypher.stdout, "{again:?}");
    let stopped = tether(&root, &["stop"]);
    assert_eq!(stopped.code, 0, "{stopped:?}");
    let offline = tether(&root, &["cypher", count]);
    assert_eq!(offline.stdout, cypher.stdout, "the same rows without a daemon: {offline:?}");
}

/// A runaway `cypher` without a daemon (the CLI opens the database itself) is stopped at the
/// daemon's time bound with a clear error (issue 39): the engine's own timeout covers making
/// the result, not reading its rows, and counting a cross product's omitted rows ran on.
#[test]
fn a_runaway_cypher_without_a_daemon_is_stopped_at_the_time_bound() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let indexed = tether(&root, &["index"]);
    assert_eq!(indexed.code, 0, "{indexed:?}");
    let runaway = "MATCH (a:Symbol),(b:Symbol),(c:Symbol),(d:Symbol),(e:Symbol),(f:Symbol),\
                   (g:Symbol),(h:Symbol),(i:Symbol),(j:Symbol) \
                   RETURN a.id,b.id,c.id,d.id,e.id,f.id,g.id,h.id,i.id,j.id";
    let started = std::time::Instant::now();
    let ran = tether(&root, &["cypher", runaway]);
    let took = started.elapsed();
    assert_eq!(ran.code, 2, "{ran:?}");
    assert!(ran.stderr.contains("the statement was stopped after 20 s"), "{ran:?}");
    assert!(took < std::time::Duration::from_secs(25), "{took:?}");
}

/// `index --report` while a daemon owns the database (the normal case: any query starts one)
/// reports the daemon's rebuilt graph, the same census and sections as without a daemon
/// (issue 42: it printed the daemon's status instead).
#[test]
fn index_report_through_a_running_daemon_reports_the_same_graph() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    repository
        .write("app/extra.py", "def run(handlers):\n    handlers[0]()\n    undefined_helper()\n");
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let census_lines = |text: &str| -> Vec<String> {
        text.lines()
            .skip(1)
            .filter(|line| !line.starts_with("  database") && !line.starts_with("  seconds"))
            .map(|line| line.split(" (").next().unwrap_or(line).to_string())
            .collect()
    };
    let offline = tether(&root, &["index", "--report"]);
    assert_eq!(offline.code, 0, "{offline:?}");
    assert!(offline.stdout.contains("Top unresolved callee names, by reason:"), "{offline:?}");
    assert!(offline.stdout.contains("undefined_helper 1"), "{offline:?}");
    let offline_json = tether(&root, &["index", "--json"]);
    assert_eq!(offline_json.code, 0, "{offline_json:?}");

    let started = tether(&root, &["start"]);
    assert_eq!(started.code, 0, "{started:?}");
    let through_the_daemon = tether(&root, &["index", "--report"]);
    assert_eq!(through_the_daemon.code, 0, "{through_the_daemon:?}");
    assert!(
        through_the_daemon.stdout.starts_with("The running daemon reindexed "),
        "{through_the_daemon:?}"
    );
    assert_eq!(census_lines(&through_the_daemon.stdout), census_lines(&offline.stdout));
    let json = tether(&root, &["index", "--json"]);
    assert_eq!(json.code, 0, "{json:?}");
    let census =
        |text: &str| serde_json::from_str::<serde_json::Value>(text).unwrap()["census"].clone();
    assert_eq!(census(&json.stdout), census(&offline_json.stdout));
    assert!(census(&json.stdout)["call_outcomes"]["resolved"].as_u64() > Some(0), "{json:?}");
    let stopped = tether(&root, &["stop"]);
    assert_eq!(stopped.code, 0, "{stopped:?}");
}

/// The census is text for people: kinds and counts, no JSON braces.
#[test]
fn the_census_is_printed_as_text() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let census = tether(&root, &["lookup"]);
    assert_eq!(census.code, 0, "{census:?}");
    let first = census.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("census: 4 files · symbols: function 4, module 4"), "{census:?}");
    assert!(first.contains("edges: CALLS 3, CONTAINS 4, IMPORTS 2"), "{census:?}");
    assert!(!census.stdout.contains('{'), "{census:?}");
}

#[test]
fn changes_group_symbols_by_file_and_list_tests_one_per_line_within_the_limit() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root();
    repository.write(
        "app/core.py",
        "def compute(x):\n    return x + 2\n\ndef report(x):\n    # doubled\n    return compute(x) * 2\n",
    );
    repository.write("tests/test_core.py", "from app.core import report\n\ndef test_report():\n    assert report(1) == 6\n\ndef test_twice():\n    assert report(2) == 8\n");
    let ran = tether(root, &["changes", "--no-daemon", "--tests-limit", "1"]);
    assert_eq!(ran.code, 0, "{ran:?}");
    let lines: Vec<&str> = ran.stdout.lines().collect();
    let listed = |line: &str| lines.iter().position(|printed| *printed == line);
    let file = listed("  app/core.py").unwrap_or_else(|| panic!("{ran:?}"));
    assert_eq!(lines[file + 1], "    modified app.core.compute  line 1", "{ran:?}");
    assert_eq!(lines[file + 2], "    comments app.core.report  line 4", "{ran:?}");
    assert!(listed("  tests/test_core.py").is_some(), "{ran:?}");
    let tests = listed("tests affected: 2 (the first 1 are listed; --tests-limit lists more)")
        .unwrap_or_else(|| panic!("{ran:?}"));
    assert!(lines[tests + 1].starts_with("  test_core."), "{ran:?}");
}
