//! Git facts tether needs before anything else: where the git directory is, and what HEAD
//! points at (a branch, a detached commit, or an unborn branch with no commit yet).
//!
//! It reads `.git` files directly (HEAD, loose refs, packed-refs, `gitdir:` links of
//! worktrees and submodules), and asks the `git` command which tracked files have
//! uncommitted changes, blame (`git blame --porcelain`, which applies `.mailmap`), diffs and
//! file contents at revisions. It deliberately does not link libgit2: the `git` command is
//! fast, honours every user setting, and keeps the build small. Every invocation goes
//! through one builder (`command.rs`) that keeps user values from being read as options.

mod blame;
mod change_log;
mod command;
mod diff;
mod history;
mod status;

pub use blame::{
    aggregate_ownership, looks_like_bot, parse_porcelain, Blame, BlameLine, BlameOptions,
    IGNORE_REVS_FILE,
};
pub use change_log::parse_change_log;
pub use command::Revision;
pub use diff::{parse_unified_diff, CommitDiff, DiffScope, FileDiff, Hunk, Side};
pub use history::{CommitAuthor, EMPTY_TREE};
pub use status::{parse_status_z, StatusEntry};
pub use tether_model::{Owner, Ownership};

use std::fs;
use std::path::{Path, PathBuf};

/// A discovered repository.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Repository {
    /// The top of the working tree.
    pub work_tree: PathBuf,
    /// The git directory (`.git`, or where a `.git` file points).
    pub git_dir: PathBuf,
    /// The common directory holding refs (differs from `git_dir` in linked worktrees).
    pub common_dir: PathBuf,
}

/// What HEAD points at.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Head {
    /// `None` on an unborn branch (a repository with no commits yet).
    pub commit: Option<String>,
    /// `None` when HEAD is detached.
    pub branch: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum GitError {
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{}: unexpected content {content:?}", path.display())]
    Malformed { path: PathBuf, content: String },
    #[error("`{command}` failed: {message}")]
    Command { command: String, message: String },
    #[error("no commit {revision:?} in this repository")]
    NoSuchRevision { revision: String },
    #[error("`{command}` was stopped: the request's deadline passed")]
    Cancelled { command: String },
    #[error("{}: symbolic refs nest deeper than {MAX_SYMBOLIC_REF_DEPTH} (a loop?)", path.display())]
    SymbolicRefLoop { path: PathBuf },
}

/// How many symbolic refs (`ref: refs/heads/x`) may lead to one another; git's own limit.
pub const MAX_SYMBOLIC_REF_DEPTH: usize = 5;

/// Finds the repository containing `start` by walking up to a `.git` directory or file.
pub fn discover(start: &Path) -> Option<Repository> {
    let mut current = Some(start);
    while let Some(directory) = current {
        let dot_git = directory.join(".git");
        if dot_git.is_dir() {
            return Some(repository_at(directory, dot_git));
        }
        if dot_git.is_file() {
            let content = read_small_file(&dot_git).ok()?;
            let target = content.trim().strip_prefix("gitdir:")?.trim();
            let git_dir = if Path::new(target).is_absolute() {
                PathBuf::from(target)
            } else {
                directory.join(target)
            };
            return Some(repository_at(directory, git_dir));
        }
        current = directory.parent();
    }
    None
}

fn repository_at(work_tree: &Path, git_dir: PathBuf) -> Repository {
    let common_dir = read_small_file(&git_dir.join("commondir"))
        .ok()
        .map(|relative| git_dir.join(relative.trim()))
        .unwrap_or_else(|| git_dir.clone());
    Repository { work_tree: work_tree.to_path_buf(), git_dir, common_dir }
}

impl Repository {
    /// Reads HEAD and resolves a symbolic ref through loose refs and packed-refs.
    pub fn head(&self) -> Result<Head, GitError> {
        let head_path = self.git_dir.join("HEAD");
        let content = read_small_file(&head_path)
            .map_err(|source| GitError::Read { path: head_path.clone(), source })?;
        let content = content.trim();
        if let Some(reference) = content.strip_prefix("ref:") {
            let reference = reference.trim();
            let branch = reference.strip_prefix("refs/heads/").unwrap_or(reference).to_string();
            let commit = self.resolve_reference(reference, 0)?;
            return Ok(Head { commit, branch: Some(branch) });
        }
        if is_object_id(content) {
            return Ok(Head { commit: Some(content.to_string()), branch: None });
        }
        Err(GitError::Malformed { path: head_path, content: content.to_string() })
    }

    /// The commit a ref names, through at most [`MAX_SYMBOLIC_REF_DEPTH`] symbolic refs. Only
    /// names under `refs/` are read, so a ref cannot point at another file of `.git`, or out
    /// of it, with `..`.
    /// A stamp that changes whenever HEAD moves, even away and back (`A → B → A`): HEAD's
    /// commit and the length of HEAD's reflog, which every checkout, commit and reset appends
    /// to. Two equal stamps around a piece of work mean HEAD stayed put throughout (where the
    /// reflog is kept, as git does by default in a working tree).
    pub fn head_stamp(&self) -> (Option<String>, Option<u64>) {
        let commit = self.head().ok().and_then(|head| head.commit);
        let reflog =
            fs::metadata(self.git_dir.join("logs/HEAD")).ok().map(|metadata| metadata.len());
        (commit, reflog)
    }

    fn resolve_reference(&self, reference: &str, depth: usize) -> Result<Option<String>, GitError> {
        if depth > MAX_SYMBOLIC_REF_DEPTH {
            return Err(GitError::SymbolicRefLoop { path: self.git_dir.join(reference) });
        }
        if !reference.starts_with("refs/")
            || reference.split('/').any(|part| part.is_empty() || part == "." || part == "..")
        {
            return Err(GitError::Malformed {
                path: self.git_dir.join("HEAD"),
                content: reference.to_string(),
            });
        }
        for directory in [&self.git_dir, &self.common_dir] {
            let loose = directory.join(reference);
            if let Ok(content) = read_small_file(&loose) {
                let content = content.trim();
                if let Some(next) = content.strip_prefix("ref:") {
                    return self.resolve_reference(next.trim(), depth + 1);
                }
                if is_object_id(content) {
                    return Ok(Some(content.to_string()));
                }
            }
        }
        let packed = self.common_dir.join("packed-refs");
        match fs::read_to_string(&packed) {
            Ok(content) => Ok(content.lines().find_map(|line| {
                let (object_id, name) = line.split_once(' ')?;
                (name == reference && is_object_id(object_id)).then(|| object_id.to_string())
            })),
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(GitError::Read { path: packed, source }),
        }
    }
}

/// A ref file's text. Refs are one line; a huge or endless file (a FIFO, `/dev/zero` linked
/// in place of a ref) is read only this far.
fn read_small_file(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "not a regular file"));
    }
    let mut text = String::new();
    file.take(4096).read_to_string(&mut text)?;
    Ok(text)
}

pub(crate) fn is_object_id(text: &str) -> bool {
    (text.len() == 40 || text.len() == 64) && text.bytes().all(|byte| byte.is_ascii_hexdigit())
}

/// How an answer's graph compares with the repository now.
pub fn freshness(root: &Path, indexed_commit: Option<&str>) -> tether_model::Freshness {
    let Some(repository) = discover(root) else {
        return tether_model::Freshness {
            indexed_commit: indexed_commit.map(str::to_string),
            ..Default::default()
        };
    };
    let head = repository.head().unwrap_or_default();
    tether_model::Freshness {
        indexed_commit: indexed_commit.map(str::to_string),
        head_moved: head.commit.as_deref() != indexed_commit,
        head_commit: head.commit,
        head_branch: head.branch,
        uncommitted_files: repository.uncommitted_source_files(),
        files_not_in_graph: None,
        buffers: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";

    fn fake_repository() -> (tempfile::TempDir, Repository) {
        let directory = tempfile::tempdir().unwrap();
        fs::create_dir_all(directory.path().join(".git/refs/heads")).unwrap();
        fs::create_dir_all(directory.path().join("src/deep")).unwrap();
        let repository = discover(&directory.path().join("src/deep")).unwrap();
        (directory, repository)
    }

    #[test]
    fn unborn_loose_packed_and_detached_heads() {
        let (directory, repository) = fake_repository();
        let git = directory.path().join(".git");
        fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        assert_eq!(repository.head().unwrap(), Head { commit: None, branch: Some("main".into()) });
        fs::write(
            git.join("packed-refs"),
            format!("# pack-refs with: peeled\n{COMMIT} refs/heads/main\n"),
        )
        .unwrap();
        assert_eq!(repository.head().unwrap().commit.as_deref(), Some(COMMIT));
        let loose = COMMIT.replace('0', "f");
        fs::write(git.join("refs/heads/main"), format!("{loose}\n")).unwrap();
        assert_eq!(repository.head().unwrap().commit, Some(loose));
        fs::write(git.join("HEAD"), format!("{COMMIT}\n")).unwrap();
        assert_eq!(repository.head().unwrap(), Head { commit: Some(COMMIT.into()), branch: None });
        fs::write(git.join("HEAD"), "garbage").unwrap();
        assert!(matches!(repository.head(), Err(GitError::Malformed { .. })));
    }

    #[test]
    fn a_symbolic_ref_loop_is_an_error_not_a_stack_overflow() {
        let (directory, repository) = fake_repository();
        let git = directory.path().join(".git");
        fs::write(git.join("HEAD"), "ref: refs/heads/a\n").unwrap();
        fs::write(git.join("refs/heads/a"), "ref: refs/heads/b\n").unwrap();
        fs::write(git.join("refs/heads/b"), "ref: refs/heads/a\n").unwrap();
        assert!(
            matches!(repository.head(), Err(GitError::SymbolicRefLoop { .. })),
            "{:?}",
            repository.head()
        );
        fs::write(git.join("HEAD"), "ref: refs/heads/../../config\n").unwrap();
        assert!(matches!(repository.head(), Err(GitError::Malformed { .. })));
        // A chain git itself accepts still resolves.
        fs::write(git.join("HEAD"), "ref: refs/heads/a\n").unwrap();
        fs::write(git.join("refs/heads/b"), format!("{COMMIT}\n")).unwrap();
        assert_eq!(repository.head().unwrap().commit.as_deref(), Some(COMMIT));
    }

    #[test]
    fn a_folder_outside_git_has_no_repository() {
        let directory = tempfile::tempdir().unwrap();
        // The temp dir may sit inside some repository on a developer machine; only check
        // that discovery from a fresh folder never points inside it wrongly.
        if let Some(repository) = discover(directory.path()) {
            assert!(!repository.work_tree.starts_with(directory.path()));
        }
    }
}
