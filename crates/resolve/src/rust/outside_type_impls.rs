//! Rust trait impls for types outside the project: num-integer's `impl Integer for i8`,
//! an extension trait's `impl Ext for std::string::String`. A method call on a value of such
//! a type (`x.div_floor(&y)` with `x: i8`, `self.is_even()` inside the impl) may reach the
//! impl's method of that name, rather than only the outside type's own.
//!
//! It deliberately links such calls as ambiguous (a candidate, confidence 0.4), never as
//! certain: Rust tries the type's inherent methods first, and tether does not know std's
//! (`impl Float for f64 { fn sqrt(self) … }` calls f64's own `sqrt` through `x.sqrt()`).
//! Impls are matched by the self type's resolved path, so `io::Error` and `fmt::Error` stay
//! apart; blanket impls (`impl<T: Bound> Ext for T`) are `blanket_impls`'.

use tether_model::{ImplBlock, SymbolKind};

use crate::denotation::{Denotation, Lookup};
use crate::language_rules::LanguageRules;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// The outside type a trait impl is written for, when it is one (`i8`, `std::string::String`).
pub(crate) fn outside_self_type(
    resolver: &Resolver<'_>,
    scope: Sym,
    block: &ImplBlock,
    rules: &dyn LanguageRules,
) -> Option<Denotation> {
    if block.trait_path.is_none() || block.blanket_bound.is_some() {
        return None;
    }
    match rules.item_path(resolver, scope, &block.self_type).ok()?.denotation {
        outside @ (Denotation::External(_) | Denotation::Builtin(_)) => {
            // `impl IntoIterator for Box<Slice<T>>`: `self.into_entries()` derefs to the
            // pointee, whose type the impl block's path (generic arguments dropped) does not
            // keep. The pointer's own methods stay std's; any other is not known.
            let pointer = block
                .self_type
                .last()
                .and_then(|name| crate::value_types::Wrapper::named(name))
                .filter(|wrapper| wrapper.is_pointer());
            Some(match pointer {
                Some(wrapper) => crate::value_types::unknown_element(wrapper),
                None => outside,
            })
        }
        _ => None,
    }
}

impl Resolver<'_> {
    /// The methods named `name` of the project's trait impls for the outside type at `path`,
    /// as ambiguous candidates; `None` when it has none.
    pub(crate) fn outside_type_method(&self, path: &str, name: &str) -> Option<Lookup> {
        let methods: Vec<Sym> = self
            .impls_of_outside_type
            .get(path)?
            .iter()
            .flat_map(|impl_sym| self.index.children_named(*impl_sym, name))
            .copied()
            .filter(|member| {
                matches!(self.index.symbol(*member).kind, SymbolKind::Method | SymbolKind::Function)
            })
            .collect();
        if methods.is_empty() {
            return None;
        }
        Some(Ok(crate::denotation::Resolved {
            denotation: Denotation::Ambiguous(methods),
            rule: tether_model::ResolutionRule::Ambiguous,
        }))
    }

    /// `self` in a method of a trait impl for an outside type: a value of that type.
    pub(crate) fn outside_impl_self_value(&self, caller: Sym) -> Option<Denotation> {
        let owner = self.index.enclosing_of_kind(caller, &[SymbolKind::Impl])?;
        self.outside_impl_self_type.get(&owner).cloned()
    }
}
