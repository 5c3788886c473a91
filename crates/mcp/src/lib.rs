//! tether's MCP server: the daemon's queries as Model Context Protocol tools, over stdio.
//!
//! `tether mcp` runs [`serve_stdio`] with a [`DaemonCaller`] that asks the repository's
//! daemon one typed request. Every MCP tool is one daemon method: its arguments are checked
//! against the tool's input schema and parsed into the method's `Request` (minus the two
//! presentation arguments `format` and `budget_tokens`), and the daemon's typed answer is
//! rendered for a model's context window: compact text by default, JSON on request, cut to
//! `budget_tokens` with a cursor for the rest. Completeness and freshness are always kept.
//! JSON is read only where rmcp hands it over (tool arguments, checked in
//! `tool_arguments`); answers and their schemas are written by `protocol`.
//!
//! What this crate deliberately does not do:
//! - it never opens the database, the repository or `.memory/`: it only forwards to the
//!   daemon, so an answer here is always the daemon's answer;
//! - it never retries, guesses among ambiguous symbols, or re-calls the daemon to fit a
//!   budget: an oversized page is cut and the cut is said, with the cursor to continue;
//! - it never starts or stops the daemon: the caller the binary supplies owns the connection.

mod budget;
mod errors;
mod output_schemas;
mod page_contexts;
mod render;
mod render_health;
mod render_lines;
mod resources;
mod server;
mod tool_arguments;
mod tools;

#[cfg(test)]
mod render_tests;
#[cfg(test)]
mod server_tests;
#[cfg(test)]
mod test_support;

use std::sync::Arc;

pub use crate::tool_arguments::{ParameterKind, ParameterSpecification};
use rmcp::ServiceExt;
pub use tether_protocol::rpc::RpcError;
pub use tether_protocol::wire::Answer;
pub use tether_protocol::Request;

pub use errors::daemon_error_message;
pub use render::{render_answer, OutputFormat, RenderRequest};
pub use resources::{
    CENSUS_RESOURCE_URI, FRESHNESS_RESOURCE_URI, GRAPH_SCHEMA_MARKDOWN, SCHEMA_RESOURCE_URI,
};
pub use server::{TetherMcpServer, SERVER_INSTRUCTIONS};
pub use tools::{
    tool_catalogue, ToolSpecification, DEFAULT_BUDGET_TOKENS, MAXIMUM_BUDGET_TOKENS,
    MINIMUM_BUDGET_TOKENS,
};

/// Asks the daemon one typed request; `Err` carries the daemon's JSON-RPC error.
///
/// The call is blocking: the server runs it inside `tokio::task::spawn_blocking`, so an
/// implementation may hold a synchronous socket. Failing to reach the daemon should be
/// reported as an `RpcError` too (say `INTERNAL_ERROR` with a message naming the socket).
pub trait DaemonCaller: Send + Sync + 'static {
    fn call(&self, request: &Request) -> Result<Answer, RpcError>;
}

/// Why the MCP server stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The client never completed the MCP `initialize` handshake.
    #[error("the MCP client did not initialize the session: {0}")]
    Initialization(String),
    /// The task running the session panicked or was cancelled.
    #[error("the MCP session ended abnormally: {0}")]
    SessionTask(String),
}

/// Serves MCP over stdin/stdout until the client disconnects; a call without
/// `budget_tokens` gets `default_budget_tokens`.
pub async fn serve_stdio(
    caller: Arc<dyn DaemonCaller>,
    default_budget_tokens: u64,
) -> Result<(), McpError> {
    let server = TetherMcpServer::new(caller).with_default_budget_tokens(default_budget_tokens);
    serve_server(server, rmcp::transport::stdio()).await
}

/// Serves MCP over any byte stream pair (stdio, a duplex pipe in tests) until it closes.
pub async fn serve_transport<Reader, Writer>(
    caller: Arc<dyn DaemonCaller>,
    transport: (Reader, Writer),
) -> Result<(), McpError>
where
    Reader: tokio::io::AsyncRead + Send + Unpin + 'static,
    Writer: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    serve_server(TetherMcpServer::new(caller), transport).await
}

async fn serve_server<Reader, Writer>(
    server: TetherMcpServer,
    transport: (Reader, Writer),
) -> Result<(), McpError>
where
    Reader: tokio::io::AsyncRead + Send + Unpin + 'static,
    Writer: tokio::io::AsyncWrite + Send + Unpin + 'static,
{
    let running = server
        .serve(transport)
        .await
        .map_err(|error| McpError::Initialization(error.to_string()))?;
    running.waiting().await.map_err(|error| McpError::SessionTask(error.to_string()))?;
    Ok(())
}
