//! Which symbols are tests the runner collects, and which collected test a piece of test code
//! runs in. `Symbol::is_test` marks test code (a test, and everything written inside a test,
//! a test class or a `#[cfg(test)]` module); only some of it is a test a runner collects and
//! an agent can run: pytest's `test…` functions at a test module's top level and `test…`
//! methods of a test class (`queries/python/test_framework.txt`), cargo's test functions.
//!
//! It deliberately does not read attributes: a free function of a `#[cfg(test)]` module with
//! no `#[test]` (a helper) is still taken as a test, because the graph does not keep which
//! attribute made a Rust function test code. Nor does it read the project's own pytest
//! settings (`python_functions` in `pytest.ini`): the framework's defaults are used.

use tether_model::{Language, SymbolKind, TestFramework};

use crate::snapshot::{Snapshot, SymbolIndex};

impl Snapshot {
    /// Whether the test runner collects this symbol as a test: not a class, a lambda, a
    /// helper method or a function written inside another function.
    pub(crate) fn is_runnable_test(&self, index: SymbolIndex) -> bool {
        let symbol = self.symbol(index);
        if !symbol.is_test {
            return false;
        }
        let parent = symbol.parent.and_then(|parent| self.index_of(parent)).map(|p| self.symbol(p));
        match symbol.language {
            Language::Python => {
                TestFramework::python().is_test_function_name(&symbol.name)
                    && match symbol.kind {
                        SymbolKind::Function => {
                            parent.is_none_or(|parent| parent.kind == SymbolKind::Module)
                        }
                        SymbolKind::Method => parent.is_some_and(|parent| {
                            parent.kind == SymbolKind::Class && parent.is_test
                        }),
                        _ => false,
                    }
            }
            Language::Rust => {
                symbol.kind == SymbolKind::Function
                    && parent.is_none_or(|parent| !parent.kind.is_callable())
            }
        }
    }

    /// The collected test that a reached piece of test code runs in: itself when the runner
    /// collects it, else the nearest enclosing test (a function defined in a test's body runs
    /// in that test); none for test code outside any test (a helper, a test class itself).
    pub(crate) fn enclosing_runnable_test(&self, index: SymbolIndex) -> Option<SymbolIndex> {
        if self.stands_for_unnamed_tests(index) {
            return Some(index);
        }
        let mut current = index;
        loop {
            let symbol = self.symbol(current);
            if !symbol.is_test {
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
}
