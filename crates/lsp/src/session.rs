//! One editor session: the lifecycle (initialize, shutdown, exit), the open documents kept
//! as the daemon connection's buffers, and every request asked of the daemon.

use std::path::{Path, PathBuf};

use crate::editor_messages::{
    code_lens_refresh_request, editor_response, parse_editor_message, EditorError, EditorMessage,
    EditorNotification, EditorRequest, EditorResult, BLAST_COMMAND, EDITOR_REQUEST_FAILED,
    EDITOR_SERVER_NOT_INITIALIZED,
};
use lsp_server::{Connection, Message, RequestId};
use lsp_types::{
    CallHierarchyServerCapability, CodeLensOptions, ExecuteCommandOptions, HoverProviderCapability,
    InitializeParams, InitializeResult, OneOf, ServerCapabilities, ServerInfo,
    TextDocumentContentChangeEvent, TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
    WorkDoneProgressOptions,
};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::{Answer, GraphPublished};
use tether_protocol::{BufferRequest, Request, WireRequest};

use crate::documents::{byte_offset_of_column, path_of_uri, OpenDocument, OpenDocuments};
use crate::{EditorDaemon, LspError};

/// JSON-RPC's code for a request out of order (after `shutdown`, a second `initialize`).
const INVALID_REQUEST: i32 = -32600;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lifecycle {
    WaitingForInitialize,
    Running,
    ShuttingDown,
}

/// Whether the loop goes on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Flow {
    Continue,
    Exit,
}

pub(crate) struct Session<'a> {
    connection: &'a Connection,
    pub(crate) daemon: &'a mut dyn EditorDaemon,
    pub(crate) documents: OpenDocuments,
    root: Option<PathBuf>,
    generation: u64,
    lifecycle: Lifecycle,
    refresh_supported: bool,
    next_request_id: i32,
    /// Which symbols get a lens (`initializationOptions.lenses`).
    pub(crate) lens_settings: crate::lens_settings::LensSettings,
    /// What was wrong with the settings, said to the person once initialized.
    settings_problems: Vec<String>,
    /// The configuration files' `lsp.lenses`, which the editor's settings override.
    pub(crate) configured_lenses: Vec<(String, bool)>,
}

impl<'a> Session<'a> {
    pub(crate) fn new(connection: &'a Connection, daemon: &'a mut dyn EditorDaemon) -> Self {
        let generation = daemon.connection_generation();
        Session {
            connection,
            daemon,
            documents: OpenDocuments::default(),
            root: None,
            generation,
            lifecycle: Lifecycle::WaitingForInitialize,
            refresh_supported: false,
            next_request_id: 1,
            lens_settings: Default::default(),
            settings_problems: Vec::new(),
            configured_lenses: Vec::new(),
        }
    }

    pub(crate) fn send(&self, message: Message) -> Result<(), LspError> {
        self.connection.sender.send(message).map_err(|_| LspError::EditorGone)
    }

    /// Handles one message from the editor.
    pub(crate) fn handle(&mut self, message: Message) -> Result<Flow, LspError> {
        match parse_editor_message(message) {
            EditorMessage::Request { id, request } => self.request(id, request)?,
            EditorMessage::Refused { id, code, message } => {
                self.send(editor_response(id, Err(EditorError { code, message })))?
            }
            EditorMessage::Notification(notification) => return self.notification(notification),
            EditorMessage::Response { id, error } => {
                if let Some(error) = error {
                    tracing::debug!(?id, %error, "the editor refused a request of ours");
                }
            }
        }
        Ok(Flow::Continue)
    }

    fn request(&mut self, id: RequestId, request: EditorRequest) -> Result<(), LspError> {
        let refused = |code, message: &str| Err(EditorError { code, message: message.into() });
        let result = match (self.lifecycle, request) {
            (Lifecycle::WaitingForInitialize, EditorRequest::Initialize(params)) => {
                Ok(self.initialize(&params))
            }
            (Lifecycle::WaitingForInitialize, _) => {
                refused(EDITOR_SERVER_NOT_INITIALIZED, "initialize first")
            }
            (_, EditorRequest::Initialize(_)) => refused(INVALID_REQUEST, "already initialized"),
            (Lifecycle::ShuttingDown, _) => refused(INVALID_REQUEST, "shutting down"),
            (Lifecycle::Running, EditorRequest::Shutdown) => {
                self.lifecycle = Lifecycle::ShuttingDown;
                Ok(EditorResult::Null)
            }
            (Lifecycle::Running, request) => self.answer(request),
        };
        self.send(editor_response(id, result))
    }

    fn answer(&mut self, request: EditorRequest) -> Result<EditorResult, EditorError> {
        match request {
            EditorRequest::PrepareCallHierarchy(params) => self.prepare_call_hierarchy(&params),
            EditorRequest::IncomingCalls(params) => self.incoming_calls(&params.item),
            EditorRequest::OutgoingCalls(params) => self.outgoing_calls(&params.item),
            EditorRequest::CodeLens(params) => self.code_lenses(&params.text_document.uri),
            EditorRequest::ResolveCodeLens(lens) => self.resolve_code_lens(*lens),
            EditorRequest::Hover(params) => self.hover(&params.text_document_position_params),
            EditorRequest::References(params) => self.references(&params),
            EditorRequest::Blast { address } => self.blast_command(&address),
            EditorRequest::Initialize(_) | EditorRequest::Shutdown => Err(EditorError {
                code: INVALID_REQUEST,
                message: "the lifecycle answers initialize and shutdown".into(),
            }),
        }
    }

    fn initialize(&mut self, params: &InitializeParams) -> EditorResult {
        self.refresh_supported = params
            .capabilities
            .workspace
            .as_ref()
            .and_then(|workspace| workspace.code_lens.as_ref())
            .and_then(|code_lens| code_lens.refresh_support)
            .unwrap_or(false);
        (self.lens_settings, self.settings_problems) =
            crate::lens_settings::LensSettings::from_written(
                &self.configured_lenses,
                crate::editor_messages::lens_settings_written(params),
            );
        self.lifecycle = Lifecycle::Running;
        let capabilities = ServerCapabilities {
            text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
            call_hierarchy_provider: Some(CallHierarchyServerCapability::Simple(true)),
            code_lens_provider: Some(CodeLensOptions { resolve_provider: Some(true) }),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            references_provider: Some(OneOf::Left(true)),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: vec![BLAST_COMMAND.to_string()],
                work_done_progress_options: WorkDoneProgressOptions::default(),
            }),
            ..ServerCapabilities::default()
        };
        EditorResult::Initialize(Box::new(InitializeResult {
            capabilities,
            server_info: Some(ServerInfo {
                name: "tether".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        }))
    }

    fn notification(&mut self, notification: EditorNotification) -> Result<Flow, LspError> {
        match notification {
            EditorNotification::Exit if self.lifecycle == Lifecycle::ShuttingDown => {
                return Ok(Flow::Exit)
            }
            EditorNotification::Exit => return Err(LspError::ExitWithoutShutdown),
            _ if self.lifecycle == Lifecycle::WaitingForInitialize => {}
            EditorNotification::Opened(params) => {
                let document = params.text_document;
                if let Some(path) = path_of_uri(&document.uri) {
                    let open =
                        OpenDocument { path, text: document.text, version: document.version };
                    self.documents.open(&document.uri, open);
                    self.send_buffer(&document.uri);
                }
            }
            EditorNotification::Changed(params) => {
                let uri = params.text_document.uri;
                if let Some(document) = self.documents.get_mut(&uri) {
                    for change in params.content_changes {
                        apply_change(&mut document.text, change);
                    }
                    document.version = params.text_document.version;
                    self.send_buffer(&uri);
                }
            }
            EditorNotification::Closed(params) => {
                let uri = params.text_document.uri;
                if let Some(document) = self.documents.close(&uri) {
                    if let Some(path) = self.repository_path(&document.path) {
                        let close = BufferRequest::Close { path };
                        if let Err(error) = self.ask_about_the_connection(close.into()) {
                            tracing::warn!(message = %error.message, "closing a buffer");
                        }
                    }
                }
            }
            EditorNotification::Initialized => {
                for problem in std::mem::take(&mut self.settings_problems) {
                    self.send(crate::editor_messages::show_message(
                        lsp_types::MessageType::WARNING,
                        problem,
                    ))?;
                }
            }
            EditorNotification::Saved | EditorNotification::Ignored => {}
            EditorNotification::Malformed { method, error } => {
                tracing::warn!(%method, %error, "a notification's params did not parse");
            }
        }
        Ok(Flow::Continue)
    }

    /// Sends an open document's text to the daemon as this connection's buffer (only source
    /// files of the repository: the daemon refuses others).
    fn send_buffer(&mut self, uri: &Uri) {
        let Some(document) = self.documents.get(uri).cloned() else { return };
        let Some(request) = self.buffer_request(&document) else { return };
        if let Err(error) = self.ask_about_the_connection(request.into()) {
            tracing::warn!(message = %error.message, "sending an editor buffer");
        }
    }

    fn buffer_request(&mut self, document: &OpenDocument) -> Option<BufferRequest> {
        let extension = document.path.extension()?.to_str()?;
        if !matches!(extension, "py" | "rs") {
            return None;
        }
        let path = self.repository_path(&document.path)?;
        Some(BufferRequest::Update {
            path,
            text: document.text.clone(),
            version: i64::from(document.version),
        })
    }

    /// A published graph: the editor's lenses may count differently now.
    pub(crate) fn graph_published(&mut self, published: &GraphPublished) -> Result<(), LspError> {
        tracing::debug!(files = published.changed_files_total, "a graph was published");
        if self.lifecycle != Lifecycle::Running || !self.refresh_supported {
            return Ok(());
        }
        let id = RequestId::from(self.next_request_id);
        self.next_request_id += 1;
        self.send(code_lens_refresh_request(id))
    }

    /// Asks the daemon; a connection made anew holds none of the buffers, so they are sent
    /// again and the request asked once more.
    pub(crate) fn ask(&mut self, request: &Request) -> Result<Answer, EditorError> {
        self.ask_daemon(request).map_err(editor_error)
    }

    /// [`Session::ask`] with the daemon's own error.
    pub(crate) fn ask_daemon(&mut self, request: &Request) -> Result<Answer, RpcError> {
        self.call_daemon(&WireRequest::from(request.clone()))
    }

    /// A buffer request: this connection's buffers, sent again on a new connection too.
    fn ask_about_the_connection(&mut self, request: WireRequest) -> Result<Answer, EditorError> {
        self.call_daemon(&request).map_err(editor_error)
    }

    fn call_daemon(&mut self, request: &WireRequest) -> Result<Answer, RpcError> {
        let answer = self.daemon.call(request);
        let generation = self.daemon.connection_generation();
        if generation == self.generation {
            return answer;
        }
        self.generation = generation;
        let buffers: Vec<OpenDocument> = self.documents.iter().cloned().collect();
        for document in &buffers {
            if let Some(buffer) = self.buffer_request(document) {
                if let Err(error) = self.daemon.call(&buffer.into()) {
                    tracing::warn!(message = %error.message, "sending a buffer again");
                }
            }
        }
        if matches!(request, WireRequest::Connection(_)) {
            return answer;
        }
        self.daemon.call(request)
    }

    /// The repository's root, as the daemon reports it.
    pub(crate) fn root(&mut self) -> Option<PathBuf> {
        if self.root.is_none() {
            match self.daemon.call(&Request::Status.into()) {
                Ok(Answer::Status(status)) => self.root = Some(PathBuf::from(status.root)),
                Ok(_) => {}
                Err(error) => tracing::warn!(message = %error.message, "asking the daemon's root"),
            }
        }
        self.root.clone()
    }

    /// A file's repository-relative path; `None` outside the repository.
    pub(crate) fn repository_path(&mut self, path: &Path) -> Option<String> {
        let root = self.root()?;
        let relative = match path.strip_prefix(&root) {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => {
                let parent = path.parent()?.canonicalize().ok()?;
                parent.join(path.file_name()?).strip_prefix(&root).ok()?.to_path_buf()
            }
        };
        relative.to_str().map(str::to_string)
    }

    /// A repository file's text: the open document's, else the file on disk's.
    pub(crate) fn text_of(&mut self, relative: &str) -> Option<String> {
        let path = self.root()?.join(relative);
        if let Some(document) = self.documents.by_path(&path) {
            return Some(document.text.clone());
        }
        std::fs::read_to_string(path).ok()
    }
}

/// An error of the daemon as the editor is told it.
pub(crate) fn editor_error(error: RpcError) -> EditorError {
    let message = match error.code {
        RpcError::NOT_READY => {
            format!("tether is still building its first graph: {}", error.message)
        }
        _ => format!("tether: {}", error.message),
    };
    EditorError { code: EDITOR_REQUEST_FAILED, message }
}

/// Applies one change: the whole text, or a range of it (UTF-16 positions).
fn apply_change(text: &mut String, change: TextDocumentContentChangeEvent) {
    let Some(range) = change.range else {
        *text = change.text;
        return;
    };
    let offset = |position: lsp_types::Position| {
        let mut line_start = 0;
        for _ in 0..position.line {
            match text[line_start..].find('\n') {
                Some(newline) => line_start += newline + 1,
                None => return text.len(),
            }
        }
        let line_end = text[line_start..].find('\n').map_or(text.len(), |end| line_start + end);
        line_start + byte_offset_of_column(&text[line_start..line_end], position.character)
    };
    let (start, end) = (offset(range.start), offset(range.end));
    if start <= end {
        text.replace_range(start..end, &change.text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range};

    #[test]
    fn ranged_changes_edit_the_text_in_place() {
        let mut text = "def a():\n    return 1\n".to_string();
        let change = TextDocumentContentChangeEvent {
            range: Some(Range::new(Position::new(1, 11), Position::new(1, 12))),
            range_length: None,
            text: "b()".into(),
        };
        apply_change(&mut text, change);
        assert_eq!(text, "def a():\n    return b()\n");
        let whole =
            TextDocumentContentChangeEvent { range: None, range_length: None, text: "x".into() };
        apply_change(&mut text, whole);
        assert_eq!(text, "x");
    }
}
