//! JSON-RPC 2.0 over newline-delimited JSON: parsing requests, writing responses, and the
//! client side of both. One request or response per line; see docs/protocol.md.

use serde_json::{json, Value};

/// The largest request line accepted, in bytes.
pub const MAX_REQUEST_BYTES: usize = 1024 * 1024;

#[derive(Clone, PartialEq, Debug)]
pub struct RpcRequest {
    pub id: Value,
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

    pub fn new(code: i64, message: impl Into<String>) -> RpcError {
        RpcError { code, message: message.into(), data: None }
    }

    pub fn invalid_params(message: impl Into<String>) -> RpcError {
        RpcError::new(RpcError::INVALID_PARAMS, message)
    }

    pub fn with_data(mut self, data: Value) -> RpcError {
        self.data = Some(data);
        self
    }
}

/// Parses one request line. On failure, returns the id (or null) and the error to answer.
pub fn parse_request(line: &[u8]) -> Result<RpcRequest, (Value, RpcError)> {
    let value: Value = serde_json::from_slice(line).map_err(|error| (Value::Null, RpcError::new(RpcError::PARSE_ERROR, format!("not valid JSON: {error}"))))?;
    let Value::Object(object) = value else {
        return Err((Value::Null, RpcError::new(RpcError::INVALID_REQUEST, "a request is a JSON object (batches are not supported)")));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err((id, RpcError::new(RpcError::INVALID_REQUEST, "missing \"jsonrpc\": \"2.0\"")));
    }
    let Some(method) = object.get("method").and_then(Value::as_str) else {
        return Err((id, RpcError::new(RpcError::INVALID_REQUEST, "missing \"method\" (a string)")));
    };
    let params = object.get("params").cloned().unwrap_or_else(|| json!({}));
    if !params.is_object() {
        return Err((id, RpcError::invalid_params("\"params\" must be an object of named parameters")));
    }
    Ok(RpcRequest { id, method: method.to_string(), params })
}

/// A success response, as one line (with the trailing newline).
pub fn success_line(id: &Value, result: Value) -> String {
    let mut line = json!({ "jsonrpc": "2.0", "id": id, "result": result }).to_string();
    line.push('\n');
    line
}

/// An error response, as one line (with the trailing newline).
pub fn error_line(id: &Value, error: &RpcError) -> String {
    let mut body = json!({ "code": error.code, "message": error.message });
    if let Some(data) = &error.data {
        body["data"] = data.clone();
    }
    let mut line = json!({ "jsonrpc": "2.0", "id": id, "error": body }).to_string();
    line.push('\n');
    line
}

/// A request, as one line, for clients.
pub fn request_line(id: u64, method: &str, params: Value) -> String {
    let mut line = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }).to_string();
    line.push('\n');
    line
}

/// The result of a response line, or its error.
pub fn parse_response(line: &[u8]) -> Result<Value, RpcError> {
    let value: Value = serde_json::from_slice(line).map_err(|error| RpcError::new(RpcError::PARSE_ERROR, format!("the daemon answered invalid JSON: {error}")))?;
    if let Some(error) = value.get("error") {
        return Err(RpcError {
            code: error.get("code").and_then(Value::as_i64).unwrap_or(RpcError::INTERNAL_ERROR),
            message: error.get("message").and_then(Value::as_str).unwrap_or("unknown error").to_string(),
            data: error.get("data").cloned(),
        });
    }
    Ok(value.get("result").cloned().unwrap_or(Value::Null))
}

/// Renders any JSON value as pretty text (for `--json` output).
pub fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}
