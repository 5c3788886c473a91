//! `tether lsp` end to end: the program runs as a child process against a fixture repository
//! and its daemon. An editor written here drives it over stdio (a saved file refreshes the
//! lenses, which then count the new caller), and so does pytest-lsp, a client from PyPI
//! that checks every result against the capabilities of the editor it impersonates.

use std::io::BufReader;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{json, Value};
use tether_tests::{python_environment, FixtureRepository, StopDaemonOnDrop, APP_FIXTURE};

/// An editor on the other end of `tether lsp`'s stdio.
struct StdioEditor {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Message>,
    next_id: i32,
}

impl StdioEditor {
    fn start(root: &std::path::Path) -> StdioEditor {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(["lsp", "-C"])
            .arg(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("tether lsp starts");
        let stdin = child.stdin.take().unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            while let Ok(Some(message)) = Message::read(&mut stdout) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        StdioEditor { child, stdin, messages, next_id: 1 }
    }

    fn send(&mut self, message: Message) {
        message.write(&mut self.stdin).expect("tether lsp reads its stdin");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(Message::Notification(Notification { method: method.into(), params }));
    }

    fn next_message(&self, within: Duration) -> Option<Message> {
        match self.messages.recv_timeout(within) {
            Ok(message) => Some(message),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!("tether lsp closed its stdout"),
        }
    }

    /// Sends a request and returns its result (the server's requests meanwhile are answered).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        self.send(Message::Request(Request { id: id.clone(), method: method.into(), params }));
        loop {
            match self.next_message(Duration::from_secs(60)).expect("an answer within 60 s") {
                Message::Response(response) if response.id == id => {
                    assert!(response.error.is_none(), "{method}: {:?}", response.error);
                    return response.result.unwrap_or(Value::Null);
                }
                Message::Request(request) => self.answer(request),
                _ => {}
            }
        }
    }

    fn answer(&mut self, request: Request) {
        self.send(Message::Response(Response::new_ok(request.id, Value::Null)));
    }

    /// Waits for the server to ask for a lens refresh; answers it.
    fn wait_for_lens_refresh(&mut self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        while let Some(message) =
            self.next_message(deadline.saturating_duration_since(Instant::now()))
        {
            if let Message::Request(request) = message {
                let refresh = request.method == "workspace/codeLens/refresh";
                self.answer(request);
                if refresh {
                    return true;
                }
            }
        }
        false
    }

    fn lens_titles(&mut self, uri: &str) -> Vec<String> {
        let lenses =
            self.request("textDocument/codeLens", json!({ "textDocument": { "uri": uri } }));
        let lenses = lenses.as_array().cloned().unwrap_or_default();
        lenses
            .into_iter()
            .map(|lens| {
                self.request("codeLens/resolve", lens)["command"]["title"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect()
    }
}

fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

#[test]
fn an_editor_over_stdio_sees_a_saved_caller_after_the_lens_refresh() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let mut editor = StdioEditor::start(&root);
    let capabilities = json!({ "workspace": { "codeLens": { "refreshSupport": true } } });
    let initialized = editor
        .request("initialize", json!({ "capabilities": capabilities, "rootUri": file_uri(&root) }));
    assert_eq!(initialized["serverInfo"]["name"], "tether", "{initialized}");
    assert_eq!(initialized["capabilities"]["codeLensProvider"]["resolveProvider"], true);
    editor.notify("initialized", json!({}));

    let core = file_uri(&root.join("app/core.py"));
    assert_eq!(
        editor.lens_titles(&core),
        ["2 call sites · blast 5 · 1 test", "1 call site · blast 2 · 1 test"]
    );

    // Saved, not opened: the daemon follows the working tree and publishes a graph.
    let api = root.join("app/api.py");
    let saved =
        std::fs::read_to_string(&api).unwrap() + "\n\ndef extra(x):\n    return compute(x)\n";
    std::fs::write(&api, saved).unwrap();
    assert!(
        editor.wait_for_lens_refresh(Duration::from_secs(30)),
        "no workspace/codeLens/refresh after a save"
    );
    assert_eq!(editor.lens_titles(&core)[0], "3 call sites · blast 6 · 1 test");

    // An unsaved buffer counts too; closing it restores the file on disk.
    let document = json!({ "uri": core, "languageId": "python", "version": 1, "text": "def compute(x):\n    return x\n" });
    editor.notify("textDocument/didOpen", json!({ "textDocument": document }));
    assert_eq!(
        editor.lens_titles(&core),
        ["2 call sites · blast 3 · 0 tests"],
        "report, and with it the only test, is gone from the buffer"
    );
    editor.notify("textDocument/didClose", json!({ "textDocument": { "uri": core } }));
    assert_eq!(editor.lens_titles(&core).len(), 2);

    assert_eq!(editor.request("shutdown", Value::Null), Value::Null);
    editor.notify("exit", Value::Null);
    let status = editor.child.wait().unwrap();
    assert!(status.success(), "exit after shutdown ends with 0: {status}");
}

#[test]
fn pytest_lsp_drives_call_hierarchy_lenses_hovers_and_references() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pytest-lsp-1.0.1");
    let python =
        python_environment(&folder, &["pytest-lsp==1.0.1", "pygls==2.1.1", "lsprotocol==2025.0.0"]);
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lsp_clients/test_tether_lsp.py");
    let output = Command::new(python)
        .args(["-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "-o", "asyncio_mode=auto"])
        .arg(&script)
        .env("TETHER_BINARY", env!("CARGO_BIN_EXE_tether-test-cli"))
        .env("TETHER_REPOSITORY", &root)
        .current_dir(&root)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}");
    assert!(printed.contains("3 passed"), "{printed}");
}

#[test]
fn neovims_own_lsp_client_sees_an_unsaved_caller() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("lsp_clients/neovim_session.lua");
    let output = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .env("TETHER_BINARY", env!("CARGO_BIN_EXE_tether-test-cli"))
        .env("TETHER_REPOSITORY", &root)
        .current_dir(&root)
        .stdin(Stdio::null())
        .output()
        .expect("nvim runs (scripts/install-build-deps.sh installs Debian's neovim)");
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}");
    let expected = [
        "saved: 2 call sites · blast 5 · 1 test | 1 call site · blast 2 · 1 test",
        "item: app.core.compute",
        "unsaved: 3 call sites · blast 6 · 1 test | 1 call site · blast 2 · 1 test",
        "incoming: app.api.extra:7, app.api.handle:3, app.core.report:4",
        "done",
    ];
    let lines: Vec<&str> = printed
        .lines()
        .filter(|line| expected.iter().any(|e| line.split(':').next() == e.split(':').next()))
        .collect();
    assert_eq!(lines, expected, "{printed}");
}

/// Hostile framing (issue 39): a `Content-Length` of `i64::MAX`, `u64::MAX` or 10 GiB, and a
/// header line without CRLF that never ends, each end the session with a `-32700` answer and
/// an error exit, promptly and without growing (lsp-server's reader aborted, panicked or
/// grew to 6 GiB); a body that is not JSON is answered `-32700` and the session goes on.
#[test]
fn hostile_framing_is_answered_and_ends_the_session_without_growing() {
    use std::io::{Read, Write};
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let endless_header = format!("Content-Length: 2{}", "9".repeat(1 << 20));
    let hostile = [
        "Content-Length: 9223372036854775807\r\n\r\n{}".to_string(),
        "Content-Length: 18446744073709551615\r\n\r\n{}".to_string(),
        "Content-Length: 10737418240\r\n\r\n{}".to_string(),
        endless_header,
    ];
    for input in &hostile {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(["lsp", "-C"])
            .arg(&root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tether lsp starts");
        let mut stdin = child.stdin.take().unwrap();
        // A not-JSON body first: answered, and the session goes on to the hostile frame.
        let _ = stdin.write_all(b"Content-Length: 5\r\n\r\nhello");
        let _ = stdin.write_all(input.as_bytes());
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "still running: {}", &input[..40]);
            std::thread::sleep(Duration::from_millis(20));
        };
        drop(stdin);
        let mut stdout = String::new();
        child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
        let label = &input[..input.len().min(40)];
        assert!(
            status.code().is_some_and(|code| code != 0),
            "an error exit, not a signal: {label} {status:?}"
        );
        assert_eq!(stdout.matches("\"code\":-32700").count(), 2, "{label}: {stdout}");
    }
}
