//! Freshness: has HEAD moved since the graph was built, and which files have uncommitted
//! changes (asked of the `git` command, so it honours every git setting, without taking
//! `.git/index.lock`). `git status --porcelain=v1 -z` is parsed exactly: a rename's entry is
//! followed by its old path, and no path is quoted.

use crate::{GitError, Repository};

/// At most this many changed files are listed.
const MAX_LISTED_FILES: usize = 50;

/// The source files tether reads, as git pathspecs.
const SOURCE_FILES: &[&str] = &["*.py", "*.rs"];

/// One entry of `git status --porcelain=v1 -z`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StatusEntry {
    /// The two status letters (`M `, ` M`, `R `, `??`, …).
    pub code: [u8; 2],
    pub path: String,
    /// For a rename or copy, where it came from.
    pub original_path: Option<String>,
}

/// Parses `git status --porcelain=v1 -z` output.
pub fn parse_status_z(output: &[u8]) -> Vec<StatusEntry> {
    let mut entries = Vec::new();
    let mut fields = output.split(|byte| *byte == 0).filter(|field| !field.is_empty());
    while let Some(field) = fields.next() {
        if field.len() < 4 || field[2] != b' ' {
            continue;
        }
        let code = [field[0], field[1]];
        let path = String::from_utf8_lossy(&field[3..]).into_owned();
        let original_path = if matches!(code[0], b'R' | b'C') || matches!(code[1], b'R' | b'C') {
            fields.next().map(|original| String::from_utf8_lossy(original).into_owned())
        } else {
            None
        };
        entries.push(StatusEntry { code, path, original_path });
    }
    entries
}

/// Whether `git status` lists untracked files.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Untracked {
    Listed,
    LeftOut,
}

/// Which paths `git status` looks at.
#[derive(Clone, Copy, Debug)]
enum StatusPaths<'p> {
    /// Git pathspecs (`*.py`); none for the whole tree.
    Globs(&'p [&'p str]),
    /// Paths taken literally, never as globs.
    Literal(&'p [&'p str]),
}

impl Repository {
    fn status_entries(
        &self,
        untracked: Untracked,
        paths: StatusPaths<'_>,
    ) -> Result<Vec<StatusEntry>, GitError> {
        let mut command = self.git();
        command.args(&[
            "status",
            "--porcelain=v1",
            "-z",
            match untracked {
                Untracked::Listed => "--untracked-files=all",
                Untracked::LeftOut => "--untracked-files=no",
            },
        ]);
        match paths {
            StatusPaths::Literal(paths) => command.literal_paths(paths),
            StatusPaths::Globs(globs) => command.args(&["--"]).args(globs),
        };
        Ok(parse_status_z(&command.output_bytes()?))
    }

    /// Tracked `.py` and `.rs` files that differ from HEAD (staged or not), or `None` when
    /// `git` is missing or fails.
    pub fn uncommitted_source_files(&self) -> Option<Vec<String>> {
        let entries =
            self.status_entries(Untracked::LeftOut, StatusPaths::Globs(SOURCE_FILES)).ok()?;
        let mut files: Vec<String> = entries.into_iter().map(|entry| entry.path).collect();
        files.truncate(MAX_LISTED_FILES);
        Some(files)
    }

    /// Which of these paths (files or folders) differ from HEAD: staged, unstaged, or
    /// untracked. Paths are literal, never globs.
    pub fn changed_paths(&self, paths: &[String]) -> Result<Vec<String>, GitError> {
        let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
        let entries = self.status_entries(Untracked::Listed, StatusPaths::Literal(&paths))?;
        Ok(entries.into_iter().map(|entry| entry.path).collect())
    }

    /// `.py` and `.rs` files that differ from HEAD in any way, untracked ones included, with
    /// their status; `None` when `git` fails.
    pub fn source_file_changes(&self) -> Option<Vec<StatusEntry>> {
        self.status_entries(Untracked::Listed, StatusPaths::Globs(SOURCE_FILES)).ok()
    }

    /// Paths with changes staged in the index (what a commit would take now).
    pub fn staged_paths(&self) -> Result<Vec<String>, GitError> {
        Ok(self
            .status_entries(Untracked::LeftOut, StatusPaths::Globs(&[]))?
            .into_iter()
            .filter(|entry| !matches!(entry.code[0], b' ' | b'?'))
            .map(|entry| entry.path)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_and_odd_paths_parse_exactly() {
        let output =
            b"R  new name.py\0old\tname.py\0 M \"quoted\".rs\0?? caf\xc3\xa9.py\0M  a.py\0";
        let entries = parse_status_z(output);
        let shown: Vec<(String, String, Option<String>)> = entries
            .iter()
            .map(|entry| {
                (
                    String::from_utf8_lossy(&entry.code).into_owned(),
                    entry.path.clone(),
                    entry.original_path.clone(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("R ".to_string(), "new name.py".to_string(), Some("old\tname.py".to_string())),
                (" M".to_string(), "\"quoted\".rs".to_string(), None),
                ("??".to_string(), "café.py".to_string(), None),
                ("M ".to_string(), "a.py".to_string(), None),
            ]
        );
    }
}
