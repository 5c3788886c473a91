//! Runtime evidence in answers: the tests a coverage tool saw executing a symbol's lines.
//! Evidence only adds tests to a blast; it never removes one nor makes an answer exact.
//! Evidence for a file whose content changed since it was recorded is marked stale.

use std::sync::{Arc, Mutex, Weak};
use tether_model::IgnoringPoison;

use rustc_hash::FxHashMap;
use tether_model::RuntimeEvidence;

use crate::snapshot::{Snapshot, SymbolIndex};

/// How runtime evidence stands for a blast's subject; it decides whether the tests affected
/// are split in tiers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SubjectEvidence {
    /// Each seed's file was recorded and is unchanged since: the tests are split in tiers.
    Fresh,
    /// A seed's file changed since it was recorded: one tier, and the answer says so.
    Stale,
    /// A seed's file is not in the evidence (the coverage run did not measure it).
    NotRecorded,
}

impl SubjectEvidence {
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectEvidence::Fresh => "fresh",
            SubjectEvidence::Stale => "stale",
            SubjectEvidence::NotRecorded => "not_recorded",
        }
    }
}

/// A listed test's tier, when fresh evidence splits the answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TestTier {
    /// Fresh evidence saw it execute the subject: it breaks if the change breaks.
    Ran,
    /// The graph reaches it but it was not seen executing the subject: it may break.
    Reachable,
}

impl TestTier {
    pub fn as_str(self) -> &'static str {
        match self {
            TestTier::Ran => "ran",
            TestTier::Reachable => "reachable",
        }
    }
}

/// The phases pytest-cov appends to a test's context.
const PHASES: [&str; 3] = ["|run", "|setup", "|teardown"];

/// Each context's test (`None`: no test of this graph), for one evidence: the evidence is
/// held weakly, so a memo can never answer for another evidence at the same address.
#[derive(Clone, Default)]
pub(crate) struct EvidenceTestsMemo(Arc<Mutex<Option<MemoizedTests>>>);

type MemoizedTests = (Weak<RuntimeEvidence>, Arc<Vec<Option<SymbolIndex>>>);

impl Snapshot {
    /// Each of `evidence`'s contexts mapped to its test once per graph and evidence, so an
    /// answer's cost follows the lines it reads, not how many tests the evidence names.
    fn tests_of_contexts(&self, evidence: &Arc<RuntimeEvidence>) -> Arc<Vec<Option<SymbolIndex>>> {
        let memo = &self.evidence_tests.0;
        let held = memo.lock().ignoring_poison().clone();
        if let Some((held, tests)) = held {
            if Weak::ptr_eq(&held, &Arc::downgrade(evidence)) {
                return tests;
            }
        }
        // Mapped outside the lock: other answers are not held up meanwhile.
        let tests: Arc<Vec<Option<SymbolIndex>>> = Arc::new(
            evidence.contexts.iter().map(|context| self.test_of_context(context)).collect(),
        );
        *memo.lock().ignoring_poison() = Some((Arc::downgrade(evidence), Arc::clone(&tests)));
        tests
    }

    /// How the evidence stands for these seeds: fresh when each seed's file was recorded and
    /// has not changed since, stale when one changed, not recorded when one is missing from it.
    pub(crate) fn subject_evidence(
        &self,
        seeds: &[SymbolIndex],
        evidence: &RuntimeEvidence,
    ) -> SubjectEvidence {
        let mut paths: Vec<&str> =
            seeds.iter().map(|seed| self.symbol(*seed).path.as_str()).collect();
        paths.sort_unstable();
        paths.dedup();
        let mut state = SubjectEvidence::Fresh;
        for path in paths {
            match self.evidence_file_state(path, evidence) {
                Some(true) => {}
                Some(false) => return SubjectEvidence::Stale,
                None => state = SubjectEvidence::NotRecorded,
            }
        }
        state
    }

    /// Whether the evidence recorded `path` as it is now: `Some(true)` fresh, `Some(false)`
    /// changed since, `None` not recorded.
    fn evidence_file_state(&self, path: &str, evidence: &RuntimeEvidence) -> Option<bool> {
        let recorded = evidence.files.get(path)?;
        Some(
            self.graph
                .files
                .iter()
                .find(|record| record.path == path)
                .is_some_and(|record| record.content_hash == recorded.content_hash),
        )
    }

    /// The tests whose recorded execution covered any line of these symbols, each once, with
    /// whether the evidence for that symbol's file is stale (the file changed since).
    pub(crate) fn tests_executing(
        &self,
        symbols: &[SymbolIndex],
        evidence: &Arc<RuntimeEvidence>,
    ) -> Vec<(SymbolIndex, bool)> {
        let tests_of_contexts = self.tests_of_contexts(evidence);
        let mut found: Vec<(SymbolIndex, bool)> = Vec::new();
        let mut position: FxHashMap<SymbolIndex, usize> = FxHashMap::default();
        let mut file_states: FxHashMap<&str, Option<bool>> = FxHashMap::default();
        for symbol in symbols {
            let symbol = self.symbol(*symbol);
            let fresh = *file_states
                .entry(symbol.path.as_str())
                .or_insert_with(|| self.evidence_file_state(&symbol.path, evidence));
            let Some(fresh) = fresh else { continue };
            let stale = !fresh;
            for context in evidence.contexts_executing(
                &symbol.path,
                symbol.span.start_line,
                symbol.span.end_line,
            ) {
                let Some(Some(test)) = tests_of_contexts.get(context as usize).copied() else {
                    continue;
                };
                match position.get(&test) {
                    Some(at) => found[*at].1 &= stale,
                    None => {
                        position.insert(test, found.len());
                        found.push((test, stale));
                    }
                }
            }
        }
        found
    }

    /// The test symbol a coverage context names: pytest-cov's `path::Class::test[param]|run`,
    /// coverage.py's `dynamic_context = test_function` dotted name (`tests.test_a.test_b`), or
    /// a Rust test as `tether coverage cargo` names it: the test crate's root file, then
    /// libtest's path of the test inside that crate (`src/lib.rs::glob::tests::matchrec1`).
    pub fn test_of_context(&self, context: &str) -> Option<SymbolIndex> {
        let context =
            PHASES.iter().find_map(|phase| context.strip_suffix(phase)).unwrap_or(context);
        let is_test = |index: &SymbolIndex| self.symbol(*index).is_test;
        if let Some((root_file, test_path)) = context.split_once(".rs::") {
            return self.rust_test_of_context(&format!("{root_file}.rs"), test_path);
        }
        if let Some((path, names)) = context.split_once("::") {
            let names: Vec<&str> =
                names.split("::").map(|name| name.split('[').next().unwrap_or(name)).collect();
            let suffix = names.join(".");
            return self.symbols_in_file(path).iter().copied().filter(is_test).find(|index| {
                let qualified = &self.symbol(*index).qualified_name;
                qualified == &suffix || qualified.ends_with(&format!(".{suffix}"))
            });
        }
        let segments: Vec<&str> = context.split('.').collect();
        (0..segments.len()).find_map(|start| {
            self.symbols_named(&segments[start..].join(".")).iter().copied().find(is_test)
        })
    }

    /// A Rust test by its crate root file and libtest path: the crate's module (the root
    /// file's outermost module symbol) joined with the path, else the one test under the
    /// root's folder whose qualified name ends with the path (a crate whose modules tether
    /// names otherwise).
    fn rust_test_of_context(&self, root_file: &str, test_path: &str) -> Option<SymbolIndex> {
        let is_test = |index: &SymbolIndex| self.symbol(*index).is_test;
        let crate_module = self
            .symbols_in_file(root_file)
            .iter()
            .map(|index| self.symbol(*index))
            .filter(|symbol| symbol.kind == tether_model::SymbolKind::Module)
            .min_by_key(|symbol| symbol.qualified_name.len());
        if let Some(crate_module) = crate_module {
            if let Some(test) = self
                .symbols_named(&format!("{}::{test_path}", crate_module.qualified_name))
                .iter()
                .copied()
                .find(is_test)
            {
                return Some(test);
            }
        }
        let folder = root_file.rsplit_once('/').map_or("", |(folder, _)| folder);
        let suffix = format!("::{test_path}");
        let mut found = self
            .by_path
            .iter()
            .filter(|(path, _)| folder.is_empty() || path.starts_with(&format!("{folder}/")))
            .flat_map(|(_, symbols)| symbols.iter().copied())
            .filter(|index| {
                is_test(index) && self.symbol(*index).qualified_name.ends_with(&suffix)
            });
        let first = found.next()?;
        found.next().is_none().then_some(first)
    }
}
