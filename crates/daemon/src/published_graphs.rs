//! What a `graph_published` notification says: the new graph's commit, and the source files
//! whose content differs from the previous graph's (by content hash: added, edited, removed).
//!
//! It deliberately compares file contents only: a file whose symbols moved because another
//! file changed is not listed (its content is the same).

use std::collections::{HashMap, HashSet};

use tether_protocol::wire::GraphPublished;
use tether_query::Snapshot;

/// The announcement of `new`, replacing `previous` (every file is new when there was none).
pub(crate) fn published(previous: Option<&Snapshot>, new: &Snapshot) -> GraphPublished {
    let before: HashMap<&str, u64> = previous
        .map(|previous| {
            previous
                .graph
                .files
                .iter()
                .map(|file| (file.path.as_str(), file.content_hash))
                .collect()
        })
        .unwrap_or_default();
    let mut changed: Vec<&str> = new
        .graph
        .files
        .iter()
        .filter(|file| before.get(file.path.as_str()) != Some(&file.content_hash))
        .map(|file| file.path.as_str())
        .collect();
    let now: HashSet<&str> = new.graph.files.iter().map(|file| file.path.as_str()).collect();
    changed.extend(before.keys().copied().filter(|path| !now.contains(path)));
    changed.sort_unstable();
    GraphPublished {
        indexed_commit: new.meta.head_commit.clone(),
        changed_files_total: changed.len(),
        changed_files: changed
            .into_iter()
            .take(GraphPublished::MAX_FILES)
            .map(str::to_string)
            .collect(),
    }
}
