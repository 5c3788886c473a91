//! Runtime evidence in answers: the tests a coverage tool saw executing a symbol's lines.
//! Evidence only adds tests to a blast; it never removes one nor makes an answer exact.
//! Evidence for a symbol whose text changed since it was recorded is marked stale; an edit
//! elsewhere in its file leaves it fresh, read at the lines the symbol had then.

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

/// The lines of a symbol that run when it is used, where evidence for it is read (first, last;
/// first > last for none): a Python function's body (its decorators and `def` run when its
/// module is imported, under whichever test imported it); none of a Python class's own (its
/// statements run at import; its methods are read each for itself); all of anything else.
fn lines_run_when_called(symbol: &tether_model::Symbol) -> (u32, u32) {
    let (first, last) = (symbol.span.start_line, symbol.span.end_line);
    if symbol.language != tether_model::Language::Python {
        return (first, last);
    }
    match symbol.kind {
        tether_model::SymbolKind::Class => (last + 1, last),
        _ if symbol.body_start_line > first => (symbol.body_start_line.min(last), last),
        _ => (first, last),
    }
}

/// Whether each file's evidence was recorded from the file as it is now, asked once per answer.
pub(crate) type FileStates = FxHashMap<String, bool>;

/// The evidence for one symbol, and the lines (first, last) it is read at.
enum SeedEvidence {
    Fresh { first: u32, last: u32 },
    Stale { first: u32, last: u32 },
    NotRecorded,
}

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

    /// How the evidence stands for these seeds: fresh when each seed's evidence is (its file
    /// unchanged since the recording, or its own text unchanged), stale when one's is not,
    /// not recorded when one's file is missing from it.
    pub(crate) fn subject_evidence(
        &self,
        seeds: &[SymbolIndex],
        evidence: &RuntimeEvidence,
        file_states: &mut FileStates,
    ) -> SubjectEvidence {
        let mut state = SubjectEvidence::Fresh;
        for seed in seeds {
            match self.seed_evidence(*seed, evidence, file_states) {
                SeedEvidence::Fresh { .. } => {}
                SeedEvidence::Stale { .. } => return SubjectEvidence::Stale,
                SeedEvidence::NotRecorded => state = SubjectEvidence::NotRecorded,
            }
        }
        state
    }

    /// The evidence for one symbol and the lines to read it at: fresh at its lines when its
    /// file is as recorded; fresh at the lines it had then when only its own text is (an edit
    /// elsewhere in the file, which may have moved it); else stale.
    fn seed_evidence(
        &self,
        seed: SymbolIndex,
        evidence: &RuntimeEvidence,
        file_states: &mut FileStates,
    ) -> SeedEvidence {
        let symbol = self.symbol(seed);
        let Some(recorded) = evidence.files.get(&symbol.path) else {
            return SeedEvidence::NotRecorded;
        };
        let file_fresh = *file_states.entry(symbol.path.clone()).or_insert_with(|| {
            self.graph
                .files
                .iter()
                .find(|record| record.path == symbol.path)
                .is_some_and(|record| record.content_hash == recorded.content_hash)
        });
        let (first, last) = lines_run_when_called(symbol);
        if file_fresh {
            return SeedEvidence::Fresh { first, last };
        }
        match recorded.unchanged_symbol(&symbol.qualified_name, symbol.content_hash) {
            // Recorded from the same place: the body's first line then.
            Some(then) => SeedEvidence::Fresh {
                first: if first > last { then.last_line + 1 } else { then.first_line },
                last: then.last_line,
            },
            None => SeedEvidence::Stale { first, last },
        }
    }

    /// Whether the evidence recorded a line of the symbol running, read at the lines the
    /// symbol had when it was recorded (stale evidence at today's: it ran once).
    pub(crate) fn ran_at_runtime(
        &self,
        index: SymbolIndex,
        evidence: &RuntimeEvidence,
        file_states: &mut FileStates,
    ) -> bool {
        let (first, last) = match self.seed_evidence(index, evidence, file_states) {
            SeedEvidence::Fresh { first, last } | SeedEvidence::Stale { first, last } => {
                (first, last)
            }
            SeedEvidence::NotRecorded => return false,
        };
        !evidence.contexts_executing(&self.symbol(index).path, first, last).is_empty()
    }

    /// The tests whose recorded execution covered any line of these symbols, each once, with
    /// whether the evidence for it is stale (the symbol's text changed since, or its file did
    /// and the evidence kept no symbols).
    pub(crate) fn tests_executing(
        &self,
        symbols: &[SymbolIndex],
        evidence: &Arc<RuntimeEvidence>,
        file_states: &mut FileStates,
    ) -> Vec<(SymbolIndex, bool)> {
        let tests_of_contexts = self.tests_of_contexts(evidence);
        let mut found: Vec<(SymbolIndex, bool)> = Vec::new();
        let mut position: FxHashMap<SymbolIndex, usize> = FxHashMap::default();
        for index in symbols {
            let (first, last, stale) = match self.seed_evidence(*index, evidence, file_states) {
                SeedEvidence::Fresh { first, last } => (first, last, false),
                SeedEvidence::Stale { first, last } => (first, last, true),
                SeedEvidence::NotRecorded => continue,
            };
            let path = &self.symbol(*index).path;
            for context in evidence.contexts_executing(path, first, last) {
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
        let context = tether_model::context_without_phase(context);
        let is_test = |index: &SymbolIndex| self.symbol(*index).is_test;
        if let Some((root_file, test_path)) = context.split_once(".rs::") {
            return self.rust_test_of_context(&format!("{root_file}.rs"), test_path);
        }
        if let Some((path, names)) = context.split_once("::") {
            let names: Vec<&str> =
                names.split("::").map(|name| name.split('[').next().unwrap_or(name)).collect();
            let suffix = names.join(".");
            let named = |index: &SymbolIndex, suffix: &str| {
                let qualified = &self.symbol(*index).qualified_name;
                qualified == suffix || qualified.ends_with(&format!(".{suffix}"))
            };
            let own = self.symbols_in_file(path).iter().copied().filter(is_test);
            if let Some(test) = own.clone().find(|index| named(index, &suffix)) {
                return Some(test);
            }
            // `TestChild::test_x` inherited from a base: the base's method runs as it.
            let (method, class) = names.split_last()?;
            let class = class.join(".");
            return own
                .filter(|index| self.symbol(*index).kind == tether_model::SymbolKind::Class)
                .filter(|index| named(index, &class))
                .find_map(|index| self.inherited_test_method(index, method));
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
