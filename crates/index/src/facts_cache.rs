//! The facts of every file from the previous build, so that a rebuild re-extracts only the
//! files whose size, modification time or module name changed (git's own stat check).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::SystemTime;

use tether_model::{FileFacts, FileRecord};

/// One file's facts and what they were extracted from.
#[derive(Debug)]
pub struct CachedFile {
    pub module_name: String,
    pub size: u64,
    pub modified: Option<SystemTime>,
    pub facts: FileFacts,
    pub record: FileRecord,
    pub bytes_read: u64,
    /// Changes whenever the facts are re-extracted (for the resolution cache).
    pub version: u64,
    /// What other files' calls can bind to in this file (see `tether_resolve::interface_hash`).
    pub interface_hash: u64,
}

/// Versions of extracted facts, unique in the process.
static NEXT_VERSION: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// A fresh facts version.
pub(crate) fn next_version() -> u64 {
    NEXT_VERSION.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

impl CachedFile {
    /// Whether these facts still describe a file with this module name, size and mtime.
    pub fn still_matches(
        &self,
        module_name: &str,
        size: u64,
        modified: Option<SystemTime>,
    ) -> bool {
        self.module_name == module_name
            && self.size == size
            && self.modified.is_some()
            && self.modified == modified
    }
}

/// Facts by repository-relative path, and the call sites as last resolved. Empty for a cold
/// build. A clone shares the facts (they are reference-counted): a build with editor buffers
/// runs on a clone, so the working tree's cache never holds a buffer's facts.
#[derive(Clone)]
pub struct FactsCache {
    pub(crate) files: HashMap<String, Arc<CachedFile>>,
    pub(crate) resolution: tether_resolve::ResolutionCache,
}

impl Default for FactsCache {
    /// A cache that keeps this build's results for the next one.
    fn default() -> FactsCache {
        FactsCache { files: HashMap::new(), resolution: tether_resolve::ResolutionCache::kept() }
    }
}

impl FactsCache {
    /// A cache for one build only: nothing is kept for a next build.
    pub fn throwaway() -> FactsCache {
        FactsCache { files: HashMap::new(), resolution: tether_resolve::ResolutionCache::default() }
    }
}

impl FactsCache {
    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}
