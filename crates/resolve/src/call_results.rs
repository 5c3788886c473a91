//! The type of what a call returns: a constructor's type, a declared return type (with
//! generic arguments substituted where they are written), a std wrapper method's result, a
//! local closure's body, followed along chains of calls up to a depth.

use tether_model::{CalleeExpr, Language, Receiver, ResolutionRule, SymbolKind};

use crate::calls::MAX_CALL_CHAIN;
use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolution_context::NestingGuard;
use crate::resolver::Resolver;
use crate::RETURN_BINDING;

/// What resolving a call's callee gave: the target whose result to take, or the result.
pub(crate) enum CalleeOutcome {
    Target {
        resolved: Resolved,
        /// A method's receiver of a project generic type with known arguments.
        receiver_with_arguments: Option<(Sym, Vec<Denotation>)>,
    },
    Result(Option<Denotation>),
}

impl<'a> Resolver<'a> {
    /// The type a call returns, when it is visibly a constructor: calling a class or struct,
    /// or a Rust associated function named like one (`new`, `default`, `with_*`, `from_*`).
    pub(crate) fn call_result_type(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        language: Language,
    ) -> Option<Denotation> {
        // Typing a call may type a receiver, whose binding may be another call's result
        // (`let x = x.next()`): this depth, shared by the whole nest on this thread, ends it.
        let _nesting = NestingGuard::enter(&self.context)?;
        self.call_result_type_at_depth(scope, callee, language, 0, None, &[])
    }

    /// Like [`Self::call_result_type`], with a method's receiver already typed (`known_receiver`)
    /// and the generic arguments the call writes (`f::<T>()`), if any.
    pub(crate) fn call_result_type_given(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        language: Language,
        known_receiver: Option<Denotation>,
        written: &[tether_model::BindingValue],
    ) -> Option<Denotation> {
        let _nesting = NestingGuard::enter(&self.context)?;
        self.call_result_type_at_depth(scope, callee, language, 0, known_receiver, written)
    }

    /// `depth` bounds chains of method calls (`a.b().c().d()`).
    fn call_result_type_at_depth(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        language: Language,
        depth: u32,
        known_receiver: Option<Denotation>,
        written: &[tether_model::BindingValue],
    ) -> Option<Denotation> {
        if depth > MAX_CALL_CHAIN {
            return None;
        }
        let (resolved, receiver_with_arguments) =
            match self.called_target(scope, callee, language, depth, known_receiver)? {
                CalleeOutcome::Target { resolved, receiver_with_arguments } => {
                    (resolved, receiver_with_arguments)
                }
                CalleeOutcome::Result(result) => return result,
            };
        if let Some(result) = crate::language_rules::rules_of(language)
            .derived_call_result(self, scope, callee, &resolved)
        {
            return result;
        }
        let sym = match self.called_symbol(resolved.denotation, language) {
            Ok(sym) => sym,
            Err(result) => return result,
        };
        self.called_symbol_result(sym, scope, written, language, receiver_with_arguments.as_ref())
    }

    /// What a callee names, or (`CalleeOutcome::Result`) what the call gives when that is
    /// known without a target: a builtin container's method, a local closure, a conversion.
    fn called_target(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        language: Language,
        depth: u32,
        known_receiver: Option<Denotation>,
    ) -> Option<CalleeOutcome> {
        let target = |resolved| CalleeOutcome::Target { resolved, receiver_with_arguments: None };
        let rules = crate::language_rules::rules_of(language);
        Some(match callee {
            CalleeExpr::Path(path) => rules.path_call_outcome(self, scope, path)?,
            CalleeExpr::Indexed(path) => {
                target(rules.indexed_type(self, scope, crate::calls::without_literal_key(path))?)
            }
            CalleeExpr::Method { receiver, name } => {
                let receiver =
                    self.method_call_receiver(scope, receiver, language, depth, known_receiver)?;
                self.method_call_target(receiver, name, language)?
            }
            // `make()(x)`, `@group()` applied: calling the function the inner call returns.
            CalleeExpr::Returned(inner) => {
                match self.call_result_type_at_depth(
                    scope,
                    inner,
                    language,
                    depth + 1,
                    None,
                    &[],
                )? {
                    Denotation::Symbol(sym) if self.index.symbol(sym).kind.is_callable() => {
                        target(Resolved {
                            denotation: Denotation::Symbol(sym),
                            rule: ResolutionRule::TypedReceiver,
                        })
                    }
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// The value a method is called on: given, a call's result, or a receiver's value.
    fn method_call_receiver(
        &self,
        scope: Sym,
        receiver: &Receiver,
        language: Language,
        depth: u32,
        known_receiver: Option<Denotation>,
    ) -> Option<Denotation> {
        Some(match (known_receiver, receiver) {
            (Some(known), _) => known,
            (None, Receiver::Call(inner)) => {
                self.call_result_type_at_depth(scope, inner, language, depth + 1, None, &[])?
            }
            // (A Python dotted receiver is a callee path of its own: `a.b.m()` is `Path`.)
            (
                None,
                Receiver::Path(_)
                | Receiver::Try(_)
                | Receiver::Await(_)
                | Receiver::Ready(_)
                | Receiver::Deref(_)
                | Receiver::Adapted { .. }
                | Receiver::Turbofish { .. }
                | Receiver::Subscript(_)
                | Receiver::Slice { .. }
                | Receiver::BuiltinCall { .. }
                | Receiver::Fields { .. }
                | Receiver::Tuple(_),
            ) => self.receiver_value(scope, receiver, language)?.denotation,
            _ => return None,
        })
    }

    /// The method `name` of a typed receiver, or what a std wrapper's or adapter's method
    /// gives, or what a derived std method of a project value gives.
    fn method_call_target(
        &self,
        receiver: Denotation,
        name: &str,
        language: Language,
    ) -> Option<CalleeOutcome> {
        let receiver = crate::value_types::method_receiver(&receiver, name).clone();
        // A method's receiver of a project generic type with known arguments (`InFile<ast::Fn>`).
        let mut receiver_with_arguments = None;
        if let Denotation::Instance { type_sym, is_dyn: false, arguments } = &receiver {
            if !arguments.is_empty()
                && crate::language_rules::rules_of(language).substitutes_type_arguments()
            {
                receiver_with_arguments = Some((*type_sym, arguments.clone()));
            }
        }
        if let Denotation::Wrapped { wrapper, inner } = &receiver {
            return Some(CalleeOutcome::Result(wrapper.method_result(inner, name)));
        }
        // A std adapter of a project iterator gives what std's does.
        if let Some(result) =
            crate::language_rules::rules_of(language).std_adapter_result(self, &receiver, name)
        {
            return Some(CalleeOutcome::Result(result));
        }
        let typed = Resolved { denotation: receiver.clone(), rule: ResolutionRule::TypedReceiver };
        let method = self.method_of_value(&typed, name, language).ok()?;
        // A derived or blanket std method of a project value: `clone` gives the same
        // type; what `into` or `borrow` give is not visible.
        if let (Denotation::Instance { .. }, Denotation::Builtin(_)) =
            (&receiver, &method.denotation)
        {
            if crate::builtins::rust_std_trait_of_method(name).is_some() {
                let same = matches!(name, "clone" | "to_owned").then_some(receiver);
                return Some(CalleeOutcome::Result(same));
            }
        }
        Some(CalleeOutcome::Target { resolved: method, receiver_with_arguments })
    }

    /// The project symbol a call runs (an object's `__call__` for a called instance), or
    /// (`Err`) what the call gives without one: an outside or builtin call's result, a std
    /// wrapper built by `Some`/`Ok`/`Err`.
    fn called_symbol(
        &self,
        denotation: Denotation,
        language: Language,
    ) -> Result<Sym, Option<Denotation>> {
        let rules = crate::language_rules::rules_of(language);
        match denotation {
            Denotation::Symbol(sym) => Ok(sym),
            // Calling an object of a project class calls its `__call__`.
            Denotation::Instance { type_sym, is_dyn: false, .. } => {
                let Some(operator) = rules.call_operator() else { return Err(None) };
                let call = self.type_member(
                    type_sym,
                    operator,
                    false,
                    language,
                    ResolutionRule::TypedReceiver,
                );
                match call.map(|resolved| resolved.denotation) {
                    Ok(Denotation::Symbol(method)) => Ok(method),
                    _ => Err(None),
                }
            }
            // A call into a dependency or a builtin returns a value of that world: its methods
            // are outside the project too.
            Denotation::External(path) => Err(Some(Denotation::External(format!("{path}()")))),
            // `Some(x)`, `Ok(x)`, `Err(x)` build a std wrapper (of an element not known here);
            // what another builtin call returns (`next(nodes)`, `String::from(s)`) is marked as
            // a call result, like an outside call's.
            Denotation::Builtin(path) => Err(Some(match rules.wrapper_constructor(&path) {
                Some(wrapper) => {
                    Denotation::Wrapped { wrapper, inner: Box::new(Denotation::UntypedLocal) }
                }
                // What the language's builtin stub says the call gives (`str.strip()` a `str`).
                None => match rules.builtin_call_result(&path) {
                    Some(class) => Denotation::Builtin(class.to_string()),
                    None => Denotation::Builtin(format!("{path}()")),
                },
            })),
            _ => Err(None),
        }
    }

    /// What calling a project symbol gives: an instance of a type; a function's return type
    /// (as the call's generic arguments or the receiver's arguments make it, else as
    /// declared); a Rust constructor-named method's `Self`.
    fn called_symbol_result(
        &self,
        sym: Sym,
        scope: Sym,
        written: &[tether_model::BindingValue],
        language: Language,
        receiver_with_arguments: Option<&(Sym, Vec<Denotation>)>,
    ) -> Option<Denotation> {
        let symbol = self.index.symbol(sym);
        if symbol.kind.is_type() {
            return Some(Denotation::Instance {
                type_sym: sym,
                is_dyn: false,
                arguments: Vec::new(),
            });
        }
        if symbol.kind.is_callable() {
            // `f::<T>()` where `f` returns its own parameter (`-> Option<N>`).
            if let Some(returned) = self.written_return_type(sym, scope, written, language) {
                return Some(returned);
            }
            // `file.as_ref()` on an `InFile<ast::Fn>` returns an `InFile<ast::Fn>`.
            if let Some((type_sym, arguments)) = receiver_with_arguments {
                if let Some(returned) = self.return_type_with_arguments(sym, *type_sym, arguments) {
                    return Some(returned);
                }
            }
            if let Some(returned) = self.declared_return_type(sym, language) {
                return Some(returned);
            }
        }
        crate::language_rules::rules_of(language).conventional_constructor_result(self, sym)
    }

    /// The declared return type of a function, when it names a project type (or `Self`).
    pub(crate) fn declared_return_type(
        &self,
        function: Sym,
        language: Language,
    ) -> Option<Denotation> {
        // The annotation, or else the first `return` whose value is visible; without either,
        // what a generator yields (a Python generator's annotation would be a `return`).
        let Some(bindings) = self.index.bindings_named(function, RETURN_BINDING) else {
            return crate::language_rules::rules_of(language).generator_result(self, function);
        };
        let typed = bindings
            .iter()
            .find_map(|binding| self.binding_denotation(function, binding, language))?;
        // `-> Self` (typing's, a name outside the project) on a method: an instance of its
        // class (a subclass's receiver is not followed).
        let typed = match typed {
            Denotation::External(path) if path == "Self" || path.ends_with(".Self") => {
                match self.index.parent(function) {
                    Some(class) if self.index.symbol(class).kind == SymbolKind::Class => {
                        Denotation::Instance {
                            type_sym: class,
                            is_dyn: false,
                            arguments: Vec::new(),
                        }
                    }
                    _ => Denotation::External(path),
                }
            }
            typed => typed,
        };
        // A function returning functions (`return inner`, `return self.render`, one of two
        // by a flag; a Rust `-> fn(…)` whose tails name functions): what calling its result
        // calls, all of them.
        if let Some(returned) = self.returned_functions(function, bindings, language) {
            return Some(returned);
        }
        match typed {
            // A project type, a std wrapper of one, or a dependency's or the language's type
            // (`String`): calls on the latter are outside the project.
            typed @ (Denotation::Instance { .. }
            | Denotation::Wrapped { .. }
            | Denotation::Tuple(_)
            | Denotation::External(_)
            | Denotation::Builtin(_)) => Some(typed),
            _ => None,
        }
    }

    /// The functions, methods or classes a function's `return`s name, when every visible
    /// return names one: the one, or all of them (ambiguous).
    fn returned_functions(
        &self,
        function: Sym,
        bindings: &[&'a tether_model::Binding],
        language: Language,
    ) -> Option<Denotation> {
        let mut returned: Vec<Sym> = Vec::new();
        for binding in bindings {
            // A declared callable type (`-> fn(&str) -> u32`) says nothing of which one.
            if matches!(binding.value, tether_model::BindingValue::Callable { .. }) {
                continue;
            }
            match self.binding_denotation(function, binding, language) {
                Some(Denotation::Symbol(sym)) => {
                    let kind = self.index.symbol(sym).kind;
                    if !(kind.is_callable() || kind.is_type()) {
                        return None;
                    }
                    if !returned.contains(&sym) {
                        returned.push(sym);
                    }
                }
                None => {}
                Some(_) => return None,
            }
        }
        match returned.as_slice() {
            [] => None,
            [only] => Some(Denotation::Symbol(*only)),
            _ => Some(Denotation::Ambiguous(returned)),
        }
    }
}
