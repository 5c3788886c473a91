//! History questions the memory graph asks: which commits touched a line range since a pin,
//! where a file went since a commit (rename detection), whether a commit exists, and
//! committing a set of paths. Revisions are [`Revision`]s (checked object ids or `HEAD`);
//! paths are literal.

use tether_model::Deadline;

use crate::command::Revision;
use crate::{GitError, Repository};

/// A commit and the renames git detects in it: (commit, [(old path, new path)]).
pub type CommitRenames = (String, Vec<(String, String)>);

/// The tree of a repository with no files, for diffing a root commit.
pub const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/// A commit with its author (through `.mailmap`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommitAuthor {
    pub commit: String,
    pub author: String,
}

fn commit_authors(text: &str) -> Vec<CommitAuthor> {
    text.lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(commit, author)| CommitAuthor {
            commit: commit.to_string(),
            author: author.to_string(),
        })
        .collect()
}

impl Repository {
    /// Commits after `since` (exclusive) up to HEAD that touched lines `start..=end` of `path`
    /// as HEAD has it, newest first.
    pub fn commits_touching_since(
        &self,
        path: &str,
        start: u32,
        end: u32,
        since: &Revision,
        deadline: Deadline,
    ) -> Result<Vec<CommitAuthor>, GitError> {
        let range = Revision::range(since, &Revision::head());
        let text = self
            .git()
            .args(&["log", "--format=%H%x09%aN", "-s"])
            .option_with_value(format!("-L{start},{end}:{path}"))
            .revisions(&[&range])
            .until(deadline)
            .output()?;
        Ok(commit_authors(&text))
    }

    /// Commits after `since` up to HEAD that touched a file.
    pub fn commits_touching_file_since(
        &self,
        path: &str,
        since: &Revision,
        deadline: Deadline,
    ) -> Result<Vec<CommitAuthor>, GitError> {
        let range = Revision::range(since, &Revision::head());
        let text = self
            .git()
            .args(&["log", "--format=%H%x09%aN"])
            .revisions(&[&range])
            .literal_paths(&[path])
            .until(deadline)
            .output()?;
        Ok(commit_authors(&text))
    }

    /// The commits of `from..HEAD` oldest first (all of HEAD's history when `from` is `None`),
    /// each with the renames git detects in it: (commit, [(old path, new path)]).
    pub fn history_with_renames(
        &self,
        from: Option<&Revision>,
        deadline: Deadline,
    ) -> Result<Vec<CommitRenames>, GitError> {
        let range = match from {
            Some(from) => Revision::range(from, &Revision::head()),
            None => Revision::head(),
        };
        let order = self
            .git()
            .args(&["rev-list", "--reverse", "--topo-order"])
            .revisions(&[&range])
            .until(deadline)
            .output()?;
        let mut history: Vec<(String, Vec<(String, String)>)> =
            order.lines().map(|commit| (commit.to_string(), Vec::new())).collect();
        let position: std::collections::HashMap<String, usize> = history
            .iter()
            .enumerate()
            .map(|(index, (commit, _))| (commit.clone(), index))
            .collect();
        // Only commits with renames are listed here; `-z` keeps every path exact.
        let text = self
            .git()
            .args(&["log", "--format=%x01%H", "-M", "--name-status", "-z", "--diff-filter=R"])
            .revisions(&[&range])
            .until(deadline)
            .output_bytes()?;
        let mut current: Option<usize> = None;
        let mut fields =
            text.split(|byte| *byte == 0).map(|field| String::from_utf8_lossy(field).into_owned());
        while let Some(field) = fields.next() {
            let field = field.trim_start_matches('\n');
            if let Some(commit) = field.strip_prefix('\u{1}') {
                current = position.get(commit.trim()).copied();
            } else if field.starts_with('R') {
                if let (Some(old), Some(new), Some(index)) = (fields.next(), fields.next(), current)
                {
                    history[index].1.push((old, new));
                }
            }
        }
        Ok(history)
    }

    /// Whether `ancestor` is an ancestor of (or equal to) `descendant`.
    pub fn is_ancestor(&self, ancestor: &Revision, descendant: &Revision) -> bool {
        self.git()
            .args(&["merge-base", "--is-ancestor"])
            .revisions(&[ancestor, descendant])
            .succeeds()
    }

    /// The full id of a commit, if it exists (user text is checked, never read as an option).
    pub fn resolve_commit(&self, revision: &str) -> Option<String> {
        self.resolve_revision(revision).ok().map(|revision| revision.as_str().to_string())
    }

    /// The first parent of a commit, or the empty tree for a root commit.
    pub fn parent_or_empty_tree(&self, commit: &Revision) -> Revision {
        self.resolve_revision(&format!("{commit}^")).unwrap_or_else(|_| Revision::empty_tree())
    }

    /// A commit's full message.
    pub fn commit_message(&self, commit: &Revision) -> Result<String, GitError> {
        self.git().args(&["log", "-1", "--format=%B"]).revisions(&[commit]).output()
    }

    /// Puts these paths' index entries back to HEAD's (or removes them on an unborn branch);
    /// the working tree keeps its changes.
    pub fn unstage_paths(&self, paths: &[String]) -> Result<(), GitError> {
        if self.resolve_commit("HEAD").is_some() {
            self.git().args(&["reset", "-q"]).literal_paths(paths).output()?;
        } else {
            self.git()
                .args(&["rm", "-q", "--cached", "--ignore-unmatch"])
                .literal_paths(paths)
                .output()?;
        }
        Ok(())
    }

    /// Whether HEAD's tree holds this path.
    pub fn is_tracked(&self, path: &str) -> bool {
        self.git()
            .args(&["cat-file", "-e"])
            .revisions(&[&Revision::path_in(&Revision::head(), path)])
            .succeeds()
    }

    /// Whether HEAD's tree holds each of these paths (one `git cat-file --batch-check`);
    /// a path with a line break is never there.
    pub fn paths_at_head(&self, paths: &[String]) -> Result<Vec<bool>, GitError> {
        if paths.is_empty() {
            return Ok(Vec::new());
        }
        let request: String =
            paths.iter().map(|path| format!("HEAD:{}\n", path.replace('\n', " "))).collect();
        let output =
            self.git().args(&["cat-file", "--batch-check"]).input(request.into_bytes()).output()?;
        let mut answers: Vec<bool> = output
            .lines()
            .map(|line| !line.ends_with(" missing") && !line.ends_with(" ambiguous"))
            .collect();
        answers.resize(paths.len(), false);
        Ok(paths
            .iter()
            .zip(answers)
            .map(|(path, there)| there && !path.contains(['\n', '\r']))
            .collect())
    }

    /// Stages exactly these paths (literal, never globs) and commits only them with a
    /// message; returns the new commit. Whatever else the user had staged stays staged and
    /// out of the commit.
    pub fn commit_paths(&self, paths: &[String], message: &str) -> Result<Revision, GitError> {
        self.git().args(&["add"]).literal_paths(paths).output()?;
        self.git()
            .args(&["commit", "-q", "-F", "-"])
            .input(message.as_bytes().to_vec())
            .literal_paths(paths)
            .output()?;
        self.resolve_revision("HEAD")
    }
}
