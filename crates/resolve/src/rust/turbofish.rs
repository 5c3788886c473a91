//! Calls whose written generic arguments decide their result: `fn find<N: AstNode>(&self)
//! -> Option<N>` called as `ctx.find::<ast::Fn>()` returns an `Option<ast::Fn>`. The declared
//! return type names the function's own parameter by position; the call's arguments, typed
//! where the call is written, fill it in (directly, or inside a std wrapper).

use tether_model::{BindingValue, CalleeExpr, Language};

use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_types::Wrapper;
use crate::RETURN_BINDING;

impl Resolver<'_> {
    /// The value of `call` written with generic `arguments` (`f::<A, B>()`).
    pub(crate) fn turbofish_value(
        &self,
        scope: Sym,
        call: &CalleeExpr,
        arguments: &[BindingValue],
        language: Language,
    ) -> Option<Denotation> {
        self.call_result_type_given(scope, call, language, None, arguments)
    }

    /// What `function` returns when its declared return type names its own generic parameters
    /// and the call writes them (`written`, typed in `scope`, where the call is).
    pub(crate) fn written_return_type(
        &self,
        function: Sym,
        scope: Sym,
        written: &[BindingValue],
        language: Language,
    ) -> Option<Denotation> {
        if written.is_empty() {
            return None;
        }
        let returned = self.index.bindings_named(function, RETURN_BINDING)?.first()?;
        if !mentions_generic_parameter(&returned.value) {
            return None;
        }
        let written: Vec<Denotation> = written
            .iter()
            .map(|argument| match argument {
                BindingValue::Type { path, is_dyn, arguments } => self
                    .written_type(scope, path, *is_dyn, arguments, language)
                    .unwrap_or(Denotation::UntypedLocal),
                _ => Denotation::UntypedLocal,
            })
            .collect();
        self.substituted(function, &returned.value, &written)
    }
}

impl Resolver<'_> {
    /// A declared return type of `function` with the written arguments put in for its own
    /// parameters: the parameter itself, or a std wrapper of it (`Option<N>`, `Vec<N>`); any
    /// other type (`Parse<N>`) as written, without its arguments.
    fn substituted(
        &self,
        function: Sym,
        value: &BindingValue,
        written: &[Denotation],
    ) -> Option<Denotation> {
        match value {
            BindingValue::GenericParameter { position } => written
                .get(*position as usize)
                .cloned()
                .filter(|argument| *argument != Denotation::UntypedLocal),
            BindingValue::Type { path, is_dyn, arguments } => match Wrapper::named(path.last()?) {
                Some(wrapper) => {
                    let inner = arguments
                        .get(wrapper.element_argument())
                        .and_then(|element| self.substituted(function, element, written));
                    Some(Denotation::Wrapped {
                        wrapper,
                        inner: Box::new(inner.unwrap_or(Denotation::UntypedLocal)),
                    })
                }
                None => self.written_type(function, path, *is_dyn, arguments, Language::Rust),
            },
            _ => None,
        }
    }
}

/// Whether a written type names one of the function's own generic parameters.
fn mentions_generic_parameter(value: &BindingValue) -> bool {
    value.has_part(&|part| matches!(part, BindingValue::GenericParameter { .. }))
}
