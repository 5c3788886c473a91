//! Dereferencing beyond a type's fixed `impl Deref` target (`Resolver::deref_targets`):
//! `impl<T> Deref for MutexGuard<T> { type Target = T; }` gives a `MutexGuard<Shared>` the
//! methods of its `Shared`, the instance's own argument; and `*x` (`Receiver::Deref`), which is
//! a pointer's pointee, and for a type with an `impl Deref` either the type or its target.

use tether_model::{BindingValue, ResolutionRule, UnresolvedReason};

use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// What `*value` is, where that is certain: a smart pointer's pointee, or the value itself
    /// for a project type without an `impl Deref` (`*x` of `x: &T`; written types drop the
    /// `&`). For a type with one, `*x` is its target if `x` is the value and the type itself if
    /// `x` is a reference to it, which the facts do not tell: `None`, so `(*self.io).fmt(f)` is
    /// not bound to `PollEvented`'s own `fmt`.
    pub(crate) fn dereferenced(&self, value: &Denotation) -> Option<Denotation> {
        match value {
            Denotation::Instance { type_sym, .. } => {
                (!self.has_deref_impl(*type_sym)).then(|| value.clone())
            }
            Denotation::Wrapped { wrapper, inner } if wrapper.is_pointer() => {
                Some((**inner).clone())
            }
            _ => None,
        }
    }

    /// `(*x).m()` on a type with an `impl Deref`: `*x` is the type itself when `x` is a
    /// reference to it, its target when `x` is the value. When the type has no `m` of its own,
    /// both reach the target's (auto-deref); when it has one, which is not known.
    pub(crate) fn method_of_dereferenced(
        &self,
        caller: Sym,
        inner: &tether_model::Receiver,
        name: &str,
    ) -> crate::denotation::Lookup {
        let language = tether_model::Language::Rust;
        let operand = self
            .receiver_value(caller, inner, language)
            .ok_or(UnresolvedReason::UnknownReceiverType)?;
        let value = match &operand.denotation {
            Denotation::Instance { type_sym, .. } if self.has_deref_impl(*type_sym) => {
                match self.type_defines_method(*type_sym, name) {
                    true => return Err(UnresolvedReason::UnknownReceiverType),
                    false => operand,
                }
            }
            _ => Resolved {
                denotation: self
                    .dereferenced(&operand.denotation)
                    .ok_or(UnresolvedReason::UnknownReceiverType)?,
                rule: ResolutionRule::TypedReceiver,
            },
        };
        self.method_of_value(&value, name, language)
    }

    /// Whether one of the type's own impls (not its `Deref` target's) defines method `name`.
    pub(crate) fn type_defines_method(&self, type_sym: Sym, name: &str) -> bool {
        self.impls_of_type.get(&type_sym).is_some_and(|impls| {
            impls.iter().any(|impl_sym| !self.index.children_named(*impl_sym, name).is_empty())
        }) || self.impls_of_type.get(&type_sym).is_some_and(|impls| {
            impls
                .iter()
                .filter_map(|impl_sym| self.impl_trait.get(impl_sym))
                .any(|trait_sym| !self.index.children_named(*trait_sym, name).is_empty())
        })
    }

    /// Whether the project wrote an `impl Deref` for the type (whose target may be unknown).
    pub(crate) fn has_deref_impl(&self, type_sym: Sym) -> bool {
        self.impls_of_type.get(&type_sym).is_some_and(|impls| {
            impls
                .iter()
                .any(|impl_sym| self.index.symbol(*impl_sym).name.starts_with("{impl Deref for "))
        })
    }

    /// What an instance of `type_sym` with `arguments` dereferences to, when its `impl Deref`'s
    /// `type Target` is one of the type's own parameters and the instance's argument there is
    /// known.
    pub(crate) fn deref_to_argument(
        &self,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        if arguments.is_empty() {
            return None;
        }
        self.deref_target_aliases(type_sym).into_iter().find_map(|target| {
            let binding = self.index.bindings_named(target, crate::TYPE_ALIAS_BINDING)?.first()?;
            let BindingValue::SelfTypeArgument { position, .. } = &binding.value else {
                return None;
            };
            match arguments.get(*position as usize)? {
                Denotation::UntypedLocal => None,
                known => Some(known.clone()),
            }
        })
    }
}
