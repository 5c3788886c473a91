//! The resolver's state: the project index plus what the early phases learned (imports,
//! class bases, impl blocks) in read-only [`ResolverTables`] shared by every worker, and the
//! [`Resolver`] view each worker resolves through, which adds its own
//! [`ResolutionContext`]; then the type-member lookups built on them.

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;

use tether_model::{Language, ResolutionRule, SymbolKind};

use crate::denotation::{Denotation, Lookup, Resolved};
use crate::project_index::{ProjectIndex, Sym};
use crate::resolution_context::ResolutionContext;

/// How deep a class hierarchy C3 linearises before falling back to the depth-first order.
const MAX_MRO_DEPTH: usize = 64;

/// How many passes over the imports the fixpoint makes (re-export chains deeper than this
/// stay unresolved).
const IMPORT_PASSES: usize = 6;

pub(crate) struct ResolverTables<'a> {
    pub index: ProjectIndex<'a>,
    /// What each import (by position in `index.imports`) denotes.
    pub import_results: Vec<Option<Resolved>>,
    /// Resolved project bases of each class / supertraits of each trait, in order.
    pub bases: HashMap<Sym, Vec<Sym>>,
    /// Whether a class has a base outside the project (members may come from there).
    /// The bases of a class that are outside the project (members may come from there): a
    /// dependency's class (`werkzeug.test.Client`) or a builtin (`dict`).
    pub outside_bases: HashMap<Sym, Vec<Denotation>>,
    /// Each class with project bases, in its method resolution order (itself first).
    pub method_resolution_orders: HashMap<Sym, Vec<Sym>>,
    /// The project classes deriving from each class, directly or not, in symbol order.
    pub subclasses: HashMap<Sym, Vec<Sym>>,
    /// Impl blocks of each project type.
    pub impls_of_type: HashMap<Sym, Vec<Sym>>,
    /// The project type an impl block is for.
    pub impl_self_type: HashMap<Sym, Sym>,
    /// Impl blocks written for an alias (`impl<N> InFile<N>` with `type InFile<T> =
    /// InFileWrapper<HirFileId, T>`): their parameters' positions are the alias's, not those
    /// of the type in [`Self::impl_self_type`]. Each with its alias.
    pub impls_through_alias: HashMap<Sym, Sym>,
    /// The trait a trait impl implements (project traits only).
    pub impl_trait: HashMap<Sym, Sym>,
    /// Trait impls for a type outside the project (`impl Integer for i8`, `impl Ext for
    /// std::string::String`), by the type's resolved path: a method call on such a value
    /// reaches their methods (see `outside_type_impls`).
    pub impls_of_outside_type: HashMap<String, Vec<Sym>>,
    /// The outside self type of each impl in [`Self::impls_of_outside_type`]: `self` inside it.
    pub outside_impl_self_type: HashMap<Sym, Denotation>,
    /// Trait impl blocks of each project trait.
    pub impls_of_trait: HashMap<Sym, Vec<Sym>>,
    /// The project type each project type dereferences to (`impl Deref`'s `type Target`).
    pub deref_targets: HashMap<Sym, Sym>,
    /// The method the language calls when a value of each project type goes out of scope
    /// (Rust's `Drop::drop`).
    pub drop_methods: HashMap<Sym, Sym>,
    /// The std traits each project type derives, with the project types its fields name
    /// (see `rust::derived_calls`).
    pub derived_traits: HashMap<Sym, DerivedTraitsOfType>,
    /// Blanket impls of project traits (`impl<R: AsyncRead> AsyncReadExt for R`).
    pub blanket_impls: Vec<BlanketImpl>,
    /// The last segment of each trait impl's trait path, project trait or not.
    pub impl_trait_names: HashMap<Sym, String>,
    /// Types a macro defines (`bitflags! { pub struct AttrFlags: u64 … }`, rust-analyzer's
    /// `interned_slice!`), seen only through their one inherent impl block in a module: (the
    /// module, the type's name) → that impl, which stands for the type.
    pub impl_only_types: HashMap<(Sym, String), Sym>,
    /// The impls of [`Self::impl_only_types`].
    pub impl_only_type_impls: rustc_hash::FxHashSet<Sym>,
    /// Whether a Python module's variables (`MARK_GEN = MarkGenerator()`) are its members
    /// yet: typing them needs the imports and bases, so they join only after those phases.
    pub module_variables_visible: bool,
}

/// What a type derives (Rust's `#[derive(…)]`): the traits, and the project types its fields
/// name.
#[derive(Clone, Debug, Default)]
pub(crate) struct DerivedTraitsOfType {
    pub traits: Vec<String>,
    pub field_types: Vec<Sym>,
}

/// Which imports an import pass reads again.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PendingImports {
    /// Those not bound to project code: bound to nothing, or to something outside.
    NotInProject,
    /// Those of [`PendingImports::NotInProject`] in a language whose modules hold variables.
    NotInProjectOfModuleVariableLanguages,
    /// Those bound to nothing at all.
    Unbound,
}

/// What the generic self type of a blanket impl must implement.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum BlanketBound {
    /// A project trait.
    Project(Sym),
    /// A trait outside the project, by its last path segment (`Stream`, `Write`).
    Outside(String),
    /// No bound: every type.
    Any,
}

/// A project trait implemented for every type meeting a bound.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct BlanketImpl {
    pub trait_sym: Sym,
    pub bound: BlanketBound,
}

/// What one worker resolves through: the shared tables (read through `Deref`) and the
/// worker's own context. Made by [`ResolverTables::resolver`]; one per file or phase.
pub(crate) struct Resolver<'a> {
    tables: &'a ResolverTables<'a>,
    pub context: ResolutionContext<'a>,
}

impl<'a> std::ops::Deref for Resolver<'a> {
    type Target = ResolverTables<'a>;

    fn deref(&self) -> &ResolverTables<'a> {
        self.tables
    }
}

impl<'a> ResolverTables<'a> {
    /// A view to resolve through, with a fresh context.
    pub(crate) fn resolver(&self) -> Resolver<'_> {
        Resolver { tables: self, context: ResolutionContext::default() }
    }

    pub(crate) fn new(index: ProjectIndex<'a>) -> ResolverTables<'a> {
        let import_count = index.imports.len();
        let mut resolver = ResolverTables {
            index,
            import_results: vec![None; import_count],
            bases: HashMap::default(),
            outside_bases: HashMap::default(),
            method_resolution_orders: HashMap::default(),
            subclasses: HashMap::default(),
            impls_of_type: HashMap::default(),
            impl_self_type: HashMap::default(),
            impls_through_alias: Default::default(),
            impl_trait: HashMap::default(),
            impls_of_outside_type: HashMap::default(),
            outside_impl_self_type: HashMap::default(),
            impls_of_trait: HashMap::default(),
            deref_targets: HashMap::default(),
            drop_methods: HashMap::default(),
            derived_traits: HashMap::default(),
            blanket_impls: Vec::new(),
            impl_trait_names: HashMap::default(),
            impl_only_types: HashMap::default(),
            impl_only_type_impls: Default::default(),
            module_variables_visible: false,
        };
        resolver.resolve_imports();
        resolver.resolve_impls();
        // `use crate::attrs::AttrFlags` of a type a macro defines binds once its impl stands for it.
        if !resolver.impl_only_types.is_empty() {
            while resolver.resolve_import_pass(PendingImports::Unbound) {}
            resolver.attach_impls_to_impl_only_types();
        }
        resolver.resolve_bases();
        (resolver.blanket_impls, resolver.impl_trait_names) =
            resolver.resolver().collect_blanket_impls();
        let deref_targets = {
            let view = resolver.resolver();
            view.impls_of_type
                .keys()
                .filter_map(|type_sym| Some((*type_sym, view.deref_target(*type_sym)?)))
                .collect()
        };
        resolver.deref_targets = deref_targets;
        resolver.drop_methods = resolver.resolver().collect_drop_methods();
        resolver.derived_traits = resolver.resolver().collect_derived_traits();
        resolver.resolve_imports_of_module_variables();
        resolver
    }

    /// Imports of Python module variables (`from _pytest.mark import MARK_GEN as mark`), and
    /// imports through them, once the variables can be typed. Each pass types through fresh
    /// contexts: a variable typed too early (before an import it needs) must not stay untyped.
    fn resolve_imports_of_module_variables(&mut self) {
        self.module_variables_visible = true;
        // Without modules that hold variables the passes would change nothing.
        let has_module_variables = self.index.file_modules_by_path.values().any(|module| {
            crate::language_rules::rules_of(self.index.symbol(*module).language)
                .has_module_variables()
        });
        if !has_module_variables {
            return;
        }
        // Only the imports of languages with module variables can change.
        for _ in 0..IMPORT_PASSES {
            if !self.resolve_import_pass(PendingImports::NotInProjectOfModuleVariableLanguages) {
                break;
            }
        }
    }

    /// Resolves imports to a fixpoint, so that re-exports of re-exports bind. Each pass reads
    /// the previous pass's results, so the imports of a pass resolve in parallel.
    fn resolve_imports(&mut self) {
        for _ in 0..IMPORT_PASSES {
            if !self.resolve_import_pass(PendingImports::NotInProject) {
                break;
            }
        }
    }

    /// One pass over the `pending` imports; whether any result changed.
    fn resolve_import_pass(&mut self, pending: PendingImports) -> bool {
        {
            let only_unbound = pending == PendingImports::Unbound;
            let only_module_variables =
                pending == PendingImports::NotInProjectOfModuleVariableLanguages;
            let pending: Vec<usize> = (0..self.index.imports.len())
                .filter(|position| match &self.import_results[*position] {
                    None => true,
                    Some(resolved) => {
                        !only_unbound && matches!(resolved.denotation, Denotation::External(_))
                    }
                })
                .filter(|position| {
                    !only_module_variables
                        || self.import_language(*position).is_some_and(|language| {
                            crate::language_rules::rules_of(language).has_module_variables()
                        })
                })
                .collect();
            let updates: Vec<(usize, Option<Resolved>)> = pending
                .into_par_iter()
                .map_init(
                    || self.resolver(),
                    |view, position| {
                        let resolved = view.resolve_import(position);
                        (resolved != self.import_results[position]).then_some((position, resolved))
                    },
                )
                .flatten()
                .collect();
            if updates.is_empty() {
                return false;
            }
            for (position, resolved) in updates {
                self.import_results[position] = resolved;
            }
        }
        true
    }

    /// The language of the scope an import is written in.
    fn import_language(&self, position: usize) -> Option<Language> {
        self.index
            .sym_of(self.index.imports[position].scope)
            .map(|scope| self.index.symbol(scope).language)
    }

    /// Resolves impl blocks (Rust's) to their self types and traits.
    fn resolve_impls(&mut self) {
        let mut impls_of_type: HashMap<Sym, Vec<Sym>> = HashMap::default();
        let mut impl_self_type = HashMap::default();
        let mut impls_through_alias = HashMap::default();
        let mut impl_trait = HashMap::default();
        let mut impls_of_trait: HashMap<Sym, Vec<Sym>> = HashMap::default();
        let mut impls_of_outside_type: HashMap<String, Vec<Sym>> = HashMap::default();
        let mut outside_impl_self_type = HashMap::default();
        {
            let view = self.resolver();
            for block in &view.index.impls {
                let Some(impl_sym) = view.index.sym_of(block.impl_symbol) else { continue };
                let scope = view.index.parent(impl_sym).unwrap_or(impl_sym);
                let rules = crate::language_rules::rules_of(view.index.symbol(impl_sym).language);
                if let Ok(Resolved { denotation: Denotation::Symbol(type_sym), .. }) =
                    rules.item_path(&view, scope, &block.self_type)
                {
                    // `impl Alias { … }` adds to the aliased project type.
                    let type_sym = match view.index.symbol(type_sym).kind {
                        SymbolKind::TypeAlias => match view.alias_target(type_sym) {
                            Some(Denotation::Instance { type_sym: aliased, .. }) => {
                                impls_through_alias.insert(impl_sym, type_sym);
                                aliased
                            }
                            _ => type_sym,
                        },
                        _ => type_sym,
                    };
                    if view.index.symbol(type_sym).kind.is_type() {
                        impls_of_type.entry(type_sym).or_default().push(impl_sym);
                        impl_self_type.insert(impl_sym, type_sym);
                    }
                } else if let Some(outside) = rules.outside_impl_self_type(&view, scope, block) {
                    if let Denotation::External(path) | Denotation::Builtin(path) = &outside {
                        impls_of_outside_type.entry(path.clone()).or_default().push(impl_sym);
                    }
                    outside_impl_self_type.insert(impl_sym, outside);
                }
                if let Some(trait_path) = &block.trait_path {
                    if let Ok(Resolved { denotation: Denotation::Symbol(trait_sym), .. }) =
                        rules.item_path(&view, scope, trait_path)
                    {
                        if view.index.symbol(trait_sym).kind == SymbolKind::Trait {
                            impl_trait.insert(impl_sym, trait_sym);
                            impls_of_trait.entry(trait_sym).or_default().push(impl_sym);
                        }
                    }
                }
            }
        }
        self.impls_of_type = impls_of_type;
        self.impl_self_type = impl_self_type;
        self.impls_through_alias = impls_through_alias;
        self.impl_trait = impl_trait;
        self.impls_of_trait = impls_of_trait;
        self.impls_of_outside_type = impls_of_outside_type;
        self.outside_impl_self_type = outside_impl_self_type;
        self.impl_only_types = self.resolver().collect_impl_only_types();
        self.impl_only_type_impls = self.impl_only_types.values().copied().collect();
    }

    /// Resolves Python class bases and Rust supertraits.
    fn resolve_bases(&mut self) {
        let mut bases: HashMap<Sym, Vec<Sym>> = HashMap::default();
        let mut outside_bases: HashMap<Sym, Vec<Denotation>> = HashMap::default();
        {
            let view = self.resolver();
            for supertype in &view.index.supertypes {
                let Some(subtype) = view.index.sym_of(supertype.subtype) else { continue };
                let scope = view.index.parent(subtype).unwrap_or(subtype);
                let rules = crate::language_rules::rules_of(view.index.symbol(subtype).language);
                let resolved = rules.item_path(&view, scope, &supertype.path);
                match resolved {
                    Ok(Resolved { denotation: Denotation::Symbol(base), .. })
                        if view.index.symbol(base).kind.is_type() =>
                    {
                        bases.entry(subtype).or_default().push(base);
                    }
                    Ok(Resolved {
                        denotation: outside @ (Denotation::External(_) | Denotation::Builtin(_)),
                        ..
                    }) => outside_bases.entry(subtype).or_default().push(outside),
                    _ => {
                        outside_bases
                            .entry(subtype)
                            .or_default()
                            .push(Denotation::External(supertype.path.join(rules.separator())));
                    }
                }
            }
        }
        self.bases = bases;
        self.outside_bases = outside_bases;
        let classes: Vec<Sym> = self.bases.keys().copied().collect();
        let orders = classes
            .into_iter()
            .map(|class| {
                let mut visiting = Vec::new();
                let order = self
                    .c3_linearization(class, &mut visiting)
                    .unwrap_or_else(|| self.depth_first_bases(class));
                (class, order)
            })
            .collect();
        self.method_resolution_orders = orders;
        let mut subclasses: HashMap<Sym, Vec<Sym>> = HashMap::default();
        for (class, order) in &self.method_resolution_orders {
            for base in order.iter().skip(1) {
                subclasses.entry(*base).or_default().push(*class);
            }
        }
        for derived in subclasses.values_mut() {
            derived.sort_unstable();
            derived.dedup();
        }
        self.subclasses = subclasses;
    }

    /// The class and its bases in Python's method resolution order: the C3 linearisation
    /// (a diamond's shared base after every class that derives it), or, for a hierarchy C3
    /// refuses (Python raises at class creation), depth first, left to right, each once.
    pub(crate) fn linearization(&self, class: Sym) -> Vec<Sym> {
        match self.method_resolution_orders.get(&class) {
            Some(order) => order.clone(),
            None => vec![class],
        }
    }

    /// C3: the class, then the merge of its bases' linearisations and the bases in order.
    /// `None` when no consistent order exists, or the hierarchy loops or runs too deep.
    fn c3_linearization(&self, class: Sym, visiting: &mut Vec<Sym>) -> Option<Vec<Sym>> {
        if visiting.contains(&class) || visiting.len() > MAX_MRO_DEPTH {
            return None;
        }
        let bases = self.bases.get(&class).cloned().unwrap_or_default();
        visiting.push(class);
        let mut sequences = Vec::with_capacity(bases.len() + 1);
        for base in &bases {
            sequences.push(self.c3_linearization(*base, visiting)?);
        }
        visiting.pop();
        sequences.push(bases);
        let mut order = vec![class];
        loop {
            sequences.retain(|sequence| !sequence.is_empty());
            if sequences.is_empty() {
                return Some(order);
            }
            // The first head that is in no other sequence's tail.
            let head = sequences.iter().map(|sequence| sequence[0]).find(|candidate| {
                sequences.iter().all(|sequence| !sequence[1..].contains(candidate))
            })?;
            order.push(head);
            for sequence in &mut sequences {
                if sequence[0] == head {
                    sequence.remove(0);
                }
            }
        }
    }

    /// The class and its bases, depth first, left to right, each once.
    fn depth_first_bases(&self, class: Sym) -> Vec<Sym> {
        let mut order = Vec::new();
        let mut stack = vec![class];
        while let Some(current) = stack.pop() {
            if order.contains(&current) || order.len() > 64 {
                continue;
            }
            order.push(current);
            if let Some(bases) = self.bases.get(&current) {
                stack.extend(bases.iter().rev().copied());
            }
        }
        order
    }
}

impl Resolver<'_> {
    pub(crate) fn resolve_import(&self, position: usize) -> Option<Resolved> {
        let import = self.index.imports[position];
        let scope = self.index.sym_of(import.scope)?;
        crate::language_rules::rules_of(self.index.symbol(scope).language)
            .import_target(self, scope, import)
    }

    /// A member of a type: a method (through bases, impls and trait defaults) or a nested type.
    pub(crate) fn type_member(
        &self,
        type_sym: Sym,
        name: &str,
        is_dyn: bool,
        language: Language,
        rule: ResolutionRule,
    ) -> Lookup {
        crate::language_rules::rules_of(language).type_member(self, type_sym, name, is_dyn, rule)
    }

    /// The type of a field or attribute (`self.h`) of a type, through its bases.
    pub(crate) fn field_type(
        &self,
        type_sym: Sym,
        name: &str,
        language: Language,
    ) -> Option<Denotation> {
        let key = format!("self.{name}");
        for class in self.linearization(type_sym) {
            let Some(bindings) = self.index.bindings_named(class, &key) else { continue };
            for binding in bindings {
                if let Some(denotation) = self.binding_denotation(class, binding, language) {
                    return Some(denotation);
                }
            }
        }
        None
    }
}
