//! `tether lsp`: a language server over stdio whose every answer is the repository's daemon's
//! (started when needed), asked on one connection that holds the editor's unsaved buffers; a
//! second, subscribed connection tells it when a new graph is published.

use std::time::Duration;

use anyhow::Context;
use crossbeam_channel::Sender;
use tether_protocol::rpc::RpcError;
use tether_protocol::wire::{Answer, GraphPublished};
use tether_protocol::{ConnectionRequest, WireRequest};

use crate::daemon_client::{connect_or_start, DaemonClient};
use crate::mcp_command::StdioServerArgs;
use crate::RepositoryArgs;

/// How long the notification thread waits before it connects again after losing the daemon.
const RESUBSCRIBE_PAUSE: Duration = Duration::from_secs(1);
/// How long a request waits for a daemon's first graph before the editor is told to retry.
const FIRST_GRAPH_WAIT: Duration = Duration::from_secs(30);

/// The bridge's connection: made (and the daemon started) on first use, made anew once when
/// it breaks, counted so the bridge knows to send its buffers again.
struct EditorSocket {
    repository: RepositoryArgs,
    client: Option<DaemonClient>,
    connections: u64,
}

impl EditorSocket {
    fn connect(&mut self) -> Result<&mut DaemonClient, RpcError> {
        if self.client.is_none() {
            let paths = self.repository.daemon_paths();
            let client =
                connect_or_start(&paths, &self.repository.serve_arguments()).map_err(|error| {
                    RpcError::new(
                        RpcError::INTERNAL_ERROR,
                        format!(
                            "cannot reach the tether daemon at {}: {error:#}",
                            paths.socket.display()
                        ),
                    )
                })?;
            self.client = Some(client);
            self.connections += 1;
        }
        self.client
            .as_mut()
            .ok_or_else(|| RpcError::new(RpcError::INTERNAL_ERROR, "no daemon connection"))
    }

    /// One request; a broken connection is made anew once.
    fn call_once(&mut self, request: &WireRequest) -> Result<Answer, RpcError> {
        for attempt in 0..2 {
            match self.connect()?.call(request) {
                Ok(answer) => return answer,
                Err(error) if attempt == 0 => {
                    tracing::debug!(%error, "the daemon connection broke; connecting again");
                    self.client = None;
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

impl tether_lsp::EditorDaemon for EditorSocket {
    fn call(&mut self, request: &WireRequest) -> Result<Answer, RpcError> {
        let started = std::time::Instant::now();
        loop {
            match self.call_once(request) {
                Err(error)
                    if error.code == RpcError::NOT_READY
                        && started.elapsed() < FIRST_GRAPH_WAIT =>
                {
                    std::thread::sleep(Duration::from_millis(100));
                }
                answer => return answer,
            }
        }
    }

    fn connection_generation(&self) -> u64 {
        self.connections
    }
}

/// Forwards every `graph_published` of a subscribed connection, subscribing again when the
/// daemon goes away; ends when the session no longer listens.
fn forward_published_graphs(repository: RepositoryArgs, published: Sender<GraphPublished>) {
    loop {
        let paths = repository.daemon_paths();
        if let Ok(mut client) = connect_or_start(&paths, &repository.serve_arguments()) {
            if let Ok(Ok(_)) = client.call(&ConnectionRequest::Subscribe.into()) {
                while let Ok(Some(graph)) = client.next_graph_published() {
                    if published.send(graph).is_err() {
                        return;
                    }
                }
            }
        }
        std::thread::sleep(RESUBSCRIBE_PAUSE);
    }
}

pub fn run(args: StdioServerArgs) -> anyhow::Result<()> {
    // The editor shows a language server's stderr in its log: warnings only.
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(tracing::Level::WARN)
        .try_init();
    let repository = args.repository();
    let (published, published_receiver) = crossbeam_channel::unbounded();
    let subscriber_repository = repository.clone();
    std::thread::spawn(move || forward_published_graphs(subscriber_repository, published));
    let mut socket = EditorSocket { repository, client: None, connections: 0 };
    // Read with bounds (tether_lsp::stdio_framing), not lsp-server's reader, which trusts
    // Content-Length.
    let (connection, io_threads) = tether_lsp::stdio_connection();
    let served = tether_lsp::serve_configured(
        &connection,
        &mut socket,
        &published_receiver,
        &crate::configured_defaults::configuration().lenses.value,
    );
    drop(connection);
    served.context("serving the language server protocol over stdio")?;
    io_threads.join().context("closing stdio")?;
    Ok(())
}
