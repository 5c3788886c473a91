//! The MCP server handler: lists the tools and resources, checks each call's arguments,
//! forwards it to the daemon on a blocking thread, and renders the answer or the error.

use std::sync::Arc;

use crate::tool_arguments::ArgumentsError;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, CustomRequest,
    CustomResult, ErrorCode, Implementation, ListResourcesResult, ListToolsResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::Answer;
use tether_protocol::{Request, Value};

use crate::errors::daemon_error_message;
use crate::render::{render_answer, render_answer_twice, OutputFormat, RenderRequest};
use crate::resources::{
    daemon_resource_contents, is_known_resource, resource_daemon_request, resource_list,
    schema_resource_contents,
};
use crate::tools::{
    tool_catalogue, tool_named, DEFAULT_BUDGET_TOKENS, MAXIMUM_BUDGET_TOKENS, MINIMUM_BUDGET_TOKENS,
};
use crate::DaemonCaller;

/// What the model is told when the session starts.
pub const SERVER_INSTRUCTIONS: &str = "tether answers questions about this repository's code graph and its memory. \
Before editing, renaming or deleting a symbol, call blast on it to see what depends on it (and which tests); \
call context to learn why the code exists (the plans and decisions tethered to it) before changing its behaviour; \
call ownership to know whom to ask or to request review from. Use lookup to find a symbol's id, callers/callees for direct uses, \
changes before committing. Address a symbol by qualified name, a unique suffix, path:line, or an id. \
When an answer's completeness is lower_bound, the list may be missing items: do not conclude that nothing depends on the symbol. \
Answers are cut to budget_tokens (default 6000, at least 300); call again with the same arguments and the cursor they give to get the rest. Read tether://schema for how to read answers.";

/// The MCP server: every tool call goes to the daemon through `caller`.
#[derive(Clone)]
pub struct TetherMcpServer {
    caller: Arc<dyn DaemonCaller>,
    /// The budget of a call that gives no `budget_tokens`.
    default_budget_tokens: u64,
    /// What this session's pages said of completeness and freshness, by call.
    contexts_said: Arc<crate::page_contexts::PageContexts>,
}

impl TetherMcpServer {
    pub fn new(caller: Arc<dyn DaemonCaller>) -> TetherMcpServer {
        TetherMcpServer {
            caller,
            default_budget_tokens: DEFAULT_BUDGET_TOKENS,
            contexts_said: Default::default(),
        }
    }

    /// With another default budget (the configuration's `answers.budget_tokens`), kept within
    /// the bounds a call's own `budget_tokens` has.
    pub fn with_default_budget_tokens(mut self, budget_tokens: u64) -> TetherMcpServer {
        self.default_budget_tokens =
            budget_tokens.clamp(MINIMUM_BUDGET_TOKENS, MAXIMUM_BUDGET_TOKENS);
        self
    }

    /// Asks the daemon on a blocking thread (the caller may hold a synchronous socket).
    pub async fn call_daemon(&self, request: Request) -> Result<Answer, RpcError> {
        let caller = Arc::clone(&self.caller);
        tokio::task::spawn_blocking(move || caller.call(&request)).await.unwrap_or_else(|error| {
            Err(RpcError::new(
                RpcError::INTERNAL_ERROR,
                format!("the call to the daemon did not complete: {error}"),
            ))
        })
    }

    /// Runs one tool call. Unknown tools are protocol errors; bad arguments and daemon errors
    /// are tool errors (`is_error: true`) the model can read and act on.
    pub async fn call_tool_by_name(
        &self,
        name: &str,
        arguments: Option<Value>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(tool) = tool_named(name) else {
            let names: Vec<&str> = tool_catalogue().iter().map(|tool| tool.name).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool {}; the tools are {}", shown(name), names.join(", ")),
                None,
            ));
        };
        let checked = match tool.arguments().check(arguments.as_ref()) {
            Ok(checked) => checked,
            Err(ArgumentsError::Invalid(message)) => {
                let message = RpcError::invalid_params(message).message;
                return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
            }
            Err(ArgumentsError::Refused(error)) => {
                let message = daemon_error_message(tool.daemon_method.as_str(), &error);
                return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
            }
        };
        let format = match checked.presentation_texts.iter().find(|(name, _)| name == "format") {
            Some((_, format)) if format == "json" => OutputFormat::Json,
            _ => OutputFormat::Text,
        };
        let budget_tokens = checked
            .presentation_integers
            .iter()
            .find(|(name, _)| name == "budget_tokens")
            .map_or(self.default_budget_tokens, |(_, budget)| *budget);
        let call = crate::page_contexts::call_without_cursor(tool.name, &checked.request);
        let answer = match self.call_daemon(checked.request).await {
            Ok(answer) => answer,
            Err(error) => {
                return Ok(CallToolResult::error(vec![ContentBlock::text(daemon_error_message(
                    tool.daemon_method.as_str(),
                    &error,
                ))]))
            }
        };
        let request = RenderRequest {
            tool_name: tool.name.to_string(),
            format,
            budget_tokens,
            cursor_offset: checked.cursor_offset,
            paged_by_cursor: tool.paged_by_cursor,
            context_unchanged: self.contexts_said.said_before(call, &answer, checked.cursor_offset),
        };
        if tool.output_schema().is_none() {
            let text = render_answer(&request, &answer);
            return Ok(CallToolResult::success(vec![ContentBlock::text(text)]));
        }
        // The same answer as `format: "json"` gives, fitted to the same budget and showing
        // the same items as the text (a cut page keeps the schema's fields and adds
        // `truncated` with the cursor both name).
        let (text, json) = render_answer_twice(&request, &answer);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
        result.structured_content = serde_json::from_str(&json).ok();
        Ok(result)
    }

    /// Reads one resource: the schema is constant, the others are asked of the daemon.
    pub async fn read_resource_by_uri(&self, uri: &str) -> Result<ReadResourceResult, ErrorData> {
        if !is_known_resource(uri) {
            return Err(ErrorData::resource_not_found(format!("unknown resource {}; the resources are tether://schema, tether://census and tether://freshness", shown(uri)), None));
        }
        let Some(request) = resource_daemon_request(uri) else {
            return Ok(ReadResourceResult::new(vec![schema_resource_contents()]));
        };
        let method = request.method().as_str();
        match self.call_daemon(request).await {
            Ok(answer) => Ok(ReadResourceResult::new(vec![daemon_resource_contents(uri, &answer)])),
            Err(error) => {
                Err(ErrorData::internal_error(daemon_error_message(method, &error), error.data))
            }
        }
    }
}

/// A name a client sent, quoted and cut at 80 characters: an error never echoes a long input
/// in full.
fn shown(sent: &str) -> String {
    let kept: String = sent.chars().take(80).collect();
    match sent.len() > kept.len() {
        true => format!("{kept:?}… ({} more characters)", sent.chars().count() - 80),
        false => format!("{kept:?}"),
    }
}

/// The MCP methods this server answers. rmcp hands a request of one of them whose params do
/// not have MCP's shape over as a custom request.
const SERVED_METHODS: &[&str] =
    &["initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/read"];

/// A request rmcp could not read as one it knows: params of the wrong shape for a method
/// served here are invalid params (-32602); any other method is not found (-32601).
pub fn refuse_custom_request(method: &str) -> ErrorData {
    if SERVED_METHODS.contains(&method) {
        let shape = match method {
            "tools/call" => "\"name\" a string and \"arguments\" an object",
            "resources/read" => "\"uri\" a string",
            _ => "the fields the MCP specification gives them",
        };
        return ErrorData::invalid_params(
            format!("the params of {method} do not have the shape MCP defines: {shape}"),
            None,
        );
    }
    ErrorData::new(
        ErrorCode::METHOD_NOT_FOUND,
        format!(
            "unknown method {}; this server answers {}",
            shown(method),
            SERVED_METHODS.join(", ")
        ),
        None,
    )
}

impl ServerHandler for TetherMcpServer {
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(refuse_custom_request(&request.method))
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(
                Implementation::new("tether", env!("CARGO_PKG_VERSION"))
                    .with_title("tether code intelligence"),
            )
            .with_instructions(SERVER_INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(
            tool_catalogue().iter().map(|tool| tool.to_mcp_tool()).collect(),
        ))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let arguments = request.arguments.map(Value::Object);
        self.call_tool_by_name(&request.name, arguments).await.map(CallToolResponse::from)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(ListResourcesResult::with_all_items(resource_list()))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        self.read_resource_by_uri(&request.uri).await.map(ReadResourceResponse::from)
    }
}
