//! The daemon end to end on a fixture git repository: queries over the socket, answers that
//! follow commits and checkouts, errors that leave the connection usable, and the golden
//! request/response files of docs/protocol.md.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::{json, Value};
use tether_tests::{FixtureRepository, APP_FIXTURE};

/// A daemon serving a repository from this process, stopped on drop.
pub(crate) struct RunningDaemon {
    pub(crate) socket: std::path::PathBuf,
    stop: Arc<AtomicBool>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    server: Option<std::thread::JoinHandle<()>>,
}

impl RunningDaemon {
    pub(crate) fn start(root: &Path) -> RunningDaemon {
        let paths = DaemonPaths::new(root, &root.join(".git/tether/graph.lbug"));
        paths.prepare().expect("the daemon's folders");
        let state = Arc::new(
            DaemonState::new(
                paths.clone(),
                tether_store::StoreConfig { buffer_pool_bytes: 128 << 20, max_threads: 1 },
            )
            .run_ad_hoc_statements_in(env!("CARGO_BIN_EXE_tether-test-cli").into()),
        );
        state.load_or_build().expect("the first index");
        let stop = Arc::new(AtomicBool::new(false));
        tether_daemon::spawn_follower(Arc::clone(&state), Arc::clone(&stop));
        let listener =
            std::os::unix::net::UnixListener::bind(&paths.socket).expect("bind the socket");
        listener.set_nonblocking(true).unwrap();
        let (sender, receiver) = tokio::sync::oneshot::channel::<()>();
        let server = std::thread::spawn(move || {
            let runtime = tether_daemon::server_runtime(1).unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::UnixListener::from_std(listener).unwrap();
                tether_daemon::serve(listener, state, async move {
                    let _ = receiver.await;
                })
                .await;
            });
        });
        RunningDaemon { socket: paths.socket, stop, shutdown: Some(sender), server: Some(server) }
    }

    pub(crate) fn client(&self) -> Client {
        let stream = UnixStream::connect(&self.socket).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        Client { reader: BufReader::new(stream.try_clone().unwrap()), writer: stream }
    }
}

impl Drop for RunningDaemon {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(shutdown) = self.shutdown.take() {
            let _ = shutdown.send(());
        }
        if let Some(server) = self.server.take() {
            let _ = server.join();
        }
    }
}

pub(crate) struct Client {
    pub(crate) reader: BufReader<UnixStream>,
    pub(crate) writer: UnixStream,
}

impl Client {
    pub(crate) fn send_raw(&mut self, line: &str) -> Value {
        self.writer.write_all(line.as_bytes()).unwrap();
        self.writer.write_all(b"\n").unwrap();
        self.read_line()
    }

    /// The next line the daemon sends (an answer or a notification).
    pub(crate) fn read_line(&mut self) -> Value {
        let mut line = String::new();
        self.reader.read_line(&mut line).unwrap();
        serde_json::from_str(&line).unwrap_or_else(|error| panic!("invalid line {line:?}: {error}"))
    }

    pub(crate) fn call(&mut self, method: &str, params: Value) -> Value {
        self.send_raw(
            &json!({ "jsonrpc": "2.0", "id": 1, "method": method, "params": params }).to_string(),
        )
    }
}

pub(crate) fn caller_names(answer: &Value) -> Vec<String> {
    answer["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| item["qualified_name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn queries_over_the_socket_follow_commits_and_checkouts() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();

    let answer = client.call("callers", json!({ "symbol": "app.core.compute" }));
    assert_eq!(caller_names(&answer), ["app.api.handle", "app.core.report"]);
    assert_eq!(answer["result"]["freshness"]["head_moved"], false);

    let blast = client.call("blast", json!({ "symbol": "compute" }));
    let tests: Vec<&str> = blast["result"]["tests_affected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|test| test["qualified_name"].as_str().unwrap())
        .collect();
    assert_eq!(tests, ["test_core.test_report"]);

    // A commit adds a caller: the daemon rebuilds and publishes without a restart.
    repository.git(&["checkout", "-q", "-b", "feature"]);
    repository.write(
        "app/extra.py",
        "from app.core import compute\n\ndef extra():\n    return compute(2)\n",
    );
    let new_head = repository.commit_all("add extra");
    // (The saved file may be in a graph before the commit is: wait for the commit's.)
    wait_for(&mut client, |answer| {
        caller_names(answer).contains(&"app.extra.extra".to_string())
            && answer["result"]["freshness"]["indexed_commit"] == new_head.as_str()
    });

    // Checking out main again removes it.
    repository.git(&["checkout", "-q", "main"]);
    wait_for(&mut client, |answer| caller_names(answer) == ["app.api.handle", "app.core.report"]);
}

/// A saved file is in the graph without a commit: a new caller in an untracked file, an
/// edit of a tracked one, and a deletion, each answered exactly once the graph holds it.
#[test]
fn saved_files_are_in_the_graph_without_a_commit() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let head = client.call("status", json!({}))["result"]["freshness"]["indexed_commit"].clone();
    let exact = |answer: &Value| answer["result"]["completeness"]["status"] == "exact";

    repository.write(
        "app/extra.py",
        "from app.core import compute\n\ndef extra():\n    return compute(2)\n",
    );
    let answer = wait_for(&mut client, |answer| {
        caller_names(answer).contains(&"app.extra.extra".to_string()) && exact(answer)
    });
    assert_eq!(answer["result"]["freshness"]["indexed_commit"], head, "{answer}");
    // A new function in the saved file is addressable.
    let callees = client.call("callees", json!({ "symbol": "app.extra.extra" }));
    assert!(callees["result"]["items"].to_string().contains("app.core.compute"), "{callees}");

    let api = std::fs::read_to_string(repository.root().join("app/api.py")).unwrap();
    repository.write("app/api.py", &api.replace("compute(", "len("));
    wait_for(&mut client, |answer| {
        !caller_names(answer).contains(&"app.api.handle".to_string()) && exact(answer)
    });

    std::fs::remove_file(repository.root().join("app/extra.py")).unwrap();
    wait_for(&mut client, |answer| {
        !caller_names(answer).contains(&"app.extra.extra".to_string()) && exact(answer)
    });
}

/// Committing saved edits the graph already holds moves its label to the new commit (the
/// graph is not rebuilt), and the answers stay exact; a commit that also changes a file the
/// graph does not hold as committed is rebuilt.
#[test]
fn committing_what_the_graph_holds_relabels_it() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let exact = |answer: &Value| answer["result"]["completeness"]["status"] == "exact";
    repository.write(
        "app/extra.py",
        "from app.core import compute\n\ndef extra():\n    return compute(2)\n",
    );
    wait_for(&mut client, |answer| {
        caller_names(answer).contains(&"app.extra.extra".to_string()) && exact(answer)
    });
    let new_head = repository.commit_all("add extra");
    let answer = wait_for(&mut client, |answer| {
        answer["result"]["freshness"]["indexed_commit"] == new_head.as_str()
    });
    assert!(caller_names(&answer).contains(&"app.extra.extra".to_string()), "{answer}");
    assert!(exact(&answer), "{answer}");
    assert_eq!(answer["result"]["freshness"]["head_moved"], false, "{answer}");
    // The committed file differs from the graph's (it was edited again before the commit, and
    // the commit came before the save was followed, or not): the commit's content is served.
    repository
        .write("app/extra.py", "from app.core import compute\n\ndef extra():\n    return 1\n");
    let newer_head = repository.commit_all("extra computes nothing");
    let answer = wait_for(&mut client, |answer| {
        answer["result"]["freshness"]["indexed_commit"] == newer_head.as_str()
            && !caller_names(answer).contains(&"app.extra.extra".to_string())
    });
    assert!(exact(&answer), "{answer}");
}

/// A subscribed connection is told of each published graph and of the files it changed,
/// between answers to its requests; a connection that did not subscribe is told nothing.
#[test]
fn subscribers_are_notified_of_published_graphs() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut subscriber = daemon.client();
    let mut other = daemon.client();
    assert_eq!(subscriber.call("subscribe", json!({}))["result"], json!({ "subscribed": true }));

    repository.write(
        "app/extra.py",
        "from app.core import compute\n\ndef extra():\n    return compute(2)\n",
    );
    let notification = subscriber.read_line();
    assert_eq!(notification["method"], "graph_published", "{notification}");
    assert!(notification.get("id").is_none(), "{notification}");
    assert_eq!(notification["params"]["changed_files"], json!(["app/extra.py"]));
    assert_eq!(notification["params"]["changed_files_total"], 1);

    // Requests are still answered on the subscribed connection.
    let answer = subscriber.call("callers", json!({ "symbol": "app.core.compute" }));
    assert!(caller_names(&answer).contains(&"app.extra.extra".to_string()), "{answer}");
    // The other connection only gets answers.
    let answer = other.call("status", json!({}));
    assert!(answer.get("result").is_some(), "{answer}");
}

/// Unsaved editor buffers: the connection that sent them is answered from a graph built with
/// them (its freshness names them, and a buffered file is not "dirty"); other connections
/// keep seeing the disk; closing a buffer brings the disk back.
#[test]
fn a_connection_sees_its_unsaved_buffers_and_others_do_not() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut editor = daemon.client();
    let mut other = daemon.client();
    let unsaved = "from app.core import compute\n\ndef extra():\n    return compute(2)\n";
    let opened = editor
        .call("buffer_update", json!({ "path": "app/extra.py", "text": unsaved, "version": 3 }));
    assert_eq!(opened["result"], json!({ "buffers": [{ "path": "app/extra.py", "version": 3 }] }));

    let answer = editor.call("callers", json!({ "symbol": "app.core.compute" }));
    assert!(caller_names(&answer).contains(&"app.extra.extra".to_string()), "{answer}");
    assert_eq!(answer["result"]["completeness"]["status"], "exact", "{answer}");
    let freshness = &answer["result"]["freshness"];
    assert_eq!(freshness["buffers"], json!([{ "path": "app/extra.py", "version": 3 }]));
    assert_eq!(freshness["stale"], false, "{answer}");
    // A function that exists only in the buffer is addressable, and the outline shows it.
    let outline = editor.call("outline", json!({ "path": "app/extra.py" }));
    assert_eq!(outline["result"]["items"][1]["qualified_name"], "app.extra.extra", "{outline}");
    // A column on the buffer's call (`    return compute(2)`) names the callee, read from the
    // buffer (the file is not on disk).
    let answer = editor.call("callers", json!({ "symbol": "app/extra.py:4:12" }));
    assert_eq!(answer["result"]["subject"]["qualified_name"], "app.core.compute", "{answer}");

    let answer = other.call("callers", json!({ "symbol": "app.core.compute" }));
    assert!(!caller_names(&answer).contains(&"app.extra.extra".to_string()), "{answer}");
    assert!(answer["result"]["freshness"].get("buffers").is_none(), "{answer}");

    // An edited buffer of a file on disk replaces it; the next version is what counts.
    let api = std::fs::read_to_string(repository.root().join("app/api.py")).unwrap();
    editor.call(
        "buffer_update",
        json!({ "path": "app/api.py", "text": api.replace("compute(", "len("), "version": 1 }),
    );
    let answer = editor.call("callers", json!({ "symbol": "app.core.compute" }));
    assert!(!caller_names(&answer).contains(&"app.api.handle".to_string()), "{answer}");

    let closed = editor.call("buffer_close", json!({ "path": "app/api.py" }));
    assert_eq!(closed["result"]["buffers"].as_array().unwrap().len(), 1, "{closed}");
    editor.call("buffer_close", json!({ "path": "app/extra.py" }));
    let answer = editor.call("callers", json!({ "symbol": "app.core.compute" }));
    let names = caller_names(&answer);
    assert!(names.contains(&"app.api.handle".to_string()), "{answer}");
    assert!(!names.contains(&"app.extra.extra".to_string()), "{answer}");

    // Paths outside the repository and files tether does not index are refused.
    let refused = editor.call("buffer_update", json!({ "path": "/etc/passwd", "text": "" }));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    let refused = editor.call("buffer_update", json!({ "path": "README.md", "text": "" }));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
}

fn wait_for(client: &mut Client, done: impl Fn(&Value) -> bool) -> Value {
    let started = Instant::now();
    loop {
        let answer = client.call("callers", json!({ "symbol": "app.core.compute" }));
        if done(&answer) {
            return answer;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the daemon did not follow HEAD or the working tree: {answer}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn bad_requests_get_errors_and_the_connection_stays_usable() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    assert_eq!(client.send_raw("{not json")["error"]["code"], -32700);
    assert_eq!(client.send_raw("[1, 2]")["error"]["code"], -32600);
    assert_eq!(client.call("no_such_method", json!({}))["error"]["code"], -32601);
    assert_eq!(client.call("callers", json!({}))["error"]["code"], -32602);
    assert_eq!(client.call("callers", json!({ "symbol": 7 }))["error"]["code"], -32602);
    assert_eq!(
        client.call("blast", json!({ "symbol": "compute", "depth": 99 }))["error"]["code"],
        -32602
    );
    assert_eq!(
        client.call("callers", json!({ "symbol": "compute", "cursor": "bogus" }))["error"]["code"],
        -32602
    );
    assert_eq!(
        client.call("callers", json!({ "symbol": "nothing_like_this" }))["error"]["code"],
        -32001
    );
    // A client that goes away mid-request harms nothing.
    {
        let mut gone = daemon.client();
        gone.writer.write_all(b"{\"jsonrpc\": \"2.0\", \"id\": 9, \"method\": \"blast\", \"params\": {\"symbol\": \"compute\"}}\n").unwrap();
    }
    let answer = client.call("callers", json!({ "symbol": "app.core.compute" }));
    assert_eq!(caller_names(&answer), ["app.api.handle", "app.core.report"]);
}

/// Each `tests/golden/protocol/NAME.request.json` is sent; the answer must equal
/// `NAME.response.json`. `UPDATE_GOLDEN=1` rewrites the answers.
#[test]
fn golden_requests_get_golden_responses() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    // Two traces of one subject, the newer superseding the older (`recall`'s golden files).
    for (id, hour, outcome, supersedes) in
        [("report-red", 9, "red: 3 != 4", "[]"), ("report-green", 11, "green", "[report-red]")]
    {
        repository.write(
            &format!(".memory/traces/{id}.md"),
            &format!(
                "---\nid: {id}\ntype: trace\nsubject: tests/test_core.py::test_report@linux\nfinding_type: state\nsituation: test_report checked\nrationale: CI reported it\naction: ran pytest tests/test_core.py\noutcome: \"{outcome}\"\nobserved_at: 2026-12-07T{hour:02}:00:00Z\nrecorded_at: 2026-12-07T{hour:02}:00:05Z\nartifacts: [tests/test_core.py, app.core.report]\nevidence: [pytest output]\nsupersedes: {supersedes}\n---\n\ntest_report checked → …\n"
            ),
        );
    }
    // A small research tree (`tree`, `open_phases`, `brief`'s golden files).
    for (folder, id, kind, parent, extra) in [
        ("plans", "app", "plan", "", ""),
        ("plans", "reports", "plan", "parent: app\n", ""),
        ("plans", "doubling", "plan", "parent: reports\n", ""),
        ("experiments", "try-shift", "experiment", "parent: doubling\n", ""),
        ("decisions", "multiply", "decision", "parent: doubling\n", "supersedes: [try-shift]\n"),
        ("todos", "test-negatives", "todo", "parent: doubling\n", ""),
    ] {
        repository.write(
            &format!(".memory/{folder}/{id}.md"),
            &format!("---\nid: {id}\ntype: {kind}\ntitle: Title of {id}\nstatus: active\n{parent}created_at: 2026-12-01T00:00:00Z\nupdated_at: 2026-12-01T00:00:00Z\n{extra}---\nBody.\n"),
        );
    }
    repository.commit_all("two traces and a research tree");
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/protocol");
    let mut requests: Vec<_> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.to_string_lossy().ends_with(".request.json"))
        .collect();
    requests.sort();
    assert!(requests.len() >= 5, "golden requests are missing from {}", folder.display());
    let mut mismatches = Vec::new();
    for request_path in requests {
        let request: Value =
            serde_json::from_str(&std::fs::read_to_string(&request_path).unwrap()).unwrap();
        let mut answer = client.send_raw(&request.to_string());
        // Every answer reads back into its typed answer and writes out the same JSON.
        if let Some(result) = answer.get("result") {
            let method = tether_protocol::Method::from_name(request["method"].as_str().unwrap())
                .expect("a golden request names a method");
            let typed = tether_protocol::wire::Answer::from_json(method, result.clone())
                .unwrap_or_else(|error| panic!("{}: {error}", request_path.display()));
            assert_eq!(&typed.to_json(), result, "{}", request_path.display());
        }
        // Freshness depends on the moment, not on the protocol.
        if let Some(freshness) = answer.pointer_mut("/result/freshness") {
            *freshness = json!("<freshness>");
        }
        let response_path =
            request_path.to_string_lossy().replace(".request.json", ".response.json");
        let rendered = serde_json::to_string_pretty(&answer).unwrap() + "\n";
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&response_path, &rendered).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&response_path).unwrap_or_default();
        if expected != rendered {
            mismatches.push(format!("{response_path}:\n{rendered}"));
        }
    }
    assert!(
        mismatches.is_empty(),
        "answers differ from the golden files (UPDATE_GOLDEN=1 rewrites them):\n{}",
        mismatches.join("\n")
    );
}
