//! Binding one call site: its callee's structure resolved through scopes, imports and types,
//! then turned into targets (constructors to `__init__`, ambiguity kept) or a reason.

use tether_model::{CallOutcome, CallSite, CalleeExpr, Language, Receiver, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::builtins::is_rust_std_macro;
use crate::RETURN_BINDING;
use crate::denotation::{found, Denotation, Lookup, Resolved};
use crate::project_index::Sym;
use crate::python_rules::BindingUse;
use crate::resolver::Resolver;

/// Calls chained deeper than this are not typed.
const MAX_CALL_CHAIN: u32 = 6;

/// Bindings typed through call results nest at most this deep on one thread.
const MAX_TYPING_NESTING: u32 = 8;

thread_local! {
    static TYPING_NESTING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// How deep call-result typing is nested on this thread right now.
pub(crate) fn typing_nesting() -> u32 {
    TYPING_NESTING.with(|nesting| nesting.get())
}

/// Counts one level of call-result typing on this thread while alive.
pub(crate) struct NestingGuard;

impl NestingGuard {
    pub(crate) fn enter() -> Option<NestingGuard> {
        TYPING_NESTING.with(|nesting| {
            if nesting.get() >= MAX_TYPING_NESTING {
                return None;
            }
            nesting.set(nesting.get() + 1);
            Some(NestingGuard)
        })
    }
}

impl Drop for NestingGuard {
    fn drop(&mut self) {
        TYPING_NESTING.with(|nesting| nesting.set(nesting.get() - 1));
    }
}

/// At most this many same-named candidates make a name-only guess; more stay unresolved.
const MAX_NAME_ONLY_CANDIDATES: usize = 3;

/// Where a call site ended.
pub(crate) enum CallTargets {
    /// Project symbols, each with its rule.
    Project(Vec<(Sym, ResolutionRule)>),
    /// A target outside the project: its qualified name and whether it is a builtin.
    Outside { qualified_name: String, is_builtin: bool, rule: ResolutionRule },
    Unresolved(UnresolvedReason),
}

impl CallTargets {
    pub(crate) fn outcome(&self) -> CallOutcome {
        match self {
            CallTargets::Project(targets) => match targets.first().map(|(_, rule)| *rule) {
                Some(ResolutionRule::DynamicDispatch) => CallOutcome::Dynamic,
                Some(ResolutionRule::Ambiguous) => CallOutcome::Ambiguous,
                Some(ResolutionRule::NameOnly) => CallOutcome::NameOnly,
                _ => CallOutcome::Resolved,
            },
            CallTargets::Outside { is_builtin: true, .. } => CallOutcome::Builtin,
            CallTargets::Outside { is_builtin: false, .. } => CallOutcome::External,
            CallTargets::Unresolved(UnresolvedReason::NoProjectSymbolNamed) => CallOutcome::External,
            CallTargets::Unresolved(_) => CallOutcome::Unresolved,
        }
    }
}

impl Resolver<'_> {
    pub(crate) fn resolve_call(&self, caller: Sym, call: &CallSite, language: Language) -> CallTargets {
        // The call sees the bindings of its scope in force where it is written.
        let resolved = crate::bindings_in_force::with_use_position(caller, call.byte, || self.resolve_callee(caller, &call.callee, language));
        match resolved {
            Ok(resolved) => self.targets_of(resolved, language),
            Err(reason) => self.unresolved_or_guess(call, reason, language),
        }
    }

    fn resolve_callee(&self, caller: Sym, callee: &CalleeExpr, language: Language) -> Lookup {
        match (language, callee) {
            (Language::Python, CalleeExpr::Path(path)) => self.python_path_in(caller, path, BindingUse::Allowed),
            // A local may be called (`f()`), but never named as a path's head (`m::f()`).
            (Language::Rust, CalleeExpr::Path(path)) => {
                // `let rt = rt();` calls the function `rt`: a local bound only after the call
                // is not the callee.
                let is_local = path.len() == 1 && !self.rust_bound_only_later(caller, &path[0]);
                let bindings = if is_local { BindingUse::Allowed } else { BindingUse::Forbidden };
                self.rust_called_path(caller, path, bindings)
            }
            (Language::Python, CalleeExpr::Method { receiver: Receiver::Call(inner), name }) if **inner == CalleeExpr::Path(vec!["super".to_string()]) => {
                self.python_super_member(caller, name)
            }
            (_, CalleeExpr::Method { receiver, name }) => {
                let receiver = self.receiver_value(caller, receiver, language).ok_or(UnresolvedReason::UnknownReceiverType)?;
                self.method_of_value(&receiver, name, language)
            }
            (Language::Rust, CalleeExpr::Macro(path)) => self.rust_macro(caller, path),
            // `StashKey[int]()`: a generic class called with its type arguments is constructed.
            (Language::Python, CalleeExpr::Indexed(path)) => self.indexed_collection(caller, path, language).or_else(|reason| self.python_generic_class(caller, path).ok_or(reason)),
            (_, CalleeExpr::Indexed(path)) => self.indexed_collection(caller, path, language),
            (Language::Python, CalleeExpr::Macro(_)) | (_, CalleeExpr::Other) => Err(UnresolvedReason::ComplexCallee),
        }
    }

    /// `table[key]()` where `table` is a literal collection of functions in a visible scope:
    /// any of them may be called, so all are candidates (labelled ambiguous when several).
    fn indexed_collection(&self, caller: Sym, path: &[String], language: Language) -> Lookup {
        let [name] = path else { return Err(UnresolvedReason::ComplexCallee) };
        let mut scope = Some(caller);
        while let Some(level) = scope {
            if let Some(bindings) = self.index.bindings_named(level, name) {
                for binding in bindings.iter().rev() {
                    let tether_model::BindingValue::Collection(elements) = &binding.value else { continue };
                    let mut targets = Vec::new();
                    for element in elements {
                        let resolved = match language {
                            Language::Python => self.python_path(level, element),
                            Language::Rust => self.rust_path(level, element, false),
                        };
                        if let Ok(Resolved { denotation: Denotation::Symbol(sym), .. }) = resolved {
                            targets.push(sym);
                        }
                    }
                    return match targets.as_slice() {
                        [] => Err(UnresolvedReason::ComplexCallee),
                        [only] => found(Denotation::Symbol(*only), ResolutionRule::SameScope),
                        _ => found(Denotation::Ambiguous(targets), ResolutionRule::Ambiguous),
                    };
                }
            }
            scope = self.index.parent(level);
        }
        Err(UnresolvedReason::ComplexCallee)
    }

    /// A function passed as a value: its targets when it names something callable.
    pub(crate) fn resolve_function_reference(&self, caller: Sym, reference: &CallSite, language: Language) -> Option<CallTargets> {
        // A local variable passed along is a value, not a function: bindings are not consulted.
        let CalleeExpr::Path(path) = &reference.callee else { return None };
        let resolved = match language {
            Language::Python => self.python_path_in(caller, path, BindingUse::Forbidden).ok()?,
            Language::Rust => self.rust_called_path(caller, path, BindingUse::Forbidden).ok()?,
        };
        let callable = match &resolved.denotation {
            Denotation::Symbol(sym) => {
                let kind = self.index.symbol(*sym).kind;
                kind.is_callable() || kind.is_type()
            }
            Denotation::Ambiguous(_) | Denotation::Builtin(_) | Denotation::External(_) => true,
            _ => false,
        };
        callable.then(|| self.targets_of(resolved, language))
    }

    /// The method `name` called on a value.
    pub(crate) fn method_of_value(&self, receiver: &Resolved, name: &str, language: Language) -> Lookup {
        let pointee = crate::value_types::method_receiver(&receiver.denotation, name);
        let through_pointer;
        let receiver = if std::ptr::eq(pointee, &receiver.denotation) {
            receiver
        } else {
            through_pointer = Resolved { denotation: pointee.clone(), rule: receiver.rule };
            &through_pointer
        };
        if let Denotation::Wrapped { wrapper, .. } = &receiver.denotation {
            // A std method of the wrapper, or (an extension trait's) something unknown.
            return match wrapper.has_std_method(name) {
                true => {
                    let separator = if wrapper.is_python() { "." } else { "::" };
                    found(Denotation::Builtin(format!("{}{separator}{name}", wrapper.std_name())), ResolutionRule::TypedReceiver)
                }
                false => Err(UnresolvedReason::UnknownMember),
            };
        }
        // A Rust method call never calls a field (`(self.f)()` does, and is not this form).
        if let (Language::Rust, Denotation::Instance { type_sym, is_dyn, .. }) = (language, &receiver.denotation) {
            let rule = if *is_dyn { ResolutionRule::DynamicDispatch } else { crate::denotation::member_rule(receiver.rule, ResolutionRule::TypedReceiver) };
            return self.type_member(*type_sym, name, *is_dyn, language, rule);
        }
        self.member(receiver, name, language).map_err(|reason| match reason {
            UnresolvedReason::UnknownName => UnresolvedReason::UnknownReceiverType,
            other => other,
        })
    }

    /// What a method call's receiver is, when its type is visible.
    pub(crate) fn receiver_value(&self, caller: Sym, receiver: &Receiver, language: Language) -> Option<Resolved> {
        match receiver {
            Receiver::Path(path) => {
                let (head, rest) = path.split_first()?;
                let mut current = if language == Language::Rust && head == "self" {
                    let self_type = self.rust_self_type(caller)?;
                    let Denotation::Symbol(type_sym) = self_type.denotation else { return None };
                    // In an impl whose type tether does not see (a blanket `impl<S> X for &mut
                    // S`), `self.f()` may reach another type's `f`: only `Self::f` is certain.
                    if self.index.symbol(type_sym).kind == SymbolKind::Impl {
                        return None;
                    }
                    Resolved { denotation: Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() }, rule: ResolutionRule::SelfMethod }
                } else {
                    match language {
                        Language::Python => self.python_path_in(caller, std::slice::from_ref(head), BindingUse::Allowed).ok()?,
                        Language::Rust => self.rust_path_in(caller, std::slice::from_ref(head), false, BindingUse::Allowed).ok()?,
                    }
                };
                for segment in rest {
                    current = self.member(&current, segment, language).ok()?;
                }
                Some(current)
            }
            Receiver::Call(callee) => {
                let denotation = self.call_result_type(caller, callee, language)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Try(inner) => {
                let denotation = crate::value_types::unwrapped(&self.receiver_value(caller, inner, language)?.denotation)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Await(inner) => {
                let denotation = crate::value_types::awaited(&self.receiver_value(caller, inner, language)?.denotation)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Turbofish { call, arguments } => {
                let denotation = self.turbofish_value(caller, call, arguments, language)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Adapted { call, returned, at } => {
                let denotation = self.adapted_value(caller, call, returned, *at, language)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Subscript(inner) => {
                let denotation = self.subscripted_value(&self.receiver_value(caller, inner, language)?.denotation, language)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Other => None,
        }
    }

    /// The type a call returns, when it is visibly a constructor: calling a class or struct,
    /// or a Rust associated function named like one (`new`, `default`, `with_*`, `from_*`).
    pub(crate) fn call_result_type(&self, scope: Sym, callee: &CalleeExpr, language: Language) -> Option<Denotation> {
        // Typing a call may type a receiver, whose binding may be another call's result
        // (`let x = x.next()`): this depth, shared by the whole nest on this thread, ends it.
        let _nesting = NestingGuard::enter()?;
        self.call_result_type_at_depth(scope, callee, language, 0, None, &[])
    }

    /// Like [`Self::call_result_type`], with a method's receiver already typed (`known_receiver`)
    /// and the generic arguments the call writes (`f::<T>()`), if any.
    pub(crate) fn call_result_type_given(&self, scope: Sym, callee: &CalleeExpr, language: Language, known_receiver: Option<Denotation>, written: &[tether_model::BindingValue]) -> Option<Denotation> {
        let _nesting = NestingGuard::enter()?;
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
        // A method's receiver of a project generic type with known arguments (`InFile<ast::Fn>`).
        let mut receiver_with_arguments: Option<(Sym, Vec<Denotation>)> = None;
        let resolved = match (language, callee) {
            // `x.m()` in Python is a dotted path whose head may be a local (`result =
            // pytester.runpytest()`); a bare `f()` calls a function, not a local's value.
            // A bare name may be a local or parameter holding a callable object
            // (`run_and_parse()`, a fixture), which hides a function of the same name.
            (Language::Python, CalleeExpr::Path(path)) => match path.split_last() {
                // `items.pop()`, `table.values()`: a builtin container's method may give its element.
                Some((name, receiver)) if !receiver.is_empty() => match self.receiver_value(scope, &Receiver::Path(receiver.to_vec()), language).map(|resolved| resolved.denotation) {
                    Some(Denotation::Wrapped { wrapper, inner }) if wrapper.is_python() => return wrapper.method_result(&inner, name),
                    _ => self.python_path_in(scope, path, BindingUse::Allowed).ok()?,
                },
                _ => self.python_path_in(scope, path, BindingUse::Allowed).ok()?,
            },
            (Language::Rust, CalleeExpr::Path(path)) => {
                // `m(…)` where `m` is a local closure whose value is visible.
                if let [name] = path.as_slice() {
                    if let Some(returned) = self.local_closure_result(scope, name, language) {
                        return returned;
                    }
                }
                self.rust_called_path(scope, path, BindingUse::Forbidden).ok()?
            }
            (Language::Python, CalleeExpr::Indexed(path)) => self.python_generic_class(scope, path)?,
            (_, CalleeExpr::Method { receiver, name }) => {
                let receiver = match (known_receiver, receiver) {
                    (Some(known), _) => known,
                    (None, Receiver::Call(inner)) => self.call_result_type_at_depth(scope, inner, language, depth + 1, None, &[])?,
                    (None, Receiver::Path(path)) if language == Language::Rust || path.len() == 1 => self.receiver_value(scope, receiver, language)?.denotation,
                    (None, Receiver::Try(_) | Receiver::Await(_) | Receiver::Adapted { .. } | Receiver::Turbofish { .. } | Receiver::Subscript(_)) => {
                        self.receiver_value(scope, receiver, language)?.denotation
                    }
                    _ => return None,
                };
                let receiver = crate::value_types::method_receiver(&receiver, name).clone();
                if let Denotation::Instance { type_sym, is_dyn: false, arguments } = &receiver {
                    if !arguments.is_empty() && language == Language::Rust {
                        receiver_with_arguments = Some((*type_sym, arguments.clone()));
                    }
                }
                if let Denotation::Wrapped { wrapper, inner } = &receiver {
                    return wrapper.method_result(inner, name);
                }
                let method = self.method_of_value(&Resolved { denotation: receiver.clone(), rule: ResolutionRule::TypedReceiver }, name, language).ok()?;
                // A derived or blanket std method of a project value: `clone` gives the same
                // type; what `into` or `borrow` give is not visible.
                if let (Denotation::Instance { .. }, Denotation::Builtin(_)) = (&receiver, &method.denotation) {
                    if crate::builtins::rust_std_trait_of_method(name).is_some() {
                        return matches!(name.as_str(), "clone" | "to_owned").then_some(receiver);
                    }
                }
                method
            }
            _ => return None,
        };
        // `Type::default()` through a derived `Default` gives a `Type`.
        if let (CalleeExpr::Path(path), Denotation::Builtin(target)) = (callee, &resolved.denotation) {
            if target == "Default::default" && path.len() >= 2 && language == Language::Rust {
                if let Ok(Resolved { denotation: Denotation::Symbol(type_sym), .. }) = self.rust_path(scope, &path[..path.len() - 1], false) {
                    return self.index.symbol(type_sym).kind.is_type().then_some(Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() });
                }
            }
        }
        let sym = match resolved.denotation {
            Denotation::Symbol(sym) => sym,
            // Calling an object of a project class calls its `__call__`.
            Denotation::Instance { type_sym, is_dyn: false, .. } if language == Language::Python => {
                match self.type_member(type_sym, "__call__", false, language, ResolutionRule::TypedReceiver).ok()?.denotation {
                    Denotation::Symbol(method) => method,
                    _ => return None,
                }
            }
            // A call into a dependency or a builtin returns a value of that world: its methods
            // are outside the project too.
            Denotation::External(path) => return Some(Denotation::External(format!("{path}()"))),
            Denotation::Builtin(path) => return Some(Denotation::Builtin(path)),
            _ => return None,
        };
        let symbol = self.index.symbol(sym);
        if symbol.kind.is_type() {
            return Some(Denotation::Instance { type_sym: sym, is_dyn: false, arguments: Vec::new() });
        }
        if symbol.kind.is_callable() {
            // `f::<T>()` where `f` returns its own parameter (`-> Option<N>`).
            if let Some(returned) = self.written_return_type(sym, scope, written, language) {
                return Some(returned);
            }
            // `file.as_ref()` on an `InFile<ast::Fn>` returns an `InFile<ast::Fn>`.
            if let Some((type_sym, arguments)) = &receiver_with_arguments {
                if let Some(returned) = self.return_type_with_arguments(sym, *type_sym, arguments) {
                    return Some(returned);
                }
            }
            if let Some(returned) = self.declared_return_type(sym, language) {
                return Some(returned);
            }
        }
        let looks_like_constructor = symbol.name == "new"
            || symbol.name == "default"
            || symbol.name.starts_with("new_")
            || symbol.name.starts_with("with_")
            || symbol.name.starts_with("from_");
        if language == Language::Rust && symbol.kind == SymbolKind::Method && looks_like_constructor {
            let impl_sym = self.index.parent(sym)?;
            let type_sym = *self.impl_self_type.get(&impl_sym)?;
            return Some(Denotation::Instance { type_sym, is_dyn: false, arguments: Vec::new() });
        }
        None
    }

    /// The declared return type of a function, when it names a project type (or `Self`).
    pub(crate) fn declared_return_type(&self, function: Sym, language: Language) -> Option<Denotation> {
        // The annotation, or else the first `return` whose value is visible.
        let bindings = self.index.bindings_named(function, RETURN_BINDING)?;
        let typed = bindings.iter().find_map(|binding| self.binding_denotation(function, binding, language))?;
        match typed {
            // A project type, a std wrapper of one, or a dependency's or the language's type
            // (`String`): calls on the latter are outside the project.
            typed @ (Denotation::Instance { .. } | Denotation::Wrapped { .. } | Denotation::Tuple(_) | Denotation::External(_) | Denotation::Builtin(_)) => Some(typed),
            _ => None,
        }
    }

    fn rust_macro(&self, caller: Sym, path: &[String]) -> Lookup {
        if path.len() > 1 {
            return self.rust_qualified_macro(caller, path);
        }
        let name = path.first().ok_or(UnresolvedReason::ComplexCallee)?;
        let macros = self.index.macros_by_name.get(name.as_str()).map(Vec::as_slice).unwrap_or(&[]);
        let caller_file = self.index.module_of[caller as usize];
        // `macro_rules!` is textually scoped: a definition in the caller's own file wins.
        let same_file: Vec<Sym> = macros.iter().copied().filter(|sym| self.index.module_of[*sym as usize] == caller_file).collect();
        if let Some(denotation) = crate::denotation::from_candidates(&same_file) {
            return found(denotation, ResolutionRule::Macro);
        }
        // Macros have a namespace of their own: a module or function of the same name
        // (`mod panic;`) is not what `panic!` calls.
        if let Some(imported) = self.rust_path(caller, path, false).ok().filter(|imported| self.may_name_macro(&imported.denotation)) {
            return Ok(Resolved { denotation: imported.denotation, rule: ResolutionRule::Macro });
        }
        // A std macro's name means the std macro unless the file defines its own: a private
        // `macro_rules! writeln` elsewhere in the crate is not visible here.
        if is_rust_std_macro(name) {
            return found(Denotation::Builtin(format!("{name}!")), ResolutionRule::Macro);
        }
        // Then macros of the same crate (exported or `#[macro_use]`), then of the workspace.
        let crate_name = self.index.symbol(caller_file).qualified_name.split("::").next().unwrap_or("").to_string();
        let same_crate: Vec<Sym> =
            macros.iter().copied().filter(|sym| self.index.symbol(*sym).qualified_name.split("::").next() == Some(crate_name.as_str())).collect();
        if let Some(denotation) = crate::denotation::from_candidates(&same_crate) {
            return found(denotation, ResolutionRule::Macro);
        }
        match crate::denotation::from_candidates(macros) {
            Some(denotation) => found(denotation, ResolutionRule::Macro),
            None => Err(UnresolvedReason::UnknownName),
        }
    }

    fn targets_of(&self, resolved: Resolved, language: Language) -> CallTargets {
        match resolved.denotation {
            Denotation::Symbol(sym) => {
                let symbol = self.index.symbol(sym);
                if symbol.kind.is_type() {
                    if language == Language::Python {
                        if let Ok(Resolved { denotation: Denotation::Symbol(init), .. }) =
                            self.type_member(sym, "__init__", false, language, ResolutionRule::Constructor)
                        {
                            return CallTargets::Project(vec![(init, ResolutionRule::Constructor)]);
                        }
                    }
                    return CallTargets::Project(vec![(sym, ResolutionRule::Constructor)]);
                }
                if symbol.kind == SymbolKind::Module {
                    return CallTargets::Unresolved(UnresolvedReason::ComplexCallee);
                }
                CallTargets::Project(vec![(sym, resolved.rule)])
            }
            Denotation::Ambiguous(candidates) => {
                let rule = if resolved.rule == ResolutionRule::DynamicDispatch { ResolutionRule::DynamicDispatch } else { ResolutionRule::Ambiguous };
                let rule = if candidates.len() == 1 && rule == ResolutionRule::Ambiguous { ResolutionRule::Ambiguous } else { rule };
                CallTargets::Project(candidates.into_iter().map(|candidate| (candidate, rule)).collect())
            }
            Denotation::Instance { type_sym, is_dyn, .. } => {
                match self.type_member(type_sym, "__call__", is_dyn, language, crate::denotation::instance_member_rule(resolved.rule)) {
                    Ok(Resolved { denotation: Denotation::Symbol(method), rule }) => CallTargets::Project(vec![(method, rule)]),
                    Ok(Resolved { denotation: Denotation::Ambiguous(methods), .. }) => {
                        CallTargets::Project(methods.into_iter().map(|method| (method, ResolutionRule::Ambiguous)).collect())
                    }
                    _ => CallTargets::Unresolved(UnresolvedReason::ComplexCallee),
                }
            }
            Denotation::External(path) => CallTargets::Outside { qualified_name: path, is_builtin: false, rule: resolved.rule },
            Denotation::Builtin(path) => {
                let separator = if language == Language::Python { "." } else { "::" };
                CallTargets::Outside { qualified_name: format!("<builtin>{separator}{path}"), is_builtin: true, rule: resolved.rule }
            }
            Denotation::Namespace(_) | Denotation::Wrapped { .. } | Denotation::Tuple(_) => CallTargets::Unresolved(UnresolvedReason::ComplexCallee),
            // Calling a parameter or local (a callback): its value is not visible.
            Denotation::UntypedLocal => CallTargets::Unresolved(UnresolvedReason::UnknownReceiverType),
        }
    }

    fn unresolved_or_guess(&self, call: &CallSite, reason: UnresolvedReason, language: Language) -> CallTargets {
        let Some(name) = callee_name(&call.callee) else { return CallTargets::Unresolved(reason) };
        if !self.index.names.contains(name) {
            return CallTargets::Unresolved(UnresolvedReason::NoProjectSymbolNamed);
        }
        let is_bare_name = matches!(&call.callee, CalleeExpr::Path(path) if path.len() == 1);
        if reason == UnresolvedReason::UnknownName && is_bare_name {
            let candidates: Vec<Sym> = self
                .index
                .callables_by_name
                .get(name)
                .map(|candidates| candidates.iter().copied().filter(|sym| self.index.symbol(*sym).language == language).collect())
                .unwrap_or_default();
            if !candidates.is_empty() && candidates.len() <= MAX_NAME_ONLY_CANDIDATES {
                return CallTargets::Project(candidates.into_iter().map(|candidate| (candidate, ResolutionRule::NameOnly)).collect());
            }
        }
        CallTargets::Unresolved(reason)
    }
}

/// The name a callee would target: the last segment of its path or its method name.
pub(crate) fn callee_name(callee: &CalleeExpr) -> Option<&str> {
    match callee {
        CalleeExpr::Path(path) | CalleeExpr::Macro(path) => path.last().map(String::as_str),
        CalleeExpr::Method { name, .. } => Some(name.as_str()),
        CalleeExpr::Indexed(path) => path.last().map(String::as_str),
        CalleeExpr::Other => None,
    }
}
