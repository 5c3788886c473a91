//! Test methods a test class inherits. pytest collects `TestChild::test_x` for each `test_x`
//! the class gets from a base (a mixin that is no test class itself, or another test class),
//! as a test of its own: the base's method runs as that test. So a base method collected this
//! way is a runnable test, listed once, with each collecting class's node id.
//!
//! Built once per snapshot from INHERITS edges (the bases a class's code names, resolved);
//! a base the graph does not resolve (outside the repository) contributes nothing.

use std::sync::{Arc, OnceLock};

use rustc_hash::{FxHashMap, FxHashSet};
use tether_model::{EdgeKind, Language, SymbolKind, TestFramework};

use crate::snapshot::{Snapshot, SymbolIndex};

/// How far up a test class's bases inherited tests are looked for.
const MAX_BASES: usize = 32;

#[derive(Default)]
pub(crate) struct InheritedTests {
    /// A base's test-named method → the test classes that collect it (inherit it without
    /// defining a method of that name themselves or in a nearer base).
    collectors: FxHashMap<SymbolIndex, Vec<SymbolIndex>>,
    /// (collecting test class, method name) → the base method collected.
    collected: FxHashMap<(SymbolIndex, String), SymbolIndex>,
    /// Files holding a collected base method: code nested in one is looked up through it.
    files: FxHashSet<String>,
}

/// Once per snapshot; shared by its clones.
#[derive(Clone, Default)]
pub(crate) struct InheritedTestsMemo(Arc<OnceLock<InheritedTests>>);

impl Snapshot {
    pub(crate) fn inherited_tests(&self) -> &InheritedTests {
        self.inherited_tests.0.get_or_init(|| self.find_inherited_tests())
    }

    /// Whether a test class collects this base method as a test of its own.
    pub(crate) fn is_collected_through_a_subclass(&self, index: SymbolIndex) -> bool {
        self.inherited_tests().collectors.contains_key(&index)
    }

    /// The test classes that collect this base method.
    pub(crate) fn classes_collecting(&self, index: SymbolIndex) -> &[SymbolIndex] {
        self.inherited_tests().collectors.get(&index).map_or(&[], Vec::as_slice)
    }

    /// The base method a test class collects under this name, if it inherits one.
    pub(crate) fn inherited_test_method(
        &self,
        class: SymbolIndex,
        name: &str,
    ) -> Option<SymbolIndex> {
        self.inherited_tests().collected.get(&(class, name.to_string())).copied()
    }

    /// Whether code in this file may be nested in a collected base method.
    pub(crate) fn holds_inherited_tests(&self, path: &str) -> bool {
        self.inherited_tests().files.contains(path)
    }

    fn find_inherited_tests(&self) -> InheritedTests {
        let framework = TestFramework::python();
        let mut found = InheritedTests::default();
        let classes = (0..self.symbols().len() as SymbolIndex).filter(|index| {
            let symbol = self.symbol(*index);
            symbol.kind == SymbolKind::Class
                && symbol.is_test
                && symbol.language == Language::Python
        });
        for class in classes {
            // The names the class defines itself, then each base's, nearest first.
            let mut named: FxHashSet<String> =
                self.children(class).map(|child| self.symbol(child).name.clone()).collect();
            let mut seen: FxHashSet<SymbolIndex> = FxHashSet::default();
            let mut bases: Vec<SymbolIndex> = vec![class];
            let mut position = 0;
            while position < bases.len() && bases.len() <= MAX_BASES {
                let current = bases[position];
                position += 1;
                for edge in self.outgoing(current, &[EdgeKind::Inherits]) {
                    if seen.insert(edge.target) && edge.target != class {
                        bases.push(edge.target);
                    }
                }
            }
            for base in bases.into_iter().skip(1) {
                for method in self.children(base) {
                    let symbol = self.symbol(method);
                    if symbol.kind != SymbolKind::Method
                        || !framework.is_test_function_name(&symbol.name)
                        || !named.insert(symbol.name.clone())
                    {
                        continue;
                    }
                    found.collectors.entry(method).or_default().push(class);
                    found.collected.insert((class, symbol.name.clone()), method);
                    found.files.insert(symbol.path.clone());
                }
            }
        }
        found
    }
}
