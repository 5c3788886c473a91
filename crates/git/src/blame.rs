//! Blame through `git blame --porcelain` (which applies `.mailmap`), parsed into one record
//! per line, and aggregated into owners.

use std::collections::HashMap;

use tether_model::{Deadline, Owner, Ownership};

use crate::{GitError, Repository};

/// The file listing commits blame skips (mass reformats), by the convention GitHub follows.
pub const IGNORE_REVS_FILE: &str = ".git-blame-ignore-revs";

/// How blame attributes lines.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct BlameOptions {
    /// `-w -M -C`: whitespace changes, lines moved within a file and lines moved or copied
    /// from files changed in the same commit stay with who wrote them.
    pub follow_moves: bool,
    /// `--ignore-revs-file .git-blame-ignore-revs` when the working tree has that file.
    pub ignore_revs_file: bool,
}

/// Blamed lines and the git options that produced them (`-w`, `-M`, `-C`,
/// `--ignore-revs-file .git-blame-ignore-revs`).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Blame {
    pub lines: Vec<BlameLine>,
    pub options_used: Vec<String>,
}

/// The commit id git gives lines that are not committed yet.
const UNCOMMITTED: &str = "0000000000000000000000000000000000000000";

/// One blamed line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlameLine {
    pub line: u32,
    pub commit: String,
    pub author: String,
    pub email: String,
    /// Seconds since the Unix epoch.
    pub author_time: i64,
    pub summary: String,
}

impl BlameLine {
    pub fn is_uncommitted(&self) -> bool {
        self.commit == UNCOMMITTED
    }
}

impl Repository {
    /// Blames lines `start..=end` (1-based) of a tracked file as it is in the working tree.
    /// An ignore-revs file git refuses (a revision it cannot read) is left out, and the
    /// options used say so by not naming it.
    pub fn blame(
        &self,
        path: &str,
        start: u32,
        end: u32,
        options: BlameOptions,
        deadline: Deadline,
    ) -> Result<Blame, GitError> {
        let mut flags: Vec<String> = Vec::new();
        if options.follow_moves {
            flags.extend(["-w", "-M", "-C"].map(String::from));
        }
        let ignore_revs = self.work_tree.join(IGNORE_REVS_FILE);
        let with_ignore_revs = options.ignore_revs_file && ignore_revs.is_file();
        let run = |ignore: bool| {
            let mut command = self.git();
            command.args(&["blame", "--porcelain"]);
            for flag in &flags {
                command.args(&[flag.as_str()]);
            }
            if ignore {
                command.option_with_value(format!("--ignore-revs-file={}", ignore_revs.display()));
            }
            command
                .option_with_value(format!("-L{start},{end}"))
                .path_arguments(&[path])
                .until(deadline)
                .output()
        };
        let (text, ignored) = match run(with_ignore_revs) {
            Ok(text) => (text, with_ignore_revs),
            Err(error) if !with_ignore_revs || matches!(error, GitError::Cancelled { .. }) => {
                return Err(error)
            }
            Err(_) => (run(false)?, false),
        };
        if ignored {
            flags.push(format!("--ignore-revs-file {IGNORE_REVS_FILE}"));
        }
        Ok(Blame { lines: parse_porcelain(&text), options_used: flags })
    }
}

/// Parses `git blame --porcelain`: commit metadata appears the first time a commit does.
pub fn parse_porcelain(text: &str) -> Vec<BlameLine> {
    #[derive(Default, Clone)]
    struct CommitInfo {
        author: String,
        email: String,
        time: i64,
        summary: String,
    }
    let mut commits: HashMap<String, CommitInfo> = HashMap::new();
    let mut lines = Vec::new();
    let mut current: Option<(String, u32)> = None;
    for row in text.lines() {
        if let Some(content_line) = row.strip_prefix('\t') {
            let _ = content_line;
            if let Some((commit, line)) = current.take() {
                let info = commits.get(&commit).cloned().unwrap_or_default();
                lines.push(BlameLine {
                    line,
                    commit,
                    author: info.author,
                    email: info.email,
                    author_time: info.time,
                    summary: info.summary,
                });
            }
            continue;
        }
        let mut words = row.splitn(2, ' ');
        let key = words.next().unwrap_or("");
        let value = words.next().unwrap_or("");
        if key.len() == 40 && key.bytes().all(|byte| byte.is_ascii_hexdigit()) {
            let final_line =
                value.split(' ').nth(1).and_then(|line| line.parse().ok()).unwrap_or(0);
            commits.entry(key.to_string()).or_default();
            current = Some((key.to_string(), final_line));
            continue;
        }
        let Some((commit, _)) = &current else { continue };
        let info = commits.entry(commit.clone()).or_default();
        match key {
            "author" => info.author = value.to_string(),
            "author-mail" => info.email = value.trim_matches(|c| c == '<' || c == '>').to_string(),
            "author-time" => info.time = value.parse().unwrap_or(0),
            "summary" => info.summary = value.to_string(),
            _ => {}
        }
    }
    lines
}

/// Names and emails that look like bots, besides those the caller lists.
pub fn looks_like_bot(author: &str, email: &str, extra: &[String]) -> bool {
    let author = author.to_lowercase();
    let email = email.to_lowercase();
    let patterns = [
        "[bot]",
        "dependabot",
        "renovate",
        "github-actions",
        "greenkeeper",
        "snyk-bot",
        "pre-commit-ci",
    ];
    // `bors` is a whole name: people are called Borsos.
    let bors = author == "bors" || author.starts_with("bors[") || email.starts_with("bors@");
    patterns.iter().any(|pattern| author.contains(pattern) || email.contains(pattern))
        || bors
        || author.ends_with(" bot")
        || author.ends_with("-bot")
        || email.starts_with("bot@")
        || email.contains("+bot@")
        || extra.iter().any(|name| {
            !name.is_empty() && (author == name.to_lowercase() || email == name.to_lowercase())
        })
}

/// Aggregates blamed lines by author (already mapped through `.mailmap` by git).
pub fn aggregate_ownership(lines: &[BlameLine], extra_bots: &[String]) -> Ownership {
    let mut ownership = Ownership { total_lines: lines.len() as u32, ..Ownership::default() };
    let mut owners: HashMap<(String, String), (Owner, std::collections::HashSet<String>)> =
        HashMap::new();
    for line in lines {
        if line.is_uncommitted() {
            ownership.uncommitted_lines += 1;
            continue;
        }
        if looks_like_bot(&line.author, &line.email, extra_bots) {
            ownership.bot_lines += 1;
            if !ownership.bots.contains(&line.author) {
                ownership.bots.push(line.author.clone());
            }
            continue;
        }
        let key = (line.author.clone(), line.email.to_lowercase());
        let (owner, commits) = owners.entry(key).or_insert_with(|| {
            (
                Owner {
                    author: line.author.clone(),
                    email: line.email.clone(),
                    lines: 0,
                    commits: 0,
                    latest_commit: String::new(),
                    latest_time: i64::MIN,
                    latest_summary: String::new(),
                },
                std::collections::HashSet::new(),
            )
        });
        owner.lines += 1;
        commits.insert(line.commit.clone());
        if line.author_time > owner.latest_time {
            owner.latest_time = line.author_time;
            owner.latest_commit = line.commit.clone();
            owner.latest_summary = line.summary.clone();
        }
    }
    ownership.owners = owners
        .into_values()
        .map(|(mut owner, commits)| {
            owner.commits = commits.len() as u32;
            owner
        })
        .collect();
    ownership.owners.sort_by(|a, b| {
        b.lines.cmp(&a.lines).then(b.latest_time.cmp(&a.latest_time)).then(a.author.cmp(&b.author))
    });
    ownership
}

#[cfg(test)]
mod tests {
    use super::*;

    const PORCELAIN: &str = "\
1111111111111111111111111111111111111111 1 1 2
author Ada
author-mail <ada@example.com>
author-time 100
summary first
filename a.py
\tline one
1111111111111111111111111111111111111111 2 2
\tline two
2222222222222222222222222222222222222222 3 3 1
author dependabot[bot]
author-mail <49699333+dependabot[bot]@users.noreply.github.com>
author-time 300
summary bump
filename a.py
\tline three
0000000000000000000000000000000000000000 4 4 1
author Not Committed Yet
author-mail <not.committed.yet>
author-time 400
summary Version of a.py from a.py
filename a.py
\tline four
";

    #[test]
    fn bots_are_told_from_people_with_similar_names() {
        assert!(looks_like_bot("bors", "bors@rust-lang.org", &[]));
        assert!(looks_like_bot(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com",
            &[]
        ));
        assert!(looks_like_bot(
            "The rustc-josh-sync Cronjob Bot",
            "github-actions@github.com",
            &[]
        ));
        // rust-analyzer's history: a person whose name holds "bors".
        assert!(!looks_like_bot("Arpad Borsos", "swatinem@swatinem.de", &[]));
        assert!(!looks_like_bot("Ann", "ann@example.com", &[]));
        assert!(looks_like_bot("Ann", "ann@example.com", &["ann@example.com".to_string()]));
    }

    #[test]
    fn porcelain_lines_aggregate_into_owners_without_bots_or_uncommitted_lines() {
        let lines = parse_porcelain(PORCELAIN);
        assert_eq!(lines.len(), 4);
        assert_eq!((lines[1].line, lines[1].author.as_str()), (2, "Ada"));
        let ownership = aggregate_ownership(&lines, &[]);
        assert_eq!(
            (ownership.total_lines, ownership.uncommitted_lines, ownership.bot_lines),
            (4, 1, 1)
        );
        assert_eq!(ownership.owners.len(), 1);
        assert_eq!((ownership.owners[0].lines, ownership.owners[0].commits), (2, 1));
        assert_eq!(ownership.bots, ["dependabot[bot]"]);
    }
}
