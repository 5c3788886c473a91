//! JSON-RPC 2.0 over newline-delimited JSON: parsing requests, writing responses, and the
//! client side of both. One request or response per line; see docs/protocol.md. The server
//! reads a line into a typed [`Call`] and writes a typed [`Answer`]; a client writes a typed
//! [`Request`] and reads back its method's [`Answer`].

use serde_json::{json, Value};

use crate::wire::{AddressErrorData, Answer};
use crate::{Method, Request, WireRequest};

/// The largest request line accepted, in bytes.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

/// A request's id exactly as the client wrote it (a number of any size, a string, null), so
/// the answer echoes it verbatim; `None` for a notification (no `id` member), which gets no
/// answer.
#[derive(Clone, Debug, Default)]
pub struct RequestId(Option<Box<serde_json::value::RawValue>>);

impl RequestId {
    /// The `null` id of an answer to a request whose id could not be read.
    pub fn null() -> RequestId {
        RequestId(Some(
            serde_json::value::RawValue::from_string("null".to_string()).expect("null is JSON"),
        ))
    }

    /// Whether the request was a notification (no answer is written).
    pub fn is_notification(&self) -> bool {
        self.0.is_none()
    }

    /// The id's JSON text (`null` for a notification).
    pub fn as_json_text(&self) -> &str {
        self.0.as_deref().map_or("null", serde_json::value::RawValue::get)
    }
}

impl PartialEq for RequestId {
    fn eq(&self, other: &RequestId) -> bool {
        self.0.as_deref().map(serde_json::value::RawValue::get)
            == other.0.as_deref().map(serde_json::value::RawValue::get)
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct RpcRequest {
    pub id: RequestId,
    pub method: String,
    pub params: Value,
}

/// An error answered to a request, with its JSON-RPC code.
#[derive(Clone, PartialEq, Debug)]
pub struct RpcError {
    pub code: i64,
    pub message: String,
    pub data: Option<Value>,
}

impl RpcError {
    pub const PARSE_ERROR: i64 = -32700;
    pub const INVALID_REQUEST: i64 = -32600;
    pub const METHOD_NOT_FOUND: i64 = -32601;
    pub const INVALID_PARAMS: i64 = -32602;
    pub const INTERNAL_ERROR: i64 = -32603;
    /// The request took longer than the daemon allows.
    pub const TIMEOUT: i64 = -32000;
    /// No symbol matches the address (`data.similar` lists near names).
    pub const SYMBOL_NOT_FOUND: i64 = -32001;
    /// Several symbols match the address (`data.candidates` lists them).
    pub const AMBIGUOUS_SYMBOL: i64 = -32002;
    /// The graph is not built yet (the first index is running).
    pub const NOT_READY: i64 = -32003;
    /// The daemon serves as many connections as it allows; retry later.
    pub const SERVER_BUSY: i64 = -32004;

    /// Messages longer than this are cut (they may echo what a client sent).
    pub const MAX_MESSAGE_CHARS: usize = 2000;

    /// An error with its message cut at [`RpcError::MAX_MESSAGE_CHARS`], saying how much was
    /// left out: a message that echoes a client's input never grows with it.
    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        let mut message: String = message.into();
        if let Some((cut, _)) = message.char_indices().nth(RpcError::MAX_MESSAGE_CHARS) {
            let left_out = message[cut..].chars().count();
            message.truncate(cut);
            message.push_str(&format!("… ({left_out} more characters)"));
        }
        RpcError { code, message, data: None }
    }

    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(RpcError::INVALID_PARAMS, message)
    }

    pub fn with_data(mut self, data: Value) -> RpcError {
        self.data = Some(data);
        self
    }

    /// An addressing error: its code, message and the symbols to choose from.
    pub fn address(code: i64, message: impl Into<String>, data: &AddressErrorData) -> RpcError {
        RpcError::new(code, message).with_data(crate::wire::to_json_value(data))
    }

    /// The candidates or near names an addressing error lists (`data.candidates`,
    /// `data.similar`), when its data has that shape.
    pub fn address_data(&self) -> Option<AddressErrorData> {
        serde_json::from_value(self.data.clone()?).ok()
    }

    /// `{"error": {"code", "message", "data"}}`, pretty (a CLI's `--json` output).
    pub fn to_pretty_json(&self) -> String {
        pretty(
            &json!({ "error": { "code": self.code, "message": self.message, "data": self.data } }),
        )
    }
}

/// The members of a request object as read, before they are checked. `id` stays raw text so
/// that a large integer or an odd number comes back exactly as it was sent.
#[derive(serde::Deserialize)]
struct RawRequest<'a> {
    /// Present (even `null`) or absent: serde's `Option` would read `null` as absent.
    #[serde(borrow, default, deserialize_with = "present_id")]
    id: Option<&'a serde_json::value::RawValue>,
    #[serde(default)]
    jsonrpc: Option<Value>,
    #[serde(default)]
    method: Option<Value>,
    #[serde(default)]
    params: Option<Value>,
}

/// An `id` member as written, `null` included.
pub fn present_id<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<&'de serde_json::value::RawValue>, D::Error> {
    <&serde_json::value::RawValue as serde::Deserialize>::deserialize(deserializer).map(Some)
}

/// Parses one request line. On failure, returns the id (null when unreadable or missing from
/// an invalid request) and the error to answer; a valid notification whose params are wrong
/// returns its (notification) id, which writes no answer.
pub fn parse_request(line: &[u8]) -> Result<RpcRequest, (RequestId, RpcError)> {
    let value: Value = serde_json::from_slice(line).map_err(|error| {
        (
            RequestId::null(),
            RpcError::new(RpcError::PARSE_ERROR, format!("not valid JSON: {error}")),
        )
    })?;
    if !value.is_object() {
        return Err((
            RequestId::null(),
            RpcError::new(
                RpcError::INVALID_REQUEST,
                "a request is a JSON object (batches are not supported)",
            ),
        ));
    }
    let raw: RawRequest<'_> = serde_json::from_slice(line).map_err(|error| {
        (
            RequestId::null(),
            RpcError::new(RpcError::INVALID_REQUEST, format!("not a request object: {error}")),
        )
    })?;
    // `"id": null` is an id (answered with null); a missing id is a notification. A request
    // that is not valid is answered even without an id (with a null one), as JSON-RPC 2.0
    // says; only a valid notification goes unanswered.
    let id = RequestId(raw.id.map(|id| id.to_owned()));
    let answerable = if id.is_notification() { RequestId::null() } else { id.clone() };
    if raw.id.is_some_and(|id| id.get().trim_start().starts_with(['{', '[', 't', 'f'])) {
        return Err((
            RequestId::null(),
            RpcError::new(RpcError::INVALID_REQUEST, "\"id\" must be a string, a number or null"),
        ));
    }
    if raw.jsonrpc.as_ref().and_then(Value::as_str) != Some("2.0") {
        return Err((
            answerable,
            RpcError::new(RpcError::INVALID_REQUEST, "missing \"jsonrpc\": \"2.0\""),
        ));
    }
    let Some(Value::String(method)) = raw.method else {
        return Err((
            answerable,
            RpcError::new(RpcError::INVALID_REQUEST, "missing \"method\" (a string)"),
        ));
    };
    let params = raw.params.unwrap_or_else(|| json!({}));
    if !params.is_object() {
        return Err((
            id,
            RpcError::invalid_params("\"params\" must be an object of named parameters"),
        ));
    }
    Ok(RpcRequest { id, method, params })
}

/// A request line read and its call typed: the id to answer and the parsed [`WireRequest`].
#[derive(Clone, PartialEq, Debug)]
pub struct Call {
    pub id: RequestId,
    pub request: WireRequest,
}

/// Parses one request line into a typed call (JSON-RPC framing, then the method's params,
/// strictly). On failure, the id to answer (a notification's, which gets no answer) and the
/// error.
pub fn parse_call(line: &[u8]) -> Result<Call, (RequestId, RpcError)> {
    let raw = parse_request(line)?;
    match WireRequest::parse(&raw.method, &raw.params) {
        Ok(request) => Ok(Call { id: raw.id, request }),
        Err(error) => Err((raw.id, error)),
    }
}

/// The response line to a call: its answer, or its error.
pub fn answer_line(id: &RequestId, answer: &Result<Answer, RpcError>) -> String {
    match answer {
        Ok(answer) => success_line(id, answer.to_json()),
        Err(error) => error_line(id, error),
    }
}

/// A success response, as one line (with the trailing newline).
pub fn success_line(id: &RequestId, result: Value) -> String {
    response_line(id, "result", &result)
}

/// An error response, as one line (with the trailing newline).
pub fn error_line(id: &RequestId, error: &RpcError) -> String {
    let mut body = json!({ "code": error.code, "message": error.message });
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    response_line(id, "error", &body)
}

/// `{"jsonrpc":"2.0","id":<id verbatim>,"<member>":<value>}` and a newline (members in the
/// order this protocol has always written them).
fn response_line(id: &RequestId, member: &str, value: &Value) -> String {
    let mut line = String::from("{\"jsonrpc\":\"2.0\",\"id\":");
    line.push_str(id.as_json_text());
    line.push_str(",\"");
    line.push_str(member);
    line.push_str("\":");
    line.push_str(&value.to_string());
    line.push_str("}\n");
    line
}

/// The method of the notification a subscribed connection receives per published graph.
pub const GRAPH_PUBLISHED: &str = "graph_published";

/// A `graph_published` notification (no `id`: nothing answers it), as one line.
pub fn graph_published_line(published: &crate::wire::GraphPublished) -> String {
    let params = crate::wire::to_json_value(published);
    let mut line =
        json!({ "jsonrpc": "2.0", "method": GRAPH_PUBLISHED, "params": params }).to_string();
    line.push('\n');
    line
}

/// A `graph_published` notification line read back (a subscribed client's side); `None`
/// for any other line.
pub fn parse_graph_published(line: &[u8]) -> Option<crate::wire::GraphPublished> {
    let value: Value = serde_json::from_slice(line).ok()?;
    if value.get("method")?.as_str()? != GRAPH_PUBLISHED || value.get("id").is_some() {
        return None;
    }
    serde_json::from_value(value.get("params")?.clone()).ok()
}

/// A request, as one line, for clients.
pub fn request_line(id: u64, method: &str, params: Value) -> String {
    let mut line =
        json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string();
    line.push('\n');
    line
}

/// A call given as JSON (method and params) parsed, applied by `apply` and answered as
/// JSON: for tests and benchmarks that speak the wire's JSON to a handler directly.
pub fn apply_json(
    method: &str,
    params: &Value,
    apply: impl FnOnce(Request) -> Result<Answer, RpcError>,
) -> Result<Value, RpcError> {
    apply(Request::parse(method, params)?).map(|answer| answer.to_json())
}

/// A typed request, as one line, for clients.
pub fn call_line(id: u64, request: &WireRequest) -> String {
    request_line(id, request.method().as_str(), request.to_params())
}

/// A response line read back as `method`'s typed answer, or its error; an answer of a shape
/// this version does not know is an internal error naming it.
pub fn parse_answer(method: Method, line: &[u8]) -> Result<Answer, RpcError> {
    let result = parse_response(line)?;
    Answer::from_json(method, result).map_err(|error| {
        RpcError::new(
            RpcError::INTERNAL_ERROR,
            format!("{error} (is the running daemon another version? `tether stop` restarts it)"),
        )
    })
}

/// The result of a response line, or its error.
pub fn parse_response(line: &[u8]) -> Result<Value, RpcError> {
    let value: Value = serde_json::from_slice(line).map_err(|error| {
        RpcError::new(RpcError::PARSE_ERROR, format!("the daemon answered invalid JSON: {error}"))
    })?;
    if let Some(error) = value.get("error") {
        return Err(RpcError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(RpcError::INTERNAL_ERROR),
            message: error
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("unknown error")
                .to_string(),
            data: error.get("data").cloned(),
        });
    }
    Ok(value.get("result").cloned().unwrap_or(Value::Null))
}

/// Renders any JSON value as pretty text (for `--json` output).
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_echoed_verbatim_and_notifications_have_none() {
        for id in [
            "18446744073709551617",
            "-3",
            "1.50",
            "\"a b\"",
            "null",
            "123456789012345678901234567890",
        ] {
            let line = format!("{{\"jsonrpc\": \"2.0\", \"id\": {id}, \"method\": \"status\"}}");
            let request = parse_request(line.as_bytes()).unwrap();
            assert_eq!((request.id.as_json_text(), request.id.is_notification()), (id, false));
            assert!(success_line(&request.id, json!({"ok": true}))
                .starts_with(&format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":")));
        }
        let notification = parse_request(br#"{"jsonrpc": "2.0", "method": "status"}"#).unwrap();
        assert!(notification.id.is_notification());
        // An invalid request is answered (id null) even without an id; a valid notification
        // with bad params is not.
        let (id, error) = parse_request(br#"{"jsonrpc": "2.0", "method": 7}"#).unwrap_err();
        assert_eq!(
            (id.as_json_text(), id.is_notification(), error.code),
            ("null", false, RpcError::INVALID_REQUEST)
        );
        let (id, error) =
            parse_request(br#"{"jsonrpc": "2.0", "method": "status", "params": 5}"#).unwrap_err();
        assert_eq!((id.is_notification(), error.code), (true, RpcError::INVALID_PARAMS));
        let (id, error) =
            parse_request(br#"{"jsonrpc": "2.0", "id": [1], "method": "status"}"#).unwrap_err();
        assert_eq!((id.as_json_text(), error.code), ("null", RpcError::INVALID_REQUEST));
        let echoed = RpcError::invalid_params(format!("bad {:?}", "x".repeat(100_000)));
        assert!(
            echoed.message.ends_with("… (98006 more characters)"),
            "{}",
            &echoed.message[1990..]
        );
        assert!(echoed.message.chars().count() < RpcError::MAX_MESSAGE_CHARS + 40);
        let (id, error) = parse_request(b"{broken").unwrap_err();
        assert_eq!((id.as_json_text(), error.code), ("null", RpcError::PARSE_ERROR));
        let answer: Value =
            serde_json::from_str(&error_line(&RequestId::null(), &RpcError::invalid_params("x")))
                .unwrap();
        assert_eq!(
            answer,
            json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32602, "message": "x"}})
        );
    }
}
