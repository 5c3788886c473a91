//! tether's language server: the daemon's answers in an editor, over the Language Server
//! Protocol.
//!
//! `tether lsp` runs [`serve`] over stdio with an [`EditorDaemon`] that holds one connection
//! to the repository's daemon. Each document the editor opens, edits or closes becomes that
//! connection's unsaved buffer (`buffer_update`, `buffer_close`), so every answer counts what
//! is on screen, saved or not. Served: call hierarchy (the callers and callees of the symbol
//! under the cursor), code lenses (`N call sites · blast M · K tests`, `≥` when a count is a
//! lower bound), hovers (the counts and why they are lower bounds, the memory's tip, the top
//! owner, whether the graph is behind the files) and references (call and import sites).
//! When the daemon publishes a graph the editor is asked to refresh its lenses.
//!
//! What this crate deliberately does not do:
//! - it never opens the database, the repository's git data or `.memory/`: every answer is
//!   the daemon's (it reads a file's text only to place a name's columns);
//! - it reads and writes JSON in one module only: `editor_messages` parses every message
//!   into a typed request and writes every response, so the rest handles `lsp_types` values;
//! - it does not complete, rename, format or report diagnostics: those are a language
//!   server's for the language, and tether sits beside one;
//! - it never starts or stops the daemon: the binary's [`EditorDaemon`] owns the connection.

mod call_hierarchy;
mod documents;
mod editor_answers;
mod editor_messages;
mod lens_settings;
mod lenses_and_hovers;
mod session;
mod stdio_framing;
mod symbol_at;

#[cfg(test)]
mod session_tests;
#[cfg(test)]
mod test_support;

use crossbeam_channel::Receiver;
use lsp_server::Connection;
pub use tether_protocol::rpc::RpcError;
pub use tether_protocol::wire::{Answer, GraphPublished};
pub use tether_protocol::{BufferRequest, ConnectionRequest, Request, WireRequest};

pub use documents::{path_of_uri, uri_of_path};
pub use lens_settings::LENS_KINDS;
pub use stdio_framing::{
    connection_over, read_frame, stdio_connection, FramingError, StdioThreads, MAX_HEADER_LINES,
    MAX_HEADER_LINE_BYTES, MAX_MESSAGE_BYTES,
};

/// Asks the daemon one typed request on the bridge's own connection, where its buffers live.
pub trait EditorDaemon: Send {
    /// `Err` carries the daemon's JSON-RPC error; failing to reach the daemon is reported as
    /// one too (`INTERNAL_ERROR` with a message naming the socket).
    fn call(&mut self, request: &WireRequest) -> Result<Answer, RpcError>;
    /// How many connections were made so far. A new connection holds none of the buffers,
    /// so the bridge sends them again when this changes.
    fn connection_generation(&self) -> u64;
}

/// Why the session ended with an error.
#[derive(Debug, thiserror::Error)]
pub enum LspError {
    /// The editor's side of the connection closed while a message was being sent.
    #[error("the editor closed the connection")]
    EditorGone,
    /// `exit` came without a `shutdown` first (the protocol's exit code is then 1).
    #[error("the editor sent exit without shutdown")]
    ExitWithoutShutdown,
}

/// Serves one editor session until `exit` (or until the editor closes the connection).
/// `published` carries the daemon's `graph_published` notifications (from a subscribed
/// connection of its own).
pub fn serve(
    connection: &Connection,
    daemon: &mut dyn EditorDaemon,
    published: &Receiver<GraphPublished>,
) -> Result<(), LspError> {
    serve_configured(connection, daemon, published, &[])
}

/// As [`serve`], with lens kinds set on or off by the configuration files (`lsp.lenses`);
/// the editor's `initializationOptions.lenses` win over them, kind by kind.
pub fn serve_configured(
    connection: &Connection,
    daemon: &mut dyn EditorDaemon,
    published: &Receiver<GraphPublished>,
    configured_lenses: &[(String, bool)],
) -> Result<(), LspError> {
    let mut session = session::Session::new(connection, daemon);
    session.configured_lenses = configured_lenses.to_vec();
    let mut published = published.clone();
    loop {
        crossbeam_channel::select! {
            recv(connection.receiver) -> message => {
                let Ok(message) = message else { return Ok(()) };
                if session.handle(message)? == session::Flow::Exit {
                    return Ok(());
                }
            }
            recv(published) -> event => match event {
                Ok(event) => session.graph_published(&event)?,
                Err(_) => published = crossbeam_channel::never(),
            },
        }
    }
}
