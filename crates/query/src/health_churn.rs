//! Churn hotspots: the files (and in them, the symbols) that change the most and are the most
//! complex, from the change history (`tether_model::ChangeHistory`, newest first, merges and
//! bots already left out by the reader). A file's name is followed back through renames; each
//! commit's hunks are carried forward through the later commits' hunks to HEAD's lines, so
//! they land on the symbols HEAD has there. The hotspot score is commits × complexity, with
//! complexity the file's symbols plus its call sites. Change coupling: pairs of files that
//! changed together in at least a share of their commits (the thresholds are data).
//!
//! It deliberately leaves out test code (tests change with what they test) and files the
//! graph does not hold (deleted since, or not source), and reads no git itself.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tether_model::{ChangeHistory, EdgeKind, Hunk, SymbolKind};

use crate::health::{HealthOptions, HealthThresholds};
use crate::snapshot::{Snapshot, SymbolIndex};

/// A file that changes often and is complex.
#[derive(Clone, PartialEq, Debug)]
pub struct ChurnHotspot {
    pub path: String,
    /// Commits (in the history read) that changed it.
    pub commits: usize,
    pub authors: usize,
    pub lines_added: u64,
    pub lines_deleted: u64,
    /// Author time of the newest commit that changed it.
    pub last_changed: i64,
    /// Its symbols (not its module).
    pub symbols: usize,
    /// Call sites in it: resolved calls and unresolved ones.
    pub call_sites: usize,
    /// Its last symbol's last line.
    pub lines: u32,
    /// `symbols + call_sites`.
    pub complexity: usize,
    /// `commits × complexity`.
    pub score: usize,
    /// Its symbols that changed the most, most first (at most three).
    pub hottest: Vec<SymbolChurn>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub struct SymbolChurn {
    pub symbol: SymbolIndex,
    pub commits: usize,
}

/// Two files that change together.
#[derive(Clone, PartialEq, Debug)]
pub struct ChangeCoupling {
    pub first: String,
    pub second: String,
    /// Commits that changed both.
    pub together: usize,
    pub first_commits: usize,
    pub second_commits: usize,
    /// `together / mean(first_commits, second_commits)`.
    pub degree: f32,
}

/// Hotspots ranked by score, and the change coupling pairs ranked by degree.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct ChurnFindings {
    pub hotspots: Vec<ChurnHotspot>,
    pub change_coupling: Vec<ChangeCoupling>,
    /// Commits of the history that changed a file the graph holds.
    pub commits_counted: usize,
}

/// Hunks of a file from commits newer than the one being read, newest first: a line of an
/// older version reaches HEAD through them, oldest of them first. Past this many commits a
/// file's older hunks are counted for the file but not mapped to symbols (the cost grows
/// with the square of a file's commits).
const MOST_LATER_COMMITS_MAPPED: usize = 2_000;
const HOTTEST_SYMBOLS: usize = 3;

#[derive(Default)]
struct FileChurn<'h> {
    commits: usize,
    authors: BTreeSet<&'h str>,
    lines_added: u64,
    lines_deleted: u64,
    last_changed: Option<i64>,
    symbol_commits: HashMap<SymbolIndex, usize>,
    /// Hunks of the commits already read (newer ones), newest first.
    later_hunks: Vec<&'h [Hunk]>,
}

impl Snapshot {
    pub(crate) fn churn(
        &self,
        history: &ChangeHistory,
        options: &HealthOptions,
        thresholds: &HealthThresholds,
    ) -> ChurnFindings {
        // An older name of a file → its name at HEAD (`None`: deleted since).
        let mut head_names: HashMap<&str, Option<&str>> = HashMap::new();
        let mut files: BTreeMap<&str, FileChurn> = BTreeMap::new();
        let mut changed_together: Vec<Vec<&str>> = Vec::new();
        let mut commits_counted = 0;
        for commit in &history.commits {
            let mut changed: BTreeSet<&str> = BTreeSet::new();
            // Each file's name at HEAD as the newer commits left the names; then this
            // commit's renames and deletions, for the older ones.
            let heads: Vec<Option<&str>> = commit
                .files
                .iter()
                .map(|file| head_names.get(file.path.as_str()).copied().unwrap_or(Some(&file.path)))
                .collect();
            for (file, head) in commit.files.iter().zip(&heads) {
                if file.deleted {
                    head_names.insert(&file.path, None);
                } else if let Some(old) = &file.renamed_from {
                    head_names.insert(old, *head);
                }
            }
            for (file, head) in commit.files.iter().zip(heads) {
                // A deletion, or a rename alone, changes no line of a file HEAD has.
                if file.deleted || file.hunks.is_empty() {
                    continue;
                }
                let Some(head) = head.filter(|head| self.is_churn_file(head)) else { continue };
                let churn = files.entry(head).or_default();
                if churn.later_hunks.len() < MOST_LATER_COMMITS_MAPPED {
                    for symbol in self.symbols_touched(head, &file.hunks, &churn.later_hunks) {
                        *churn.symbol_commits.entry(symbol).or_default() += 1;
                    }
                }
                churn.later_hunks.push(&file.hunks);
                if changed.insert(head) {
                    churn.commits += 1;
                    churn.authors.insert(&commit.author);
                    churn.last_changed.get_or_insert(commit.time);
                }
                let (added, deleted) = file.lines_added_and_deleted();
                churn.lines_added += added;
                churn.lines_deleted += deleted;
            }
            if !changed.is_empty() {
                commits_counted += 1;
                changed_together.push(changed.into_iter().collect());
            }
        }
        let mut unresolved_calls: HashMap<&str, usize> = HashMap::new();
        for call in self.unresolved() {
            *unresolved_calls.entry(call.path.as_str()).or_default() += 1;
        }
        let mut hotspots: Vec<ChurnHotspot> = files
            .iter()
            .filter(|(path, churn)| {
                churn.commits >= thresholds.churn_min_commits
                    && Snapshot::in_health_folder(path, options)
            })
            .map(|(path, churn)| {
                let unresolved = unresolved_calls.get(path).copied().unwrap_or(0);
                self.hotspot(path, churn, unresolved)
            })
            .collect();
        hotspots.sort_by(|a, b| {
            b.score.cmp(&a.score).then(b.commits.cmp(&a.commits)).then_with(|| a.path.cmp(&b.path))
        });
        let change_coupling = change_coupling(&changed_together, &files, options, thresholds);
        ChurnFindings { hotspots, change_coupling, commits_counted }
    }

    /// A file churn counts: one the graph holds that is not test code (a test module, or a
    /// file of tests only).
    fn is_churn_file(&self, path: &str) -> bool {
        let symbols = self.symbols_in_file(path);
        let test_module = crate::health::module_of_file(self, path)
            .is_some_and(|module| self.is_test_code(module));
        !symbols.is_empty()
            && !test_module
            && !symbols.iter().all(|index| self.is_test_code(*index))
    }

    /// The innermost symbols of HEAD's `path` that the hunks' new lines (carried to HEAD
    /// through `later_hunks`) touch; a deletion touches the line before it.
    fn symbols_touched(
        &self,
        path: &str,
        hunks: &[Hunk],
        later_hunks: &[&[Hunk]],
    ) -> BTreeSet<SymbolIndex> {
        let symbols = self.symbols_in_file(path);
        let mut touched: BTreeSet<SymbolIndex> = BTreeSet::new();
        for hunk in hunks {
            let first = hunk.new_start.max(1);
            let last = first.saturating_add(hunk.new_count.saturating_sub(1));
            let (first, last) = (line_at_head(first, later_hunks), line_at_head(last, later_hunks));
            let (first, last) = (first.min(last), first.max(last));
            let here: Vec<SymbolIndex> = symbols
                .iter()
                .copied()
                .filter(|index| {
                    let symbol = self.symbol(*index);
                    symbol.kind != SymbolKind::Module
                        && symbol.span.start_line <= last
                        && symbol.span.end_line >= first
                })
                .collect();
            let parents: BTreeSet<_> =
                here.iter().filter_map(|index| self.symbol(*index).parent).collect();
            touched.extend(
                here.into_iter().filter(|index| !parents.contains(&self.symbol(*index).id)),
            );
        }
        touched
    }

    fn hotspot(&self, path: &str, churn: &FileChurn, unresolved_calls: usize) -> ChurnHotspot {
        let symbols: Vec<SymbolIndex> = self
            .symbols_in_file(path)
            .iter()
            .copied()
            .filter(|index| self.symbol(*index).kind != SymbolKind::Module)
            .collect();
        let resolved_calls: usize =
            symbols.iter().map(|index| self.outgoing(*index, &[EdgeKind::Calls]).count()).sum();
        let call_sites = resolved_calls + unresolved_calls;
        let lines = self
            .symbols_in_file(path)
            .iter()
            .map(|index| self.symbol(*index).span.end_line)
            .max()
            .unwrap_or(0);
        let complexity = symbols.len() + call_sites;
        let mut hottest: Vec<SymbolChurn> = churn
            .symbol_commits
            .iter()
            .map(|(symbol, commits)| SymbolChurn { symbol: *symbol, commits: *commits })
            .collect();
        hottest.sort_by(|a, b| {
            let line = |churn: &SymbolChurn| self.symbol(churn.symbol).span.start_line;
            b.commits.cmp(&a.commits).then_with(|| line(a).cmp(&line(b)))
        });
        hottest.truncate(HOTTEST_SYMBOLS);
        ChurnHotspot {
            path: path.to_string(),
            commits: churn.commits,
            authors: churn.authors.len(),
            lines_added: churn.lines_added,
            lines_deleted: churn.lines_deleted,
            last_changed: churn.last_changed.unwrap_or(0),
            symbols: symbols.len(),
            call_sites,
            lines,
            complexity,
            score: churn.commits * complexity,
            hottest,
        }
    }
}

/// A line of a file's version after some commit, where HEAD has it: carried through the
/// later commits' hunks, oldest first. A line a later commit rewrote lands on the start of
/// what replaced it.
pub(crate) fn line_at_head(line: u32, later_hunks: &[&[Hunk]]) -> u32 {
    later_hunks.iter().rev().fold(line, |line, hunks| line_after(line, hunks))
}

/// Where `line` of a commit's old side is on its new side.
fn line_after(line: u32, hunks: &[Hunk]) -> u32 {
    let mut shift: i64 = 0;
    for hunk in hunks {
        let old_end = hunk.old_start.saturating_add(hunk.old_count); // one past the last old line
        let before = if hunk.old_count == 0 { hunk.old_start < line } else { old_end <= line };
        if before {
            shift += i64::from(hunk.new_count) - i64::from(hunk.old_count);
        } else if hunk.old_count > 0 && hunk.old_start <= line {
            return hunk.new_start.max(1);
        } else {
            break;
        }
    }
    (i64::from(line) + shift).clamp(1, i64::from(u32::MAX)) as u32
}

/// Pairs of files that changed together in at least the thresholds' share of their commits
/// and number of times, commits of too many files left out (a reformat, a rename sweep).
fn change_coupling(
    changed_together: &[Vec<&str>],
    files: &BTreeMap<&str, FileChurn>,
    options: &HealthOptions,
    thresholds: &HealthThresholds,
) -> Vec<ChangeCoupling> {
    let mut together: HashMap<(&str, &str), usize> = HashMap::new();
    for changed in changed_together.iter().filter(|changed| {
        changed.len() > 1 && changed.len() <= thresholds.change_coupling_max_files
    }) {
        for (position, first) in changed.iter().enumerate() {
            for second in &changed[position + 1..] {
                *together.entry((first, second)).or_default() += 1;
            }
        }
    }
    let mut pairs: Vec<ChangeCoupling> = together
        .into_iter()
        .filter(|(_, together)| *together >= thresholds.change_coupling_min_commits)
        .filter(|((first, second), _)| {
            Snapshot::in_health_folder(first, options)
                || Snapshot::in_health_folder(second, options)
        })
        .filter_map(|((first, second), together)| {
            let first_commits = files.get(first)?.commits;
            let second_commits = files.get(second)?.commits;
            let degree = 2.0 * together as f32 / (first_commits + second_commits) as f32;
            (degree * 100.0 >= thresholds.change_coupling_min_percent as f32).then(|| {
                ChangeCoupling {
                    first: first.to_string(),
                    second: second.to_string(),
                    together,
                    first_commits,
                    second_commits,
                    degree,
                }
            })
        })
        .collect();
    pairs.sort_by(|a, b| {
        b.degree
            .total_cmp(&a.degree)
            .then(b.together.cmp(&a.together))
            .then_with(|| (&a.first, &a.second).cmp(&(&b.first, &b.second)))
    });
    pairs
}

#[cfg(test)]
mod tests {
    use super::{line_at_head, Hunk};

    fn hunk(old_start: u32, old_count: u32, new_start: u32, new_count: u32) -> Hunk {
        Hunk { old_start, old_count, new_start, new_count }
    }

    #[test]
    fn lines_are_carried_through_later_insertions_deletions_and_rewrites() {
        // Newest first: the newer commit inserted 3 lines after line 2; the older one (applied
        // first) deleted lines 10..=11.
        let newer = [hunk(2, 0, 3, 3)];
        let older = [hunk(10, 2, 9, 0)];
        let later: [&[Hunk]; 2] = [&newer, &older];
        assert_eq!(line_at_head(1, &later), 1);
        assert_eq!(line_at_head(5, &later), 8);
        // Line 12 moves up 2 (the deletion), then down 3 (the insertion).
        assert_eq!(line_at_head(12, &later), 13);
        // A rewritten line lands where its replacement starts.
        let rewrite = [hunk(4, 2, 4, 5)];
        assert_eq!(line_at_head(5, &[&rewrite]), 4);
        assert_eq!(line_at_head(6, &[&rewrite]), 9);
    }
}
