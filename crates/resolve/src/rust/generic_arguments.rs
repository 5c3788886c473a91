//! Generic arguments of project types: a value written `InFile<ast::Fn>` keeps `ast::Fn`, so
//! that the field `value: T` of `struct InFile<T>` and what `impl<T> InFile<T> { fn
//! as_ref(&self) -> InFile<&T> }` returns are typed from the instance's arguments, by position
//! among the Self type's arguments. An argument that is not known leaves the result unknown
//! (a field falls back on its parameter's bound, as without arguments).

use tether_model::{BindingValue, Language};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::rust::rules::RustPathSite;

impl Resolver<'_> {
    /// The arguments of an instance written `Type<arguments…>` in `scope`: each argument's
    /// type, `UntypedLocal` where it is not known; empty when none is known.
    pub(crate) fn written_instance_arguments(
        &self,
        scope: Sym,
        arguments: &[BindingValue],
        language: Language,
    ) -> Vec<Denotation> {
        if language != Language::Rust {
            return Vec::new();
        }
        let typed: Vec<Denotation> = arguments
            .iter()
            .map(|argument| self.argument_denotation(scope, argument, language))
            .collect();
        if typed.iter().all(|argument| *argument == Denotation::UntypedLocal) {
            return Vec::new();
        }
        typed
    }

    /// One written generic argument's type, `UntypedLocal` when it is not known.
    fn argument_denotation(
        &self,
        scope: Sym,
        argument: &BindingValue,
        language: Language,
    ) -> Denotation {
        let typed = match argument {
            BindingValue::Type { path, is_dyn, arguments } => {
                self.written_type(scope, path, *is_dyn, arguments, language)
            }
            BindingValue::SelfTypeArgument { bound: Some(path), .. } => {
                self.written_type(scope, path, true, &[], language)
            }
            _ => None,
        };
        typed.unwrap_or(Denotation::UntypedLocal)
    }

    /// What a generic alias of a module stands for with the written `arguments` put in for its
    /// parameters; `None` when nothing is to be put in.
    pub(crate) fn generic_alias_target(
        &self,
        alias: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        if arguments.is_empty() {
            return None;
        }
        // An associated type's parameters are its impl's, not what a path writes after it.
        let owner = self.index.parent(alias)?;
        if self.index.symbol(owner).kind != tether_model::SymbolKind::Module {
            return None;
        }
        let binding = self.index.bindings_named(alias, crate::TYPE_ALIAS_BINDING)?.first()?;
        if !mentions_self_type_argument(&binding.value) {
            return None;
        }
        self.substituted_self_arguments(alias, &binding.value, alias, arguments)
    }

    /// The type of field `name` of an instance of `type_sym` with generic `arguments`, when
    /// the field's declared type names the struct's parameters.
    pub(crate) fn field_type_with_arguments(
        &self,
        type_sym: Sym,
        arguments: &[Denotation],
        name: &str,
    ) -> Option<Denotation> {
        let binding = self.index.bindings_named(type_sym, &format!("self.{name}"))?.first()?;
        if !mentions_self_type_argument(&binding.value) {
            return None;
        }
        self.substituted_self_arguments(type_sym, &binding.value, type_sym, arguments)
    }

    /// What `method`, called on an instance of `type_sym` with generic `arguments`, returns
    /// when its declared return type names its impl's parameters (or is `Self`). Only a
    /// method of an impl of that very type, written by its own name: one reached through
    /// `Deref` or a trait, or an impl written for an alias, has other parameters' positions.
    pub(crate) fn return_type_with_arguments(
        &self,
        method: Sym,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        let impl_sym = self.index.parent(method)?;
        if self.impl_self_type.get(&impl_sym) != Some(&type_sym) {
            return None;
        }
        let returned = self.index.bindings_named(method, crate::RETURN_BINDING)?.first()?;
        self.method_type_with_arguments(method, impl_sym, &returned.value, type_sym, arguments)
    }

    /// A type written in `method` (its return type, a parameter type of a closure it takes),
    /// with the instance's `arguments` put in for its impl's parameters; `None` when it names
    /// none of them (or `Self`), or when what it names is not known. Only for a method of an
    /// impl of `type_sym` itself (see [`Self::return_type_with_arguments`]).
    pub(crate) fn method_type_with_arguments(
        &self,
        method: Sym,
        impl_sym: Sym,
        value: &BindingValue,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        if self.impl_self_type.get(&impl_sym) != Some(&type_sym) {
            return None;
        }
        if !mentions_self_type_argument(value) && !is_bare_self(value) {
            return None;
        }
        if let Some(alias) = self.impls_through_alias.get(&impl_sym) {
            // `impl<N> InFile<N>`: `N` is the alias's parameter; `Self` would need the type's own.
            if names_self(value) {
                return None;
            }
            let alias_arguments = self.alias_parameter_arguments(*alias, type_sym, arguments)?;
            return self.substituted_self_arguments(method, value, type_sym, &alias_arguments);
        }
        self.substituted_self_arguments(method, value, type_sym, arguments)
    }

    /// The arguments of a generic alias's parameters, given those of the type it stands for
    /// (`InFileWrapper<HirFileId, ast::Fn>` gives `[ast::Fn]` for `type InFile<T> =
    /// InFileWrapper<HirFileId, T>`): each parameter is the argument written as exactly it.
    /// Only an alias written directly as `type_sym` (not through another alias).
    fn alias_parameter_arguments(
        &self,
        alias: Sym,
        type_sym: Sym,
        type_arguments: &[Denotation],
    ) -> Option<Vec<Denotation>> {
        let binding = self.index.bindings_named(alias, crate::TYPE_ALIAS_BINDING)?.first()?;
        let BindingValue::Type { path, arguments: written, .. } = &binding.value else {
            return None;
        };
        match self.rust_path_in(
            alias,
            path,
            RustPathSite::Code,
            crate::language_rules::BindingUse::Forbidden,
        ) {
            Ok(crate::denotation::Resolved { denotation: Denotation::Symbol(target), .. })
                if target == type_sym => {}
            _ => return None,
        }
        let mut alias_arguments: Vec<Denotation> = Vec::new();
        for (target_position, argument) in written.iter().enumerate() {
            let BindingValue::SelfTypeArgument { position, .. } = argument else { continue };
            let position = *position as usize;
            if alias_arguments.len() <= position {
                alias_arguments.resize(position + 1, Denotation::UntypedLocal);
            }
            alias_arguments[position] =
                type_arguments.get(target_position).cloned().unwrap_or(Denotation::UntypedLocal);
        }
        alias_arguments
            .iter()
            .any(|argument| *argument != Denotation::UntypedLocal)
            .then_some(alias_arguments)
    }

    /// `value` (written in `scope`) with the instance's `arguments` put in for the Self type's
    /// parameters it names; `None` when what it names is not known.
    fn substituted_self_arguments(
        &self,
        scope: Sym,
        value: &BindingValue,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        match value {
            BindingValue::SelfTypeArgument { position, bound } => match arguments
                .get(*position as usize)
            {
                Some(argument) if *argument != Denotation::UntypedLocal => Some(argument.clone()),
                _ => bound
                    .as_ref()
                    .and_then(|path| self.written_type(scope, path, true, &[], Language::Rust)),
            },
            BindingValue::Type { .. } if is_bare_self(value) => Some(Denotation::Instance {
                type_sym,
                is_dyn: false,
                arguments: arguments.to_vec(),
            }),
            BindingValue::Type { path, is_dyn, arguments: written } => {
                if !mentions_self_type_argument(value) {
                    return self.written_type(scope, path, *is_dyn, written, Language::Rust);
                }
                let substituted: Vec<Denotation> = written
                    .iter()
                    .map(|argument| {
                        self.substituted_self_arguments(scope, argument, type_sym, arguments)
                            .unwrap_or(Denotation::UntypedLocal)
                    })
                    .collect();
                if path.len() == 1 && path[0] == "()" {
                    return Some(Denotation::Tuple(substituted));
                }
                let name = path.last().map(String::as_str).unwrap_or("");
                // An alias's arguments are its own, not those of the type it stands for.
                if let Ok(crate::denotation::Resolved {
                    denotation: Denotation::Symbol(alias),
                    ..
                }) = self.rust_path_in(
                    scope,
                    path,
                    RustPathSite::Code,
                    crate::language_rules::BindingUse::Forbidden,
                ) {
                    if self.index.symbol(alias).kind == tether_model::SymbolKind::TypeAlias {
                        return self
                            .generic_alias_target(alias, &substituted)
                            .or_else(|| self.alias_target(alias));
                    }
                }
                match self.written_type(scope, path, *is_dyn, &[], Language::Rust)? {
                    Denotation::Instance { type_sym, is_dyn, .. } => {
                        let known = substituted
                            .iter()
                            .any(|argument| *argument != Denotation::UntypedLocal);
                        Some(Denotation::Instance {
                            type_sym,
                            is_dyn,
                            arguments: if known { substituted } else { Vec::new() },
                        })
                    }
                    // `SmallVec<[T; 4]>` holds `T`, not `[T; 4]`: left with an unknown element.
                    Denotation::Wrapped { wrapper, inner }
                        if !crate::container_types::is_array_sequence(name) =>
                    {
                        let element = substituted
                            .get(wrapper.element_argument())
                            .filter(|element| **element != Denotation::UntypedLocal)
                            .cloned();
                        Some(Denotation::Wrapped {
                            wrapper,
                            inner: Box::new(element.unwrap_or(*inner)),
                        })
                    }
                    other => Some(other),
                }
            }
            _ => None,
        }
    }
}

/// Whether a written type names a parameter of the Self type (see [`BindingValue::SelfTypeArgument`]).
pub(crate) fn mentions_self_type_argument(value: &BindingValue) -> bool {
    value.has_part(&|part| matches!(part, BindingValue::SelfTypeArgument { .. }))
}

/// Whether a written type is or holds `Self`.
fn names_self(value: &BindingValue) -> bool {
    value.has_part(&|part| matches!(part, BindingValue::Type { path, .. } if path.first().is_some_and(|head| head == "Self")))
}

/// `Self` written alone.
fn is_bare_self(value: &BindingValue) -> bool {
    matches!(value, BindingValue::Type { path, arguments, .. } if arguments.is_empty() && path.len() == 1 && path[0] == "Self")
}
