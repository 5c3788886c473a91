//! Elements of literal collections by key: `ops["add"]`, `steps[0]`, `nested["basic"][1]`
//! (bindings the extractor records for each literal key, and for later writes by one), the
//! values later writes put under literal keys, and slices with literal bounds (`steps[1:]`).
//!
//! It deliberately reads only what literals and literal-keyed writes name; what a computed
//! key or a storing method puts there flows through `element_flow` instead.

use tether_model::{BindingValue, Language, Receiver, ResolutionRule};

use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_types::Wrapper;

impl Resolver<'_> {
    /// The function a literal key of a collection names (`ops["add"]`, `steps[0]`), through
    /// the binding its literal or a later write records.
    pub(crate) fn keyed_element(
        &self,
        caller: Sym,
        name: &str,
        key: &str,
        language: Language,
    ) -> Option<Resolved> {
        let keyed = format!("{name}{key}");
        let mut scope = Some(caller);
        while let Some(level) = scope {
            if let Some(bindings) = self.index.bindings_named(level, &keyed) {
                for binding in bindings.iter().rev() {
                    let tether_model::BindingValue::Expression(Receiver::Path(element)) =
                        &binding.value
                    else {
                        continue;
                    };
                    let resolved =
                        crate::language_rules::rules_of(language).item_path(self, level, element);
                    if let Ok(Resolved { denotation: Denotation::Symbol(sym), .. }) = resolved {
                        return Some(Resolved {
                            denotation: Denotation::Symbol(sym),
                            rule: ResolutionRule::SameScope,
                        });
                    }
                }
            }
            scope = self.index.parent(level);
        }
        None
    }

    /// The paths written under one literal key of `name` in `scope` (`ops["mul"] = f`, and
    /// the literal's own keys), in no particular order.
    pub(crate) fn keyed_writes(&self, scope: Sym, name: &str) -> Vec<Vec<String>> {
        let Some(bindings) = self.index.bindings_by_scope.get(&scope) else { return Vec::new() };
        let mut written = Vec::new();
        for (bound, bindings) in bindings {
            let Some(key) = bound.strip_prefix(name) else { continue };
            if !(key.starts_with('[') && key.ends_with(']')) || key.contains("][") {
                continue;
            }
            for binding in bindings {
                if let BindingValue::Expression(Receiver::Path(path)) = &binding.value {
                    written.push(path.clone());
                }
            }
        }
        written
    }

    /// `steps[1:]`, `steps[:-1]` where `steps` is a literal list or tuple of names in a visible
    /// scope: a list of the elements in that range.
    pub(crate) fn sliced_elements(
        &self,
        caller: Sym,
        path: &[String],
        from: Option<i64>,
        to: Option<i64>,
    ) -> Option<Denotation> {
        let [name] = path else { return None };
        let mut scope = Some(caller);
        while let Some(level) = scope {
            if let Some(bindings) = self.index.bindings_named(level, name) {
                let BindingValue::Collection(elements) = &bindings.last()?.value else {
                    return None;
                };
                let length = elements.len() as i64;
                let position = |bound: i64| {
                    (if bound < 0 { length + bound } else { bound }).clamp(0, length) as usize
                };
                let (start, end) = (position(from.unwrap_or(0)), position(to.unwrap_or(length)));
                let chosen = elements.get(start..end.max(start))?;
                let inner = self.functions_named(level, chosen)?;
                return Some(Denotation::Wrapped {
                    wrapper: Wrapper::PythonList,
                    inner: Box::new(inner),
                });
            }
            scope = self.index.parent(level);
        }
        None
    }
}
