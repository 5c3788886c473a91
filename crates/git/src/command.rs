//! Every `git` invocation goes through [`GitCommand`], which keeps user values from being read
//! as options: revisions are object ids resolved first (`rev-parse --verify --end-of-options`,
//! see [`Revision`]) and come after `--end-of-options`; paths come after `--` as literal
//! pathspecs (`:(literal)…`, never globs). Every command runs in the work tree with optional
//! locks off (a read never takes `.git/index.lock` from the user), paths unquoted, no
//! terminal prompt, stdin closed, its output bounded, and stops at a deadline.

use std::ffi::OsString;
use std::io::Read;
use std::process::{Command, Stdio};

use tether_model::Deadline;

use crate::{GitError, Repository};

/// Output beyond this many bytes is an error rather than memory.
const MAX_OUTPUT_BYTES: u64 = 512 * 1024 * 1024;

/// A revision tether may pass to git: `HEAD`, the empty tree, or a full object id that
/// [`Repository::resolve_revision`] checked exists. None of them can start with `-`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Revision(String);

impl Revision {
    pub fn head() -> Revision {
        Revision("HEAD".to_string())
    }

    /// The tree of a repository with no files, for diffing a root commit.
    pub fn empty_tree() -> Revision {
        Revision(crate::EMPTY_TREE.to_string())
    }

    /// A full hexadecimal object id as git printed it (40 or 64 digits); `None` otherwise.
    pub fn from_object_id(id: &str) -> Option<Revision> {
        crate::is_object_id(id).then(|| Revision(id.to_ascii_lowercase()))
    }

    /// `from..to`: the commits reachable from `to` but not from `from`.
    pub fn range(from: &Revision, to: &Revision) -> Revision {
        Revision(format!("{from}..{to}"))
    }

    /// `base...to`: changes on `to` since its merge base with `base`.
    pub fn since_merge_base(base: &Revision, to: &Revision) -> Revision {
        Revision(format!("{base}...{to}"))
    }

    /// `revision:path`: a file as that revision has it (an object name, not a pathspec).
    pub(crate) fn path_in(revision: &Revision, path: &str) -> Revision {
        Revision(format!("{revision}:{path}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for Revision {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(&self.0)
    }
}

/// A `git` command being put together. Fixed words (subcommand, options tether writes) go
/// through [`GitCommand::args`]; user values only through [`GitCommand::revisions`] and
/// [`GitCommand::literal_paths`] / [`GitCommand::path_arguments`].
pub(crate) struct GitCommand {
    command: Command,
    shown: Vec<String>,
    deadline: Deadline,
    stdin: Option<Vec<u8>>,
}

impl Repository {
    /// `git -C <work tree>` with the settings every invocation shares.
    pub(crate) fn git(&self) -> GitCommand {
        let mut command = Command::new("git");
        command
            .arg("--no-optional-locks")
            .arg("-C")
            .arg(&self.work_tree)
            .args(["-c", "core.quotePath=false"])
            .env("GIT_OPTIONAL_LOCKS", "0")
            .env("GIT_TERMINAL_PROMPT", "0")
            .env_remove("GIT_EXTERNAL_DIFF")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        GitCommand {
            command,
            shown: vec!["git".to_string()],
            deadline: Deadline::none(),
            stdin: None,
        }
    }
}

impl GitCommand {
    /// Words tether itself writes (never a user value).
    pub(crate) fn args(&mut self, words: &[&str]) -> &mut GitCommand {
        for word in words {
            self.command.arg(word);
            self.shown.push((*word).to_string());
        }
        self
    }

    /// `--end-of-options` and then the revisions.
    pub(crate) fn revisions(&mut self, revisions: &[&Revision]) -> &mut GitCommand {
        self.args(&["--end-of-options"]);
        for revision in revisions {
            self.command.arg(revision.as_str());
            self.shown.push(revision.as_str().to_string());
        }
        self
    }

    /// `--` and then each path as a literal pathspec: `*`, `?` and `[` are not globs, and a
    /// leading `:` is not magic.
    pub(crate) fn literal_paths<S: AsRef<str>>(&mut self, paths: &[S]) -> &mut GitCommand {
        self.args(&["--"]);
        for path in paths {
            let spec: OsString = format!(":(literal){}", path.as_ref()).into();
            self.command.arg(&spec);
            self.shown.push(path.as_ref().to_string());
        }
        self
    }

    /// `--` and then plain path arguments, for commands that take paths, not pathspecs
    /// (`blame`).
    pub(crate) fn path_arguments<S: AsRef<str>>(&mut self, paths: &[S]) -> &mut GitCommand {
        self.args(&["--"]);
        for path in paths {
            self.command.arg(path.as_ref());
            self.shown.push(path.as_ref().to_string());
        }
        self
    }

    /// A value glued to an option tether writes (`-L12,30:src/a.py`): git reads it as that
    /// option's argument, so it cannot become an option itself.
    pub(crate) fn option_with_value(&mut self, option_and_value: String) -> &mut GitCommand {
        self.command.arg(&option_and_value);
        self.shown.push(option_and_value);
        self
    }

    /// Stops the command (killing git) once the deadline passes.
    pub(crate) fn until(&mut self, deadline: Deadline) -> &mut GitCommand {
        self.deadline = deadline;
        self
    }

    /// Writes these bytes to git's standard input.
    pub(crate) fn input(&mut self, bytes: Vec<u8>) -> &mut GitCommand {
        self.command.stdin(Stdio::piped());
        self.stdin = Some(bytes);
        self
    }

    fn shown(&self) -> String {
        self.shown.join(" ")
    }

    /// Runs the command; its standard output, or an error with its standard error.
    pub(crate) fn output_bytes(&mut self) -> Result<Vec<u8>, GitError> {
        let shown = self.shown();
        let mut child =
            self.command.spawn().map_err(|source| GitError::Read { path: "git".into(), source })?;
        let stdin = child.stdin.take().zip(self.stdin.take());
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        let (sender, receiver) = std::sync::mpsc::channel();
        // Readers (and the writer) run on their own threads so that a full pipe never blocks
        // git, and so that the deadline can be waited for here.
        std::thread::scope(|scope| {
            if let Some((mut pipe, bytes)) = stdin {
                scope.spawn(move || {
                    let _ = std::io::Write::write_all(&mut pipe, &bytes);
                });
            }
            let errors = scope.spawn(move || {
                let mut text = Vec::new();
                let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut text);
                text
            });
            scope.spawn(move || {
                let mut bytes = Vec::new();
                let read = (&mut stdout).take(MAX_OUTPUT_BYTES + 1).read_to_end(&mut bytes);
                let _ = sender.send(read.map(|_| bytes));
            });
            let read = match self.deadline.remaining() {
                None => receiver.recv().ok(),
                Some(remaining) => receiver.recv_timeout(remaining).ok(),
            };
            let Some(read) = read else {
                let _ = child.kill();
                let _ = child.wait();
                return Err(GitError::Cancelled { command: shown.clone() });
            };
            let status =
                child.wait().map_err(|source| GitError::Read { path: "git".into(), source })?;
            let bytes = read.map_err(|source| GitError::Read { path: "git".into(), source })?;
            let errors = errors.join().unwrap_or_default();
            if bytes.len() as u64 > MAX_OUTPUT_BYTES {
                return Err(GitError::Command {
                    command: shown.clone(),
                    message: format!("its output exceeded {} MiB", MAX_OUTPUT_BYTES >> 20),
                });
            }
            if !status.success() {
                return Err(GitError::Command {
                    command: shown.clone(),
                    message: String::from_utf8_lossy(&errors).trim().to_string(),
                });
            }
            Ok(bytes)
        })
    }

    /// [`GitCommand::output_bytes`] as text (invalid UTF-8 replaced).
    pub(crate) fn output(&mut self) -> Result<String, GitError> {
        self.output_bytes().map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Whether the command exits 0 (its output is ignored).
    pub(crate) fn succeeds(&mut self) -> bool {
        self.output_bytes().is_ok()
    }
}

impl Repository {
    /// The commit a user-given revision (a branch, a tag, `HEAD~2`, a short or full id) names,
    /// checked by `git rev-parse --verify --end-of-options`, so that `--output=…` or any other
    /// text starting with `-` is refused as a revision instead of read as an option.
    pub fn resolve_revision(&self, revision: &str) -> Result<Revision, GitError> {
        let invalid = || GitError::NoSuchRevision { revision: revision.to_string() };
        if revision.is_empty() || revision.starts_with('-') || revision.contains(['\0', '\n']) {
            return Err(invalid());
        }
        let text = self
            .git()
            .args(&["rev-parse", "--verify", "--quiet"])
            .revisions(&[&Revision(format!("{revision}^{{commit}}"))])
            .output()
            .map_err(|_| invalid())?;
        Revision::from_object_id(text.trim()).ok_or_else(invalid)
    }
}
