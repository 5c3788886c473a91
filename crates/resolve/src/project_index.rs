//! The project-wide lookup tables the resolver reads: symbols by qualified name, children by
//! name, imports and bindings by scope, each symbol's module. Built once, then read-only.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::borrow::Borrow;

use tether_model::{
    Binding, FileFacts, ImplBlock, Import, Language, SupertypeRef, Symbol, SymbolId, SymbolKind,
};

/// A symbol's position in [`ProjectIndex::symbols`].
pub(crate) type Sym = u32;

pub(crate) struct ProjectIndex<'a> {
    pub symbols: Vec<&'a Symbol>,
    pub by_id: HashMap<SymbolId, Sym>,
    pub by_qualified_name: HashMap<&'a str, Vec<Sym>>,
    pub children_by_name: HashMap<Sym, HashMap<&'a str, Vec<Sym>>>,
    /// Every name any project symbol has: a call whose name is not here cannot target the project.
    pub names: HashSet<&'a str>,
    /// Functions, methods and classes by short name, for labelled name-only guesses.
    pub callables_by_name: HashMap<&'a str, Vec<Sym>>,
    /// Rust `macro_rules!` definitions by name.
    pub macros_by_name: HashMap<&'a str, Vec<Sym>>,
    pub imports: Vec<&'a Import>,
    pub imports_by_scope: HashMap<Sym, Vec<u32>>,
    pub bindings_by_scope: HashMap<Sym, HashMap<&'a str, Vec<&'a Binding>>>,
    /// Each function's parameters in order (Python; value flow).
    pub parameters_by_function: HashMap<Sym, Vec<&'a tether_model::Parameter>>,
    /// The methods that set a class's attribute to one of their parameters, by (class,
    /// attribute): (method, parameter name).
    pub attribute_parameters: HashMap<(Sym, &'a str), Vec<(Sym, &'a str)>>,
    /// The attribute names of `attribute_parameters`: an unresolved call of any other
    /// attribute is not looked at again.
    pub attribute_parameter_names: HashSet<&'a str>,
    pub supertypes: Vec<&'a SupertypeRef>,
    pub impls: Vec<&'a ImplBlock>,
    pub derives: Vec<&'a tether_model::DerivedTraits>,
    /// The file module of every symbol.
    pub module_of: Vec<Sym>,
    /// Each file's module symbol by the file's path.
    pub file_modules_by_path: HashMap<&'a str, Sym>,
    /// Whether a module symbol comes from a Python `__init__.py`.
    pub is_package_init: HashSet<Sym>,
    /// Rust crate names of the workspace (first segments of Rust module paths).
    pub rust_crates: HashSet<&'a str>,
    /// Python qualified-name prefixes that are packages (for namespace lookups).
    pub python_module_prefixes: HashSet<String>,
    /// Pytest `conftest.py` modules by their folder (`""` at the root).
    pub python_conftests: HashMap<&'a str, Sym>,
    /// Functions decorated as pytest fixtures in plugin modules (neither test files nor
    /// `conftest.py`), by name: the fixtures a plugin such as pytest itself provides.
    pub python_plugin_fixtures: HashMap<&'a str, Vec<Sym>>,
    /// Pytest fixtures declared `autouse=True`, by the module or class that defines them.
    pub python_autouse_fixtures: HashMap<Sym, Vec<Sym>>,
    /// Pytest fixtures named by their decorator (`@fixture(name="client")`), by the module or
    /// class that defines them, then by that name. (A plugin module's renamed fixture is not
    /// looked up by its given name.)
    pub fixtures_by_given_name: HashMap<Sym, HashMap<&'a str, Sym>>,
    /// The names of Python property getters: only reads of these names may run project code.
    pub python_property_names: HashSet<&'a str>,
}

impl<'a> ProjectIndex<'a> {
    /// Builds the tables in three steps: the symbols in file order (each one's position and
    /// file module), then, in parallel, the tables keyed by name and those keyed by scope
    /// (children, imports, bindings), which only read the first step's.
    pub(crate) fn build<F: Borrow<FileFacts> + Sync>(files: &'a [F]) -> ProjectIndex<'a> {
        let files: Vec<&'a FileFacts> = files.iter().map(|file| file.borrow()).collect();
        let symbol_count: usize = files.iter().map(|file| file.symbols.len()).sum();
        let mut symbols: Vec<&'a Symbol> = Vec::with_capacity(symbol_count);
        let mut by_id: HashMap<SymbolId, Sym> =
            HashMap::with_capacity_and_hasher(symbol_count, Default::default());
        let mut module_of: Vec<Sym> = Vec::with_capacity(symbol_count);
        for file in &files {
            let module = symbols.len() as Sym;
            for symbol in &file.symbols {
                by_id.insert(symbol.id, symbols.len() as Sym);
                symbols.push(symbol);
                module_of.push(module);
            }
        }
        let (by_name, by_scope) = rayon::join(
            || NameTables::build(&files, &symbols),
            || ScopeTables::build(&files, &symbols, &by_id),
        );
        let parameters_by_function = parameters_by_function(&files, &by_id);
        let attribute_parameters = attribute_parameters(&files, &by_id);
        let attribute_parameter_names =
            attribute_parameters.keys().map(|(_, attribute)| *attribute).collect();
        ProjectIndex {
            symbols,
            by_id,
            by_qualified_name: by_name.by_qualified_name,
            children_by_name: by_scope.children_by_name,
            names: by_name.names,
            callables_by_name: by_name.callables_by_name,
            macros_by_name: by_name.macros_by_name,
            imports: by_scope.imports,
            imports_by_scope: by_scope.imports_by_scope,
            bindings_by_scope: by_scope.bindings_by_scope,
            parameters_by_function,
            attribute_parameters,
            attribute_parameter_names,
            supertypes: files.iter().flat_map(|file| file.supertypes.iter()).collect(),
            impls: files.iter().flat_map(|file| file.impls.iter()).collect(),
            derives: files.iter().flat_map(|file| file.derives.iter()).collect(),
            module_of,
            file_modules_by_path: by_name.file_modules_by_path,
            is_package_init: by_name.is_package_init,
            rust_crates: by_name.rust_crates,
            python_module_prefixes: by_name.python_module_prefixes,
            python_conftests: by_name.python_conftests,
            python_plugin_fixtures: by_scope.python_plugin_fixtures,
            python_autouse_fixtures: by_scope.python_autouse_fixtures,
            fixtures_by_given_name: by_scope.fixtures_by_given_name,
            python_property_names: by_scope.python_property_names,
        }
    }

    pub(crate) fn symbol(&self, sym: Sym) -> &'a Symbol {
        self.symbols[sym as usize]
    }

    pub(crate) fn sym_of(&self, id: SymbolId) -> Option<Sym> {
        self.by_id.get(&id).copied()
    }

    pub(crate) fn parent(&self, sym: Sym) -> Option<Sym> {
        self.symbol(sym).parent.and_then(|parent| self.sym_of(parent))
    }

    pub(crate) fn children_named(&self, parent: Sym, name: &str) -> &[Sym] {
        self.children_by_name
            .get(&parent)
            .and_then(|children| children.get(name))
            .map(Vec::as_slice)
            .unwrap_or(&[])
    }

    /// File modules and inline modules with this qualified name.
    pub(crate) fn bindings_named(&self, scope: Sym, name: &str) -> Option<&Vec<&'a Binding>> {
        self.bindings_by_scope.get(&scope).and_then(|bindings| bindings.get(name))
    }

    /// File modules and inline modules of one language with this qualified name (a Python
    /// package and a Rust crate may share a name).
    pub(crate) fn modules_named(&self, qualified_name: &str, language: Language) -> Vec<Sym> {
        self.by_qualified_name
            .get(qualified_name)
            .map(|candidates| {
                candidates
                    .iter()
                    .copied()
                    .filter(|sym| {
                        self.symbol(*sym).kind == SymbolKind::Module
                            && self.symbol(*sym).language == language
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The nearest enclosing symbol (or the symbol itself) of one of these kinds.
    pub(crate) fn enclosing_of_kind(&self, sym: Sym, kinds: &[SymbolKind]) -> Option<Sym> {
        let mut current = Some(sym);
        while let Some(candidate) = current {
            if kinds.contains(&self.symbol(candidate).kind) {
                return Some(candidate);
            }
            current = self.parent(candidate);
        }
        None
    }
}

/// The tables keyed by a symbol's name or qualified name, and what file modules say.
#[derive(Default)]
pub(crate) struct NameTables<'a> {
    by_qualified_name: HashMap<&'a str, Vec<Sym>>,
    names: HashSet<&'a str>,
    callables_by_name: HashMap<&'a str, Vec<Sym>>,
    macros_by_name: HashMap<&'a str, Vec<Sym>>,
    file_modules_by_path: HashMap<&'a str, Sym>,
    pub(crate) is_package_init: HashSet<Sym>,
    pub(crate) rust_crates: HashSet<&'a str>,
    pub(crate) python_module_prefixes: HashSet<String>,
    pub(crate) python_conftests: HashMap<&'a str, Sym>,
}

impl<'a> NameTables<'a> {
    fn build(files: &[&'a FileFacts], symbols: &[&'a Symbol]) -> NameTables<'a> {
        let mut tables = NameTables {
            by_qualified_name: HashMap::with_capacity_and_hasher(symbols.len(), Default::default()),
            ..NameTables::default()
        };
        let mut sym: Sym = 0;
        for file in files {
            for symbol in &file.symbols {
                tables
                    .by_qualified_name
                    .entry(symbol.qualified_name.as_str())
                    .or_default()
                    .push(sym);
                tables.names.insert(symbol.name.as_str());
                if matches!(
                    symbol.kind,
                    SymbolKind::Function | SymbolKind::Method | SymbolKind::Class
                ) {
                    tables.callables_by_name.entry(symbol.name.as_str()).or_default().push(sym);
                }
                if symbol.kind == SymbolKind::Macro {
                    tables.macros_by_name.entry(symbol.name.as_str()).or_default().push(sym);
                }
                if symbol.kind == SymbolKind::Module && symbol.parent.is_none() {
                    tables.file_module(file, symbol, sym);
                }
                sym += 1;
            }
        }
        debug_assert_eq!(sym as usize, symbols.len());
        tables
    }

    /// What a file's module symbol adds: its path, and what its language's tables keep.
    fn file_module(&mut self, file: &'a FileFacts, symbol: &'a Symbol, sym: Sym) {
        self.file_modules_by_path.insert(file.path.as_str(), sym);
        crate::language_rules::rules_of(symbol.language).index_module_file(self, file, symbol, sym);
    }
}

/// The tables keyed by a scope: children by name, imports and bindings.
#[derive(Default)]
struct ScopeTables<'a> {
    children_by_name: HashMap<Sym, HashMap<&'a str, Vec<Sym>>>,
    imports: Vec<&'a Import>,
    imports_by_scope: HashMap<Sym, Vec<u32>>,
    bindings_by_scope: HashMap<Sym, HashMap<&'a str, Vec<&'a Binding>>>,
    python_plugin_fixtures: HashMap<&'a str, Vec<Sym>>,
    python_autouse_fixtures: HashMap<Sym, Vec<Sym>>,
    fixtures_by_given_name: HashMap<Sym, HashMap<&'a str, Sym>>,
    python_property_names: HashSet<&'a str>,
}

/// Whether `symbol` defines again a struct, enum or union its scope already holds under that
/// name: the same type written twice under exclusive `#[cfg]`s (indexmap's `IndexMap` with a
/// default hasher under `std`, without one otherwise). Such a type's members live in impl
/// blocks written once for the name, so the first definition stands for it; two definitions
/// seen as alternatives left every impl unattached (no method of the type resolved).
/// (Aliases, traits and functions written twice stay alternatives: they may differ.)
fn is_alternative_definition(symbols: &[&Symbol], named: &[Sym], symbol: &Symbol) -> bool {
    let is_data_type = |kind: SymbolKind| {
        matches!(kind, SymbolKind::Struct | SymbolKind::Enum | SymbolKind::Union)
    };
    is_data_type(symbol.kind)
        && named.iter().any(|earlier| is_data_type(symbols[*earlier as usize].kind))
}

impl<'a> ScopeTables<'a> {
    fn build(
        files: &[&'a FileFacts],
        symbols: &[&'a Symbol],
        by_id: &HashMap<SymbolId, Sym>,
    ) -> ScopeTables<'a> {
        let mut tables = ScopeTables::default();
        let mut sym: Sym = 0;
        for file in files {
            for symbol in &file.symbols {
                if let Some(parent) = symbol.parent.and_then(|parent| by_id.get(&parent).copied()) {
                    let named = tables
                        .children_by_name
                        .entry(parent)
                        .or_default()
                        .entry(symbol.name.as_str())
                        .or_default();
                    if !is_alternative_definition(symbols, named, symbol) {
                        named.push(sym);
                    }
                }
                sym += 1;
            }
            for import in &file.imports {
                let Some(scope) = by_id.get(&import.scope).copied() else { continue };
                let position = tables.imports.len() as u32;
                tables.imports.push(import);
                tables.imports_by_scope.entry(scope).or_default().push(position);
            }
            let is_plugin_file = file.language.is_some_and(|language| {
                crate::language_rules::rules_of(language).defines_plugin_fixtures(file)
            });
            for named in &file.fixture_names {
                let Some(fixture) = by_id.get(&named.fixture).copied() else { continue };
                let owner = symbols[fixture as usize].parent.and_then(|parent| by_id.get(&parent));
                if let Some(owner) = owner {
                    tables
                        .fixtures_by_given_name
                        .entry(*owner)
                        .or_default()
                        .insert(named.name.as_str(), fixture);
                }
            }
            // Bindings come grouped by scope: look each scope up once per run of them.
            let mut last_scope: Option<(SymbolId, Option<Sym>)> = None;
            for binding in &file.bindings {
                let scope = match last_scope {
                    Some((id, scope)) if id == binding.scope => scope,
                    _ => {
                        let scope = by_id.get(&binding.scope).copied();
                        last_scope = Some((binding.scope, scope));
                        scope
                    }
                };
                let Some(scope) = scope else { continue };
                if is_plugin_file && binding.name == crate::FIXTURE_BINDING {
                    tables
                        .python_plugin_fixtures
                        .entry(symbols[scope as usize].name.as_str())
                        .or_default()
                        .push(scope);
                }
                if binding.name == crate::PROPERTY_BINDING {
                    tables.python_property_names.insert(symbols[scope as usize].name.as_str());
                }
                if binding.name == crate::AUTOUSE_FIXTURE_BINDING {
                    if let Some(owner) = symbols[scope as usize]
                        .parent
                        .and_then(|parent| by_id.get(&parent).copied())
                    {
                        tables.python_autouse_fixtures.entry(owner).or_default().push(scope);
                    }
                }
                tables
                    .bindings_by_scope
                    .entry(scope)
                    .or_default()
                    .entry(binding.name.as_str())
                    .or_default()
                    .push(binding);
            }
        }
        // Uses see the latest binding in force (see bindings_in_force.rs).
        for bindings in tables.bindings_by_scope.values_mut().flat_map(|names| names.values_mut()) {
            if !bindings.is_sorted_by_key(|binding| binding.visible_from) {
                bindings.sort_by_key(|binding| binding.visible_from);
            }
        }
        tables
    }
}

/// Each function's parameters, by position.
fn parameters_by_function<'a>(
    files: &[&'a FileFacts],
    by_id: &HashMap<SymbolId, Sym>,
) -> HashMap<Sym, Vec<&'a tether_model::Parameter>> {
    let mut parameters: HashMap<Sym, Vec<&'a tether_model::Parameter>> = HashMap::default();
    for file in files {
        for parameter in &file.parameters {
            if let Some(function) = by_id.get(&parameter.function) {
                parameters.entry(*function).or_default().push(parameter);
            }
        }
    }
    for list in parameters.values_mut() {
        list.sort_by_key(|parameter| parameter.position);
    }
    parameters
}

/// The attributes methods set to their parameters, by (class, attribute).
fn attribute_parameters<'a>(
    files: &[&'a FileFacts],
    by_id: &HashMap<SymbolId, Sym>,
) -> HashMap<(Sym, &'a str), Vec<(Sym, &'a str)>> {
    let mut attributes: HashMap<(Sym, &'a str), Vec<(Sym, &'a str)>> = HashMap::default();
    for file in files {
        for set in &file.attribute_parameters {
            let (Some(class), Some(method)) = (by_id.get(&set.class), by_id.get(&set.method))
            else {
                continue;
            };
            attributes
                .entry((*class, set.attribute.as_str()))
                .or_default()
                .push((*method, set.parameter.as_str()));
        }
    }
    attributes
}
