//! The change history churn reads: `git log -p -U0 -M --no-merges` over `.py` and `.rs`
//! files, newest first, a page at a time (`--skip`, `-n`) so that a long history is read in
//! bounded steps and a deadline can stop between them. Changes of whitespace within lines are
//! ignored (`-w`); blank lines are not (`--ignore-blank-lines` would drop hunks that move the
//! lines below them, which churn carries forward to HEAD). A commit whose changes were all
//! whitespace is kept with no files, so that pages stay aligned with git's count.

use tether_model::{ChangedCommit, ChangedFile, Deadline};

use crate::command::Revision;
use crate::diff::parse_unified_diff;
use crate::{GitError, Repository};

impl Repository {
    /// The commits of `range` (a tip, or `from..tip`) that changed source files, newest first,
    /// from the `skip`-th on, at most `count` of them; merges left out.
    pub fn change_log_page(
        &self,
        range: &Revision,
        skip: usize,
        count: usize,
        deadline: Deadline,
    ) -> Result<Vec<ChangedCommit>, GitError> {
        let skip = format!("--skip={skip}");
        let count = format!("--max-count={count}");
        let text = self
            .git()
            .args(&["log", "--no-merges", "-p", "-U0", "-M", "--no-color", "--no-ext-diff"])
            .args(&["--no-textconv", "-w", "--ignore-cr-at-eol"])
            .args(&["--format=%x01%H%x1f%aN%x1f%aE%x1f%at", &skip, &count])
            .revisions(&[range])
            .args(&["--", "*.py", "*.rs"])
            .until(deadline)
            .output()?;
        Ok(parse_change_log(&text))
    }

    /// Whether the repository is a shallow clone (its history is cut).
    pub fn is_shallow(&self) -> bool {
        self.common_dir.join("shallow").exists()
    }
}

/// Parses the output of [`Repository::change_log_page`].
pub fn parse_change_log(text: &str) -> Vec<ChangedCommit> {
    let mut commits = Vec::new();
    for chunk in text.split('\u{1}').filter(|chunk| !chunk.trim().is_empty()) {
        let (header, diff) = chunk.split_once('\n').unwrap_or((chunk, ""));
        let mut fields = header.split('\u{1f}');
        let (Some(commit), Some(author), Some(email), Some(time)) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            continue;
        };
        if Revision::from_object_id(commit).is_none() {
            continue;
        }
        let files = parse_unified_diff(diff)
            .into_iter()
            .filter_map(|file| {
                let deleted = file.new_path.is_none();
                let path = file.new_path.or(file.old_path.clone())?;
                let renamed_from = file.old_path.filter(|_| file.is_rename);
                Some(ChangedFile { path, renamed_from, deleted, hunks: file.hunks })
            })
            .collect();
        commits.push(ChangedCommit {
            commit: commit.to_string(),
            author: author.to_string(),
            email: email.to_string(),
            time: time.trim().parse().unwrap_or(0),
            files,
        });
    }
    commits
}

#[cfg(test)]
mod tests {
    use super::parse_change_log;

    #[test]
    fn commits_with_renames_deletions_and_whitespace_only_changes_parse() {
        let log =
            "\u{1}1111111111111111111111111111111111111111\u{1f}Ann\u{1f}ann@x\u{1f}1700000000
diff --git a/a.py b/a.py
--- a/a.py
+++ b/a.py
@@ -3 +3,2 @@ def f():
-    return 1
+    x = 2
+    return x
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
@@ -1 +0,0 @@
-x = 1
\u{1}2222222222222222222222222222222222222222\u{1f}Bob\u{1f}bob@x\u{1f}1690000000

diff --git a/b.py b/b.py
index 1..2 100644
";
        let commits = parse_change_log(log);
        assert_eq!(commits.len(), 2);
        let first = &commits[0];
        assert_eq!((first.author.as_str(), first.time), ("Ann", 1_700_000_000));
        let paths: Vec<(&str, Option<&str>, bool)> = first
            .files
            .iter()
            .map(|file| (file.path.as_str(), file.renamed_from.as_deref(), file.deleted))
            .collect();
        assert_eq!(
            paths,
            [("a.py", None, false), ("new.rs", Some("old.rs"), false), ("gone.py", None, true)]
        );
        assert_eq!(first.files[0].lines_added_and_deleted(), (2, 1));
        // Whitespace-only: the commit stays, with no files.
        assert_eq!(commits[1].commit, "2222222222222222222222222222222222222222");
        assert!(commits[1].files.is_empty());
    }
}
