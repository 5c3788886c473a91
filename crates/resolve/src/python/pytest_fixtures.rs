//! Pytest fixtures: in a test file or a `conftest.py`, a function's untyped parameter holds
//! what the fixture of the same name returns or yields. Pytest finds that fixture in the
//! same module first, then in the `conftest.py` of the module's folder and of each folder
//! above it, then among the plugins; tether looks in the same places.
//!
//! In test files and `conftest.py` a fixture is recognised by its place and name only (a
//! module-level function). A plugin's fixture (a module that is neither, such as pytest's own
//! `tmpdir` or `monkeypatch`) must carry a `@fixture` decorator and be the only one of its name.
//! A fixture function is itself fed fixtures wherever it is defined.

use tether_model::{Language, SymbolKind};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// The value pytest passes as parameter `name` of `function`, when it is visible.
    pub(crate) fn pytest_fixture_value(&self, function: Sym, name: &str) -> Option<Denotation> {
        let symbol = self.index.symbol(function);
        if symbol.language != Language::Python
            || !matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
            || name == "self"
            || name == "cls"
        {
            return None;
        }
        let module = self.index.module_of[function as usize];
        let is_fixture = self.index.bindings_named(function, crate::FIXTURE_BINDING).is_some();
        if !is_pytest_file(&self.index.symbol(module).path) && !is_fixture {
            return None;
        }
        let fixture = self.pytest_fixture_for(function, name)?;
        // What a generator fixture yields (calling it would give the generator), else what
        // it returns (its annotation or a `return`), else a function or class it returns (a
        // factory such as `importasmod`).
        let yielded = || {
            let yields = self.index.bindings_named(fixture, crate::YIELD_BINDING)?;
            yields
                .iter()
                .find_map(|binding| self.binding_denotation(fixture, binding, Language::Python))
        };
        let is_generator = self.index.bindings_named(fixture, crate::RETURN_BINDING).is_none();
        let value = match is_generator {
            true => yielded(),
            false => None,
        };
        value.or_else(|| self.declared_return_type(fixture, Language::Python)).or_else(|| {
            let returns = self.index.bindings_named(fixture, crate::RETURN_BINDING)?;
            returns.iter().find_map(|binding| {
                match self.binding_denotation(fixture, binding, Language::Python)? {
                    Denotation::Symbol(returned)
                        if self.index.symbol(returned).kind.is_callable()
                            || self.index.symbol(returned).kind.is_type() =>
                    {
                        Some(Denotation::Symbol(returned))
                    }
                    _ => None,
                }
            })
        })
    }

    /// The fixture pytest gives `requester` for the name `name`: a fixture method of its class,
    /// else a function of its module, of a `conftest.py` above, or of a plugin.
    pub(crate) fn pytest_fixture_for(&self, requester: Sym, name: &str) -> Option<Sym> {
        let module = self.index.module_of[requester as usize];
        self.pytest_class_fixture_named(requester, name)
            .or_else(|| self.pytest_fixture_named(module, requester, name))
    }

    /// A `@fixture` method of the requesting method's class (or its bases), not itself.
    fn pytest_class_fixture_named(&self, requester: Sym, name: &str) -> Option<Sym> {
        if self.index.symbol(requester).kind != SymbolKind::Method {
            return None;
        }
        let class = self.index.parent(requester)?;
        self.linearization(class).into_iter().find_map(|class| {
            self.renamed_fixture(class, requester, name).or_else(|| {
                self.index.children_named(class, name).iter().copied().find(|candidate| {
                    *candidate != requester
                        && self.index.bindings_named(*candidate, crate::FIXTURE_BINDING).is_some()
                        && !self.is_renamed_fixture(*candidate)
                })
            })
        })
    }

    /// The fixture of `owner` (a module or class) whose decorator names it `name`
    /// (`@fixture(name="client")`), not `requester` itself.
    fn renamed_fixture(&self, owner: Sym, requester: Sym, name: &str) -> Option<Sym> {
        let fixture = *self.index.fixtures_by_given_name.get(&owner)?.get(name)?;
        (fixture != requester).then_some(fixture)
    }

    /// Whether `fixture`, listed under `name`, is a function called `name` that its decorator
    /// renamed (pytest does not know it by `name`).
    fn renamed_away(&self, fixture: Sym, name: &str) -> bool {
        self.index.symbol(fixture).name == name && self.is_renamed_fixture(fixture)
    }

    /// Whether pytest knows this fixture by its decorator's name only (not its function's).
    fn is_renamed_fixture(&self, candidate: Sym) -> bool {
        let function_name = self.index.symbol(candidate).name.as_str();
        self.index.parent(candidate).is_some_and(|owner| {
            self.index.fixtures_by_given_name.get(&owner).is_some_and(|names| {
                names
                    .iter()
                    .any(|(alias, fixture)| *fixture == candidate && *alias != function_name)
            })
        })
    }

    /// The module-level function `name` of `module` (not `requester` itself, which may
    /// override a fixture of the same name), else of the nearest `conftest.py` above it.
    fn pytest_fixture_named(&self, module: Sym, requester: Sym, name: &str) -> Option<Sym> {
        let module_level_function = |module: Sym| {
            self.renamed_fixture(module, requester, name).or_else(|| {
                self.index.children_named(module, name).iter().copied().find(|candidate| {
                    *candidate != requester
                        && self.index.symbol(*candidate).kind == SymbolKind::Function
                        && !self.is_renamed_fixture(*candidate)
                })
            })
        };
        if let Some(fixture) = module_level_function(module) {
            return Some(fixture);
        }
        let path = self.index.symbol(module).path.as_str();
        let mut folder = path.rsplit_once('/').map_or("", |(folder, _)| folder);
        loop {
            if let Some(conftest) = self
                .index
                .python_conftests
                .get(folder)
                .copied()
                .filter(|conftest| *conftest != module)
            {
                if let Some(fixture) = module_level_function(conftest) {
                    return Some(fixture);
                }
            }
            if folder.is_empty() {
                break;
            }
            folder = folder.rsplit_once('/').map_or("", |(parent, _)| parent);
        }
        // Else a plugin's fixture (`tmp_path`, `monkeypatch` in pytest's own plugins), when
        // exactly one plugin module of the project defines it.
        match self.index.python_plugin_fixtures.get(name).map(Vec::as_slice) {
            Some([only]) if *only != requester && !self.renamed_away(*only, name) => Some(*only),
            _ => None,
        }
    }
}

/// `test_*.py`, `*_test.py` or `conftest.py` (the test framework model's test files and shared
/// fixture files): files whose functions pytest feeds fixtures.
pub(crate) fn is_pytest_file(path: &str) -> bool {
    tether_model::TestFramework::python().is_fixture_module(path)
}
