//! The churn history's file in the daemon's folder (`churn-history.v1`): line-based text, one
//! `c` line per commit and one `f` line per file it changed, fields split by tabs, with `%`,
//! tab and line breaks in names escaped (`%25`, `%09`, `%0A`, `%0D`). Anything that does not
//! read back whole is thrown away and read again from git: the file is a cache.
//!
//! ```text
//! tether churn history 2
//! tip <commit>
//! paged <commit> <how many of the commits were read from it>
//! root 1
//! c <commit>→<author time>→<author>→<email>
//! f <path>→<renamed from, or empty>→<d when deleted, else ->→<old,count,new,count;…>
//! ```
//!
//! (`→` stands for a tab.)

use tether_model::{ChangeHistory, ChangedCommit, ChangedFile, Hunk};

const HEADER: &str = "tether churn history 2";

/// The most bytes of the file read back; a larger one is read again from git.
pub(crate) const MAX_HISTORY_FILE_BYTES: u64 = 256 * 1024 * 1024;

fn escape(text: &str) -> String {
    text.replace('%', "%25").replace('\t', "%09").replace('\n', "%0A").replace('\r', "%0D")
}

fn unescape(text: &str) -> String {
    text.replace("%09", "\t").replace("%0A", "\n").replace("%0D", "\r").replace("%25", "%")
}

pub(crate) fn encode_history(history: &ChangeHistory) -> String {
    let mut text = format!(
        "{HEADER}\ntip {}\npaged {} {}\nroot {}\n",
        history.tip.as_deref().unwrap_or("-"),
        history.paged_from.as_deref().unwrap_or("-"),
        history.paged,
        u8::from(history.reached_root)
    );
    for commit in &history.commits {
        text.push_str(&format!(
            "c {}\t{}\t{}\t{}\n",
            commit.commit,
            commit.time,
            escape(&commit.author),
            escape(&commit.email)
        ));
        for file in &commit.files {
            let hunks: Vec<String> = file
                .hunks
                .iter()
                .map(|hunk| {
                    format!(
                        "{},{},{},{}",
                        hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count
                    )
                })
                .collect();
            text.push_str(&format!(
                "f {}\t{}\t{}\t{}\n",
                escape(&file.path),
                file.renamed_from.as_deref().map(escape).unwrap_or_default(),
                if file.deleted { "d" } else { "-" },
                hunks.join(";")
            ));
        }
    }
    text
}

/// The history the text holds; `None` when it is not a whole history file.
pub(crate) fn decode_history(text: &str) -> Option<ChangeHistory> {
    let mut lines = text.lines();
    if lines.next()? != HEADER {
        return None;
    }
    let tip = lines.next()?.strip_prefix("tip ")?;
    let tip = (tip != "-").then(|| tip.to_string());
    let (paged_from, paged) = lines.next()?.strip_prefix("paged ")?.split_once(' ')?;
    let paged_from = (paged_from != "-").then(|| paged_from.to_string());
    let paged: usize = paged.parse().ok()?;
    let reached_root = match lines.next()?.strip_prefix("root ")? {
        "0" => false,
        "1" => true,
        _ => return None,
    };
    let mut commits: Vec<ChangedCommit> = Vec::new();
    for line in lines {
        if let Some(fields) = line.strip_prefix("c ") {
            let mut fields = fields.split('\t');
            let commit = fields.next()?;
            if commit.len() < 40 || !commit.bytes().all(|byte| byte.is_ascii_hexdigit()) {
                return None;
            }
            commits.push(ChangedCommit {
                commit: commit.to_string(),
                time: fields.next()?.parse().ok()?,
                author: unescape(fields.next()?),
                email: unescape(fields.next()?),
                files: Vec::new(),
            });
        } else if let Some(fields) = line.strip_prefix("f ") {
            let mut fields = fields.split('\t');
            let path = unescape(fields.next()?);
            let renamed_from = Some(fields.next()?).filter(|old| !old.is_empty()).map(unescape);
            let deleted = match fields.next()? {
                "d" => true,
                "-" => false,
                _ => return None,
            };
            let hunks = fields
                .next()?
                .split(';')
                .filter(|hunk| !hunk.is_empty())
                .map(|hunk| {
                    let numbers: Vec<u32> =
                        hunk.split(',').map(|number| number.parse().ok()).collect::<Option<_>>()?;
                    match numbers.as_slice() {
                        [old_start, old_count, new_start, new_count] => Some(Hunk {
                            old_start: *old_start,
                            old_count: *old_count,
                            new_start: *new_start,
                            new_count: *new_count,
                        }),
                        _ => None,
                    }
                })
                .collect::<Option<Vec<Hunk>>>()?;
            commits.last_mut()?.files.push(ChangedFile { path, renamed_from, deleted, hunks });
        } else {
            return None;
        }
    }
    // Hunks past any file's length (a damaged file) would not carry forward sensibly.
    let most = u32::MAX / 4;
    let sane =
        commits.iter().flat_map(|commit| &commit.files).flat_map(|file| &file.hunks).all(|hunk| {
            [hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count]
                .iter()
                .all(|n| *n < most)
        });
    (sane && paged <= commits.len()).then_some(ChangeHistory {
        tip,
        paged_from,
        paged,
        commits,
        reached_root,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_history_reads_back_as_written_and_a_damaged_file_does_not_read() {
        let history = ChangeHistory {
            tip: Some("a".repeat(40)),
            paged_from: Some("c".repeat(40)),
            paged: 1,
            reached_root: true,
            commits: vec![ChangedCommit {
                commit: "b".repeat(40),
                author: "Ann %09 Tab\tbed".to_string(),
                email: "ann@x".to_string(),
                time: 1_700_000_000,
                files: vec![
                    ChangedFile {
                        path: "src/odd\tname%.py".to_string(),
                        renamed_from: Some("src/old\nname.py".to_string()),
                        deleted: false,
                        hunks: vec![
                            Hunk { old_start: 3, old_count: 0, new_start: 4, new_count: 2 },
                            Hunk { old_start: 9, old_count: 1, new_start: 11, new_count: 1 },
                        ],
                    },
                    ChangedFile {
                        path: "gone.rs".to_string(),
                        renamed_from: None,
                        deleted: true,
                        hunks: Vec::new(),
                    },
                ],
            }],
        };
        let text = encode_history(&history);
        assert_eq!(decode_history(&text), Some(history));
        assert_eq!(decode_history(&text.replace("root 1", "root 7")), None);
        assert_eq!(decode_history(&text.replace(",2;", ",x;")), None);
        // Cut inside the `f` line's fields: not a history.
        let cut = text.find("\td\t").unwrap();
        assert_eq!(decode_history(&text[..cut]), None);
        assert_eq!(decode_history("something else"), None);
        // More commits said paged than there are, or hunk numbers no file has: not read.
        assert_eq!(decode_history(&text.replace(" 1\nroot", " 2\nroot")), None);
        assert_eq!(decode_history(&text.replace("9,1,11,1", "9,4294967295,11,1")), None);
    }
}
