//! Trait methods called as paths: `<Type as Trait>::m(…)` names the impl of `Trait` for
//! `Type` (or the trait's default method when that impl does not define `m`), and `Trait::m(x,
//! …)` the same impl for the type of its first argument `x` when that is visible, as
//! `x.m()` through `Trait` would.
//!
//! It deliberately does not infer an argument's type from an expression more complex than a
//! name, `&name` or `*name` (those are what call arguments record; `*name` of a type with an
//! `impl Deref` of its own is left alone): `Trait::m(f(x))` stays on
//! the trait's declaration, which answers about the trait say is a dispatch.

use tether_model::{CallArgument, ResolutionRule, SymbolKind};

use crate::calls::CallTargets;
use crate::denotation::{found, member_rule, Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// `<Type as Trait>::name`: the impl's method for a project type, else what `Trait::name`
    /// names (the declaration, or a path outside the project).
    pub(crate) fn trait_path_callee(
        &self,
        caller: Sym,
        self_type: &[String],
        trait_path: &[String],
        name: &str,
    ) -> Lookup {
        let written_type = match self_type {
            [only] if only == "Self" => self.rust_self_type(caller),
            _ => self.rust_called_path(caller, self_type, BindingUse::Forbidden).ok(),
        };
        let trait_resolved = self.rust_called_path(caller, trait_path, BindingUse::Forbidden).ok();
        if let Some(Resolved { denotation: Denotation::Symbol(type_sym), rule }) = written_type {
            if self.index.symbol(type_sym).kind.is_type() {
                let trait_name = trait_path.last().map(String::as_str).unwrap_or_default();
                let method = match &trait_resolved {
                    Some(Resolved { denotation: Denotation::Symbol(trait_sym), .. }) => {
                        self.trait_method_of_type(*trait_sym, type_sym, name)
                    }
                    _ => {
                        // A generic outside trait may be implemented several times for one
                        // type (`impl From<A> for E`, `impl From<B> for E`): the trait path
                        // names no one of them, so each may be called.
                        let methods =
                            self.outside_trait_methods_of_type(trait_name, type_sym, name);
                        if methods.len() > 1 {
                            return found(
                                Denotation::Ambiguous(methods),
                                ResolutionRule::DynamicDispatch,
                            );
                        }
                        methods.first().copied()
                    }
                };
                if let Some(method) = method {
                    return found(
                        Denotation::Symbol(method),
                        member_rule(rule, ResolutionRule::QualifiedPath),
                    );
                }
            }
        }
        let mut path = trait_path.to_vec();
        path.push(name.to_string());
        self.rust_called_path(caller, &path, BindingUse::Forbidden)
    }

    /// `Trait::name` called on a value by the language (`Display::fmt` of a `{}` argument):
    /// the method of the impl of `Trait` for the value's project type (each impl's, when an
    /// outside generic trait is implemented several times); nothing for another value.
    pub(crate) fn trait_method_of_value(
        &self,
        caller: Sym,
        receiver: &Resolved,
        trait_path: &[String],
        name: &str,
    ) -> Lookup {
        let Denotation::Instance { type_sym, is_dyn: false, .. } = receiver.denotation else {
            return Err(tether_model::UnresolvedReason::UnknownReceiverType);
        };
        let trait_resolved = self.rust_called_path(caller, trait_path, BindingUse::Forbidden).ok();
        let methods = match trait_resolved {
            Some(Resolved { denotation: Denotation::Symbol(trait_sym), .. })
                if self.index.symbol(trait_sym).kind == SymbolKind::Trait =>
            {
                self.trait_method_of_type(trait_sym, type_sym, name).into_iter().collect()
            }
            _ => {
                let trait_name = trait_path.last().map(String::as_str).unwrap_or_default();
                let written = self.outside_trait_methods_of_type(trait_name, type_sym, name);
                if written.is_empty() {
                    // `{:?}` of a type deriving `Debug`: its fields' `fmt`, noted as calls.
                    let derived = self.derived_method_targets(type_sym, Some(trait_name), name);
                    self.context.note_derived_calls(&derived);
                }
                written
            }
        };
        let rule = member_rule(receiver.rule, ResolutionRule::TypedReceiver);
        match methods.as_slice() {
            [] => Err(tether_model::UnresolvedReason::UnknownMember),
            [only] => found(Denotation::Symbol(*only), rule),
            several => {
                found(Denotation::Ambiguous(several.to_vec()), ResolutionRule::DynamicDispatch)
            }
        }
    }

    /// The method `name` of a project trait as implemented for `type_sym`: its impl's own,
    /// else the trait's default (or a supertrait's) when the type implements the trait.
    pub(crate) fn trait_method_of_type(
        &self,
        trait_sym: Sym,
        type_sym: Sym,
        name: &str,
    ) -> Option<Sym> {
        let impls = self.impls_of_type.get(&type_sym)?;
        let impl_sym = impls
            .iter()
            .copied()
            .find(|impl_sym| self.impl_trait.get(impl_sym) == Some(&trait_sym))?;
        let own = self.index.children_named(impl_sym, name).first().copied();
        own.or_else(|| {
            self.linearization(trait_sym)
                .into_iter()
                .find_map(|trait_sym| self.index.children_named(trait_sym, name).first().copied())
        })
    }

    /// The methods `name` of the impls of an outside trait (`Default`, `fmt::Display`, each
    /// `From<…>`) for a project type, by the trait's last name.
    pub(crate) fn outside_trait_methods_of_type(
        &self,
        trait_name: &str,
        type_sym: Sym,
        name: &str,
    ) -> Vec<Sym> {
        let Some(impls) = self.impls_of_type.get(&type_sym) else { return Vec::new() };
        impls
            .iter()
            .filter(|impl_sym| {
                self.impl_trait_names.get(impl_sym).map(String::as_str) == Some(trait_name)
            })
            .filter_map(|impl_sym| self.index.children_named(*impl_sym, name).first().copied())
            .collect()
    }

    /// A call bound to a trait's declaration (`Trait::m(x, …)`) whose first argument's type is
    /// a visible project type: that type's impl of the method instead.
    pub(crate) fn with_first_argument_impl(
        &self,
        caller: Sym,
        arguments: &[&CallArgument],
        targets: CallTargets,
    ) -> CallTargets {
        let CallTargets::Project(bound) = &targets else { return targets };
        let [(declaration, rule)] = bound.as_slice() else { return targets };
        let Some(trait_sym) = self
            .index
            .parent(*declaration)
            .filter(|parent| self.index.symbol(*parent).kind == SymbolKind::Trait)
        else {
            return targets;
        };
        let Some(first) = arguments.iter().find(|argument| argument.position == Some(0)) else {
            return targets;
        };
        let value = self.context.with_use_position(caller, first.byte, || {
            self.receiver_value(
                caller,
                &tether_model::Receiver::Path(first.path.clone()),
                self.index.symbol(caller).language,
            )
        });
        // `Trait::m(*x)`: what `x` points to (`x: &T` gives `T`; a type with its own `impl
        // Deref` may be either).
        let value = match value {
            Some(value) if first.form == tether_model::ArgumentForm::Dereferenced => {
                self.dereferenced(&value.denotation)
            }
            value => value.map(|value| value.denotation),
        };
        let Some(Denotation::Instance { type_sym, is_dyn: false, .. }) = value else {
            return targets;
        };
        let name = &self.index.symbol(*declaration).name;
        match self.trait_method_of_type(trait_sym, type_sym, name) {
            Some(method) => CallTargets::Project(vec![(method, typed_rule(*rule))]),
            None => targets,
        }
    }
}

/// The rule of a trait path call bound through its argument's type: as sure as a typed
/// method call, unless the path itself was a guess.
fn typed_rule(rule: ResolutionRule) -> ResolutionRule {
    match rule {
        ResolutionRule::Ambiguous | ResolutionRule::NameOnly => rule,
        _ => ResolutionRule::TypedReceiver,
    }
}
