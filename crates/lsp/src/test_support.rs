//! A scripted daemon and an editor on the other end of an in-memory connection, for the
//! session's tests.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crossbeam_channel::Sender;
use lsp_server::{Connection, Message, Notification, Request as LspRequest, RequestId};
use serde_json::{json, Value};
use tether_protocol::wire::{
    Answer, BlastAnswer, BuffersAnswer, Completeness, CompletenessCause, Freshness, NeighbourItem,
    NeighboursAnswer, OpenBuffer, OutlineAnswer, StatusAnswer, SymbolRef,
};
use tether_protocol::{BufferRequest, ConnectionRequest, Request, Subject, WireRequest};

use crate::{EditorDaemon, GraphPublished, LspError, RpcError};

pub fn symbol(
    id: &str,
    qualified_name: &str,
    kind: &str,
    path: &str,
    lines: (u32, u32),
) -> SymbolRef {
    SymbolRef {
        id: id.into(),
        qualified_name: qualified_name.into(),
        kind: kind.into(),
        path: path.into(),
        line: lines.0,
        end_line: lines.1,
        is_test: false,
    }
}

pub fn fresh() -> Freshness {
    Freshness {
        indexed_commit: Some("abc".into()),
        head_commit: Some("abc".into()),
        head_branch: Some("main".into()),
        head_moved: false,
        uncommitted_files: Some(Vec::new()),
        files_not_in_graph: Some(Vec::new()),
        stale: false,
        buffers: Vec::new(),
    }
}

fn exact() -> Completeness {
    Completeness { status: "exact".into(), causes: None }
}

/// A daemon answering from a script: an outline per path, neighbours per symbol id.
pub struct ScriptedDaemon {
    pub root: PathBuf,
    pub outlines: BTreeMap<String, Vec<SymbolRef>>,
    /// Per subject id: (caller, site).
    pub callers: BTreeMap<String, Vec<(SymbolRef, String)>>,
    pub callees: BTreeMap<String, Vec<(SymbolRef, String)>>,
    /// Subject ids whose answers are lower bounds (one unresolved call site).
    pub lower_bounds: Vec<String>,
    /// Every request, as `method path-or-symbol [version]`.
    pub log: Arc<Mutex<Vec<String>>>,
    pub generation: u64,
    /// The connection breaks (and is made anew) before the n-th call.
    pub reconnect_before_call: Option<usize>,
    pub calls: usize,
}

impl ScriptedDaemon {
    pub fn new(root: PathBuf) -> ScriptedDaemon {
        ScriptedDaemon {
            root,
            outlines: BTreeMap::new(),
            callers: BTreeMap::new(),
            callees: BTreeMap::new(),
            lower_bounds: Vec::new(),
            log: Arc::new(Mutex::new(Vec::new())),
            generation: 1,
            reconnect_before_call: None,
            calls: 0,
        }
    }

    fn subject(&self, id: &str) -> Result<SymbolRef, RpcError> {
        self.outlines
            .values()
            .flatten()
            .find(|symbol| symbol.id == id)
            .cloned()
            .ok_or_else(|| RpcError::new(RpcError::SYMBOL_NOT_FOUND, format!("no symbol {id}")))
    }

    fn completeness(&self, id: &str) -> Completeness {
        if !self.lower_bounds.iter().any(|bound| bound == id) {
            return exact();
        }
        let cause = CompletenessCause::UnresolvedCallSites {
            name: "run".into(),
            count: 1,
            examples: Vec::new(),
        };
        Completeness { status: "lower_bound".into(), causes: Some(vec![cause]) }
    }

    fn neighbours(
        &self,
        id: &str,
        table: &BTreeMap<String, Vec<(SymbolRef, String)>>,
        direction: &str,
    ) -> Result<Answer, RpcError> {
        let subject = self.subject(id)?;
        let items: Vec<NeighbourItem> = table
            .get(id)
            .into_iter()
            .flatten()
            .map(|(symbol, site)| NeighbourItem {
                symbol: symbol.clone(),
                direction: direction.into(),
                site: site.clone(),
                confidence: 1.0,
                rule: "scripted".into(),
            })
            .collect();
        Ok(Answer::Neighbours(NeighboursAnswer {
            subject,
            total: items.len(),
            items,
            next_cursor: None,
            completeness: self.completeness(id),
            freshness: fresh(),
            next: String::new(),
        }))
    }

    fn record(&self, line: String) {
        self.log.lock().unwrap().push(line);
    }
}

impl EditorDaemon for ScriptedDaemon {
    fn call(&mut self, request: &WireRequest) -> Result<Answer, RpcError> {
        self.calls += 1;
        if self.reconnect_before_call == Some(self.calls) {
            self.generation += 1;
            self.record("reconnected".into());
        }
        match request {
            WireRequest::Answered(Request::Status) => Ok(Answer::Status(StatusAnswer {
                root: self.root.display().to_string(),
                database: String::new(),
                socket: String::new(),
                pid: 1,
                uptime_seconds: 0,
                ready: true,
                rebuilding: false,
                rebuilds: 0,
                last_rebuild_seconds: None,
                last_publish_seconds: None,
                last_error: None,
                indexed_commit: None,
                freshness: None,
                census: None,
            })),
            WireRequest::Connection(ConnectionRequest::Buffer(BufferRequest::Update {
                path,
                text,
                version,
            })) => {
                self.record(format!("buffer_update {path} v{version} {}", text.lines().count()));
                let buffers = vec![OpenBuffer { path: path.clone(), version: *version }];
                Ok(Answer::Buffers(BuffersAnswer { buffers }))
            }
            WireRequest::Connection(ConnectionRequest::Buffer(BufferRequest::Close { path })) => {
                self.record(format!("buffer_close {path}"));
                Ok(Answer::Buffers(BuffersAnswer { buffers: Vec::new() }))
            }
            WireRequest::Answered(Request::Outline { path }) => {
                self.record(format!("outline {path}"));
                let items = self.outlines.get(path).cloned().unwrap_or_default();
                Ok(Answer::Outline(OutlineAnswer { path: path.clone(), items, freshness: fresh() }))
            }
            WireRequest::Answered(Request::Callers { symbol, .. }) => {
                self.record(format!("callers {symbol}"));
                self.neighbours(symbol, &self.callers, "called_by")
            }
            WireRequest::Answered(Request::Callees { symbol, .. }) => {
                self.record(format!("callees {symbol}"));
                self.neighbours(symbol, &self.callees, "calls")
            }
            WireRequest::Answered(Request::Imports { symbol, .. }) => {
                self.neighbours(symbol, &BTreeMap::new(), "imports")
            }
            WireRequest::Answered(Request::Blast { subject: Subject::Symbol(id), .. }) => {
                self.record(format!("blast {id}"));
                self.subject(id)?;
                let callers = self.callers.get(id).map_or(0, Vec::len);
                Ok(Answer::Blast(BlastAnswer {
                    subject: id.clone(),
                    seeds: 1,
                    depth: 3,
                    total: callers + 1,
                    breaks: callers,
                    items: Vec::new(),
                    tests_affected: Vec::new(),
                    tests_total: 1,
                    tests_truncated: false,
                    evidence_commit: None,
                    subject_evidence: None,
                    tests_ran: None,
                    next_cursor: None,
                    completeness: self.completeness(id),
                    freshness: fresh(),
                    next: String::new(),
                }))
            }
            other => Err(RpcError::new(
                RpcError::METHOD_NOT_FOUND,
                format!("not scripted: {}", other.method().as_str()),
            )),
        }
    }

    fn connection_generation(&self) -> u64 {
        self.generation
    }
}

/// An editor driving a session that runs on its own thread.
pub struct Editor {
    pub connection: Connection,
    pub published: Sender<GraphPublished>,
    /// The notifications that came while a request was answered.
    pub notifications: Vec<Notification>,
    session: Option<JoinHandle<Result<(), LspError>>>,
    next_id: i32,
}

impl Editor {
    /// Starts a session over `daemon` and initializes it (with lens refresh support).
    pub fn start(daemon: ScriptedDaemon) -> Editor {
        Editor::start_with(daemon, Value::Null)
    }

    /// Starts a session with these `initializationOptions`.
    pub fn start_with(mut daemon: ScriptedDaemon, options: Value) -> Editor {
        let (server, client) = Connection::memory();
        let (published, published_receiver) = crossbeam_channel::unbounded();
        let session =
            std::thread::spawn(move || crate::serve(&server, &mut daemon, &published_receiver));
        let mut editor = Editor {
            connection: client,
            published,
            notifications: Vec::new(),
            session: Some(session),
            next_id: 1,
        };
        let capabilities = json!({ "workspace": { "codeLens": { "refreshSupport": true } } });
        let initialized = editor.request(
            "initialize",
            json!({ "capabilities": capabilities, "initializationOptions": options }),
        );
        assert!(initialized.get("capabilities").is_some(), "{initialized}");
        editor.notify("initialized", json!({}));
        editor
    }

    pub fn notify(&self, method: &str, params: Value) {
        let notification = Notification { method: method.into(), params };
        self.connection.sender.send(Message::Notification(notification)).unwrap();
    }

    /// A request's result (errors as `{"error": {code, message}}`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = RequestId::from(self.next_id);
        self.next_id += 1;
        let request = LspRequest { id: id.clone(), method: method.into(), params };
        self.connection.sender.send(Message::Request(request)).unwrap();
        loop {
            match self.receive() {
                Message::Response(response) if response.id == id => {
                    return match response.error {
                        Some(error) => {
                            json!({ "error": { "code": error.code, "message": error.message } })
                        }
                        None => response.result.unwrap_or(Value::Null),
                    }
                }
                Message::Notification(notification) => self.notifications.push(notification),
                other => panic!("expected the response to {method}, got {other:?}"),
            }
        }
    }

    pub fn receive(&self) -> Message {
        self.connection
            .receiver
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the session answers within 10 s")
    }

    pub fn open(&self, uri: &str, text: &str) {
        let document = json!({ "uri": uri, "languageId": "python", "version": 1, "text": text });
        self.notify("textDocument/didOpen", json!({ "textDocument": document }));
    }

    /// Shuts down and exits; the session's result.
    pub fn stop(mut self) -> Result<(), LspError> {
        assert_eq!(self.request("shutdown", Value::Null), Value::Null);
        self.notify("exit", Value::Null);
        self.session.take().unwrap().join().unwrap()
    }
}
