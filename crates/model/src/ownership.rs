//! Who wrote a range of lines: the owners blame finds, ranked, and the lines left out
//! (uncommitted, or written by bots). Plain data; `git` computes it, `protocol` renders it.

/// One owner of a range of lines.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Owner {
    pub author: String,
    pub email: String,
    pub lines: u32,
    pub commits: u32,
    pub latest_commit: String,
    pub latest_time: i64,
    pub latest_summary: String,
}

/// Owners ranked by lines (recency breaks ties), with the lines left out.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Ownership {
    pub total_lines: u32,
    pub owners: Vec<Owner>,
    pub uncommitted_lines: u32,
    pub bot_lines: u32,
    pub bots: Vec<String>,
}
