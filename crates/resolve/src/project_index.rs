//! The project-wide lookup tables the resolver reads: symbols by qualified name, children by
//! name, imports and bindings by scope, each symbol's module. Built once, then read-only.

use std::borrow::Borrow;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tether_model::{Binding, FileFacts, ImplBlock, Import, Language, SupertypeRef, Symbol, SymbolId, SymbolKind};

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
    pub supertypes: Vec<&'a SupertypeRef>,
    pub impls: Vec<&'a ImplBlock>,
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
}

impl<'a> ProjectIndex<'a> {
    pub(crate) fn build<F: Borrow<FileFacts>>(files: &'a [F]) -> ProjectIndex<'a> {
        let files: Vec<&'a FileFacts> = files.iter().map(|file| file.borrow()).collect();
        let symbol_count: usize = files.iter().map(|file| file.symbols.len()).sum();
        let mut index = ProjectIndex {
            symbols: Vec::with_capacity(symbol_count),
            by_id: HashMap::with_capacity_and_hasher(symbol_count, Default::default()),
            by_qualified_name: HashMap::with_capacity_and_hasher(symbol_count, Default::default()),
            children_by_name: HashMap::default(),
            names: HashSet::default(),
            callables_by_name: HashMap::default(),
            macros_by_name: HashMap::default(),
            imports: Vec::new(),
            imports_by_scope: HashMap::default(),
            bindings_by_scope: HashMap::default(),
            supertypes: Vec::new(),
            impls: Vec::new(),
            module_of: Vec::with_capacity(symbol_count),
            file_modules_by_path: HashMap::with_capacity_and_hasher(files.len(), Default::default()),
            is_package_init: HashSet::default(),
            rust_crates: HashSet::default(),
            python_module_prefixes: HashSet::default(),
            python_conftests: HashMap::default(),
            python_plugin_fixtures: HashMap::default(),
        };
        for file in &files {
            let mut module: Option<Sym> = None;
            for symbol in &file.symbols {
                let sym = index.symbols.len() as Sym;
                index.symbols.push(symbol);
                index.by_id.insert(symbol.id, sym);
                index.by_qualified_name.entry(symbol.qualified_name.as_str()).or_default().push(sym);
                index.names.insert(symbol.name.as_str());
                if matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method | SymbolKind::Class) {
                    index.callables_by_name.entry(symbol.name.as_str()).or_default().push(sym);
                }
                if symbol.kind == SymbolKind::Macro {
                    index.macros_by_name.entry(symbol.name.as_str()).or_default().push(sym);
                }
                let module_sym = *module.get_or_insert(sym);
                index.module_of.push(module_sym);
                if symbol.kind == SymbolKind::Module && symbol.parent.is_none() {
                    index.file_modules_by_path.insert(file.path.as_str(), sym);
                    match symbol.language {
                        Language::Python => {
                            if file.path.ends_with("__init__.py") {
                                index.is_package_init.insert(sym);
                            }
                            if file.path == "conftest.py" || file.path.ends_with("/conftest.py") {
                                let folder = file.path.rsplit_once('/').map_or("", |(folder, _)| folder);
                                index.python_conftests.insert(folder, sym);
                            }
                            let mut prefix = String::new();
                            for segment in symbol.qualified_name.split('.') {
                                if !prefix.is_empty() {
                                    prefix.push('.');
                                }
                                prefix.push_str(segment);
                                index.python_module_prefixes.insert(prefix.clone());
                            }
                        }
                        Language::Rust => {
                            let crate_name = symbol.qualified_name.split("::").next().unwrap_or("");
                            index.rust_crates.insert(crate_name);
                        }
                    }
                }
            }
        }
        for file in &files {
            for symbol in &file.symbols {
                let Some(parent) = symbol.parent.and_then(|parent| index.by_id.get(&parent).copied()) else { continue };
                let sym = index.by_id[&symbol.id];
                index.children_by_name.entry(parent).or_default().entry(symbol.name.as_str()).or_default().push(sym);
            }
            for import in &file.imports {
                let Some(scope) = index.by_id.get(&import.scope).copied() else { continue };
                let position = index.imports.len() as u32;
                index.imports.push(import);
                index.imports_by_scope.entry(scope).or_default().push(position);
            }
            let is_plugin_file = file.language == Some(Language::Python) && !crate::pytest_fixtures::is_pytest_file(&file.path);
            for binding in &file.bindings {
                let Some(scope) = index.by_id.get(&binding.scope).copied() else { continue };
                if is_plugin_file && binding.name == crate::FIXTURE_BINDING {
                    index.python_plugin_fixtures.entry(index.symbols[scope as usize].name.as_str()).or_default().push(scope);
                }
                index.bindings_by_scope.entry(scope).or_default().entry(binding.name.as_str()).or_default().push(binding);
            }
            index.supertypes.extend(file.supertypes.iter());
            index.impls.extend(file.impls.iter());
        }
        // Uses see the latest binding in force (see bindings_in_force.rs).
        for bindings in index.bindings_by_scope.values_mut().flat_map(|names| names.values_mut()) {
            if !bindings.is_sorted_by_key(|binding| binding.visible_from) {
                bindings.sort_by_key(|binding| binding.visible_from);
            }
        }
        index
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
        self.children_by_name.get(&parent).and_then(|children| children.get(name)).map(Vec::as_slice).unwrap_or(&[])
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
                    .filter(|sym| self.symbol(*sym).kind == SymbolKind::Module && self.symbol(*sym).language == language)
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
