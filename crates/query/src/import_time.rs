//! Import-time code: a Python module's top-level statements and class bodies (decorators
//! applied, defaults computed, registries filled) run when the module is imported. When such
//! code reaches a changed symbol, importing the module runs the change: every test of the
//! module depends on it, and so does every module importing it at top level (transitively),
//! with its tests. A `conftest.py` is imported before the tests of its folder and below.
//!
//! Not followed: imports inside functions (they run when the function does, which the call
//! graph already covers) and Rust, whose items run nothing when a module is loaded.

use rustc_hash::FxHashSet as HashSet;

use tether_model::{EdgeKind, Language, SymbolKind};

use crate::snapshot::{Snapshot, SymbolIndex};

impl Snapshot {
    /// The module whose import runs a call made by `caller`, when the call is import-time code
    /// (`caller` is a Python module or class).
    pub(crate) fn import_time_module(&self, caller: SymbolIndex) -> Option<SymbolIndex> {
        let symbol = self.symbol(caller);
        if symbol.language != Language::Python
            || !matches!(symbol.kind, SymbolKind::Module | SymbolKind::Class)
        {
            return None;
        }
        let mut current = caller;
        while self.symbol(current).kind != SymbolKind::Module {
            current = self.symbol(current).parent.and_then(|parent| self.index_of(parent))?;
        }
        Some(current)
    }

    /// The tests that import-time code of `modules` reaches: theirs, those of modules importing
    /// them at top level (transitively), and those under a `conftest.py` among them. Each with
    /// how many imports away it is (1 for a module's own tests).
    pub(crate) fn import_time_tests(&self, modules: &[SymbolIndex]) -> Vec<(SymbolIndex, u32)> {
        let mut seen: HashSet<SymbolIndex> = modules.iter().copied().collect();
        let mut level: Vec<SymbolIndex> = modules.to_vec();
        let mut tests = Vec::new();
        let mut hops = 1;
        while !level.is_empty() {
            let mut next = Vec::new();
            for module in level {
                let path = self.symbol(module).path.as_str();
                // A shared fixture file (`conftest.py`) serves its folder and those below.
                let shared = tether_model::TestFramework::python().shared_fixture_folder(path);
                let files: Vec<&str> = match shared {
                    Some("") => self.files_under(""),
                    Some(folder) => self.files_under(&format!("{folder}/")),
                    None => vec![path],
                };
                for file in files {
                    tests.extend(
                        self.symbols_in_file(file)
                            .iter()
                            .copied()
                            .filter(|symbol| self.is_runnable_test(*symbol))
                            .map(|test| (test, hops)),
                    );
                }
                for symbol in self.symbols_in_file(path) {
                    for edge in self.incoming(*symbol, &[EdgeKind::Imports]) {
                        let importer = edge.source;
                        if self.symbol(importer).kind == SymbolKind::Module && seen.insert(importer)
                        {
                            next.push(importer);
                        }
                    }
                }
            }
            level = next;
            hops += 1;
        }
        tests
    }

    /// The Python files in a folder and below (`""` for the whole tree).
    fn files_under(&self, folder: &str) -> Vec<&str> {
        let mut files: Vec<&str> = self
            .symbols()
            .iter()
            .filter(|symbol| {
                symbol.kind == SymbolKind::Module
                    && symbol.language == Language::Python
                    && symbol.path.starts_with(folder)
            })
            .map(|symbol| symbol.path.as_str())
            .collect();
        files.sort_unstable();
        files.dedup();
        files
    }
}
