//! Pytest fixtures: in a test file or a `conftest.py`, a function's untyped parameter holds
//! what the fixture of the same name returns or yields. Pytest finds that fixture in the
//! same module first, then in the `conftest.py` of the module's folder and of each folder
//! above it; tether looks in the same places.
//!
//! A fixture is recognised by its place and name only (a module-level function), not by its
//! `@pytest.fixture` decorator, which the facts do not link to the function.

use tether_model::{Language, SymbolKind};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// The value pytest passes as parameter `name` of `function`, when it is visible.
    pub(crate) fn pytest_fixture_value(&self, function: Sym, name: &str) -> Option<Denotation> {
        let symbol = self.index.symbol(function);
        if symbol.language != Language::Python || !matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method) || name == "self" || name == "cls" {
            return None;
        }
        let module = self.index.module_of[function as usize];
        let path = self.index.symbol(module).path.as_str();
        let file_name = path.rsplit('/').next().unwrap_or(path);
        let is_pytest_file = file_name == "conftest.py" || file_name.starts_with("test_") || file_name.ends_with("_test.py");
        if !is_pytest_file {
            return None;
        }
        let fixture = self.pytest_fixture_named(module, function, name)?;
        // What the fixture returns (its annotation or a `return`), else what it yields.
        self.declared_return_type(fixture, Language::Python).or_else(|| {
            let yields = self.index.bindings_named(fixture, crate::YIELD_BINDING)?;
            yields.iter().find_map(|binding| self.binding_denotation(fixture, binding, Language::Python))
        })
    }

    /// The module-level function `name` of `module` (not `requester` itself, which may
    /// override a fixture of the same name), else of the nearest `conftest.py` above it.
    fn pytest_fixture_named(&self, module: Sym, requester: Sym, name: &str) -> Option<Sym> {
        let module_level_function = |module: Sym| {
            self.index.children_named(module, name).iter().copied().find(|candidate| *candidate != requester && self.index.symbol(*candidate).kind == SymbolKind::Function)
        };
        if let Some(fixture) = module_level_function(module) {
            return Some(fixture);
        }
        let path = self.index.symbol(module).path.as_str();
        let mut folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
        loop {
            if let Some(conftest) = self.index.python_conftests.get(folder).copied().filter(|conftest| *conftest != module) {
                if let Some(fixture) = module_level_function(conftest) {
                    return Some(fixture);
                }
            }
            if folder.is_empty() {
                return None;
            }
            folder = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
        }
    }
}
