//! `tether mcp`: an MCP server over stdio whose every tool call is forwarded to the
//! repository's daemon (started when needed). It never opens the database itself, so any
//! number of agent sessions share one daemon.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use tether_model::IgnoringPoison;

use anyhow::Context;
use clap::Args;
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::Answer;
use tether_protocol::Request;

use crate::daemon_client::{connect_or_start, DaemonClient};
use crate::RepositoryArgs;

#[derive(Args)]
pub struct StdioServerArgs {
    /// The repository (default: the current folder).
    #[arg(long = "repo", short = 'C', default_value = ".", value_name = "DIR")]
    pub repo: PathBuf,
    /// The graph database (default: inside the git directory).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
}

/// `tether mcp`: the stdio server's arguments, and a subject bound to the session.
#[derive(Args)]
pub struct McpArgs {
    #[command(flatten)]
    pub server: StdioServerArgs,
    /// Bind this session to a trace subject: a `record_trace` without a subject takes it,
    /// and one naming another subject is refused.
    #[arg(long)]
    pub subject: Option<String>,
}

impl StdioServerArgs {
    pub fn repository(&self) -> RepositoryArgs {
        RepositoryArgs::of_folder(self.repo.clone(), self.db.clone())
    }
}

/// Forwards calls over one connection to the daemon, reconnecting (and restarting the daemon)
/// when the connection breaks.
struct SocketCaller {
    repository: RepositoryArgs,
    /// The session's trace subject (`--subject`), sent with every `record_trace`.
    subject: Option<String>,
    client: Mutex<Option<DaemonClient>>,
}

impl tether_mcp::DaemonCaller for SocketCaller {
    fn call(&self, request: &Request) -> Result<Answer, RpcError> {
        let bound;
        let request = match (request, &self.subject) {
            (Request::RecordTrace(params), Some(subject)) => {
                let mut params = params.clone();
                params.session_subject = Some(subject.clone());
                bound = Request::RecordTrace(params);
                &bound
            }
            _ => request,
        };
        let mut client = self.client.lock().ignoring_poison();
        for attempt in 0..2 {
            if client.is_none() {
                let paths = self.repository.daemon_paths();
                match connect_or_start(&paths, &self.repository.serve_arguments()) {
                    Ok(connected) => *client = Some(connected),
                    Err(error) => {
                        return Err(RpcError::new(
                            RpcError::INTERNAL_ERROR,
                            format!(
                                "cannot reach the tether daemon at {}: {error:#}",
                                paths.socket.display()
                            ),
                        ))
                    }
                }
            }
            let Some(connected) = client.as_mut() else { continue };
            match connected.call_when_ready(request) {
                Ok(answer) => return answer,
                Err(error) if attempt == 0 => {
                    tracing::debug!(%error, "the daemon connection broke; reconnecting");
                    *client = None;
                }
                Err(error) => {
                    return Err(RpcError::new(
                        RpcError::INTERNAL_ERROR,
                        format!("the tether daemon did not answer: {error:#}"),
                    ))
                }
            }
        }
        Err(RpcError::new(RpcError::INTERNAL_ERROR, "the tether daemon did not answer"))
    }
}

pub fn run(args: McpArgs) -> anyhow::Result<()> {
    let subject = args.subject.map(|subject| subject.trim().to_string());
    if subject.as_deref().is_some_and(str::is_empty) {
        return Err(crate::exit_codes::usage("--subject is empty"));
    }
    let caller = Arc::new(SocketCaller {
        repository: args.server.repository(),
        subject,
        client: Mutex::new(None),
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let budget_tokens = crate::configured_defaults::configuration()
        .budget_tokens
        .value
        .unwrap_or(tether_mcp::DEFAULT_BUDGET_TOKENS);
    runtime
        .block_on(tether_mcp::serve_stdio(caller, budget_tokens))
        .context("serving MCP over stdio")?;
    Ok(())
}
