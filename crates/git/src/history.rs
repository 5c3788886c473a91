//! History questions the memory graph asks: which commits touched a line range since a pin,
//! where a file went since a commit (rename detection), whether a commit exists, and
//! committing a set of paths.

use crate::{GitError, Repository};

/// The tree of a repository with no files, for diffing a root commit.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// A commit with its author (through `.mailmap`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommitAuthor {
    pub commit: String,
    pub author: String,
}

impl Repository {
    /// Commits after `since` (exclusive) up to HEAD that touched lines `start..=end` of `path`
    /// as HEAD has it, newest first.
    pub fn commits_touching_since(&self, path: &str, start: u32, end: u32, since: &str) -> Result<Vec<CommitAuthor>, GitError> {
        let range = format!("{since}..HEAD");
        let lines = format!("-L{start},{end}:{path}");
        let text = self.git_output(&["log", "--format=%H%x09%aN", "-s", &lines, &range])?;
        Ok(text
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(commit, author)| CommitAuthor { commit: commit.to_string(), author: author.to_string() })
            .collect())
    }

    /// Commits after `since` up to HEAD that touched a file.
    pub fn commits_touching_file_since(&self, path: &str, since: &str) -> Result<Vec<CommitAuthor>, GitError> {
        let range = format!("{since}..HEAD");
        let text = self.git_output(&["log", "--format=%H%x09%aN", &range, "--", path])?;
        Ok(text
            .lines()
            .filter_map(|line| line.split_once('\t'))
            .map(|(commit, author)| CommitAuthor { commit: commit.to_string(), author: author.to_string() })
            .collect())
    }

    /// The commits of `from..HEAD` oldest first (all of HEAD's history when `from` is `None`),
    /// each with the renames git detects in it: (commit, [(old path, new path)]).
    pub fn history_with_renames(&self, from: Option<&str>) -> Result<Vec<(String, Vec<(String, String)>)>, GitError> {
        let range = match from {
            Some(from) => format!("{from}..HEAD"),
            None => "HEAD".to_string(),
        };
        let order = self.git_output(&["rev-list", "--reverse", "--topo-order", &range])?;
        let mut history: Vec<(String, Vec<(String, String)>)> = order.lines().map(|commit| (commit.to_string(), Vec::new())).collect();
        let position: std::collections::HashMap<String, usize> = history.iter().enumerate().map(|(index, (commit, _))| (commit.clone(), index)).collect();
        // Only commits with renames are listed here.
        let text = self.git_output(&["-c", "core.quotePath=false", "log", "--format=%x01%H", "-M", "--name-status", "--diff-filter=R", &range])?;
        let mut current: Option<usize> = None;
        for line in text.lines() {
            if let Some(commit) = line.strip_prefix('\u{1}') {
                current = position.get(commit).copied();
            } else if line.starts_with('R') {
                let mut parts = line.split('\t');
                if let (Some(_status), Some(old), Some(new), Some(index)) = (parts.next(), parts.next(), parts.next(), current) {
                    history[index].1.push((old.to_string(), new.to_string()));
                }
            }
        }
        Ok(history)
    }

    /// Whether `ancestor` is an ancestor of (or equal to) `descendant`.
    pub fn is_ancestor(&self, ancestor: &str, descendant: &str) -> bool {
        std::process::Command::new("git")
            .arg("-C")
            .arg(&self.work_tree)
            .args(["merge-base", "--is-ancestor", ancestor, descendant])
            .status()
            .is_ok_and(|status| status.success())
    }

    /// The full id of a commit, if it exists.
    pub fn resolve_commit(&self, revision: &str) -> Option<String> {
        self.git_output(&["rev-parse", "--verify", "--quiet", &format!("{revision}^{{commit}}")]).ok().map(|text| text.trim().to_string()).filter(|id| !id.is_empty())
    }

    /// The first parent of a commit, or the empty tree for a root commit.
    pub fn parent_or_empty_tree(&self, commit: &str) -> String {
        self.resolve_commit(&format!("{commit}^")).unwrap_or_else(|| EMPTY_TREE.to_string())
    }

    /// Which of these paths differ from HEAD (staged, unstaged, or untracked).
    pub fn changed_paths(&self, paths: &[String]) -> Result<Vec<String>, GitError> {
        let mut arguments = vec!["-c", "core.quotePath=false", "status", "--porcelain=v1", "--untracked-files=all", "--"];
        arguments.extend(paths.iter().map(String::as_str));
        let text = self.git_output(&arguments)?;
        Ok(text.lines().filter(|line| line.len() > 3).map(|line| line[3..].trim_matches('"').to_string()).collect())
    }

    /// Stages exactly these paths and commits them with a message; returns the new commit id.
    pub fn commit_paths(&self, paths: &[String], message: &str) -> Result<String, GitError> {
        let mut add = vec!["add", "--"];
        add.extend(paths.iter().map(String::as_str));
        self.git_output(&add)?;
        let mut commit = vec!["commit", "-q", "-m", message, "--"];
        commit.extend(paths.iter().map(String::as_str));
        self.git_output(&commit)?;
        Ok(self.git_output(&["rev-parse", "HEAD"])?.trim().to_string())
    }
}
