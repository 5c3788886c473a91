//! What a name denotes while a path is being resolved, and the member lookups that walk it.

use tether_model::{Language, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::project_index::Sym;
use crate::resolver::Resolver;

/// What a name or path prefix denotes.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Denotation {
    /// A project symbol: a module, type, function…
    Symbol(Sym),
    /// A value whose type is a project type. `is_dyn` for trait objects and generic bounds.
    /// `arguments`: its generic arguments as written (`InFile<ast::Fn>`), `UntypedLocal` where
    /// one is not known; empty when none are written or known.
    Instance { type_sym: Sym, is_dyn: bool, arguments: Vec<Denotation> },
    /// A Python package prefix with no module file of its own (a namespace package).
    Namespace(String),
    /// A path outside the project (`requests.get`, `std::fs::read`).
    External(String),
    /// A builtin of the language (`len`, `Vec`).
    Builtin(String),
    /// Several project symbols; none is picked.
    Ambiguous(Vec<Sym>),
    /// A tuple's elements (`UntypedLocal` where one is not visible).
    Tuple(Vec<Denotation>),
    /// A std `Option`, `Result`, sequence, map or iterator whose element type is known.
    Wrapped { wrapper: crate::value_types::Wrapper, inner: Box<Denotation> },
    /// A local or parameter whose type is not visible.
    UntypedLocal,
}

/// How many glob or re-export hops a lookup follows before giving up (import cycles).
const MAX_IMPORT_HOPS: u32 = 8;

/// A denotation with the rule that produced it.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Resolved {
    pub denotation: Denotation,
    pub rule: ResolutionRule,
}

pub(crate) type Lookup = Result<Resolved, UnresolvedReason>;

pub(crate) fn found(denotation: Denotation, rule: ResolutionRule) -> Lookup {
    Ok(Resolved { denotation, rule })
}

/// One symbol, or an ambiguity, from a candidate list; `None` when empty.
pub(crate) fn from_candidates(candidates: &[Sym]) -> Option<Denotation> {
    match candidates {
        [] => None,
        [only] => Some(Denotation::Symbol(*only)),
        several => Some(Denotation::Ambiguous(several.to_vec())),
    }
}

impl Resolver<'_> {
    /// The member `name` of what `base` denotes.
    pub(crate) fn member(&self, base: &Resolved, name: &str, language: Language) -> Lookup {
        self.member_at_depth(base, name, language, 0)
    }

    /// `depth` counts glob and re-export hops, so import cycles end.
    pub(crate) fn member_at_depth(
        &self,
        base: &Resolved,
        name: &str,
        language: Language,
        depth: u32,
    ) -> Lookup {
        if depth > MAX_IMPORT_HOPS {
            return Err(UnresolvedReason::UnresolvedImport);
        }
        let separator = crate::language_rules::rules_of(language).separator();
        // A project trait implemented for the outside type (`impl Integer for i8`).
        if let Denotation::External(path) | Denotation::Builtin(path) = &base.denotation {
            if let Some(lookup) = self.outside_type_method(path, name) {
                return lookup;
            }
        }
        match &base.denotation {
            Denotation::UntypedLocal => Err(UnresolvedReason::UnknownReceiverType),
            // `pair.0`: an element.
            Denotation::Tuple(elements) => {
                match name.parse::<usize>().ok().and_then(|position| elements.get(position)) {
                    Some(element) => found(element.clone(), base.rule),
                    None => Err(UnresolvedReason::UnknownMember),
                }
            }
            // A smart pointer's fields are its pointee's; other std wrappers have none to name.
            Denotation::Wrapped { wrapper, inner } if wrapper.is_pointer() => self.member_at_depth(
                &Resolved { denotation: (**inner).clone(), rule: base.rule },
                name,
                language,
                depth + 1,
            ),
            // A Python builtin container's attributes are the builtin's (`items.append`).
            Denotation::Wrapped { wrapper, .. } if wrapper.is_python() => {
                found(wrapper.std_member(name), instance_member_rule(base.rule))
            }
            Denotation::Wrapped { .. } => Err(UnresolvedReason::UnknownMember),
            // What an outside free function returns may be a project value (`cast(Foo, x)`,
            // `copy(obj)`, `next(nodes)`, `std::mem::take(&mut self.state)`): a member that a
            // project callable is named after may be that project callable, so it is not bound
            // to the outside world, where it would hide a project target. (What an outside
            // type's constructor or method returns stays outside: `Barrier::new(2).wait()`.)
            Denotation::External(path) | Denotation::Builtin(path)
                if is_free_function_result(path, separator)
                    && self.index.callables_by_name.contains_key(name) =>
            {
                Err(UnresolvedReason::UnknownReceiverType)
            }
            Denotation::External(path) => {
                found(Denotation::External(format!("{path}{separator}{name}")), base.rule)
            }
            Denotation::Builtin(path) => {
                found(Denotation::Builtin(format!("{path}{separator}{name}")), base.rule)
            }
            Denotation::Namespace(prefix) => {
                match crate::language_rules::rules_of(language).namespace_member(self, prefix, name)
                {
                    Some(member) => found(member, base.rule),
                    None => Err(UnresolvedReason::UnknownMember),
                }
            }
            Denotation::Ambiguous(candidates) => {
                self.ambiguous_member(candidates, base.rule, name, language, depth)
            }
            Denotation::Symbol(sym) => self.symbol_member(*sym, base.rule, name, language, depth),
            Denotation::Instance { type_sym, is_dyn, arguments } => {
                self.instance_member(*type_sym, *is_dyn, arguments, base.rule, name, language)
            }
        }
    }

    /// The member of each of several same-named symbols: ambiguous among those that have it.
    fn ambiguous_member(
        &self,
        candidates: &[Sym],
        rule: ResolutionRule,
        name: &str,
        language: Language,
        depth: u32,
    ) -> Lookup {
        let mut targets = Vec::new();
        for candidate in candidates {
            let single = Resolved { denotation: Denotation::Symbol(*candidate), rule };
            if let Ok(Resolved { denotation: Denotation::Symbol(target), .. }) =
                self.member_at_depth(&single, name, language, depth)
            {
                targets.push(target);
            }
        }
        match from_candidates(&targets) {
            Some(Denotation::Symbol(target)) => {
                found(Denotation::Ambiguous(vec![target]), ResolutionRule::Ambiguous)
            }
            Some(denotation) => found(denotation, ResolutionRule::Ambiguous),
            None => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// A member of a project symbol: a module's item, an aliased type's member, a type's (or
    /// an impl's) method, nested type or associated const.
    fn symbol_member(
        &self,
        sym: Sym,
        rule: ResolutionRule,
        name: &str,
        language: Language,
        depth: u32,
    ) -> Lookup {
        match self.index.symbol(sym).kind {
            SymbolKind::Module => self.module_member(sym, name, language, rule, depth),
            // `Alias::new()` is a member of the aliased type.
            SymbolKind::TypeAlias => {
                let target = match self.alias_target(sym).ok_or(UnresolvedReason::UnknownMember)? {
                    Denotation::Instance { type_sym, .. } => Denotation::Symbol(type_sym),
                    outside @ (Denotation::External(_) | Denotation::Builtin(_)) => outside,
                    _ => return Err(UnresolvedReason::UnknownMember),
                };
                self.member_at_depth(
                    &Resolved { denotation: target, rule },
                    name,
                    language,
                    depth + 1,
                )
            }
            kind if kind.is_type() || kind == SymbolKind::Impl => {
                let member_rule = member_rule(rule, ResolutionRule::TypeMember);
                match self.type_member(sym, name, false, language, member_rule) {
                    // `Ready::ALL`: an associated const's value.
                    Err(UnresolvedReason::UnknownMember) => {
                        crate::language_rules::rules_of(language)
                            .type_value_member(self, sym, name)
                            .ok_or(UnresolvedReason::UnknownMember)
                    }
                    member => member,
                }
            }
            _ => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// A member of an instance: a field's type (as the instance's type arguments make it),
    /// else a method (every implementation's on a `dyn`), a property read as its value.
    fn instance_member(
        &self,
        type_sym: Sym,
        is_dyn: bool,
        arguments: &[Denotation],
        rule: ResolutionRule,
        name: &str,
        language: Language,
    ) -> Lookup {
        let with_arguments = if arguments.is_empty() || is_dyn {
            None
        } else {
            self.field_type_with_arguments(type_sym, arguments, name)
        };
        if let Some(field) = with_arguments.or_else(|| self.field_type(type_sym, name, language)) {
            return found(field, instance_member_rule(rule));
        }
        let rule =
            if is_dyn { ResolutionRule::DynamicDispatch } else { instance_member_rule(rule) };
        let rules = crate::language_rules::rules_of(language);
        let member = match self.type_member(type_sym, name, is_dyn, language, rule) {
            // An attribute only subclasses set (`self.on_close = close_window`).
            Err(reason) => {
                return match rules.subclass_attribute(self, type_sym, name) {
                    Some(held) => found(held, ResolutionRule::ValueFlow),
                    None => Err(reason),
                };
            }
            // An attribute the object sets itself (`self.cb = cb`) is not an outside base's
            // member: what it holds is a value (value flow may know it).
            Ok(Resolved {
                denotation: Denotation::External(_) | Denotation::Builtin(_), ..
            }) if rules.sets_own_attribute(self, type_sym, name) => {
                return Err(UnresolvedReason::ValueCall);
            }
            Ok(member) => member,
        };
        Ok(crate::language_rules::rules_of(language).member_value(self, member))
    }

    /// Whether a class (or a project base) assigns `self.name` itself.
    pub(crate) fn sets_own_attribute(&self, type_sym: Sym, name: &str) -> bool {
        let key = format!("self.{name}");
        self.linearization(type_sym)
            .into_iter()
            .any(|class| self.index.bindings_named(class, &key).is_some())
    }

    /// A module's member: an item defined in it, a submodule, or a name it imports.
    fn module_member(
        &self,
        module: Sym,
        name: &str,
        language: Language,
        rule: ResolutionRule,
        depth: u32,
    ) -> Lookup {
        let rule = member_rule(rule, ResolutionRule::QualifiedPath);
        let items: Vec<Sym> = self
            .index
            .children_named(module, name)
            .iter()
            .copied()
            .filter(|child| self.index.symbol(*child).kind != SymbolKind::Impl)
            .collect();
        let rules = crate::language_rules::rules_of(language);
        let items = rules.callable_items(self, items);
        if let Some(denotation) = from_candidates(&items) {
            return found(denotation, rule);
        }
        let separator = rules.separator();
        let qualified_name =
            format!("{}{separator}{name}", self.index.symbol(module).qualified_name);
        if let Some(denotation) =
            from_candidates(&self.index.modules_named(&qualified_name, language))
        {
            return found(denotation, rule);
        }
        if let Some(submodule) = rules.unlisted_submodule(self, module, name, qualified_name) {
            return found(submodule, rule);
        }
        if let Some(imported) = self.imported_name(module, name, depth + 1) {
            return found(imported.denotation, rule);
        }
        // A type a macro defines in the module, seen through its inherent impl.
        if let Some(impl_sym) = self.impl_only_types.get(&(module, name.to_string())) {
            return found(Denotation::Symbol(*impl_sym), rule);
        }
        if self.module_variables_visible {
            if let Some(value) = rules.module_variable(self, module, name) {
                // A variable's value is known through its assignment, not declared.
                let rule = match rule {
                    ResolutionRule::Ambiguous
                    | ResolutionRule::NameOnly
                    | ResolutionRule::DynamicDispatch => rule,
                    _ => ResolutionRule::TypedReceiver,
                };
                return found(value, rule);
            }
        }
        Err(UnresolvedReason::UnknownMember)
    }

    /// What an import of `scope` binds `name` to, as the first segment of a longer Rust path.
    /// An import whose own path starts with the name it binds (`use bitflags::bitflags;`,
    /// `use smallvec::{smallvec, SmallVec};`) brings in an item named after its crate, and that
    /// crate is what the name means at the head of a path: such imports are skipped. (Without
    /// this, `use bitflags::bitflags;` resolved through itself, one `bitflags::` longer on every
    /// import pass.)
    pub(crate) fn imported_path_head(&self, scope: Sym, name: &str) -> Option<Resolved> {
        let imports = self.index.imports_by_scope.get(&scope)?;
        let names_its_own_crate = |position: &u32| {
            let import = self.index.imports[*position as usize];
            !import.is_glob
                && import.alias.as_deref() == Some(name)
                && import.path.first().map(String::as_str) == Some(name)
                && import.path.len() > 1
        };
        if imports.iter().any(names_its_own_crate)
            && !imports.iter().any(|position| {
                let import = self.index.imports[*position as usize];
                !import.is_glob
                    && import.alias.as_deref() == Some(name)
                    && !names_its_own_crate(position)
            })
        {
            return None;
        }
        self.imported_name(scope, name, 0)
    }

    /// A name bound in a scope by an import (explicit first, then globs).
    pub(crate) fn imported_name(&self, scope: Sym, name: &str, depth: u32) -> Option<Resolved> {
        let imports = self.index.imports_by_scope.get(&scope)?;
        let reaching = self.imports_reaching(scope, imports, name, depth);
        // Several imports of one name reaching a use are alternatives (`#[cfg(feature = "x")]
        // use a::Mutex;` beside `#[cfg(not(…))] use b::Mutex;`, or Python's `try: from a
        // import f` / `except ImportError: from b import f`): when they name different project
        // symbols, the name is ambiguous between them, never the first one silently.
        let mut alternatives: Vec<Sym> = Vec::new();
        for denotation in &reaching {
            if let Denotation::Symbol(sym) = denotation {
                if !alternatives.contains(sym) {
                    alternatives.push(*sym);
                }
            }
        }
        if alternatives.len() > 1 {
            return Some(Resolved {
                denotation: Denotation::Ambiguous(alternatives),
                rule: ResolutionRule::Ambiguous,
            });
        }
        // One project symbol among outside alternatives (`try: from py.path import f` over a
        // vendored copy, `except ImportError: from py._path.local import f`) is the one whose
        // change matters here.
        let denotation = match alternatives.as_slice() {
            [only] => Denotation::Symbol(*only),
            _ => reaching.into_iter().next()?,
        };
        Some(Resolved { denotation, rule: ResolutionRule::Import })
    }

    /// What the imports of `scope` that may bind `name` at the current use denote: walking
    /// back from the latest import taking effect before the use (a Python import runs where
    /// it is written; a use from a nested scope runs after all of them; a Rust `use` is in
    /// force everywhere) for as long as the later ones sit in a branch the use is not in.
    /// Imports taking effect together come in source order, names before globs: the first
    /// glob exporting `name` (only of a project module, which would otherwise claim every
    /// unknown name) counts only where none of them names it.
    fn imports_reaching(
        &self,
        scope: Sym,
        imports: &[u32],
        name: &str,
        depth: u32,
    ) -> Vec<Denotation> {
        let at = self.context.use_byte_in(scope).unwrap_or(u32::MAX - 1);
        let relevant: Vec<(usize, &tether_model::Import)> = imports
            .iter()
            .map(|position| (*position as usize, self.index.imports[*position as usize]))
            .filter(|(_, import)| import.is_glob || import.alias.as_deref() == Some(name))
            .collect();
        let mut before: Vec<(usize, &tether_model::Import)> =
            relevant.iter().copied().filter(|(_, import)| import.visible_from < at).collect();
        if before.is_empty() {
            before = relevant;
        }
        before.sort_by_key(|(position, import)| (import.visible_from, *position));
        let mut reaching = Vec::new();
        let mut rest = before.as_slice();
        while let Some((_, last)) = rest.last() {
            let group_start =
                rest.partition_point(|(_, import)| import.visible_from < last.visible_from);
            let group = &rest[group_start..];
            let named: Vec<&(usize, &tether_model::Import)> =
                group.iter().filter(|(_, import)| !import.is_glob).collect();
            let mut ends_walk = false;
            let mut named_here = false;
            for (position, import) in named {
                if let Some(result) = &self.import_results[*position] {
                    reaching.push(result.denotation.clone());
                    named_here = true;
                    ends_walk |= import.branch.runs_before(at);
                }
            }
            if !named_here {
                for (position, import) in group.iter().filter(|(_, import)| import.is_glob) {
                    if let Some(member) = self.glob_member(*position, name, depth) {
                        reaching.push(member);
                        ends_walk |= import.branch.runs_before(at);
                        break;
                    }
                }
            }
            if ends_walk {
                break;
            }
            rest = &rest[..group_start];
        }
        reaching
    }

    /// The member `name` of what the glob import at `position` imports, when that is a
    /// project module exporting it. Depth bounds cycles of globs.
    fn glob_member(&self, position: usize, name: &str, depth: u32) -> Option<Denotation> {
        let base = self.import_results[position].as_ref()?;
        let Denotation::Symbol(base_module) = base.denotation else { return None };
        let rules = crate::language_rules::rules_of(self.index.symbol(base_module).language);
        if !rules.star_import_takes(self, base_module, name) {
            return None;
        }
        let language = self.index.symbol(base_module).language;
        self.member_at_depth(base, name, language, depth + 1).ok().map(|member| member.denotation)
    }
}

/// The rule of a member of a value: its type is known from an annotation or an assignment,
/// however the value was reached (an imported module variable is still a typed value), except
/// that `self`'s members stay self members and weak guesses stay weak.
pub(crate) fn instance_member_rule(base_rule: ResolutionRule) -> ResolutionRule {
    match base_rule {
        ResolutionRule::Ambiguous
        | ResolutionRule::NameOnly
        | ResolutionRule::DynamicDispatch
        | ResolutionRule::SelfMethod => base_rule,
        _ => ResolutionRule::TypedReceiver,
    }
}

/// The rule of a member found through `base_rule`: a resolved head keeps its stronger meaning
/// (an import stays an import), a weaker head weakens the member.
pub(crate) fn member_rule(
    base_rule: ResolutionRule,
    member_kind: ResolutionRule,
) -> ResolutionRule {
    match base_rule {
        ResolutionRule::Ambiguous | ResolutionRule::NameOnly | ResolutionRule::DynamicDispatch => {
            base_rule
        }
        ResolutionRule::SelfMethod => ResolutionRule::SelfMethod,
        ResolutionRule::TypedReceiver => ResolutionRule::TypedReceiver,
        ResolutionRule::Import => ResolutionRule::Import,
        _ => member_kind,
    }
}

/// Whether an outside path is the result of calling a free function (`typing.cast()`,
/// `next()`, `std::mem::take()`) or of calling a call's result (`weakref.ref(x)()`), not of a
/// type's constructor or associated function (`Barrier::new()`, `Path()`) or of a method on
/// another call's result (`a().b()`).
pub(crate) fn is_free_function_result(path: &str, separator: &str) -> bool {
    let Some(function) = path.strip_suffix("()") else { return false };
    // Calling what a call returned (`weakref.ref(obj)()`, `functools.partial(f)()`) may give
    // anything back.
    if function.ends_with("()") {
        return true;
    }
    if function.contains("()") {
        return false;
    }
    let mut segments = function.rsplit(separator);
    let name = segments.next().unwrap_or("");
    let owner = segments.next();
    let starts_lowercase =
        |text: &str| text.chars().next().is_some_and(|first| first.is_lowercase() || first == '_');
    starts_lowercase(name) && owner.is_none_or(starts_lowercase)
}
