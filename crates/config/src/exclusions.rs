//! `index.exclude`: paths left out of the graph beyond `.gitignore`, written as `.gitignore`
//! lines (`vendor/`, `*_pb2.py`, `!keep.py`) relative to the repository's root. The walk
//! prunes what they match, the daemon does not count such files as changes the graph lacks,
//! and its watcher ignores them.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// The compiled patterns (none: nothing is left out).
#[derive(Clone, Debug)]
pub struct PathExclusions {
    matcher: Option<Gitignore>,
}

impl PathExclusions {
    /// Leaves nothing out.
    pub fn none() -> PathExclusions {
        PathExclusions { matcher: None }
    }

    /// The patterns, each a `.gitignore` line; a pattern that is not one is refused, named.
    pub fn new(root: &Path, patterns: &[String]) -> Result<PathExclusions, String> {
        if patterns.is_empty() {
            return Ok(PathExclusions::none());
        }
        let mut builder = GitignoreBuilder::new(root);
        for pattern in patterns {
            builder.add_line(None, pattern).map_err(|error| {
                format!("index.exclude: {pattern:?} is not a .gitignore pattern: {error}")
            })?;
        }
        let matcher = builder
            .build()
            .map_err(|error| format!("index.exclude: the patterns do not compile: {error}"))?;
        Ok(PathExclusions { matcher: Some(matcher) })
    }

    /// Whether the repository-relative `path` (`/`-separated), or a folder holding it, is
    /// left out.
    pub fn excludes(&self, relative: &str, is_folder: bool) -> bool {
        let Some(matcher) = &self.matcher else { return false };
        if relative.is_empty() {
            return false;
        }
        matcher.matched_path_or_any_parents(relative, is_folder).is_ignore()
    }

    pub fn is_empty(&self) -> bool {
        self.matcher.is_none()
    }
}

impl Default for PathExclusions {
    fn default() -> PathExclusions {
        PathExclusions::none()
    }
}
