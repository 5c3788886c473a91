//! Rust's member lookup: a type's methods through its inherent impls before its trait impls
//! (a private inherent method only inside its module), blanket impls, `Deref` targets, and a
//! trait's own and supertraits' methods.
//!
//! It deliberately follows only what the project's impls say: std's impls for project types
//! (`impl From<…>` written by derives aside) are not seen.

use tether_model::{Language, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::denotation::{found, from_candidates, Denotation, Lookup, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// How many `Deref` steps a method lookup follows (`A` → `B` → `C`).
const MAX_DEREF_STEPS: usize = 3;

impl Resolver<'_> {
    /// A method called on a Rust value: an instance's through its type's impls (a method call
    /// never calls a field: `(self.f)()` does, and is not this form), then its `Deref` target
    /// or a std adapter of a project iterator; `None` for other values.
    pub(crate) fn rust_instance_method(&self, receiver: &Resolved, name: &str) -> Option<Lookup> {
        let Denotation::Instance { type_sym, is_dyn, arguments } = &receiver.denotation else {
            return None;
        };
        let rule = if *is_dyn {
            ResolutionRule::DynamicDispatch
        } else {
            crate::denotation::member_rule(receiver.rule, ResolutionRule::TypedReceiver)
        };
        let member = self.type_member(*type_sym, name, *is_dyn, Language::Rust, rule);
        // A method the type's own impls do not define is looked up through its `Deref`.
        if !*is_dyn && self.has_deref_impl(*type_sym) && !self.type_defines_method(*type_sym, name)
        {
            self.context.note_dereferenced(*type_sym);
        }
        if let Err(UnresolvedReason::UnknownMember) = member {
            // A std iterator adapter of a project iterator (`node.children().map(…)`).
            if let Some(Denotation::Wrapped { wrapper, .. }) =
                self.as_std_iterator(&receiver.denotation, Some(name))
            {
                if wrapper.has_std_method(name) {
                    return Some(found(wrapper.std_member(name), ResolutionRule::TypedReceiver));
                }
            }
            // `Spawn<DelayQueue>` derefs to its argument.
            if !*is_dyn {
                if let Some(target) = self.deref_to_argument(*type_sym, arguments) {
                    return Some(self.method_of_value(
                        &Resolved { denotation: target, rule: ResolutionRule::TypedReceiver },
                        name,
                        Language::Rust,
                    ));
                }
            }
        }
        Some(member)
    }

    /// A member of a Rust type: through its impls (inherent first), a trait's own and its
    /// supertraits', or the impl block of a type tether does not see.
    pub(crate) fn rust_member(
        &self,
        type_sym: Sym,
        name: &str,
        is_dyn: bool,
        rule: ResolutionRule,
    ) -> Lookup {
        let kind = self.index.symbol(type_sym).kind;
        if kind == SymbolKind::Impl && !self.is_impl_only_type(type_sym) {
            // The impl block of a type tether does not see (see `rust_self_type`).
            return from_candidates(self.index.children_named(type_sym, name))
                .map_or(Err(UnresolvedReason::UnknownMember), |denotation| {
                    found(denotation, rule)
                });
        }
        if kind == SymbolKind::Trait {
            return self.rust_trait_member(type_sym, name, is_dyn, rule);
        }
        self.rust_type_member(type_sym, kind, name, rule)
    }

    /// A method of a Rust trait: on a `dyn` receiver every impl's (a dynamic dispatch), else
    /// the declaration, else a blanket extension trait's provided method.
    pub(crate) fn rust_trait_member(
        &self,
        trait_sym: Sym,
        name: &str,
        is_dyn: bool,
        rule: ResolutionRule,
    ) -> Lookup {
        let declared = self.trait_method(trait_sym, name);
        if is_dyn {
            let mut targets: Vec<Sym> = declared.into_iter().collect();
            for impl_sym in self.impls_of_trait.get(&trait_sym).into_iter().flatten() {
                targets.extend_from_slice(self.index.children_named(*impl_sym, name));
            }
            if !targets.is_empty() {
                return found(Denotation::Ambiguous(targets), ResolutionRule::DynamicDispatch);
            }
        }
        if let Some(method) = declared {
            return found(Denotation::Symbol(method), rule);
        }
        // A provided method of a blanket extension trait over this trait.
        match self.blanket_method(trait_sym, name, Language::Rust) {
            Some(denotation) => found(denotation, crate::rust::blanket_impls::blanket_rule(rule)),
            None => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// A method of a Rust type, in Rust's order: inherent methods, trait impls' methods, the
    /// traits' default methods, an enum's variant (a constructor), a derived or blanket std
    /// method, the `Deref` target's members, a blanket extension trait's.
    pub(crate) fn rust_type_member(
        &self,
        type_sym: Sym,
        kind: SymbolKind,
        name: &str,
        rule: ResolutionRule,
    ) -> Lookup {
        if let Some(denotation) = self.rust_impl_method(type_sym, name) {
            return found(denotation, rule);
        }
        if kind == SymbolKind::Enum && self.index.bindings_named(type_sym, name).is_some() {
            // `Enum::Variant(…)` constructs the enum (extraction records each variant).
            return found(Denotation::Symbol(type_sym), ResolutionRule::Constructor);
        }
        // No impl the project wrote has it: a derived or blanket std trait method. A derived
        // one calls its fields' project impls, noted as calls of the site (the call itself
        // stays std's: `Type::default()` is still a `Type`).
        let derived = self.derived_method_targets(type_sym, None, name);
        if !derived.is_empty() {
            self.context.note_derived_calls(&derived);
        }
        if let Some(std_trait) = crate::builtins::rust_std_trait_of_method(name) {
            return found(Denotation::Builtin(format!("{std_trait}::{name}")), rule);
        }
        // Auto-deref: `impl Deref for T { type Target = U; }` gives `T` the methods of
        // `U` (`Semantics` → `SemanticsImpl`), a bounded number of steps deep.
        let mut current = type_sym;
        for _ in 0..MAX_DEREF_STEPS {
            let Some(target) =
                self.deref_targets.get(&current).copied().filter(|target| *target != current)
            else {
                break;
            };
            if let Ok(member) = self.type_member(target, name, false, Language::Rust, rule) {
                return Ok(member);
            }
            current = target;
        }
        // A provided method of a blanket extension trait whose bound the type meets.
        match self.blanket_method(type_sym, name, Language::Rust) {
            Some(denotation) => found(denotation, crate::rust::blanket_impls::blanket_rule(rule)),
            None => Err(UnresolvedReason::UnknownMember),
        }
    }

    /// A method the project's impls of a Rust type define: inherent before trait impls', then
    /// a default method of a trait the type implements.
    pub(crate) fn rust_impl_method(&self, type_sym: Sym, name: &str) -> Option<Denotation> {
        // Methods a struct's attribute macro generates (salsa's field getters) are
        // recorded under the struct itself.
        let mut inherent: Vec<Sym> = self
            .index
            .children_named(type_sym, name)
            .iter()
            .copied()
            .filter(|child| self.index.symbol(*child).kind == SymbolKind::Method)
            .collect();
        let mut from_traits = Vec::new();
        for impl_sym in self.impls_of_type.get(&type_sym).into_iter().flatten() {
            let methods = self.index.children_named(*impl_sym, name);
            if self.index.symbol(*impl_sym).name.contains(" for ") {
                from_traits.extend_from_slice(methods);
            } else {
                inherent.extend(
                    methods.iter().copied().filter(|method| self.is_visible_method(*method)),
                );
            }
        }
        // (A type a macro defines is its own impl: its methods are met twice.)
        inherent.sort_unstable();
        inherent.dedup();
        if let Some(denotation) =
            from_candidates(&inherent).or_else(|| from_candidates(&from_traits))
        {
            return Some(denotation);
        }
        // A trait's default method, through the traits this type implements.
        let mut defaults = Vec::new();
        for impl_sym in self.impls_of_type.get(&type_sym).into_iter().flatten() {
            if let Some(trait_sym) = self.impl_trait.get(impl_sym) {
                defaults.extend(self.trait_method(*trait_sym, name));
            }
        }
        defaults.dedup();
        from_candidates(&defaults)
    }

    /// Whether the call being resolved may call a method: one written without `pub` in an
    /// inherent impl only from its own module or a module inside it (also when no call is
    /// being resolved).
    pub(crate) fn is_visible_method(&self, method: Sym) -> bool {
        if self.index.bindings_named(method, crate::PRIVATE_METHOD_BINDING).is_none() {
            return true;
        }
        let Some(use_scope) = self.context.use_scope() else { return true };
        let module_of = |sym: Sym| {
            let mut current = Some(sym);
            while let Some(level) = current {
                if self.index.symbol(level).kind == SymbolKind::Module {
                    return Some(level);
                }
                current = self.index.parent(level);
            }
            None
        };
        // A file's module has no parent symbol: modules nest by their paths.
        let (Some(method_module), Some(use_module)) = (module_of(method), module_of(use_scope))
        else {
            return true;
        };
        let method_module = &self.index.symbol(method_module).qualified_name;
        let use_module = &self.index.symbol(use_module).qualified_name;
        use_module == method_module
            || use_module
                .strip_prefix(method_module.as_str())
                .is_some_and(|rest| rest.starts_with("::"))
    }

    /// The project type a type dereferences to: its `impl Deref`'s `type Target`.
    pub(crate) fn deref_target(&self, type_sym: Sym) -> Option<Sym> {
        self.deref_target_aliases(type_sym).into_iter().find_map(|target| {
            match self.alias_target(target)? {
                Denotation::Instance { type_sym, is_dyn: false, .. } => Some(type_sym),
                _ => None,
            }
        })
    }

    /// The `type Target` aliases of a type's `impl Deref` blocks.
    pub(crate) fn deref_target_aliases(&self, type_sym: Sym) -> Vec<Sym> {
        let impls = self.impls_of_type.get(&type_sym).map(Vec::as_slice).unwrap_or(&[]);
        impls
            .iter()
            .filter_map(move |impl_sym| {
                if !self.index.symbol(*impl_sym).name.starts_with("{impl Deref for ") {
                    return None;
                }
                self.index
                    .children_named(*impl_sym, "Target")
                    .iter()
                    .copied()
                    .find(|child| self.index.symbol(*child).kind == SymbolKind::TypeAlias)
            })
            .collect()
    }

    /// A trait's own method `name`, or one of its supertraits'.
    pub(crate) fn trait_method(&self, trait_sym: Sym, name: &str) -> Option<Sym> {
        self.linearization(trait_sym)
            .into_iter()
            .find_map(|trait_sym| self.index.children_named(trait_sym, name).first().copied())
    }

    /// The value of an associated const of a type (`impl Ready { const ALL: Ready = …; }`),
    /// when one impl of the type declares it with a visible type.
    pub(crate) fn associated_const(&self, type_sym: Sym, name: &str) -> Option<Resolved> {
        let mut values = self.impls_of_type.get(&type_sym)?.iter().filter_map(|impl_sym| {
            let binding = self.index.bindings_named(*impl_sym, name)?.first()?;
            self.binding_denotation(*impl_sym, binding, Language::Rust)
        });
        let value = values.next()?;
        values
            .next()
            .is_none()
            .then_some(Resolved { denotation: value, rule: ResolutionRule::TypedReceiver })
    }
}
