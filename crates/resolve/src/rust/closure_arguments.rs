//! Closures passed to project functions: `acc.add(id, label, range, |builder| …)` where `add`
//! declares `f: impl FnOnce(&mut SourceChangeBuilder)` gives `builder` that type. The called
//! function must be one project function (not a trait's fan-out, not an ambiguity), and the
//! type is read where the function is declared, as written there.

use tether_model::{Binding, BindingValue, Language, ResolutionRule, SymbolKind};

use crate::denotation::{Denotation, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

impl Resolver<'_> {
    /// The type of parameter `parameter` of a closure passed as argument `argument` of
    /// `receiver.method(…)`, when `method` is one project method whose parameter there is
    /// of an `Fn` type that names it.
    /// A parameter type naming the impl's generic parameter (`impl<T> InFile<T> { fn map(self,
    /// f: impl FnOnce(T) -> U) }`) takes the receiver's argument (`InFile<ast::Fn>`).
    pub(crate) fn method_closure_parameter(
        &self,
        receiver: &Denotation,
        method: &str,
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation> {
        let Denotation::Instance { type_sym, is_dyn: false, arguments } = receiver else {
            return None;
        };
        let called = self
            .method_of_value(
                &Resolved { denotation: receiver.clone(), rule: ResolutionRule::TypedReceiver },
                method,
                Language::Rust,
            )
            .ok()?;
        let Denotation::Symbol(function) = called.denotation else { return None };
        // A method call's arguments follow `self`, position 0 of the method's parameters.
        let passed = self.callback_parameter(function, argument + 1, parameter)?;
        if crate::rust::generic_arguments::mentions_self_type_argument(passed) {
            let impl_sym = self.index.parent(function)?;
            let typed =
                self.method_type_with_arguments(function, impl_sym, passed, *type_sym, arguments)?;
            return (typed != Denotation::UntypedLocal).then_some(typed);
        }
        self.callback_parameter_type(function, passed)
    }

    /// Like [`Self::method_closure_parameter`], for a closure passed to a call of a path
    /// (`with_builder(x, |b| …)`, `Type::method(value, |b| …)`, where `self` is argument 0).
    pub(crate) fn path_call_closure_parameter(
        &self,
        scope: Sym,
        function: &[String],
        argument: u32,
        parameter: u32,
    ) -> Option<Denotation> {
        let Denotation::Symbol(called) =
            self.rust_called_path(scope, function, BindingUse::Forbidden).ok()?.denotation
        else {
            return None;
        };
        if !matches!(self.index.symbol(called).kind, SymbolKind::Function | SymbolKind::Method) {
            return None;
        }
        let passed = self.callback_parameter(called, argument, parameter)?;
        self.callback_parameter_type(called, passed)
    }

    /// What the `Fn`-typed parameter at `position` of `function` passes as its parameter
    /// `parameter`, as written.
    fn callback_parameter(
        &self,
        function: Sym,
        position: u32,
        parameter: u32,
    ) -> Option<&BindingValue> {
        let bindings = self.index.bindings_named(function, &Binding::callback_name(position))?;
        let BindingValue::Callable { parameters } = &bindings.first()?.value else { return None };
        parameters.get(parameter as usize)
    }

    /// A written parameter type, typed in the function's own scope.
    fn callback_parameter_type(&self, function: Sym, passed: &BindingValue) -> Option<Denotation> {
        let typed = match passed {
            BindingValue::Type { path, is_dyn, arguments } => {
                self.written_type(function, path, *is_dyn, arguments, Language::Rust)?
            }
            _ => return None,
        };
        (typed != Denotation::UntypedLocal).then_some(typed)
    }
}
