//! What a hostile or careless client sends the daemon: oversized lines, notifications, odd
//! ids, paths outside the repository or to FIFOs and devices, option-shaped revisions, wrong
//! parameter types, extreme cursors, a flood of connections. Each gets an error (or, for a
//! notification, nothing), nothing is written, and the daemon keeps answering correctly.

use std::io::{BufRead, Write};

use tether_protocol::{json, Value};
use tether_tests::{FixtureRepository, APP_FIXTURE};

use crate::daemon::{caller_names, RunningDaemon};

fn code(answer: &Value) -> i64 {
    answer["error"]["code"].as_i64().unwrap_or_else(|| panic!("expected an error, got {answer}"))
}

#[test]
fn an_oversized_line_is_refused_without_losing_the_connection() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    // 3 MiB in pieces, then the newline: answered once, then the connection goes on.
    let piece = vec![b'x'; 64 * 1024];
    for _ in 0..48 {
        client.writer.write_all(&piece).unwrap();
    }
    client.writer.write_all(b"\n").unwrap();
    let mut answer = String::new();
    client.reader.read_line(&mut answer).unwrap();
    let answer: Value = serde_json::from_str(&answer).unwrap();
    assert_eq!(code(&answer), -32600);
    let callers = client.call("callers", json!({ "symbol": "app.core.compute" }));
    assert_eq!(caller_names(&callers), ["app.api.handle", "app.core.report"]);
}

#[test]
fn ids_come_back_verbatim_and_notifications_get_no_answer() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    client.writer.write_all(b"{\"jsonrpc\": \"2.0\", \"method\": \"status\"}\n").unwrap();
    client.writer.write_all(b"{\"jsonrpc\": \"2.0\", \"method\": \"no_such_method\"}\n").unwrap();
    client
        .writer
        .write_all(
            b"{\"jsonrpc\": \"2.0\", \"id\": 18446744073709551617, \"method\": \"status\"}\n",
        )
        .unwrap();
    let mut line = String::new();
    client.reader.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("{\"jsonrpc\":\"2.0\",\"id\":18446744073709551617,"),
        "the first answer is the request's, id verbatim: {line}"
    );
    // `"id": null` is an id (JSON-RPC 2.0): answered, with null.
    let answer = client.send_raw("{\"jsonrpc\": \"2.0\", \"id\": null, \"method\": \"status\"}");
    assert!(answer["id"].is_null() && answer["result"]["ready"].is_boolean(), "{answer}");
}

#[test]
fn paths_outside_the_repository_and_special_files_are_refused() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let fifo = repository.root().join("app/pipe.py");
    let fifo_name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo_name.as_ptr(), 0o600) }, 0);
    std::os::unix::fs::symlink("/etc/passwd", repository.root().join("app/link.py")).unwrap();
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    for path in
        ["/dev/zero", "/etc/shadow", "../../etc/passwd", "app/pipe.py", "app/link.py", "app"]
    {
        for method in ["ownership", "context"] {
            let answer = client.call(method, json!({ "path": path }));
            let refused = method == "ownership" || !matches!(path, "app/pipe.py" | "app");
            if refused {
                assert_eq!(code(&answer), -32602, "{method} {path}: {answer}");
            }
        }
    }
    assert_eq!(code(&client.call("blast", json!({ "file": "/etc/passwd" }))), -32602);
    let owned = client.call("ownership", json!({ "path": "app/core.py" }));
    assert_eq!(owned["result"]["owners"][0]["author"], "Ada Fixture", "{owned}");
}

#[test]
fn option_shaped_revisions_are_refused_and_write_nothing() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let target = repository.root().join("written-by-git");
    for params in [
        json!({ "range": format!("--output={}..HEAD", target.display()) }),
        json!({ "range": format!("HEAD..--output={}", target.display()) }),
        json!({ "base": format!("--output={}", target.display()) }),
        json!({ "base": "-p" }),
        json!({ "base": "no-such-branch" }),
    ] {
        assert_eq!(code(&client.call("changes", params.clone())), -32602, "{params}");
    }
    assert!(!target.exists(), "git wrote a file named by a request");
    let record = client.call(
        "record",
        json!({ "type": "note", "title": "x", "commit": "--output=/tmp/tether-record-injection" }),
    );
    assert_eq!(code(&record), -32602);
    assert!(!std::path::Path::new("/tmp/tether-record-injection").exists());
}

#[test]
fn wrong_parameter_types_and_extreme_pages_are_refused() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    for (method, params) in [
        ("changes", json!({ "depth": "3" })),
        ("changes", json!({ "include_whitespace": "yes" })),
        ("changes", json!({ "base": 7 })),
        ("callers", json!({ "symbol": "app.core.compute", "limit": 0 })),
        ("callers", json!({ "symbol": "app.core.compute", "limit": -1 })),
        ("callers", json!({ "symbol": "app.core.compute", "limit": 2.5 })),
        ("ownership", json!({ "symbol": "app.core.compute", "exclude_authors": [1] })),
        ("record", json!({ "type": "note", "title": "x", "files": [1] })),
        ("record", json!({ "type": "note", "title": "x", "tags": "a" })),
        ("search_memory", json!({ "query": 5 })),
    ] {
        assert_eq!(code(&client.call(method, params.clone())), -32602, "{method} {params}");
    }
    let far = client.call(
        "callers",
        json!({ "symbol": "app.core.compute", "cursor": format!("o:{}", u64::MAX - 1) }),
    );
    assert_eq!(
        (far["result"]["items"].as_array().map(Vec::len), far["result"]["next_cursor"].clone()),
        (Some(0), Value::Null),
        "{far}"
    );
}

#[test]
fn connections_past_the_cap_are_told_so_and_the_daemon_keeps_serving() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let mut held = Vec::new();
    for _ in 0..tether_daemon::MAX_CONNECTIONS {
        held.push(daemon.client());
    }
    // Make sure every held connection was accepted (each answers a request).
    for client in held.iter_mut().step_by(64) {
        assert!(client.call("status", json!({}))["result"]["ready"].as_bool().unwrap());
    }
    let mut refused = daemon.client();
    let mut line = String::new();
    refused.reader.read_line(&mut line).unwrap();
    let answer: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(code(&answer), -32004, "{answer}");
    held.truncate(1);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let mut client = daemon.client();
    assert_eq!(
        caller_names(&client.call("callers", json!({ "symbol": "app.core.compute" }))),
        ["app.api.handle", "app.core.report"]
    );
}

/// `cypher` reads the graph and nothing else (issue 39): statements that would write a file
/// (`COPY … TO`, `EXPORT DATABASE`), read one (`LOAD FROM`), attach or install something,
/// checkpoint, change a setting (`CALL timeout=0`) or run a second statement are refused
/// before the engine sees them; no file appears, and the daemon keeps answering.
#[test]
fn cypher_refuses_file_touching_clauses_settings_and_second_statements() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let outside = tempfile::tempdir().unwrap();
    let target = |name: &str| outside.path().join(name).display().to_string();
    let daemon = RunningDaemon::start(repository.root());
    let mut client = daemon.client();
    let probes = [
        format!("COPY (MATCH (s:Symbol) RETURN s.id) TO '{}'", target("rows.csv")),
        format!("COPY Symbol TO '{}'", target("symbols.csv")),
        format!("EXPORT DATABASE '{}'", target("export")),
        format!("IMPORT DATABASE '{}'", target("export")),
        "LOAD FROM '/etc/passwd' (header=false, delim=':') RETURN *".to_string(),
        format!("ATTACH '{}' AS other (dbtype lbug)", target("other.lbug")),
        "INSTALL httpfs".to_string(),
        "LOAD EXTENSION httpfs".to_string(),
        "CHECKPOINT".to_string(),
        "CALL timeout=0".to_string(),
        "MATCH (s:Symbol) RETURN count(*); MATCH (s:Symbol) DETACH DELETE s".to_string(),
        format!("MATCH (s:Symbol) RETURN s.id; COPY Symbol TO '{}'", target("second.csv")),
    ];
    for probe in &probes {
        let answer = client.call("cypher", json!({ "statement": probe }));
        assert_eq!(code(&answer), -32602, "{probe}: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("statement refused"), "{probe}: {answer}");
    }
    let written: Vec<_> = std::fs::read_dir(outside.path()).unwrap().collect();
    assert!(written.is_empty(), "files written outside the repository: {written:?}");
    let count = client.call(
        "cypher",
        json!({ "statement": "MATCH (s:Symbol) WHERE s.name = 'compute' RETURN s.qualified_name;" }),
    );
    assert_eq!(count["result"]["rows"], json!([["app.core.compute"]]), "{count}");
    let callers = client.call("callers", json!({ "symbol": "app.core.compute" }));
    assert_eq!(caller_names(&callers), ["app.api.handle", "app.core.report"]);
}

/// A runaway `cypher` (an eight-way cross product) runs in a worker process the daemon
/// watches (issue 39): it is stopped at its memory bound or its time with a clear error, at
/// most two run at once (a third is refused as busy, not queued), other clients are answered
/// meanwhile, and no worker outlives its statement.
#[test]
fn runaway_cypher_is_stopped_in_its_worker_while_others_are_answered() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let database = repository.root().join(".git/tether/graph.lbug").display().to_string();
    // Ten symbols' worth of cross product: 10^10 rows or more, which no bound lets finish.
    let runaway = "MATCH (a:Symbol),(b:Symbol),(c:Symbol),(d:Symbol),(e:Symbol),(f:Symbol),\
                   (g:Symbol),(h:Symbol),(i:Symbol),(j:Symbol) \
                   RETURN a.id,b.id,c.id,d.id,e.id,f.id,g.id,h.id,i.id,j.id";
    let runners: Vec<_> = (0..2)
        .map(|_| {
            let mut client = daemon.client();
            std::thread::spawn(move || {
                let started = std::time::Instant::now();
                let answer = client.call("cypher", json!({ "statement": runaway }));
                (answer, started.elapsed())
            })
        })
        .collect();
    // Both are running (their workers exist) before the third asks.
    let started = std::time::Instant::now();
    while workers_of(&database) < 2 {
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "the workers never ran");
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let mut other = daemon.client();
    let busy = other.call("cypher", json!({ "statement": runaway }));
    assert_eq!(code(&busy), -32004, "{busy}");
    assert!(busy["error"]["message"].as_str().unwrap().contains("already run"), "{busy}");
    // Other clients are answered within a second each while the statements run.
    for _ in 0..5 {
        let asked = std::time::Instant::now();
        let callers = other.call("callers", json!({ "symbol": "app.core.compute" }));
        assert_eq!(caller_names(&callers), ["app.api.handle", "app.core.report"]);
        assert!(asked.elapsed() < std::time::Duration::from_secs(1), "{:?}", asked.elapsed());
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    for runner in runners {
        let (answer, took) = runner.join().unwrap();
        let message = answer["error"]["message"].as_str().unwrap_or_default().to_string();
        let shown: String = answer.to_string().chars().take(500).collect();
        assert!(
            message.contains("the statement was stopped") || message.contains("nterrupt"),
            "{shown}"
        );
        assert!(took < std::time::Duration::from_secs(25), "{took:?}: {shown}");
    }
    assert_eq!(workers_of(&database), 0, "a worker outlived its statement");
    let count =
        other.call("cypher", json!({ "statement": "MATCH (s:Symbol) RETURN count(*) > 0" }));
    assert_eq!(count["result"]["rows"], json!([["True"]]), "{count}");
}

/// How many `cypher-worker` processes run on `database`.
fn workers_of(database: &str) -> usize {
    let Ok(processes) = std::fs::read_dir("/proc") else { return 0 };
    processes
        .flatten()
        .filter(|process| {
            std::fs::read(process.path().join("cmdline")).is_ok_and(|cmdline| {
                let arguments: Vec<&[u8]> = cmdline.split(|byte| *byte == 0).collect();
                arguments.contains(&b"cypher-worker".as_slice())
                    && arguments.contains(&database.as_bytes())
            })
        })
        .count()
}

/// Editor buffers are bounded daemon-wide: at most four connections hold buffers (each keeps
/// a graph of its own), and all buffers together at most 32 MiB; past either a clear error,
/// and a connection that ends gives its place and bytes back. Out-of-range versions and
/// files behind a dangling link to a folder outside are refused.
#[test]
fn editor_buffers_are_bounded_across_connections_and_given_back_when_one_ends() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let daemon = RunningDaemon::start(repository.root());
    let buffer = |client: &mut crate::daemon::Client, path: &str, text: &str| {
        client.call("buffer_update", json!({ "path": path, "text": text, "version": 1 }))
    };
    let message = |answer: &Value| answer["error"]["message"].as_str().unwrap_or("").to_string();
    let mut editors: Vec<_> = (0..4).map(|_| daemon.client()).collect();
    for (number, editor) in editors.iter_mut().enumerate() {
        let opened = buffer(editor, &format!("app/new_{number}.py"), "def f():\n    pass\n");
        assert!(opened.get("result").is_some(), "{opened}");
    }
    let mut fifth = daemon.client();
    let refused = buffer(&mut fifth, "app/new_5.py", "x = 1\n");
    assert_eq!(code(&refused), -32602, "{refused}");
    assert!(message(&refused).contains("other connections hold editor buffers"), "{refused}");
    // The fifth's other requests are answered from the published graph.
    let callers = fifth.call("callers", json!({ "symbol": "app.core.compute" }));
    assert_eq!(caller_names(&callers), ["app.api.handle", "app.core.report"]);
    // One editor leaves: its place is free.
    drop(editors.pop());
    let started = std::time::Instant::now();
    loop {
        let opened = buffer(&mut fifth, "app/new_5.py", "x = 1\n");
        if opened.get("result").is_some() {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{opened}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // All buffers together: at most 32 MiB (each update at most 1 MiB, a request line's cap).
    let almost_a_mebibyte = "#".repeat((1 << 20) - 1000);
    let mut refused_at = None;
    'filling: for (number, editor) in editors.iter_mut().chain([&mut fifth]).enumerate() {
        for file in 0..15 {
            let path = format!("app/big_{number}_{file}.py");
            let answer = buffer(editor, &path, &almost_a_mebibyte);
            if answer.get("error").is_some() {
                refused_at = Some(answer);
                break 'filling;
            }
        }
    }
    let refused = refused_at.expect("buffers past 32 MiB in all are refused");
    assert!(message(&refused).contains("all connections' buffers together"), "{refused}");

    let mut editor = daemon.client();
    let refused = editor.call(
        "buffer_update",
        json!({ "path": "app/core.py", "text": "", "version": 9223372036854775808u64 }),
    );
    assert!(message(&refused).contains("\"version\" must be an integer"), "{refused}");
    let outside = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path().join("gone"), repository.root().join("app/away"))
        .unwrap();
    let refused = editor.call("buffer_update", json!({ "path": "app/away/x.py", "text": "" }));
    assert!(message(&refused).contains("outside the repository through a link"), "{refused}");
}
