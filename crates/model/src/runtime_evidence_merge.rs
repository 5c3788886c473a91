//! Merging a partial recording into the evidence kept (`tether coverage run --only`): the
//! tests the new recording ran replace their old evidence; every other test's is kept. A test
//! is its context without the phase a runner appends (`path::test|run` and `path::test|setup`
//! are one test).
//!
//! Kept evidence for a file recorded from other content than the new recording's is dropped
//! for that file: its lines would name another version of it. Pure: no IO.

use std::collections::{BTreeMap, BTreeSet};

use crate::runtime_evidence::{EvidenceFile, RuntimeEvidence};

/// The phases coverage tools append to a test's context.
const PHASES: [&str; 3] = ["|run", "|setup", "|teardown"];

/// What a merge kept and dropped, for the answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct MergeCounts {
    /// Tests of the kept evidence the new recording did not run, still in force.
    pub tests_kept: usize,
    /// Tests of the kept evidence the new recording ran again, replaced.
    pub tests_replaced: usize,
    /// Files whose kept evidence was dropped: recorded from content other than now.
    pub files_dropped: usize,
}

/// The test a context names: the context without the phase a runner appends.
pub fn context_without_phase(context: &str) -> &str {
    PHASES.iter().find_map(|phase| context.strip_suffix(phase)).unwrap_or(context)
}

impl RuntimeEvidence {
    /// `recorded` merged into `self` (the evidence kept): `recorded`'s commit, files and
    /// symbols, its tests' lines, and the lines of every other test kept where the file's
    /// content is the same.
    pub fn merged_with(&self, recorded: RuntimeEvidence) -> (RuntimeEvidence, MergeCounts) {
        let rerun: BTreeSet<&str> =
            recorded.contexts.iter().map(|context| context_without_phase(context)).collect();
        let mut counts = MergeCounts::default();
        let mut kept_tests: BTreeSet<&str> = BTreeSet::new();
        let mut replaced_tests: BTreeSet<&str> = BTreeSet::new();
        // The kept contexts, renumbered after the recorded ones.
        let mut merged = RuntimeEvidence {
            commit: recorded.commit.clone(),
            contexts: recorded.contexts.clone(),
            files: BTreeMap::new(),
        };
        let mut renumbered: Vec<Option<u32>> = Vec::with_capacity(self.contexts.len());
        for context in &self.contexts {
            let test = context_without_phase(context);
            if rerun.contains(test) {
                replaced_tests.insert(test);
                renumbered.push(None);
            } else {
                kept_tests.insert(test);
                merged.contexts.push(context.clone());
                renumbered.push(Some(merged.contexts.len() as u32 - 1));
            }
        }
        counts.tests_kept = kept_tests.len();
        counts.tests_replaced = replaced_tests.len();
        let kept_lines = |file: &EvidenceFile, into: &mut EvidenceFile| {
            for (line, contexts) in &file.lines {
                let ids = contexts
                    .iter()
                    .filter_map(|context| renumbered.get(*context as usize).copied().flatten());
                let merged_line = into.lines.entry(*line).or_default();
                merged_line.extend(ids);
                merged_line.sort_unstable();
                merged_line.dedup();
            }
            into.lines.retain(|_, contexts| !contexts.is_empty());
        };
        for (path, file) in recorded.files {
            let mut file = file;
            match self.files.get(&path) {
                Some(old) if old.content_hash == file.content_hash => kept_lines(old, &mut file),
                Some(_) => counts.files_dropped += 1,
                None => {}
            }
            merged.files.insert(path, file);
        }
        for (path, old) in &self.files {
            if merged.files.contains_key(path) {
                continue;
            }
            let mut file = EvidenceFile {
                content_hash: old.content_hash,
                lines: BTreeMap::new(),
                symbols: old.symbols.clone(),
            };
            kept_lines(old, &mut file);
            merged.files.insert(path.clone(), file);
        }
        (merged, counts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as (path, content hash, executed lines with their context numbers).
    type FileLines<'a> = (&'a str, u64, &'a [(u32, &'a [u32])]);

    fn evidence(contexts: &[&str], files: &[FileLines<'_>]) -> RuntimeEvidence {
        RuntimeEvidence {
            commit: Some("c".into()),
            contexts: contexts.iter().map(|context| context.to_string()).collect(),
            files: files
                .iter()
                .map(|(path, hash, lines)| {
                    let file = EvidenceFile {
                        content_hash: *hash,
                        lines: lines.iter().map(|(line, ids)| (*line, ids.to_vec())).collect(),
                        symbols: Vec::new(),
                    };
                    (path.to_string(), file)
                })
                .collect(),
        }
    }

    #[test]
    fn rerun_tests_replace_their_evidence_and_the_others_stay() {
        let kept = evidence(
            &["t.py::a|run", "t.py::b|run", "t.py::b|setup"],
            &[("x.py", 1, &[(3, &[0, 1]), (4, &[2])]), ("y.py", 7, &[(9, &[1])])],
        );
        // `b` ran again: it no longer executes line 3, now line 5; `a` is kept.
        let recorded = evidence(&["t.py::b|run"], &[("x.py", 1, &[(5, &[0])])]);
        let (merged, counts) = kept.merged_with(recorded);
        assert_eq!(merged.contexts, ["t.py::b|run", "t.py::a|run"]);
        assert_eq!(merged.contexts_executing("x.py", 3, 3), vec![1]);
        assert_eq!(merged.contexts_executing("x.py", 4, 4), Vec::<u32>::new());
        assert_eq!(merged.contexts_executing("x.py", 5, 5), vec![0]);
        // A file the new run did not record keeps only the kept tests' lines.
        assert_eq!(merged.contexts_executing("y.py", 9, 9), Vec::<u32>::new());
        assert_eq!(counts, MergeCounts { tests_kept: 1, tests_replaced: 1, files_dropped: 0 });
    }

    #[test]
    fn kept_lines_of_a_file_recorded_from_other_content_are_dropped() {
        let kept = evidence(&["t.py::a|run"], &[("x.py", 1, &[(3, &[0])])]);
        let recorded = evidence(&["t.py::b|run"], &[("x.py", 2, &[(5, &[0])])]);
        let (merged, counts) = kept.merged_with(recorded);
        assert_eq!(merged.contexts_executing("x.py", 3, 3), Vec::<u32>::new());
        assert_eq!(merged.files["x.py"].content_hash, 2);
        assert_eq!(counts.files_dropped, 1);
    }
}
