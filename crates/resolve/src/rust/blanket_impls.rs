//! Rust blanket extension traits: `impl<R: AsyncRead + ?Sized> AsyncReadExt for R {}` gives
//! every `AsyncRead` the trait's provided methods (`reader.read_exact(…)`, tokio's style;
//! `StreamExt::next` through `where St: Stream`). A method no impl of a type has is looked
//! up among the project's blanket traits whose bound the type visibly meets: it implements
//! the bound (a project trait, or an outside trait named like it), or is that bound, or a
//! trait with it among its supertraits. As in Rust, the trait must be in scope where the call
//! is written: imported (by name, `as _`, or a glob), or defined in an enclosing module.

use rustc_hash::FxHashMap as HashMap;
use tether_model::{Language, ResolutionRule, SymbolKind};

use crate::denotation::{from_candidates, Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::{BlanketBound, BlanketImpl, Resolver};
use crate::rust::rules::RustPathSite;

impl Resolver<'_> {
    /// The project's blanket impls of project traits, and the last segment of every trait
    /// impl's trait path (so that an outside bound can be matched by name).
    pub(crate) fn collect_blanket_impls(&self) -> (Vec<BlanketImpl>, HashMap<Sym, String>) {
        let mut blanket_impls = Vec::new();
        let mut trait_names = HashMap::default();
        for block in &self.index.impls {
            let Some(impl_sym) = self.index.sym_of(block.impl_symbol) else { continue };
            if let Some(last) = block.trait_path.as_ref().and_then(|path| path.last()) {
                trait_names.insert(impl_sym, last.clone());
            }
            let (Some(bound_path), Some(trait_sym)) =
                (&block.blanket_bound, self.impl_trait.get(&impl_sym))
            else {
                continue;
            };
            let scope = self.index.parent(impl_sym).unwrap_or(impl_sym);
            let bound = match bound_path.last() {
                None => BlanketBound::Any,
                Some(last) => match self.rust_path(scope, bound_path, RustPathSite::Code) {
                    Ok(Resolved { denotation: Denotation::Symbol(bound_sym), .. })
                        if self.index.symbol(bound_sym).kind == SymbolKind::Trait =>
                    {
                        BlanketBound::Project(bound_sym)
                    }
                    Ok(Resolved { denotation: Denotation::Symbol(_), .. }) => continue,
                    _ => BlanketBound::Outside(last.clone()),
                },
            };
            blanket_impls.push(BlanketImpl { trait_sym: *trait_sym, bound });
        }
        (blanket_impls, trait_names)
    }

    /// The provided method `name` of a blanket trait whose bound `type_sym` meets.
    pub(crate) fn blanket_method(
        &self,
        type_sym: Sym,
        name: &str,
        language: Language,
    ) -> Option<Denotation> {
        if language != Language::Rust || self.blanket_impls.is_empty() {
            return None;
        }
        let use_scope = self.context.use_scope()?;
        let mut methods: Vec<Sym> = Vec::new();
        for blanket in &self.blanket_impls {
            if blanket.trait_sym == type_sym {
                continue;
            }
            let Some(method) = self.index.children_named(blanket.trait_sym, name).first().copied()
            else {
                continue;
            };
            if self.meets_bound(type_sym, &blanket.bound)
                && !methods.contains(&method)
                && self.trait_in_scope(use_scope, blanket.trait_sym)
            {
                methods.push(method);
            }
        }
        from_candidates(&methods)
    }

    /// Whether a trait is in scope at `scope`: defined in, or imported into, an enclosing
    /// function or module.
    fn trait_in_scope(&self, scope: Sym, trait_sym: Sym) -> bool {
        let trait_name = self.index.symbol(trait_sym).name.as_str();
        let module = self.rust_module_of(scope);
        let mut current = Some(scope);
        while let Some(level) = current {
            if self.index.children_named(level, trait_name).contains(&trait_sym) {
                return true;
            }
            let imports_it = self.index.imports_by_scope.get(&level).into_iter().flatten().any(|position| {
                matches!(&self.import_results[*position as usize], Some(Resolved { denotation: Denotation::Symbol(imported), .. }) if *imported == trait_sym)
            });
            if imports_it
                || self
                    .imported_name(level, trait_name, 0)
                    .is_some_and(|found| found.denotation == Denotation::Symbol(trait_sym))
            {
                return true;
            }
            if level == module {
                return false;
            }
            current = self.index.parent(level);
        }
        false
    }

    /// Whether a project type (or trait, for `dyn Trait` and `T: Trait`) visibly meets a bound.
    fn meets_bound(&self, type_sym: Sym, bound: &BlanketBound) -> bool {
        let is_trait = self.index.symbol(type_sym).kind == SymbolKind::Trait;
        match bound {
            BlanketBound::Any => true,
            BlanketBound::Project(bound_trait) if is_trait => {
                self.linearization(type_sym).contains(bound_trait)
            }
            BlanketBound::Project(bound_trait) => self
                .impls_of_type
                .get(&type_sym)
                .into_iter()
                .flatten()
                .any(|impl_sym| self.impl_trait.get(impl_sym) == Some(bound_trait)),
            BlanketBound::Outside(name) if is_trait => {
                self.outside_bases.get(&type_sym).into_iter().flatten().any(|base| match base {
                    Denotation::External(path) | Denotation::Builtin(path) => {
                        path.rsplit("::").next() == Some(name.as_str())
                    }
                    _ => false,
                })
            }
            BlanketBound::Outside(name) => self
                .impls_of_type
                .get(&type_sym)
                .into_iter()
                .flatten()
                .any(|impl_sym| self.impl_trait_names.get(impl_sym) == Some(name)),
        }
    }
}

/// The rule of a blanket trait's method: one provided method, whatever the receiver's
/// dispatch, so a `dyn` or generic receiver does not make it dynamic.
pub(crate) fn blanket_rule(rule: ResolutionRule) -> ResolutionRule {
    match rule {
        ResolutionRule::DynamicDispatch => ResolutionRule::TypedReceiver,
        other => other,
    }
}
