//! Freshness: has HEAD moved since the graph was built, and which tracked source files have
//! uncommitted changes (asked of the `git` command, so it honours every git setting).

use std::process::Command;

use crate::Repository;

/// At most this many changed files are listed.
const MAX_LISTED_FILES: usize = 50;

impl Repository {
    /// Tracked `.py` and `.rs` files that differ from HEAD (staged or not), or `None` when
    /// `git` is missing or fails.
    pub fn uncommitted_source_files(&self) -> Option<Vec<String>> {
        let output = Command::new("git")
            .arg("-C")
            .arg(&self.work_tree)
            .args(["status", "--porcelain=v1", "-z", "--untracked-files=no", "--", "*.py", "*.rs"])
            .output()
            .ok()?;
        if !output.status.success() {
            return None;
        }
        let mut files: Vec<String> = output
            .stdout
            .split(|byte| *byte == 0)
            .filter(|entry| entry.len() > 3)
            .map(|entry| String::from_utf8_lossy(&entry[3..]).into_owned())
            .collect();
        files.truncate(MAX_LISTED_FILES);
        Some(files)
    }
}
