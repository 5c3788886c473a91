//! Diffs through `git diff -U0 -M` (renames paired by git), parsed into hunks per file, and
//! file contents at either side (`git cat-file --batch` for blobs, the disk for the working
//! tree). Paths in diff headers are read exactly: C-quoted ones (`"a/q\"uote.py"`) are
//! unquoted, and the tab git appends to a path with a space is dropped.

use tether_model::Deadline;

use crate::command::Revision;
use crate::{GitError, Repository};

/// Which changes to diff.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DiffScope {
    /// Working tree against the index.
    Unstaged,
    /// Index against HEAD.
    Staged,
    /// Working tree against HEAD (staged and unstaged).
    All,
    /// HEAD against the merge base with this revision (`--base main`, resolved first).
    Base(Revision),
    /// From one revision to another (`A..B`, each end resolved first).
    Range(Revision, Revision),
}

/// Where one side of a diff lives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Side {
    WorkingTree,
    Index,
    Revision(Revision),
}

pub use tether_model::Hunk;

/// One changed file; `None` paths are the missing side of an added or deleted file.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct FileDiff {
    pub old_path: Option<String>,
    pub new_path: Option<String>,
    pub is_rename: bool,
    pub hunks: Vec<Hunk>,
}

impl Repository {
    /// The sides a scope compares, old first.
    pub fn diff_sides(&self, scope: &DiffScope) -> Result<(Side, Side), GitError> {
        Ok(match scope {
            DiffScope::Unstaged => (Side::Index, Side::WorkingTree),
            DiffScope::Staged => (Side::Revision(Revision::head()), Side::Index),
            DiffScope::All => (Side::Revision(Revision::head()), Side::WorkingTree),
            DiffScope::Base(base) => {
                let merge_base = self
                    .git()
                    .args(&["merge-base"])
                    .revisions(&[base, &Revision::head()])
                    .output()?;
                let merge_base = Revision::from_object_id(merge_base.trim()).ok_or_else(|| {
                    GitError::NoSuchRevision {
                        revision: format!("the merge base of {base} and HEAD"),
                    }
                })?;
                (Side::Revision(merge_base), Side::Revision(Revision::head()))
            }
            DiffScope::Range(from, to) => {
                (Side::Revision(from.clone()), Side::Revision(to.clone()))
            }
        })
    }

    /// The changed `.py` and `.rs` files and hunks of a scope. Whitespace-only and
    /// line-ending-only changes are ignored unless `include_whitespace`.
    pub fn diff(
        &self,
        scope: &DiffScope,
        include_whitespace: bool,
        deadline: Deadline,
    ) -> Result<Vec<FileDiff>, GitError> {
        let mut command = self.git();
        command.args(&["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-U0", "-M"]);
        if !include_whitespace {
            command.args(&["-w", "--ignore-cr-at-eol", "--ignore-blank-lines"]);
        }
        match scope {
            DiffScope::Unstaged => {}
            DiffScope::Staged => {
                command.args(&["--cached"]);
            }
            DiffScope::All => {
                command.revisions(&[&Revision::head()]);
            }
            DiffScope::Base(base) => {
                command.revisions(&[&Revision::since_merge_base(base, &Revision::head())]);
            }
            DiffScope::Range(from, to) => {
                command.revisions(&[from, to]);
            }
        }
        let text = command.args(&["--", "*.py", "*.rs"]).until(deadline).output()?;
        Ok(parse_unified_diff(&text))
    }

    /// Every path (of any kind, renames as both sides) that differs between two commits, or
    /// `None` when git cannot tell (a commit gone, no git).
    pub fn paths_changed_between(&self, from: &str, to: &str) -> Option<Vec<String>> {
        let from = Revision::from_object_id(from)?;
        let to = Revision::from_object_id(to)?;
        let output = self
            .git()
            .args(&["diff", "--no-ext-diff", "--no-renames", "--name-only", "-z"])
            .revisions(&[&from, &to])
            .output_bytes()
            .ok()?;
        Some(
            output
                .split(|byte| *byte == 0)
                .filter(|path| !path.is_empty())
                .map(|path| String::from_utf8_lossy(path).into_owned())
                .collect(),
        )
    }

    /// The texts of several files on one side, in order; `None` where a file does not exist
    /// there, is not a regular file, or is not UTF-8. Blobs come from one `git cat-file
    /// --batch` process.
    pub fn texts_at(&self, side: &Side, paths: &[String]) -> Result<Vec<Option<String>>, GitError> {
        match side {
            Side::WorkingTree => {
                Ok(paths.iter().map(|path| read_work_tree_text(&self.work_tree, path)).collect())
            }
            Side::Index => {
                self.blob_texts(&paths.iter().map(|path| format!(":{path}")).collect::<Vec<_>>())
            }
            Side::Revision(revision) => self.blob_texts(
                &paths.iter().map(|path| format!("{revision}:{path}")).collect::<Vec<_>>(),
            ),
        }
    }

    /// The texts of files at revisions (`(revision, path)` pairs), in order, from one `git
    /// cat-file --batch` process; `None` where the file does not exist there or is not UTF-8.
    pub fn texts_in(&self, files: &[(Revision, String)]) -> Result<Vec<Option<String>>, GitError> {
        self.blob_texts(
            &files.iter().map(|(revision, path)| format!("{revision}:{path}")).collect::<Vec<_>>(),
        )
    }

    /// Object names (`rev:path`, `:path`) to texts through one `git cat-file --batch`.
    fn blob_texts(&self, specs: &[String]) -> Result<Vec<Option<String>>, GitError> {
        if specs.is_empty() {
            return Ok(Vec::new());
        }
        // One object name per line: a path holding a newline cannot be asked for this way.
        let request: String =
            specs.iter().map(|spec| format!("{}\n", spec.replace('\n', " "))).collect();
        let output =
            self.git().args(&["cat-file", "--batch"]).input(request.into_bytes()).output_bytes()?;
        let mut texts = Vec::with_capacity(specs.len());
        let mut position = 0;
        for _ in specs {
            let header_end = output[position.min(output.len())..]
                .iter()
                .position(|byte| *byte == b'\n')
                .map_or(output.len(), |end| position + end);
            let header = String::from_utf8_lossy(output.get(position..header_end).unwrap_or(&[]))
                .into_owned();
            position = header_end + 1;
            if !header.contains(" blob ") {
                texts.push(None);
                continue;
            }
            let size: usize =
                header.rsplit(' ').next().and_then(|size| size.parse().ok()).unwrap_or(0);
            let body = output.get(position..position + size).unwrap_or(&[]);
            texts.push(String::from_utf8(body.to_vec()).ok());
            position += size + 1;
        }
        Ok(texts)
    }

    /// Each commit's `.py`/`.rs` changes against its first parent (a root commit's against
    /// the empty tree), whitespace-only changes ignored, for many commits in one `git log`
    /// process: (commit, first parent, files). A commit that changed no such file has no
    /// files.
    pub fn first_parent_diffs(
        &self,
        commits: &[Revision],
        deadline: Deadline,
    ) -> Result<Vec<CommitDiff>, GitError> {
        if commits.is_empty() {
            return Ok(Vec::new());
        }
        let input: String = commits.iter().map(|commit| format!("{commit}\n")).collect();
        let text = self
            .git()
            .args(&[
                "log",
                "--no-walk=unsorted",
                "--stdin",
                "-p",
                "-U0",
                "-M",
                "-m",
                "--first-parent",
                "--no-color",
                "--no-ext-diff",
                "--no-textconv",
            ])
            .args(&["-w", "--ignore-cr-at-eol", "--ignore-blank-lines", "--format=%x01%H %P"])
            .input(input.into_bytes())
            .args(&["--", "*.py", "*.rs"])
            .until(deadline)
            .output()?;
        let mut found: std::collections::HashMap<String, CommitDiff> =
            std::collections::HashMap::new();
        for chunk in text.split('\u{1}').filter(|chunk| !chunk.trim().is_empty()) {
            let (header, diff) = chunk.split_once('\n').unwrap_or((chunk, ""));
            let mut ids = header.split_whitespace();
            let Some(commit) = ids.next().and_then(Revision::from_object_id) else { continue };
            let parent = ids.next().and_then(Revision::from_object_id);
            found.insert(
                commit.as_str().to_string(),
                CommitDiff { commit, parent, files: parse_unified_diff(diff) },
            );
        }
        Ok(commits
            .iter()
            .map(|commit| {
                found.remove(commit.as_str()).unwrap_or_else(|| CommitDiff {
                    commit: commit.clone(),
                    parent: None,
                    files: Vec::new(),
                })
            })
            .collect())
    }
}

/// One commit's changes against its first parent.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CommitDiff {
    pub commit: Revision,
    /// `None` for a root commit (its old side is the empty tree).
    pub parent: Option<Revision>,
    pub files: Vec<FileDiff>,
}

/// A working-tree file's text, if it is a regular file inside the work tree and UTF-8. A
/// FIFO or a device in its place is never opened.
fn read_work_tree_text(work_tree: &std::path::Path, path: &str) -> Option<String> {
    let full = work_tree.join(path);
    if !std::fs::symlink_metadata(&full).ok()?.file_type().is_file() {
        return None;
    }
    String::from_utf8(std::fs::read(full).ok()?).ok()
}

/// Parses `git diff -U0` output into files and hunks.
pub fn parse_unified_diff(text: &str) -> Vec<FileDiff> {
    let mut files: Vec<FileDiff> = Vec::new();
    for line in text.lines() {
        if line.starts_with("diff --git ") {
            files.push(FileDiff::default());
            continue;
        }
        let Some(file) = files.last_mut() else { continue };
        if let Some(path) = line.strip_prefix("rename from ") {
            file.old_path = Some(header_path(path));
            file.is_rename = true;
        } else if let Some(path) = line.strip_prefix("rename to ") {
            file.new_path = Some(header_path(path));
            file.is_rename = true;
        } else if let Some(path) = line.strip_prefix("--- ") {
            file.old_path = side_path(path, "a/").or(file.old_path.take());
        } else if let Some(path) = line.strip_prefix("+++ ") {
            file.new_path = side_path(path, "b/").or(file.new_path.take());
        } else if let Some(ranges) = line.strip_prefix("@@ -") {
            let mut parts = ranges.split(' ');
            let old = parts.next().unwrap_or("0");
            let new = parts.next().unwrap_or("+0").trim_start_matches('+');
            let (old_start, old_count) = parse_range(old);
            let (new_start, new_count) = parse_range(new);
            file.hunks.push(Hunk { old_start, old_count, new_start, new_count });
        }
    }
    files.retain(|file| !file.hunks.is_empty() || file.is_rename);
    files
}

fn side_path(text: &str, prefix: &str) -> Option<String> {
    let path = header_path(text);
    if path == "/dev/null" {
        return None;
    }
    Some(path.strip_prefix(prefix).map(str::to_string).unwrap_or(path))
}

/// A path as a diff header writes it: C-quoted when it holds a quote, a backslash or a
/// control character (`"a/q\"uote.py"`), else plain with a tab appended when it holds a space.
fn header_path(text: &str) -> String {
    match text.strip_prefix('"') {
        Some(quoted) => unquote_c_style(quoted),
        None => text.strip_suffix('\t').unwrap_or(text).to_string(),
    }
}

/// The text of a C-quoted string after its opening quote, up to the closing one: `\"`, `\\`,
/// `\t`, `\n`… and octal bytes (`\303\251` is `é` when git quotes non-ASCII).
fn unquote_c_style(quoted: &str) -> String {
    let bytes = quoted.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'"' => break,
            b'\\' if index + 1 < bytes.len() => {
                let next = bytes[index + 1];
                index += 2;
                match next {
                    b'0'..=b'7' => {
                        let digits: Vec<u8> = bytes[index - 1..]
                            .iter()
                            .take(3)
                            .take_while(|digit| (b'0'..=b'7').contains(digit))
                            .copied()
                            .collect();
                        let value = digits
                            .iter()
                            .fold(0u32, |value, digit| value * 8 + u32::from(digit - b'0'));
                        out.push(value as u8);
                        index += digits.len() - 1;
                    }
                    b'a' => out.push(7),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'n' => out.push(b'\n'),
                    b'r' => out.push(b'\r'),
                    b't' => out.push(b'\t'),
                    b'v' => out.push(11),
                    other => out.push(other),
                }
            }
            byte => {
                out.push(byte);
                index += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `12,3` → (12, 3); `12` → (12, 1).
fn parse_range(text: &str) -> (u32, u32) {
    match text.split_once(',') {
        Some((start, count)) => (start.parse().unwrap_or(0), count.parse().unwrap_or(0)),
        None => (text.parse().unwrap_or(0), 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hunks_renames_additions_and_deletions_parse() {
        let diff = "\
diff --git a/a.py b/a.py
index 1..2 100644
--- a/a.py
+++ b/a.py
@@ -3 +3,2 @@ def f():
-    return 1
+    x = 2
+    return x
@@ -10,0 +12,3 @@
+def g():
+    pass
+
diff --git a/old.rs b/new.rs
similarity index 90%
rename from old.rs
rename to new.rs
--- a/old.rs
+++ b/new.rs
@@ -1,2 +1 @@
-fn a() {}
-fn b() {}
+fn a() { b() }
diff --git a/gone.py b/gone.py
deleted file mode 100644
--- a/gone.py
+++ /dev/null
@@ -1,2 +0,0 @@
-def h():
-    pass
";
        let files = parse_unified_diff(diff);
        assert_eq!(files.len(), 3);
        assert_eq!(
            files[0].hunks,
            [
                Hunk { old_start: 3, old_count: 1, new_start: 3, new_count: 2 },
                Hunk { old_start: 10, old_count: 0, new_start: 12, new_count: 3 }
            ]
        );
        assert_eq!(
            (files[1].old_path.as_deref(), files[1].new_path.as_deref(), files[1].is_rename),
            (Some("old.rs"), Some("new.rs"), true)
        );
        assert_eq!(
            (files[2].old_path.as_deref(), files[2].new_path.as_deref()),
            (Some("gone.py"), None)
        );
    }

    #[test]
    fn paths_with_spaces_tabs_quotes_and_non_ascii_parse_exactly() {
        let diff = "diff --git \"a/q\\\"uote.py\" \"b/q\\\"uote.py\"\n--- \"a/q\\\"uote.py\"\n+++ \"b/q\\\"uote.py\"\n@@ -1 +1 @@\n\
diff --git a/sp ace.py b/sp ace.py\n--- a/sp ace.py\t\n+++ b/sp ace.py\t\n@@ -1 +1 @@\n\
diff --git \"a/ta\\tb.py\" \"b/ta\\tb.py\"\n--- \"a/ta\\tb.py\"\n+++ \"b/ta\\tb.py\"\n@@ -1 +1 @@\n\
diff --git \"a/\\303\\251.py\" \"b/\\303\\251.py\"\n--- \"a/\\303\\251.py\"\n+++ \"b/\\303\\251.py\"\n@@ -1 +1 @@\n\
diff --git a/old name.rs b/new name.rs\nrename from old name.rs\nrename to new name.rs\n";
        let paths: Vec<(Option<String>, Option<String>)> = parse_unified_diff(diff)
            .into_iter()
            .map(|file| (file.old_path, file.new_path))
            .collect();
        let both = |path: &str| (Some(path.to_string()), Some(path.to_string()));
        assert_eq!(
            paths,
            [
                both("q\"uote.py"),
                both("sp ace.py"),
                both("ta\tb.py"),
                both("é.py"),
                (Some("old name.rs".to_string()), Some("new name.rs".to_string()))
            ]
        );
    }
}
