//! Diffs through `git diff -U0 -M` (renames paired by git), parsed into hunks per file, and
//! file contents at either side (`git cat-file --batch` for blobs, the disk for the working
//! tree).

use std::io::{Read, Write};
use std::process::{Command, Stdio};

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
    /// HEAD against the merge base with this ref (`--base main`).
    Base(String),
    /// From one revision to another (`A..B`).
    Range(String, String),
}

/// Where one side of a diff lives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Side {
    WorkingTree,
    Index,
    Revision(String),
}

/// One changed hunk: lines `old_start..old_start+old_count` became `new_start..+new_count`.
/// A count of 0 means a pure insertion (old) or deletion (new) after that line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Hunk {
    pub old_start: u32,
    pub old_count: u32,
    pub new_start: u32,
    pub new_count: u32,
}

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
            DiffScope::Staged => (Side::Revision("HEAD".into()), Side::Index),
            DiffScope::All => (Side::Revision("HEAD".into()), Side::WorkingTree),
            DiffScope::Base(base) => (Side::Revision(self.git_text(&["merge-base", base, "HEAD"])?.trim().to_string()), Side::Revision("HEAD".into())),
            DiffScope::Range(from, to) => (Side::Revision(from.clone()), Side::Revision(to.clone())),
        })
    }

    /// The changed files and hunks of a scope. Whitespace-only and line-ending-only changes are
    /// ignored unless `include_whitespace`.
    pub fn diff(&self, scope: &DiffScope, include_whitespace: bool) -> Result<Vec<FileDiff>, GitError> {
        let mut arguments: Vec<String> = ["-c", "core.quotePath=false", "diff", "--no-color", "--no-ext-diff", "-U0", "-M"].iter().map(|text| text.to_string()).collect();
        if !include_whitespace {
            arguments.extend(["-w", "--ignore-cr-at-eol", "--ignore-blank-lines"].iter().map(|text| text.to_string()));
        }
        match scope {
            DiffScope::Unstaged => {}
            DiffScope::Staged => arguments.push("--cached".into()),
            DiffScope::All => arguments.push("HEAD".into()),
            DiffScope::Base(base) => arguments.push(format!("{base}...HEAD")),
            DiffScope::Range(from, to) => {
                arguments.push(from.clone());
                arguments.push(to.clone());
            }
        }
        arguments.extend(["--", "*.py", "*.rs"].iter().map(|text| text.to_string()));
        let arguments: Vec<&str> = arguments.iter().map(String::as_str).collect();
        Ok(parse_unified_diff(&self.git_text(&arguments)?))
    }

    /// The texts of several files on one side, in order; `None` where a file does not exist
    /// there or is not UTF-8. Blobs come from one `git cat-file --batch` process.
    pub fn texts_at(&self, side: &Side, paths: &[String]) -> Result<Vec<Option<String>>, GitError> {
        let specs: Vec<String> = match side {
            Side::WorkingTree => {
                return Ok(paths.iter().map(|path| std::fs::read(self.work_tree.join(path)).ok().and_then(|bytes| String::from_utf8(bytes).ok())).collect());
            }
            Side::Index => paths.iter().map(|path| format!(":{path}")).collect(),
            Side::Revision(revision) => paths.iter().map(|path| format!("{revision}:{path}")).collect(),
        };
        if specs.is_empty() {
            return Ok(Vec::new());
        }
        let mut child = Command::new("git")
            .arg("-C")
            .arg(&self.work_tree)
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|source| GitError::Read { path: "git cat-file".into(), source })?;
        let mut stdin = child.stdin.take().expect("piped stdin");
        let request: String = specs.iter().map(|spec| format!("{spec}\n")).collect();
        // Write from a thread so a large answer cannot block on a full pipe.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(request.as_bytes());
        });
        let mut output = Vec::new();
        if let Some(mut stdout) = child.stdout.take() {
            let _ = stdout.read_to_end(&mut output);
        }
        let _ = writer.join();
        let _ = child.wait();
        let mut texts = Vec::with_capacity(specs.len());
        let mut position = 0;
        for _ in &specs {
            let header_end = output[position..].iter().position(|byte| *byte == b'\n').map_or(output.len(), |end| position + end);
            let header = String::from_utf8_lossy(&output[position..header_end]).into_owned();
            position = header_end + 1;
            if !header.contains(" blob ") {
                texts.push(None);
                continue;
            }
            let size: usize = header.rsplit(' ').next().and_then(|size| size.parse().ok()).unwrap_or(0);
            let body = output.get(position..position + size).unwrap_or(&[]);
            texts.push(String::from_utf8(body.to_vec()).ok());
            position += size + 1;
        }
        Ok(texts)
    }

    /// Runs `git` in the work tree and returns its standard output, or its error.
    pub(crate) fn git_output(&self, arguments: &[&str]) -> Result<String, GitError> {
        self.git_text(arguments)
    }

    fn git_text(&self, arguments: &[&str]) -> Result<String, GitError> {
        let output = Command::new("git")
            .arg("-C")
            .arg(&self.work_tree)
            .args(arguments)
            .output()
            .map_err(|source| GitError::Read { path: "git".into(), source })?;
        if !output.status.success() {
            return Err(GitError::Command { command: format!("git {}", arguments.join(" ")), message: String::from_utf8_lossy(&output.stderr).trim().to_string() });
        }
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    }
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
            file.old_path = Some(path.to_string());
            file.is_rename = true;
        } else if let Some(path) = line.strip_prefix("rename to ") {
            file.new_path = Some(path.to_string());
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
    let text = text.trim_matches('"');
    if text == "/dev/null" {
        return None;
    }
    Some(text.strip_prefix(prefix).unwrap_or(text).to_string())
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
        assert_eq!(files[0].hunks, [Hunk { old_start: 3, old_count: 1, new_start: 3, new_count: 2 }, Hunk { old_start: 10, old_count: 0, new_start: 12, new_count: 3 }]);
        assert_eq!((files[1].old_path.as_deref(), files[1].new_path.as_deref(), files[1].is_rename), (Some("old.rs"), Some("new.rs"), true));
        assert_eq!((files[2].old_path.as_deref(), files[2].new_path.as_deref()), (Some("gone.py"), None));
    }
}
