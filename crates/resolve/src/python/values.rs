//! Python values the resolver reads beyond names and annotations: a subscripted generic
//! class (`StashKey[int]`), an element read by subscript, and what a `with` statement binds.

use tether_model::{CalleeExpr, Language, ResolutionRule};

use crate::denotation::{Denotation, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::RETURN_BINDING;

impl Resolver<'_> {
    /// The project class a subscripted name denotes (`StashKey[int]`), if it is one.
    pub(crate) fn python_generic_class(&self, scope: Sym, path: &[String]) -> Option<Resolved> {
        let resolved = self.python_path(scope, path).ok()?;
        match resolved.denotation {
            Denotation::Symbol(sym) if self.index.symbol(sym).kind.is_type() => Some(resolved),
            _ => None,
        }
    }

    /// Python's `value[key]`: a builtin container's element (a dict's value), or what a
    /// project class's `__getitem__` returns.
    pub(crate) fn python_subscripted(&self, value: &Denotation) -> Option<Denotation> {
        match value {
            Denotation::Wrapped { wrapper, inner } if wrapper.is_python() => {
                Some((**inner).clone())
            }
            Denotation::Instance { type_sym, is_dyn: false, .. } => {
                match self
                    .python_class_member(*type_sym, "__getitem__", ResolutionRule::TypedReceiver)
                    .ok()?
                    .denotation
                {
                    Denotation::Symbol(getter) => {
                        self.declared_return_type(getter, Language::Python)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// What `with callee(…) as x` binds: what the manager's `__enter__` returns when that is
    /// visible, what a generator function (`@contextmanager`) yields, else the manager itself
    /// (most `__enter__`s return `self`).
    pub(crate) fn entered_context_value(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        language: Language,
    ) -> Option<Denotation> {
        if let (Language::Python, CalleeExpr::Path(path)) = (language, callee) {
            let bindings = if path.len() > 1 { BindingUse::Allowed } else { BindingUse::Forbidden };
            if let Ok(Resolved { denotation: Denotation::Symbol(function), .. }) =
                self.python_path_in(scope, path, bindings)
            {
                let is_generator = self.index.symbol(function).kind.is_callable()
                    && self.index.bindings_named(function, RETURN_BINDING).is_none();
                if let Some(yields) = self
                    .index
                    .bindings_named(function, crate::YIELD_BINDING)
                    .filter(|_| is_generator)
                {
                    return yields
                        .iter()
                        .find_map(|binding| self.binding_denotation(function, binding, language));
                }
            }
        }
        let manager = self.call_result_type(scope, callee, language)?;
        if let Denotation::Instance { type_sym, is_dyn: false, .. } = &manager {
            if let Ok(Resolved { denotation: Denotation::Symbol(enter), .. }) = self.type_member(
                *type_sym,
                "__enter__",
                false,
                language,
                ResolutionRule::TypedReceiver,
            ) {
                // `-> Self` (typing's, a name outside the project) is the manager itself.
                match self.declared_return_type(enter, language) {
                    Some(Denotation::External(path))
                        if path == "Self" || path.ends_with(".Self") => {}
                    Some(entered) => return Some(entered),
                    None => {}
                }
            }
        }
        Some(manager)
    }

    /// What calling a Python generator function gives: an iterable of what its `yield`s (and
    /// `yield from`s) give: the functions or classes they name, all of them, else the first
    /// visible value.
    pub(crate) fn generator_value(&self, function: Sym) -> Option<Denotation> {
        let yields = self.index.bindings_named(function, crate::YIELD_BINDING)?;
        let mut named: Vec<Sym> = Vec::new();
        let mut first_value = None;
        for binding in yields {
            match self.binding_denotation(function, binding, Language::Python) {
                Some(Denotation::Symbol(sym))
                    if self.index.symbol(sym).kind.is_callable()
                        || self.index.symbol(sym).kind.is_type() =>
                {
                    named.push(sym)
                }
                Some(Denotation::Ambiguous(syms)) => named.extend(syms),
                Some(value) => first_value = first_value.or(Some(value)),
                None => {}
            }
        }
        named.sort_unstable();
        named.dedup();
        let element = crate::denotation::from_candidates(&named).or(first_value)?;
        Some(Denotation::Wrapped {
            wrapper: crate::value_types::Wrapper::PythonList,
            inner: Box::new(element),
        })
    }
}
