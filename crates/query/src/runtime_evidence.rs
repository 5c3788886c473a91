//! Runtime evidence in answers: the tests a coverage tool saw executing a symbol's lines.
//! Evidence only adds tests to a blast; it never removes one nor makes an answer exact.
//! Evidence for a file whose content changed since it was recorded is marked stale.

use std::sync::{Arc, Mutex, Weak};
use tether_model::IgnoringPoison;

use rustc_hash::FxHashMap;
use tether_model::RuntimeEvidence;

use crate::snapshot::{Snapshot, SymbolIndex};

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
        for symbol in symbols {
            let symbol = self.symbol(*symbol);
            let Some(file) = evidence.files.get(&symbol.path) else { continue };
            let stale = self
                .graph
                .files
                .iter()
                .find(|record| record.path == symbol.path)
                .is_none_or(|record| record.content_hash != file.content_hash);
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
