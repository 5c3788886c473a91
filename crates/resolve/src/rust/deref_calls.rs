//! Rust auto-deref as calls: a method call on a project type that the type's own impls do not
//! define goes through the type's `impl Deref` (or `DerefMut`), which runs its `deref` (or
//! `deref_mut`) first (`self.tokens.push(t)` on globset's `Tokens(Vec<Token>)`). While a call
//! site is resolved, each project type whose `Deref` a method lookup went through is noted
//! (in the resolver's context);
//! the site then also calls those impls' `deref` (`typed_receiver`), or, when the type has a
//! `DerefMut` too, `deref` or `deref_mut` (`ambiguous`: which one runs depends on the target
//! method's receiver, `&self` or `&mut self`, which tether does not know for outside targets).
//!
//! Not noted: `*x` written out, deref coercion of arguments (`&String` passed as `&str`), and
//! field access through `Deref` (`x.field`).

use tether_model::{CallSite, Edge, EdgeKind, ResolutionRule};

use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// The `deref` and `deref_mut` methods of a type's project `Deref`/`DerefMut` impls.
    fn deref_methods(&self, type_sym: Sym) -> Vec<Sym> {
        let Some(impls) = self.impls_of_type.get(&type_sym) else { return Vec::new() };
        impls
            .iter()
            .filter(|impl_sym| {
                let name = &self.index.symbol(**impl_sym).name;
                name.starts_with("{impl Deref for ") || name.starts_with("{impl DerefMut for ")
            })
            .flat_map(|impl_sym| {
                self.index
                    .children_named(*impl_sym, "deref")
                    .iter()
                    .chain(self.index.children_named(*impl_sym, "deref_mut"))
                    .copied()
            })
            .collect()
    }
}

/// The edges from a call site to the `deref` methods its resolution went through.
pub(crate) fn deref_edges(
    resolver: &Resolver<'_>,
    call: &CallSite,
    dereferenced: &[Sym],
) -> Vec<Edge> {
    let mut edges = Vec::new();
    for type_sym in dereferenced {
        let methods = resolver.deref_methods(*type_sym);
        let rule = if methods.len() > 1 {
            ResolutionRule::Ambiguous
        } else {
            ResolutionRule::TypedReceiver
        };
        edges.extend(methods.into_iter().map(|method| Edge {
            kind: EdgeKind::Calls,
            source: call.caller,
            target: resolver.index.symbol(method).id,
            line: call.line,
            confidence: rule.confidence(),
            rule,
        }));
    }
    edges
}
