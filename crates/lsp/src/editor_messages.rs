//! Language Server Protocol messages: what an editor sends parsed once into typed requests
//! and notifications, and tether's editor answers written back as LSP responses.
//!
//! `tether lsp` (crate `lsp`) moves `lsp_server::Message`s over stdio; every JSON value in
//! them is read or written here, so the bridge itself handles only `lsp_types` values. A
//! request this server does not serve, or whose params do not parse, becomes
//! [`EditorMessage::Refused`] with the JSON-RPC code to answer, never a panic.

use lsp_server::{Message, Notification, Request as LspRequest, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument, Exit,
    Initialized, Notification as _, ShowMessage,
};
use lsp_types::request::{
    CallHierarchyIncomingCalls, CallHierarchyOutgoingCalls, CallHierarchyPrepare, CodeLensRefresh,
    CodeLensRequest, CodeLensResolve, ExecuteCommand, HoverRequest, Initialize, References,
    Request as _, Shutdown,
};
use lsp_types::{
    CallHierarchyIncomingCall, CallHierarchyIncomingCallsParams, CallHierarchyItem,
    CallHierarchyOutgoingCall, CallHierarchyOutgoingCallsParams, CallHierarchyPrepareParams,
    CodeLens, CodeLensParams, Command, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, ExecuteCommandParams, Hover, HoverParams,
    InitializeParams, InitializeResult, Location, MessageType, Range, ReferenceParams,
    ShowMessageParams,
};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// JSON-RPC's code for a method this server does not serve.
pub const EDITOR_METHOD_NOT_FOUND: i32 = -32601;
/// JSON-RPC's code for params that do not parse.
pub const EDITOR_INVALID_PARAMS: i32 = -32602;
/// LSP's code for a request that came before `initialize` finished.
pub const EDITOR_SERVER_NOT_INITIALIZED: i32 = -32002;
/// LSP's code for a request that failed for a reason the server knows (the daemon said no).
pub const EDITOR_REQUEST_FAILED: i32 = -32803;
/// The command (`workspace/executeCommand`) that answers a symbol's blast; its one argument
/// is the symbol's address. A resolved code lens runs it.
pub const BLAST_COMMAND: &str = "tether.blast";

/// One message from the editor, typed.
#[derive(Debug)]
pub enum EditorMessage {
    Request {
        id: RequestId,
        request: EditorRequest,
    },
    /// A request to answer with this error: unknown method or malformed params.
    Refused {
        id: RequestId,
        code: i32,
        message: String,
    },
    Notification(EditorNotification),
    /// The editor's answer to a request this server sent (a code lens refresh).
    Response {
        id: RequestId,
        error: Option<String>,
    },
}

/// The requests the bridge serves.
#[derive(Debug)]
pub enum EditorRequest {
    Initialize(Box<InitializeParams>),
    Shutdown,
    PrepareCallHierarchy(CallHierarchyPrepareParams),
    IncomingCalls(CallHierarchyIncomingCallsParams),
    OutgoingCalls(CallHierarchyOutgoingCallsParams),
    CodeLens(CodeLensParams),
    ResolveCodeLens(Box<CodeLens>),
    Hover(HoverParams),
    References(ReferenceParams),
    /// `workspace/executeCommand` of [`BLAST_COMMAND`].
    Blast {
        address: String,
    },
}

/// The notifications the bridge acts on.
#[derive(Debug)]
pub enum EditorNotification {
    Initialized,
    Exit,
    Opened(DidOpenTextDocumentParams),
    Changed(DidChangeTextDocumentParams),
    Closed(DidCloseTextDocumentParams),
    /// A save: nothing to do (the daemon sees the file on disk change), but its params are
    /// checked like any other's.
    Saved,
    /// `$/cancelRequest`, `$/setTrace`, a notification of a capability not announced…:
    /// nothing to do (notifications are never answered).
    Ignored,
    /// A known notification whose params do not parse.
    Malformed {
        method: String,
        error: String,
    },
}

/// Reads one message from the editor.
pub fn parse_editor_message(message: Message) -> EditorMessage {
    match message {
        Message::Request(request) => parse_editor_request(request),
        Message::Notification(notification) => {
            EditorMessage::Notification(parse_editor_notification(notification))
        }
        Message::Response(response) => EditorMessage::Response {
            id: response.id,
            error: response.error.map(|error| error.message),
        },
    }
}

fn parse_editor_request(request: LspRequest) -> EditorMessage {
    let LspRequest { id, method, params } = request;
    let parsed = match method.as_str() {
        Initialize::METHOD => params_of(params).map(|p| EditorRequest::Initialize(Box::new(p))),
        Shutdown::METHOD => Ok(EditorRequest::Shutdown),
        CallHierarchyPrepare::METHOD => params_of(params).map(EditorRequest::PrepareCallHierarchy),
        CallHierarchyIncomingCalls::METHOD => params_of(params).map(EditorRequest::IncomingCalls),
        CallHierarchyOutgoingCalls::METHOD => params_of(params).map(EditorRequest::OutgoingCalls),
        CodeLensRequest::METHOD => params_of(params).map(EditorRequest::CodeLens),
        CodeLensResolve::METHOD => {
            params_of(params).map(|lens| EditorRequest::ResolveCodeLens(Box::new(lens)))
        }
        HoverRequest::METHOD => params_of(params).map(EditorRequest::Hover),
        References::METHOD => params_of(params).map(EditorRequest::References),
        ExecuteCommand::METHOD => params_of(params).and_then(command_request),
        _ => {
            return EditorMessage::Refused {
                id,
                code: EDITOR_METHOD_NOT_FOUND,
                message: format!("tether does not serve {method:?}"),
            }
        }
    };
    match parsed {
        Ok(request) => EditorMessage::Request { id, request },
        Err(error) => EditorMessage::Refused {
            id,
            code: EDITOR_INVALID_PARAMS,
            message: format!("invalid params of {method}: {error}"),
        },
    }
}

fn parse_editor_notification(notification: Notification) -> EditorNotification {
    let Notification { method, params } = notification;
    let parsed = match method.as_str() {
        Initialized::METHOD => Ok(EditorNotification::Initialized),
        Exit::METHOD => Ok(EditorNotification::Exit),
        DidOpenTextDocument::METHOD => params_of(params).map(EditorNotification::Opened),
        DidChangeTextDocument::METHOD => params_of(params).map(EditorNotification::Changed),
        DidCloseTextDocument::METHOD => params_of(params).map(EditorNotification::Closed),
        DidSaveTextDocument::METHOD => {
            params_of::<DidSaveTextDocumentParams>(params).map(|_| EditorNotification::Saved)
        }
        _ => return EditorNotification::Ignored,
    };
    parsed.unwrap_or_else(|error| EditorNotification::Malformed { method, error })
}

/// The command an `executeCommand` names, with its arguments checked.
fn command_request(params: ExecuteCommandParams) -> Result<EditorRequest, String> {
    if params.command != BLAST_COMMAND {
        return Err(format!("unknown command {:?}; tether runs {BLAST_COMMAND}", params.command));
    }
    match params.arguments.first().and_then(Value::as_str) {
        Some(address) => Ok(EditorRequest::Blast { address: address.to_string() }),
        None => Err(format!("{BLAST_COMMAND} takes one argument: a symbol address")),
    }
}

fn params_of<Params: DeserializeOwned>(params: Value) -> Result<Params, String> {
    serde_json::from_value(params).map_err(|error| error.to_string())
}

/// What the bridge answers a request with.
#[derive(Debug)]
pub enum EditorResult {
    Initialize(Box<InitializeResult>),
    /// `shutdown`'s answer.
    Null,
    CallHierarchyItems(Option<Vec<CallHierarchyItem>>),
    IncomingCalls(Vec<CallHierarchyIncomingCall>),
    OutgoingCalls(Vec<CallHierarchyOutgoingCall>),
    CodeLenses(Vec<CodeLens>),
    CodeLens(Box<CodeLens>),
    Hover(Option<Hover>),
    Locations(Vec<Location>),
    /// [`BLAST_COMMAND`]'s answer: the blast as the socket protocol answers it.
    Blast(Box<tether_protocol::wire::BlastAnswer>),
}

/// A request that failed: the LSP error code and a message for the user.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EditorError {
    pub code: i32,
    pub message: String,
}

/// The response to request `id`.
pub fn editor_response(id: RequestId, result: Result<EditorResult, EditorError>) -> Message {
    let result = match result {
        Ok(result) => result,
        Err(error) => return Message::Response(Response::new_err(id, error.code, error.message)),
    };
    let value = match result {
        EditorResult::Initialize(result) => json!(result),
        EditorResult::Null => Value::Null,
        EditorResult::CallHierarchyItems(items) => json!(items),
        EditorResult::IncomingCalls(calls) => json!(calls),
        EditorResult::OutgoingCalls(calls) => json!(calls),
        EditorResult::CodeLenses(lenses) => json!(lenses),
        EditorResult::CodeLens(lens) => json!(lens),
        EditorResult::Hover(hover) => json!(hover),
        EditorResult::Locations(locations) => json!(locations),
        EditorResult::Blast(blast) => tether_protocol::wire::to_json_value(&*blast),
    };
    Message::Response(Response { id, result: Some(value), error: None })
}

/// `workspace/codeLens/refresh`: asks the editor to ask for its code lenses again.
pub fn code_lens_refresh_request(id: RequestId) -> Message {
    Message::Request(LspRequest {
        id,
        method: CodeLensRefresh::METHOD.to_string(),
        params: json!(null),
    })
}

/// `window/showMessage`.
pub fn show_message(kind: MessageType, text: String) -> Message {
    let params = ShowMessageParams { typ: kind, message: text };
    Message::Notification(Notification {
        method: ShowMessage::METHOD.to_string(),
        params: json!(params),
    })
}

/// A code lens over `range` for the symbol `address`, to be resolved later.
pub fn unresolved_code_lens(range: Range, address: &str) -> CodeLens {
    CodeLens { range, command: None, data: Some(json!({ "symbol": address })) }
}

/// The symbol address a code lens of [`unresolved_code_lens`] carries.
pub fn code_lens_address(lens: &CodeLens) -> Option<String> {
    address_in(lens.data.as_ref())
}

/// A code lens with its title; clicking it runs [`BLAST_COMMAND`] on its symbol.
pub fn resolved_code_lens(range: Range, title: String, address: &str) -> CodeLens {
    let command = Command {
        title,
        command: BLAST_COMMAND.to_string(),
        arguments: Some(vec![json!(address)]),
    };
    CodeLens { range, command: Some(command), data: Some(json!({ "symbol": address })) }
}

/// Marks a call hierarchy item with the symbol address the next requests about it ask for.
pub fn with_symbol_address(mut item: CallHierarchyItem, address: &str) -> CallHierarchyItem {
    item.data = Some(json!({ "symbol": address }));
    item
}

/// The symbol address of a call hierarchy item made with [`with_symbol_address`].
pub fn call_hierarchy_address(item: &CallHierarchyItem) -> Option<String> {
    address_in(item.data.as_ref())
}

fn address_in(data: Option<&Value>) -> Option<String> {
    data?.get("symbol")?.as_str().map(str::to_string)
}

/// One LSP message body (what its `Content-Length` framed) as a message, or the error to
/// answer it with (id `null`): `-32700` for a body that is not a message, `-32600` for a
/// request whose `id` is `null` or neither an integer nor a string (lsp-server would take it
/// for a notification, and it would never be answered).
pub fn parse_editor_frame(body: &[u8]) -> Result<Message, tether_protocol::rpc::RpcError> {
    use tether_protocol::rpc::RpcError;
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(borrow, default, deserialize_with = "tether_protocol::rpc::present_id")]
        id: Option<&'a serde_json::value::RawValue>,
        #[serde(default)]
        method: Option<serde::de::IgnoredAny>,
    }
    if let Ok(Envelope { id: Some(id), method: Some(_) }) = serde_json::from_slice(body) {
        let id = id.get().trim_start();
        if !id.starts_with(|first: char| first == '"' || first == '-' || first.is_ascii_digit()) {
            return Err(RpcError::new(
                RpcError::INVALID_REQUEST,
                "a request's \"id\" is an integer or a string (null is not an id in LSP)",
            ));
        }
    }
    serde_json::from_slice(body).map_err(|error| {
        RpcError::new(RpcError::PARSE_ERROR, format!("not an LSP message: {error}"))
    })
}

/// The body of the response (id `null`) to a frame that cannot be answered otherwise.
pub fn error_frame_body(error: &tether_protocol::rpc::RpcError) -> String {
    tether_protocol::rpc::error_line(&tether_protocol::rpc::RequestId::null(), error)
        .trim_end()
        .to_string()
}

/// Each kind with `true`/`false` or the text of a value that is not one; `Err` with the
/// text of `lenses` when it is not an object.
pub type WrittenLensSettings = Result<Vec<(String, Result<bool, String>)>, String>;

/// What `initializationOptions.lenses` says, as written: each kind with `true`/`false`, or
/// the value that is not a boolean (`Err` with its text); `Err` for the whole when `lenses`
/// is not an object. `Ok(vec![])` when there are no such settings.
pub fn lens_settings_written(params: &InitializeParams) -> WrittenLensSettings {
    let Some(lenses) =
        params.initialization_options.as_ref().and_then(|options| options.get("lenses"))
    else {
        return Ok(Vec::new());
    };
    let Some(lenses) = lenses.as_object() else { return Err(lenses.to_string()) };
    Ok(lenses
        .iter()
        .map(|(kind, shown)| (kind.clone(), shown.as_bool().ok_or_else(|| shown.to_string())))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(method: &str, params: Value) -> Message {
        Message::Request(LspRequest { id: RequestId::from(7), method: method.into(), params })
    }

    #[test]
    fn unknown_requests_and_bad_params_are_refused_with_their_codes() {
        match parse_editor_message(request("textDocument/formatting", json!({}))) {
            EditorMessage::Refused { code, .. } => assert_eq!(code, EDITOR_METHOD_NOT_FOUND),
            other => panic!("{other:?}"),
        }
        match parse_editor_message(request("textDocument/hover", json!({"textDocument": 3}))) {
            EditorMessage::Refused { code, message, .. } => {
                assert_eq!(code, EDITOR_INVALID_PARAMS);
                assert!(message.contains("textDocument/hover"), "{message}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_blast_command_takes_a_symbol_address() {
        let params = |command: &str, arguments: Value| {
            request(
                "workspace/executeCommand",
                json!({ "command": command, "arguments": arguments }),
            )
        };
        match parse_editor_message(params(BLAST_COMMAND, json!(["a1b2"]))) {
            EditorMessage::Request { request: EditorRequest::Blast { address }, .. } => {
                assert_eq!(address, "a1b2")
            }
            other => panic!("{other:?}"),
        }
        for refused in [params(BLAST_COMMAND, json!([])), params("rm -rf", json!(["a1b2"]))] {
            match parse_editor_message(refused) {
                EditorMessage::Refused { code, .. } => assert_eq!(code, EDITOR_INVALID_PARAMS),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn a_code_lens_carries_its_symbol_through_the_editor() {
        let lens = unresolved_code_lens(Range::default(), "a1b2");
        let round_trip: CodeLens = serde_json::from_value(json!(lens)).unwrap();
        assert_eq!(code_lens_address(&round_trip).as_deref(), Some("a1b2"));
        match parse_editor_message(request("codeLens/resolve", json!(lens))) {
            EditorMessage::Request { request: EditorRequest::ResolveCodeLens(lens), .. } => {
                assert_eq!(code_lens_address(&lens).as_deref(), Some("a1b2"))
            }
            other => panic!("{other:?}"),
        }
    }
}
