//! Which symbols are tests the runner collects, and which collected test a piece of test code
//! runs in. `Symbol::is_test` marks test code (a test, and everything written inside a test,
//! a test class or a `#[cfg(test)]` module); only some of it is a test a runner collects and
//! an agent can run: pytest's `test…` functions at a test module's top level and `test…`
//! methods of a test class (`queries/python/test_framework.txt`), cargo's test functions.
//!
//! The extractor decides (`Symbol::runs_as_test`): a Rust free function of a `#[cfg(test)]`
//! module with no `#[test]` is a helper, test code but not a test.
//!
//! It deliberately does not read the project's own pytest settings (`python_functions` in
//! `pytest.ini`): the framework's defaults are used.

use tether_model::{Language, SymbolKind};

use crate::snapshot::{Snapshot, SymbolIndex};

impl Snapshot {
    /// Whether the test runner collects this symbol as a test: not a class, a lambda, a
    /// helper or a function written inside another function.
    pub(crate) fn is_runnable_test(&self, index: SymbolIndex) -> bool {
        self.symbol(index).runs_as_test || self.is_collected_through_a_subclass(index)
    }

    /// The collected test that a reached piece of test code runs in: itself when the runner
    /// collects it, else the nearest enclosing test (a function defined in a test's body runs
    /// in that test); none for test code outside any test (a helper, a test class itself).
    /// A base method test classes inherit as tests is collected though it is no test code of
    /// its own (a mixin's `test_…`).
    pub(crate) fn enclosing_runnable_test(&self, index: SymbolIndex) -> Option<SymbolIndex> {
        if self.stands_for_unnamed_tests(index) {
            return Some(index);
        }
        let mut current = index;
        loop {
            let symbol = self.symbol(current);
            if !symbol.is_test && !self.holds_inherited_tests(&symbol.path) {
                return None;
            }
            if self.is_runnable_test(current) {
                return Some(current);
            }
            current = symbol.parent.and_then(|parent| self.index_of(parent))?;
        }
    }

    /// A Rust test module reached itself (code at its top level, a macro invocation that
    /// writes tests, depends on the change) stands for the tests tether cannot name there;
    /// `cargo test module::` runs them. Reached only through what it contains, it does not.
    fn stands_for_unnamed_tests(&self, index: SymbolIndex) -> bool {
        let symbol = self.symbol(index);
        symbol.is_test && symbol.language == Language::Rust && symbol.kind == SymbolKind::Module
    }

    /// The names a listed test's runner selects it by: pytest's node id (the file, then the
    /// names inside its module: `tests/test_a.py::TestA::test_b`), one per test class that
    /// collects it when it is inherited; or libtest's path inside the test crate (the
    /// qualified name without the crate: `parser::tests::parses`; a test module stands for the
    /// tests under it). Empty for a symbol that is no test.
    pub fn runner_test_ids(&self, index: SymbolIndex) -> Vec<String> {
        let symbol = self.symbol(index);
        match symbol.language {
            Language::Python => {
                let mut ids: Vec<String> = Vec::new();
                if symbol.runs_as_test {
                    ids.extend(self.python_node_id(index, None));
                }
                for class in self.classes_collecting(index) {
                    ids.extend(self.python_node_id(*class, Some(&symbol.name)));
                }
                ids
            }
            Language::Rust if symbol.is_test => symbol
                .qualified_name
                .split_once("::")
                .map(|(_, inside)| inside.to_string())
                .into_iter()
                .collect(),
            Language::Rust => Vec::new(),
        }
    }

    /// pytest's node id of a symbol of a test file (then `::member` when given): the file,
    /// then the names inside its module.
    fn python_node_id(&self, index: SymbolIndex, member: Option<&str>) -> Option<String> {
        let symbol = self.symbol(index);
        let module = self
            .symbols_in_file(&symbol.path)
            .iter()
            .map(|module| self.symbol(*module))
            .filter(|module| module.kind == SymbolKind::Module)
            .min_by_key(|module| module.qualified_name.len())?;
        let inside = symbol.qualified_name.strip_prefix(&module.qualified_name)?;
        let inside = inside.strip_prefix('.')?;
        let member = member.map(|member| format!("::{member}")).unwrap_or_default();
        Some(format!("{}::{}{member}", symbol.path, inside.replace('.', "::")))
    }
}
