//! What a std adapter returns when its element comes from a closure: `opt.map(|it| it.name())`
//! is an `Option` of what `it.name()` is (typed with the closure's parameter in force),
//! `iter.filter_map(ast::Expr::cast)` an iterator of what `cast` gives inside its `Option`,
//! `opt.and_then(f)` what `f` returns. Anything else is the adapter call's own result.

use tether_model::{CalleeExpr, Language, Receiver};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_types::{element_of, method_receiver, Wrapper};

impl Resolver<'_> {
    /// The value of `call` (an adapter such as `x.map`) whose closure returns `returned`,
    /// read at byte `at` inside the closure.
    pub(crate) fn adapted_value(
        &self,
        scope: Sym,
        call: &CalleeExpr,
        returned: &Receiver,
        at: u32,
        language: Language,
    ) -> Option<Denotation> {
        let CalleeExpr::Method { receiver, name } = call else {
            return self.call_result_type(scope, call, language);
        };
        let base = self.receiver_value(scope, receiver, language)?.denotation;
        // The adapter's receiver is typed once: chains of adapters stay linear.
        let plain = || self.call_result_type_given(scope, call, language, Some(base.clone()), &[]);
        let value = || {
            let value = self
                .context
                .with_use_position(scope, at, || self.receiver_value(scope, returned, language));
            value.map_or(Denotation::UntypedLocal, |resolved| resolved.denotation)
        };
        // A project iterator's std adapters are std's (`children.map(|it| it.name())`).
        let as_iterator = self.as_std_iterator(&base, Some(name));
        let wrapper = match method_receiver(as_iterator.as_ref().unwrap_or(&base), name) {
            Denotation::Wrapped { wrapper, .. } => *wrapper,
            // A dependency's iterator or option (rowan's `node.ancestors()`): these adapters
            // mean what std's do, and what the argument returns says the rest.
            Denotation::External(_) | Denotation::Builtin(_) => {
                return self.outside_adapted_value(name, value()).or_else(plain)
            }
            _ => return plain(),
        };
        let wrapped = |wrapper: Wrapper, inner: Denotation| {
            Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
        };
        match (wrapper, name.as_str()) {
            (Wrapper::Option | Wrapper::Result | Wrapper::Iterator, "map") => {
                wrapped(wrapper, value())
            }
            // The closure returns the wrapper itself.
            (Wrapper::Option | Wrapper::Result, "and_then") => match value() {
                same @ Denotation::Wrapped { wrapper: returned_wrapper, .. }
                    if returned_wrapper == wrapper =>
                {
                    Some(same)
                }
                _ => wrapped(wrapper, Denotation::UntypedLocal),
            },
            (Wrapper::Iterator, "filter_map") => {
                wrapped(Wrapper::Iterator, option_element(&value()))
            }
            (Wrapper::Iterator, "find_map") => wrapped(Wrapper::Option, option_element(&value())),
            (Wrapper::Iterator, "flat_map") => {
                wrapped(Wrapper::Iterator, element_of(&value()).unwrap_or(Denotation::UntypedLocal))
            }
            _ => plain(),
        }
    }
}

impl Resolver<'_> {
    /// `outside.and_then(f)`, `outside.filter_map(f)`, `outside.find_map(f)`, `outside.flat_map(f)` on
    /// a value of a dependency whose type is not known: Option and iterator adapters, when
    /// what `f` returns visibly is an `Option` (or, for `and_then`, a `Result`).
    fn outside_adapted_value(&self, name: &str, value: Denotation) -> Option<Denotation> {
        let wrapped = |wrapper: Wrapper, inner: Denotation| {
            Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
        };
        match (name, &value) {
            (
                "and_then",
                Denotation::Wrapped { wrapper: Wrapper::Option | Wrapper::Result, .. },
            ) => Some(value),
            ("filter_map", Denotation::Wrapped { wrapper: Wrapper::Option, inner }) => {
                wrapped(Wrapper::Iterator, (**inner).clone())
            }
            ("find_map", Denotation::Wrapped { wrapper: Wrapper::Option, .. }) => Some(value),
            (
                "flat_map",
                Denotation::Wrapped {
                    wrapper: Wrapper::Option | Wrapper::Sequence | Wrapper::Iterator,
                    ..
                },
            ) => wrapped(Wrapper::Iterator, element_of(&value)?),
            _ => None,
        }
    }
}

/// What an `Option` holds (untyped when the value is not visibly one).
fn option_element(value: &Denotation) -> Denotation {
    match value {
        Denotation::Wrapped { wrapper: Wrapper::Option, inner } => (**inner).clone(),
        _ => Denotation::UntypedLocal,
    }
}

impl Resolver<'_> {
    /// Calling a local named `name` in force at the use: `Some(value)` when it is a closure
    /// (`Some(None)` when what it returns is not visible), `None` when no local closure of
    /// that name is in force (a function is called).
    pub(crate) fn local_closure_result(
        &self,
        scope: Sym,
        name: &str,
        language: Language,
    ) -> Option<Option<Denotation>> {
        let bindings = self.index.bindings_named(scope, name)?;
        let (_, latest) = self.context.bindings_in_force(scope, bindings)?;
        let [binding] = latest.as_slice() else { return None };
        let tether_model::BindingValue::Closure { returned, at } = &binding.value else {
            return None;
        };
        let value = self
            .context
            .with_use_position(scope, *at, || self.receiver_value(scope, returned, language));
        Some(value.map(|resolved| resolved.denotation))
    }
}
