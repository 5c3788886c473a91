//! Project types that implement std's `Iterator` (`impl<N: AstNode> Iterator for AstChildren<N>
//! { type Item = N; }`): the std adapters they do not define themselves (`map`, `filter`,
//! `collect`…) are std's, on an iterator of their `Item` (with the instance's generic
//! arguments put in), and so are `for` loops over them and closures passed to those adapters.
//! Likewise `graph[id]` of a project type is its `impl Index`'s `type Output`.

use tether_model::{Language, ResolutionRule, SymbolKind};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_types::Wrapper;

impl Resolver<'_> {
    /// `value` as a std iterator when it is an instance of a project type implementing
    /// `Iterator` that has no method `method` of its own (`None` for `method` asks only for
    /// the iterator). Its item is `UntypedLocal` when not visible.
    pub(crate) fn as_std_iterator(
        &self,
        value: &Denotation,
        method: Option<&str>,
    ) -> Option<Denotation> {
        let Denotation::Instance { type_sym, is_dyn: false, arguments } = value else {
            return None;
        };
        let iterator_impl = self.impls_of_type.get(type_sym)?.iter().copied().find(|impl_sym| {
            self.impl_trait_names.get(impl_sym).map(String::as_str) == Some("Iterator")
        })?;
        if let Some(method) = method {
            // What the type has itself wins: its `next`, an inherent `map`, a derived `clone`
            // (which keeps the project type).
            if self
                .type_member(
                    *type_sym,
                    method,
                    false,
                    Language::Rust,
                    ResolutionRule::TypedReceiver,
                )
                .is_ok()
            {
                return None;
            }
        }
        let item = self
            .iterator_item(iterator_impl, *type_sym, arguments)
            .unwrap_or(Denotation::UntypedLocal);
        Some(Denotation::Wrapped { wrapper: Wrapper::Iterator, inner: Box::new(item) })
    }

    /// The `type Item` of an `impl Iterator for Type<…>` block, with the instance's arguments.
    fn iterator_item(
        &self,
        iterator_impl: Sym,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        let item = self
            .index
            .children_named(iterator_impl, "Item")
            .iter()
            .copied()
            .find(|child| self.index.symbol(*child).kind == SymbolKind::TypeAlias)?;
        let written = &self.index.bindings_named(item, crate::TYPE_ALIAS_BINDING)?.first()?.value;
        let typed = match crate::rust::generic_arguments::mentions_self_type_argument(written) {
            true => {
                self.method_type_with_arguments(item, iterator_impl, written, type_sym, arguments)?
            }
            false => self.alias_target(item)?,
        };
        (typed != Denotation::UntypedLocal).then_some(typed)
    }
}

impl Resolver<'_> {
    /// The `type Output` of a project type's `impl Index<…>` blocks, when they all agree
    /// (`impl Index<LocalModuleId> for DefMap { type Output = ModuleData; }`, `impl<T>
    /// Index<Idx<T>> for Arena<T> { type Output = T; }` with the instance's arguments).
    pub(crate) fn index_output(
        &self,
        type_sym: Sym,
        arguments: &[Denotation],
    ) -> Option<Denotation> {
        let mut outputs = self
            .impls_of_type
            .get(&type_sym)?
            .iter()
            .copied()
            .filter(|impl_sym| {
                self.impl_trait_names.get(impl_sym).map(String::as_str) == Some("Index")
            })
            .map(|impl_sym| {
                let output = self
                    .index
                    .children_named(impl_sym, "Output")
                    .iter()
                    .copied()
                    .find(|child| self.index.symbol(*child).kind == SymbolKind::TypeAlias)?;
                let written =
                    &self.index.bindings_named(output, crate::TYPE_ALIAS_BINDING)?.first()?.value;
                let typed =
                    match crate::rust::generic_arguments::mentions_self_type_argument(written) {
                        true => self.method_type_with_arguments(
                            output, impl_sym, written, type_sym, arguments,
                        )?,
                        false => self.alias_target(output)?,
                    };
                (typed != Denotation::UntypedLocal).then_some(typed)
            });
        let first = outputs.next()??;
        outputs.all(|other| other.as_ref() == Some(&first)).then_some(first)
    }
}
