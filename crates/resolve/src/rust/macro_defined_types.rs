//! Types a macro defines (`bitflags! { pub struct AttrFlags: u64 { … } }`, rust-analyzer's
//! `interned_slice!` and `impl_intern!` ids) are invisible to extraction, but their inherent
//! impl is not: the one `impl Name { … }` of a module whose self type names no project type
//! stands for the type there, and the trait impls written for it join it.

use tether_model::Language;

use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::{Resolver, ResolverTables};
use crate::rust::rules::RustPathSite;
use rustc_hash::FxHashMap as HashMap;

impl Resolver<'_> {
    /// Whether `impl_sym` stands for a type a macro defines (see [`Self::impl_only_types`]).
    pub(crate) fn is_impl_only_type(&self, impl_sym: Sym) -> bool {
        self.impl_only_type_impls.contains(&impl_sym)
    }

    /// Inherent impl blocks `impl Name { … }` whose self type (one segment) is no project type
    /// tether sees: the type is written by a macro in that module. Kept only when the module
    /// has exactly one such block for the name.
    pub(crate) fn collect_impl_only_types(&self) -> HashMap<(Sym, String), Sym> {
        let mut found: HashMap<(Sym, String), Vec<Sym>> = HashMap::default();
        for block in &self.index.impls {
            let ([name], None) = (block.self_type.as_slice(), &block.trait_path) else { continue };
            let Some(impl_sym) = self.index.sym_of(block.impl_symbol) else { continue };
            if self.impl_self_type.contains_key(&impl_sym)
                || self.index.symbol(impl_sym).language != Language::Rust
            {
                continue;
            }
            let module = self.rust_module_of(impl_sym);
            if self.rust_path(module, std::slice::from_ref(name), RustPathSite::Code).is_ok() {
                continue;
            }
            found.entry((module, name.clone())).or_default().push(impl_sym);
        }
        found
            .into_iter()
            .filter_map(|(key, impls)| match impls.as_slice() {
                [only] => Some((key, *only)),
                _ => None,
            })
            .collect()
    }
}

impl ResolverTables<'_> {
    /// The impls of types a macro defines, once their names resolve to the inherent impl that
    /// stands for them: that impl itself and the trait impls written for the type (`impl
    /// HasResolver for EnumId`), so that lookups on the type see all of them.
    pub(crate) fn attach_impls_to_impl_only_types(&mut self) {
        let mut attached: Vec<(Sym, Sym)> =
            self.impl_only_type_impls.iter().map(|stand_in| (*stand_in, *stand_in)).collect();
        let view = self.resolver();
        for block in &view.index.impls {
            let Some(impl_sym) = self.index.sym_of(block.impl_symbol) else { continue };
            if block.trait_path.is_none() || self.impl_self_type.contains_key(&impl_sym) {
                continue;
            }
            let scope = self.index.parent(impl_sym).unwrap_or(impl_sym);
            if let Ok(Resolved { denotation: Denotation::Symbol(stand_in), .. }) =
                view.rust_path(scope, &block.self_type, RustPathSite::Code)
            {
                if view.is_impl_only_type(stand_in) {
                    attached.push((stand_in, impl_sym));
                }
            }
        }
        drop(view);
        for (stand_in, impl_sym) in attached {
            self.impls_of_type.entry(stand_in).or_default().push(impl_sym);
            self.impl_self_type.insert(impl_sym, stand_in);
        }
    }
}
