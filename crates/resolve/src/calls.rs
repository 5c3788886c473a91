//! Binding one call site: its callee's structure resolved through scopes, imports and types,
//! then turned into targets (constructors to `__init__`, ambiguity kept) or a reason.

use tether_model::{
    CallOutcome, CallSite, CalleeExpr, Language, Receiver, ResolutionRule, SymbolKind,
    UnresolvedReason,
};

use crate::denotation::{found, Denotation, Lookup, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// Calls chained deeper than this are not typed.
pub(crate) const MAX_CALL_CHAIN: u32 = 6;

/// At most this many same-named candidates make a name-only guess; more stay unresolved.
const MAX_NAME_ONLY_CANDIDATES: usize = 3;

/// Where a call site ended.
pub(crate) enum CallTargets {
    /// Project symbols, each with its rule.
    Project(Vec<(Sym, ResolutionRule)>),
    /// A target outside the project: its qualified name and whether it is a builtin.
    Outside {
        qualified_name: String,
        is_builtin: bool,
        rule: ResolutionRule,
    },
    Unresolved(UnresolvedReason),
}

impl CallTargets {
    pub(crate) fn outcome(&self) -> CallOutcome {
        match self {
            CallTargets::Project(targets) => match targets.first().map(|(_, rule)| *rule) {
                Some(ResolutionRule::DynamicDispatch | ResolutionRule::ValueFlow) => {
                    CallOutcome::Dynamic
                }
                Some(ResolutionRule::Ambiguous) => CallOutcome::Ambiguous,
                Some(ResolutionRule::NameOnly) => CallOutcome::NameOnly,
                _ => CallOutcome::Resolved,
            },
            CallTargets::Outside { is_builtin: true, .. } => CallOutcome::Builtin,
            CallTargets::Outside { is_builtin: false, .. } => CallOutcome::External,
            CallTargets::Unresolved(UnresolvedReason::NoProjectSymbolNamed) => {
                CallOutcome::External
            }
            CallTargets::Unresolved(_) => CallOutcome::Unresolved,
        }
    }
}

/// What a name used as a value denotes.
pub(crate) enum ValueReference {
    /// Project functions, methods, lambdas or classes.
    Targets(Vec<(Sym, ResolutionRule)>),
    /// A member of a value of unknown type named like a project callable.
    Unbound,
    /// Nothing callable of the project: a local, an outside name, a non-callable symbol.
    NotCallable,
}

impl Resolver<'_> {
    pub(crate) fn resolve_call(
        &self,
        caller: Sym,
        call: &CallSite,
        language: Language,
    ) -> CallTargets {
        // The call sees the bindings of its scope in force where it is written.
        let resolved = self.context.with_use_position(caller, call.byte, || {
            self.resolve_callee(caller, &call.callee, language)
        });
        match resolved {
            // Calling what an outside free function returned (`seek = getattr(body, "seek")`,
            // then `seek(0)`) may call a project method: a value call, not an outside edge. So
            // is calling a value typed `Any` or `Callable` (`value = self.default; value()`).
            Ok(Resolved {
                denotation: Denotation::External(path) | Denotation::Builtin(path),
                ..
            }) if crate::denotation::is_free_function_result(
                &path,
                crate::language_rules::rules_of(language).separator(),
            ) || crate::language_rules::rules_of(language).is_opaque_callable_type(&path) =>
            {
                CallTargets::Unresolved(UnresolvedReason::ValueCall)
            }
            // A method of a proxy or of `Any` (or of an attribute read through one) is the
            // method of an object not visible.
            Ok(Resolved { denotation: Denotation::External(path), .. })
                if path.match_indices('.').any(|(end, _)| {
                    crate::language_rules::rules_of(language).forwards_members(&path[..end])
                }) =>
            {
                self.unresolved_or_guess(call, UnresolvedReason::UnknownReceiverType, language)
            }
            Ok(resolved) => self.targets_of(resolved, language),
            Err(reason) => self.unresolved_or_guess(call, reason, language),
        }
    }

    pub(crate) fn resolve_callee(
        &self,
        caller: Sym,
        callee: &CalleeExpr,
        language: Language,
    ) -> Lookup {
        let rules = crate::language_rules::rules_of(language);
        match callee {
            CalleeExpr::Path(path) => rules.called_name(self, caller, path),
            CalleeExpr::Method { receiver, name } => {
                if let Some(special) = rules.special_method_callee(self, caller, receiver, name) {
                    return special;
                }
                let receiver = self
                    .receiver_value(caller, receiver, language)
                    .ok_or(UnresolvedReason::UnknownReceiverType)?;
                self.method_of_value(&receiver, name, language)
            }
            CalleeExpr::Macro(path) => rules.macro_callee(self, caller, path),
            CalleeExpr::Indexed(path) => {
                self.indexed_collection(caller, path, language).or_else(|reason| {
                    rules.indexed_type(self, caller, without_literal_key(path)).ok_or(reason)
                })
            }
            CalleeExpr::TraitPath { self_type, trait_path, name } => {
                self.trait_path_callee(caller, self_type, trait_path, name)
            }
            CalleeExpr::TraitMethod { receiver, trait_path, name } => {
                let receiver = self
                    .receiver_value(caller, receiver, language)
                    .ok_or(UnresolvedReason::UnknownReceiverType)?;
                self.trait_method_of_value(caller, &receiver, trait_path, name)
            }
            // `(self.run)(x)`: what a field holds; value flow binds it to what is stored there.
            CalleeExpr::FieldValue { .. } => Err(UnresolvedReason::ValueCall),
            // `make_prefixer(">")(line)`: what the inner call returns is called.
            CalleeExpr::Returned(inner) => {
                let returned = self
                    .call_result_type(caller, inner, language)
                    .ok_or(UnresolvedReason::ValueCall)?;
                let rule = match returned {
                    Denotation::Ambiguous(_) => ResolutionRule::ValueFlow,
                    // An outside value (`next(it)`'s result): what it calls is not visible.
                    Denotation::External(_) | Denotation::Builtin(_) => {
                        return Err(UnresolvedReason::ValueCall)
                    }
                    _ => ResolutionRule::TypedReceiver,
                };
                found(returned, rule)
            }
            // `next(handlers())(x)`: the value the builtin makes of its arguments.
            CalleeExpr::Value(receiver) => {
                let value = self
                    .receiver_value(caller, receiver, language)
                    .ok_or(UnresolvedReason::ValueCall)?;
                match value.denotation {
                    Denotation::Symbol(_) | Denotation::Ambiguous(_) => {
                        found(value.denotation, ResolutionRule::ValueFlow)
                    }
                    _ => Err(UnresolvedReason::ValueCall),
                }
            }
            // `(match mode { A => f, B => g })(x)`: any arm's value may be called.
            CalleeExpr::Alternatives(alternatives) => {
                self.alternative_callees(caller, alternatives, language)
            }
            CalleeExpr::Other => Err(UnresolvedReason::ComplexCallee),
        }
    }

    /// The project symbols a conditional's arms may give (a value-flow fan-out); the first
    /// arm's reason when none gives one.
    fn alternative_callees(
        &self,
        caller: Sym,
        alternatives: &[CalleeExpr],
        language: Language,
    ) -> Lookup {
        let mut targets = Vec::new();
        let mut first_failure = None;
        for alternative in alternatives {
            match self.resolve_callee(caller, alternative, language) {
                Ok(Resolved { denotation: Denotation::Symbol(sym), .. }) => targets.push(sym),
                Ok(Resolved { denotation: Denotation::Ambiguous(syms), .. }) => {
                    targets.extend(syms)
                }
                Ok(_) => first_failure = first_failure.or(Some(UnresolvedReason::ValueCall)),
                Err(reason) => first_failure = first_failure.or(Some(reason)),
            }
        }
        targets.sort_unstable();
        targets.dedup();
        match (targets.as_slice(), first_failure) {
            ([], reason) => Err(reason.unwrap_or(UnresolvedReason::ValueCall)),
            _ => found(Denotation::Ambiguous(targets), ResolutionRule::ValueFlow),
        }
    }

    /// `table[key]()` where `table` is a literal collection of functions in a visible scope:
    /// any of them may be called, so all are candidates (labelled ambiguous when several).
    fn indexed_collection(&self, caller: Sym, path: &[String], language: Language) -> Lookup {
        // `ops["add"]()`, `nested["basic"][1]()`: the keys' own value when the literals say
        // it, else (one key) any element.
        let (path, keys) = crate::argument_slots::split_literal_keys(path);
        let [name] = path else { return Err(UnresolvedReason::ComplexCallee) };
        if !keys.is_empty() {
            if let Some(value) = self.keyed_element(caller, name, &keys.concat(), language) {
                return Ok(value);
            }
        }
        if keys.len() > 1 {
            return Err(UnresolvedReason::ComplexCallee);
        }
        let mut scope = Some(caller);
        while let Some(level) = scope {
            if let Some(bindings) = self.index.bindings_named(level, name) {
                for binding in bindings.iter().rev() {
                    let (tether_model::BindingValue::Collection(elements)
                    | tether_model::BindingValue::Mapping(elements)) = &binding.value
                    else {
                        continue;
                    };
                    let mut targets = Vec::new();
                    let written = self.keyed_writes(level, name);
                    for element in elements.iter().chain(&written) {
                        let resolved = crate::language_rules::rules_of(language)
                            .item_path(self, level, element);
                        if let Ok(Resolved { denotation: Denotation::Symbol(sym), .. }) = resolved {
                            if !targets.contains(&sym) {
                                targets.push(sym);
                            }
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

    /// A name used as a value (`register(handler)`, `self.cb = cb`, `map(Self::convert)`): the
    /// project functions, methods, lambdas and classes it denotes. A local or parameter of that
    /// name is the local, not the function; names no project callable has are not looked up.
    pub(crate) fn resolve_value_reference(
        &self,
        scope: Sym,
        reference: &CallSite,
        language: Language,
    ) -> ValueReference {
        if let CalleeExpr::Method { name, .. } = &reference.callee {
            return self.method_value_reference(scope, &reference.callee, name, language);
        }
        let CalleeExpr::Path(path) = &reference.callee else { return ValueReference::NotCallable };
        let Some(name) = path.last() else { return ValueReference::NotCallable };
        if !self.index.callables_by_name.contains_key(name.as_str()) {
            return ValueReference::NotCallable;
        }
        // Most names passed along are locals and parameters: a name bound (where it is used) in
        // the scope or an enclosing one is a value of that binding, not a function (checked
        // before the costlier lookup). A scope that also defines a function of that name
        // (`f = wrap(f)`) is left to the full lookup.
        if let [name] = path.as_slice() {
            let mut level = Some(scope);
            while let Some(current) = level {
                let bound_here = self.index.bindings_named(current, name).is_some_and(|bindings| {
                    bindings.iter().any(|binding| {
                        binding.visible_from <= reference.byte
                            && reference.byte < binding.visible_to
                    })
                });
                if bound_here && self.index.children_named(current, name).is_empty() {
                    return ValueReference::NotCallable;
                }
                if bound_here {
                    break;
                }
                level = self.index.parent(current);
            }
        }
        let resolved = self.context.with_use_position(scope, reference.byte, || {
            crate::language_rules::rules_of(language).path_in(
                self,
                scope,
                path,
                BindingUse::Allowed,
            )
        });
        let is_value = |sym: &Sym| {
            let kind = self.index.symbol(*sym).kind;
            kind.is_callable() || kind == SymbolKind::Class
        };
        // A decorated definition is named from its own scope (a class body is no enclosing
        // scope for the names resolution walks, so its members are looked up directly).
        if let ([name], Err(_)) = (path.as_slice(), &resolved) {
            let members: Vec<(Sym, ResolutionRule)> = self
                .index
                .children_named(scope, name)
                .iter()
                .copied()
                .filter(is_value)
                .map(|sym| (sym, ResolutionRule::SameScope))
                .collect();
            if !members.is_empty() {
                return ValueReference::Targets(members);
            }
        }
        // A member of a value whose type is not visible (`self.send_static_file` where the
        // class does not define it, `view.handler`) may be any project callable of that name.
        let Ok(resolved) = resolved else {
            let is_member =
                path.len() > 1 && crate::language_rules::rules_of(language).paths_read_attributes();
            return if is_member { ValueReference::Unbound } else { ValueReference::NotCallable };
        };
        self.value_targets(resolved.denotation, resolved.rule)
            .unwrap_or(ValueReference::NotCallable)
    }

    /// The project callables and classes a value's denotation gives (`None` for anything
    /// else: an outside value, a namespace, an untyped local).
    fn value_targets(
        &self,
        denotation: Denotation,
        rule: ResolutionRule,
    ) -> Option<ValueReference> {
        let is_value = |sym: &Sym| {
            let kind = self.index.symbol(*sym).kind;
            kind.is_callable() || kind == SymbolKind::Class
        };
        match denotation {
            Denotation::Symbol(sym) if is_value(&sym) => {
                Some(ValueReference::Targets(vec![(sym, rule)]))
            }
            Denotation::Ambiguous(candidates) => Some(ValueReference::Targets(
                candidates
                    .into_iter()
                    .filter(is_value)
                    .map(|sym| (sym, ResolutionRule::Ambiguous))
                    .collect(),
            )),
            _ => None,
        }
    }

    /// A method of a value no path names, used as a value (`partial(machine.get_state(name)
    /// .exit, …)`): the project methods its receiver's type gives, else unbound (any project
    /// callable of that name may be it).
    fn method_value_reference(
        &self,
        scope: Sym,
        callee: &CalleeExpr,
        name: &str,
        language: Language,
    ) -> ValueReference {
        if !self.index.callables_by_name.contains_key(name) {
            return ValueReference::NotCallable;
        }
        match self.resolve_callee(scope, callee, language) {
            // An outside type's member is not a project callable.
            Ok(Resolved {
                denotation: Denotation::External(_) | Denotation::Builtin(_), ..
            }) => ValueReference::NotCallable,
            Ok(resolved) => self
                .value_targets(resolved.denotation, resolved.rule)
                .unwrap_or(ValueReference::Unbound),
            Err(_) => ValueReference::Unbound,
        }
    }

    /// A function passed as a value: its targets when it names something callable.
    pub(crate) fn resolve_function_reference(
        &self,
        caller: Sym,
        reference: &CallSite,
        language: Language,
    ) -> Option<CallTargets> {
        // A local variable passed along is a value, not a function: bindings are not consulted.
        let CalleeExpr::Path(path) = &reference.callee else { return None };
        let resolved = crate::language_rules::rules_of(language)
            .called_path(self, caller, path, BindingUse::Forbidden)
            .ok()?;
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
    pub(crate) fn method_of_value(
        &self,
        receiver: &Resolved,
        name: &str,
        language: Language,
    ) -> Lookup {
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
                true => found(wrapper.std_member(name), ResolutionRule::TypedReceiver),
                false => Err(UnresolvedReason::UnknownMember),
            };
        }
        // A method found by the language's own lookup (Rust's never calls a field).
        if let Some(lookup) =
            crate::language_rules::rules_of(language).instance_method(self, receiver, name)
        {
            return lookup;
        }
        self.member(receiver, name, language).map_err(|reason| match reason {
            UnresolvedReason::UnknownName => UnresolvedReason::UnknownReceiverType,
            other => other,
        })
    }

    /// What a method call's receiver is, when its type is visible.
    pub(crate) fn receiver_value(
        &self,
        caller: Sym,
        receiver: &Receiver,
        language: Language,
    ) -> Option<Resolved> {
        match receiver {
            Receiver::Path(path) => self.path_receiver_value(caller, path, language),
            Receiver::Call(callee) => {
                let denotation = self.call_result_type(caller, callee, language)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Try(inner) => {
                let denotation = crate::value_types::unwrapped(
                    &self.receiver_value(caller, inner, language)?.denotation,
                )?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Await(inner) => {
                let denotation = crate::value_types::awaited(
                    &self.receiver_value(caller, inner, language)?.denotation,
                )?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Deref(inner) => {
                let value = self.receiver_value(caller, inner, language)?;
                let denotation = self.dereferenced(&value.denotation)?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::Ready(inner) => {
                let denotation = crate::value_types::ready_value(
                    &self.receiver_value(caller, inner, language)?.denotation,
                )?;
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
                let denotation = self.subscripted_value(
                    &self.receiver_value(caller, inner, language)?.denotation,
                    language,
                )?;
                Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver })
            }
            Receiver::BuiltinCall { name, arguments } => {
                self.builtin_call_value(caller, name, arguments, language)
            }
            Receiver::Slice { base, from, to } => {
                let denotation = match &**base {
                    Receiver::Path(path) => self.sliced_elements(caller, path, *from, *to),
                    _ => None,
                };
                if let Some(denotation) = denotation {
                    return Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver });
                }
                // A slice of a list is a list of its type; of a string, a string.
                let sliced = self.receiver_value(caller, base, language)?;
                match sliced.denotation {
                    Denotation::Wrapped { .. } => Some(sliced),
                    other => Some(Resolved {
                        denotation: self.subscripted_value(&other, language)?,
                        rule: ResolutionRule::TypedReceiver,
                    }),
                }
            }
            Receiver::Tuple(elements) => {
                let elements = elements
                    .iter()
                    .map(|element| {
                        self.receiver_value(caller, element, language)
                            .map_or(Denotation::UntypedLocal, |typed| typed.denotation)
                    })
                    .collect();
                Some(Resolved {
                    denotation: Denotation::Tuple(elements),
                    rule: ResolutionRule::TypedReceiver,
                })
            }
            Receiver::Fields { base, fields } => {
                let mut current = self.receiver_value(caller, base, language)?;
                current.rule = crate::denotation::instance_member_rule(current.rule);
                for field in fields {
                    current = self.member(&current, field, language).ok()?;
                }
                Some(current)
            }
            Receiver::Other => None,
        }
    }

    /// A receiver named by a path: its head (Rust's `self` is an instance of `Self`), then
    /// each member.
    fn path_receiver_value(
        &self,
        caller: Sym,
        path: &[String],
        language: Language,
    ) -> Option<Resolved> {
        let (head, rest) = path.split_first()?;
        let rules = crate::language_rules::rules_of(language);
        let mut current = rules.receiver_head(self, caller, std::slice::from_ref(head))?;
        for segment in rest {
            current = self.member(&current, segment, language).ok()?;
        }
        if !rest.is_empty() {
            current = rules.path_as_value(self, current);
        }
        Some(current)
    }

    fn targets_of(&self, resolved: Resolved, language: Language) -> CallTargets {
        match resolved.denotation {
            Denotation::Symbol(sym) => {
                let symbol = self.index.symbol(sym);
                if symbol.kind.is_type() {
                    let rules = crate::language_rules::rules_of(language);
                    let constructed = rules.constructor(self, sym).unwrap_or(sym);
                    return CallTargets::Project(vec![(constructed, ResolutionRule::Constructor)]);
                }
                if symbol.kind == SymbolKind::Module {
                    return CallTargets::Unresolved(UnresolvedReason::ComplexCallee);
                }
                CallTargets::Project(vec![(sym, resolved.rule)])
            }
            Denotation::Ambiguous(candidates) => {
                // A fan-out of dispatch or of joined values keeps its rule: each target may be
                // called. Otherwise none is picked.
                let rule = match resolved.rule {
                    ResolutionRule::DynamicDispatch | ResolutionRule::ValueFlow => resolved.rule,
                    _ => ResolutionRule::Ambiguous,
                };
                let rule = if candidates.len() == 1 && rule == ResolutionRule::Ambiguous {
                    ResolutionRule::Ambiguous
                } else {
                    rule
                };
                CallTargets::Project(
                    candidates.into_iter().map(|candidate| (candidate, rule)).collect(),
                )
            }
            Denotation::Instance { type_sym, is_dyn, .. } => {
                match self.type_member(
                    type_sym,
                    "__call__",
                    is_dyn,
                    language,
                    crate::denotation::instance_member_rule(resolved.rule),
                ) {
                    Ok(Resolved { denotation: Denotation::Symbol(method), rule }) => {
                        CallTargets::Project(vec![(method, rule)])
                    }
                    Ok(Resolved { denotation: Denotation::Ambiguous(methods), .. }) => {
                        CallTargets::Project(
                            methods
                                .into_iter()
                                .map(|method| (method, ResolutionRule::Ambiguous))
                                .collect(),
                        )
                    }
                    _ => CallTargets::Unresolved(UnresolvedReason::ComplexCallee),
                }
            }
            Denotation::External(path) => CallTargets::Outside {
                qualified_name: path,
                is_builtin: false,
                rule: resolved.rule,
            },
            Denotation::Builtin(path) => {
                let separator = crate::language_rules::rules_of(language).separator();
                CallTargets::Outside {
                    qualified_name: format!("<builtin>{separator}{path}"),
                    is_builtin: true,
                    rule: resolved.rule,
                }
            }
            Denotation::Namespace(_) | Denotation::Wrapped { .. } | Denotation::Tuple(_) => {
                CallTargets::Unresolved(UnresolvedReason::ComplexCallee)
            }
            // Calling a parameter or local (a callback): its value is not visible, and it may
            // be any function used as a value anywhere.
            Denotation::UntypedLocal => CallTargets::Unresolved(UnresolvedReason::ValueCall),
        }
    }

    fn unresolved_or_guess(
        &self,
        call: &CallSite,
        reason: UnresolvedReason,
        language: Language,
    ) -> CallTargets {
        // A call through a value may reach any function used as a value, whatever its name.
        // (`<T as Trait>::m()` is a path tether does not read, not a value.)
        let qualified_path = call.text.starts_with('<');
        if reason == UnresolvedReason::ValueCall
            || matches!(call.callee, CalleeExpr::Other | CalleeExpr::Indexed(_))
                && reason == UnresolvedReason::ComplexCallee
                && !qualified_path
        {
            return CallTargets::Unresolved(UnresolvedReason::ValueCall);
        }
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
                .map(|candidates| {
                    candidates
                        .iter()
                        .copied()
                        .filter(|sym| self.index.symbol(*sym).language == language)
                        .collect()
                })
                .unwrap_or_default();
            if !candidates.is_empty() && candidates.len() <= MAX_NAME_ONLY_CANDIDATES {
                return CallTargets::Project(
                    candidates
                        .into_iter()
                        .map(|candidate| (candidate, ResolutionRule::NameOnly))
                        .collect(),
                );
            }
        }
        CallTargets::Unresolved(reason)
    }
}

/// The name a call's text ends with, for a callee tether keeps no structure of
/// (`<T as Trait>::method` → `method`, `Vec::<u8>::new` → `new`).
pub(crate) fn name_from_text(text: &str) -> String {
    let mut text = text.trim();
    // Drop a trailing turbofish (`::<T>`).
    while let Some(stripped) = text.strip_suffix('>') {
        let Some(open) = stripped.rfind("::<") else { break };
        text = &text[..open];
    }
    let last = text.rsplit([':', '.', '>']).next().unwrap_or(text).trim();
    if last.chars().all(|character| character.is_alphanumeric() || character == '_') {
        last.to_string()
    } else {
        String::new()
    }
}

/// The name a callee would target: the last segment of its path or its method name.
pub(crate) fn callee_name(callee: &CalleeExpr) -> Option<&str> {
    match callee {
        CalleeExpr::Path(path) | CalleeExpr::Macro(path) => path.last().map(String::as_str),
        CalleeExpr::Method { name, .. }
        | CalleeExpr::TraitPath { name, .. }
        | CalleeExpr::TraitMethod { name, .. } => Some(name.as_str()),
        CalleeExpr::Indexed(path) => path.last().map(String::as_str),
        CalleeExpr::Returned(_)
        | CalleeExpr::FieldValue { .. }
        | CalleeExpr::Alternatives(_)
        | CalleeExpr::Value(_)
        | CalleeExpr::Other => None,
    }
}

/// An indexed callee's path without its literal key segment (`StashKey["LogXML"]` is the
/// generic class `StashKey`).
pub(crate) fn without_literal_key(path: &[String]) -> &[String] {
    match path.split_last() {
        Some((key, base)) if key.starts_with('[') => base,
        _ => path,
    }
}
