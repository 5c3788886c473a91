//! tether's product features over a published graph, git and the memory: `ownership` and
//! `changes` (`git_queries`, `changes`), `context` and `search_memory` (`memory_context`, with
//! the pins mapped onto symbols: `pin_tethers`), and `record` (`memory_record`: validate,
//! then journal and commit: `record_journal`), and the change history `health`'s churn reads
//! (`churn_history`, cached in `churn_history_file`). Each is a function of a [`FeatureContext`]
//! (the repository's paths, the caches, how fresh the graph is) returning a typed answer
//! (`protocol::wire`) or a [`FeatureError`].
//!
//! It deliberately knows nothing of the daemon: no socket, no lock on the database, no
//! JSON-RPC codes (the daemon maps [`FeatureError`] to them), and it never builds the graph.

mod changes;
mod churn_history;
mod churn_history_file;
mod context;
mod git_queries;
mod memory_context;
mod memory_record;
mod packaging_entry_points;
mod pin_tethers;
mod record_journal;
mod repository_paths;
mod research_tree_answers;
mod trace_journal;
mod trace_recall_answer;
mod trace_record;
mod trace_store;
mod trace_tethers;

use std::path::Path;
use std::sync::Mutex;

use tether_model::{Cancelled, Freshness};
use tether_query::{AddressError, Snapshot};

pub use churn_history::{read_history, ChurnHistoryCache, HistoryRead};
pub use context::{context, ContextSubject};
pub use git_queries::{changes, ownership, GitQueryCaches, OwnershipSubject};
pub use memory_context::{memory_graph, search_memory, MemoryCache};
pub use memory_record::{record, recover_interrupted_record};
pub use packaging_entry_points::{
    declared_entry_points, DeclaredEntryPoints, MAX_PACKAGING_FILE_BYTES,
};
pub use record_journal::write_atomically;
pub use repository_paths::{repository_file, repository_path};
pub use research_tree_answers::{
    brief_answer, open_phases_answer, research_tree_answer, BriefCache,
};
pub use trace_recall_answer::recall_traces;
pub use trace_record::record_trace;
pub use trace_store::{LoadedTraces, TraceCache, MAX_TRACE_FILE_BYTES};

/// Why a feature could not answer.
#[derive(Clone, Debug)]
pub enum FeatureError {
    /// The request cannot be carried out as asked (a bad path, an unknown revision or type,
    /// an invalid entry): nothing was changed.
    Refused(String),
    /// A symbol address that matches no symbol, or several.
    Address(AddressError),
    /// The request's deadline passed; its work stopped.
    Cancelled,
    /// Something failed that the request could not have avoided (git, the file system).
    Internal(String),
}

impl FeatureError {
    pub fn refused(message: impl Into<String>) -> FeatureError {
        FeatureError::Refused(message.into())
    }

    pub fn internal(message: impl Into<String>) -> FeatureError {
        FeatureError::Internal(message.into())
    }
}

impl std::fmt::Display for FeatureError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FeatureError::Refused(message) | FeatureError::Internal(message) => {
                formatter.write_str(message)
            }
            FeatureError::Address(AddressError::NotFound { address, .. }) => {
                write!(formatter, "no symbol matches {address:?}")
            }
            FeatureError::Address(AddressError::Ambiguous { address, candidates }) => {
                write!(formatter, "{address:?} matches {} symbols", candidates.len())
            }
            FeatureError::Cancelled => formatter.write_str("the request ran past its deadline"),
        }
    }
}

pub(crate) fn cancelled(_: Cancelled) -> FeatureError {
    FeatureError::Cancelled
}

/// What the features keep between requests.
#[derive(Default)]
pub struct FeatureCaches {
    pub git: GitQueryCaches,
    pub memory: Mutex<MemoryCache>,
    /// The change history churn reads (shared with its background reader).
    pub churn: std::sync::Arc<ChurnHistoryCache>,
    /// The traces, read from `.memory/traces/`.
    pub traces: TraceCache,
    /// Briefs, by entry and subtree signature.
    pub briefs: BriefCache,
}

/// What the owner of the published graph (the daemon) answers about it.
pub trait GraphState: Sync {
    /// How the graph relates to the repository now (HEAD, uncommitted files).
    fn freshness(&self, snapshot: &Snapshot) -> Freshness;
    /// The source files on disk whose content is not what the graph was built from.
    fn dirty_files(&self, snapshot: &Snapshot) -> Vec<String>;
    /// One line (1-based) of an indexed file as this graph reads it (an editor's unsaved
    /// buffer, else the file on disk), for addresses with a column.
    fn source_line(&self, path: &str, line: u32) -> Option<String>;
}

/// The largest file a `path:line:column` address reads a line of.
pub const MAX_ADDRESSED_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One line (1-based) of a repository-relative file on disk, when it is a regular file of at
/// most [`MAX_ADDRESSED_FILE_BYTES`] under `root`.
pub fn line_on_disk(root: &Path, path: &str, line: u32) -> Option<String> {
    let full = root.join(path);
    let metadata = std::fs::symlink_metadata(&full).ok()?;
    if !metadata.is_file() || metadata.len() > MAX_ADDRESSED_FILE_BYTES {
        return None;
    }
    let text = std::fs::read(&full).ok()?;
    line_of(&String::from_utf8_lossy(&text), line)
}

/// One line (1-based) of a text.
pub fn line_of(text: &str, line: u32) -> Option<String> {
    text.lines().nth(usize::try_from(line.checked_sub(1)?).ok()?).map(str::to_string)
}

/// Everything a feature needs besides its request: where the repository and the daemon's
/// private folder are, the caches, and the graph's state.
pub struct FeatureContext<'a> {
    pub root: &'a Path,
    /// The daemon's folder: the record journal and lock, the persisted pins.
    pub folder: &'a Path,
    pub caches: &'a FeatureCaches,
    pub graph_state: &'a dyn GraphState,
}

impl FeatureContext<'_> {
    pub fn freshness(&self, snapshot: &Snapshot) -> Freshness {
        self.graph_state.freshness(snapshot)
    }

    pub fn dirty_files(&self, snapshot: &Snapshot) -> Vec<String> {
        self.graph_state.dirty_files(snapshot)
    }
}
