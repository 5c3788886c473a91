//! Value flow through parameters: a parameter called as a function (`callback()`, `f(v)`)
//! may call whatever the project's call sites pass for it, by position or keyword, or its
//! default names; a parameter passed on to another function (`run(callback)`) forwards
//! those values, solved to a fixpoint. Each file records what its calls pass
//! ([`ArgumentFlow`]) and its calls of parameters ([`ParameterCall`]) while its calls are
//! resolved (so the per-file cache holds them); the whole project's are joined afterwards.
//!
//! Python's `*args` holds the positional arguments from its position on, element by element
//! (`args[0]()`, and any of them for `for f in args: f()`), and `**kwargs` the keyword
//! arguments no other parameter takes, by name (`kwargs["final"]()`); `f(*args, **kwargs)`
//! forwards them to `f`'s parameters.
//!
//! It deliberately follows only names of functions, methods and classes passed as whole
//! arguments (and, in Python, attributes a method sets to one of its parameters): values
//! built by expressions, stored in containers or other attributes are not followed, nor
//! `**kwargs` forwarded into another `**kwargs`, nor more than 8 elements of an
//! unpacked `*args` (`unpacked_arguments`). The site stays counted unresolved (a caller outside the
//! project may pass anything), so completeness stays honest.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap as HashMap;
use tether_model::{
    ArgumentForm, CallArgument, CallSite, CalleeExpr, Edge, EdgeKind, ResolutionRule, SymbolId,
    SymbolKind,
};

use crate::argument_slots::{keyword_slots, positional_slots};

use crate::denotation::Denotation;
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// Fixpoint rounds for values forwarded from parameter to parameter.
const MAX_FORWARDING_ROUNDS: usize = 8;

/// Where a value may be held and called from: a function's parameter (by position, `self`
/// counted), or a field of a project type (`(self.run)(x)`).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) enum Slot {
    Parameter {
        function: SymbolId,
        position: u32,
    },
    Field {
        owner: SymbolId,
        name: String,
    },
    /// An element of a Python function's `*args`: by index, or any (`None`).
    Rest {
        function: SymbolId,
        index: Option<u32>,
    },
    /// An entry of a Python function's `**kwargs`, by keyword.
    Keyword {
        function: SymbolId,
        name: String,
    },
    /// An element of a Python container: `name` bound in `owner` (a module, function or
    /// class; an attribute as `self.name`), under a literal key or any (`None`).
    Element {
        owner: SymbolId,
        name: String,
        key: Option<String>,
    },
}

/// What flows into a slot: a project function or class, or what another slot holds (the
/// caller's own parameter passed on).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub(crate) enum FlowValue {
    Target(SymbolId),
    /// An instance of a project class (`dispatch(EmailWorker())`): a method called on the
    /// slot (`worker.run()`) is that class's.
    Instance(SymbolId),
    Forwarded(Slot),
}

/// A value flowing into a slot: an argument of a resolved call landing in the callee's
/// parameter, or a function stored into a field.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct ArgumentFlow {
    pub slot: Slot,
    pub value: FlowValue,
}

/// A call of what a slot holds: a function's own parameter (`callback()`), an attribute a
/// method stored one in (`self.on_click()` with `self.on_click = on_click` in `__init__`),
/// or a field (`(self.run)(x)`).
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct ParameterCall {
    /// Where the call is (the edge's source).
    pub caller: SymbolId,
    pub slot: Slot,
    pub line: u32,
    /// A method called on what the slot holds (`worker.run()`), or `None` when it is called.
    pub method: Option<String>,
}

impl Resolver<'_> {
    /// The position of `name` among `function`'s parameters.
    fn parameter_position(&self, function: Sym, name: &str) -> Option<u32> {
        let parameters = self.index.parameters_by_function.get(&function)?;
        parameters
            .iter()
            .find(|parameter| parameter.name == name)
            .map(|parameter| parameter.position)
    }

    /// The nearest function, from `scope` outwards through enclosing functions, with a
    /// parameter called `name`, and its position.
    pub(crate) fn closed_over_parameter(&self, scope: Sym, name: &str) -> Option<(Sym, u32)> {
        let mut current = Some(scope);
        while let Some(function) = current {
            if !self.index.symbol(function).kind.is_callable() {
                return None;
            }
            if let Some(position) = self.parameter_position(function, name) {
                return Some((function, position));
            }
            current = self.index.parent(function);
        }
        None
    }

    /// The calls of parameters an unresolved call may be: the caller's own parameter
    /// (`callback()`), or an attribute a method set to one of its parameters
    /// (`self.on_click()`, `button.on_click()`), through the receiver's class and its bases.
    pub(crate) fn parameter_calls(&self, caller: Sym, call: &CallSite) -> Vec<ParameterCall> {
        if let tether_model::CalleeExpr::FieldValue { receiver, field } = &call.callee {
            return self.field_call(caller, call, receiver, field).into_iter().collect();
        }
        if let CalleeExpr::Indexed(path) = &call.callee {
            return match self.unpacked_element_call(caller, call, path) {
                Some(call) => vec![call],
                None => self.indexed_element_call(caller, call, path).into_iter().collect(),
            };
        }
        let CalleeExpr::Path(path) = &call.callee else { return Vec::new() };
        let mut calls =
            self.parameter_method_call(caller, call, path).into_iter().collect::<Vec<_>>();
        calls.extend(self.path_parameter_calls(caller, call, path));
        calls
    }

    /// `worker.run(job)`: a method of the instances callers pass for the parameter `worker`.
    fn parameter_method_call(
        &self,
        caller: Sym,
        call: &CallSite,
        path: &[String],
    ) -> Option<ParameterCall> {
        let [name, method] = path else { return None };
        if name == "self" || name == "cls" || !self.index.names.contains(method.as_str()) {
            return None;
        }
        let (function, position) = self.closed_over_parameter(caller, name)?;
        Some(ParameterCall {
            caller: call.caller,
            slot: Slot::Parameter { function: self.index.symbol(function).id, position },
            line: call.line,
            method: Some(method.clone()),
        })
    }

    /// The calls of parameters a called path may be (see [`Self::parameter_calls`]).
    fn path_parameter_calls(
        &self,
        caller: Sym,
        call: &CallSite,
        path: &[String],
    ) -> Vec<ParameterCall> {
        if let [name] = path {
            if let Some(call) = self.rest_element_call(caller, call, name) {
                return vec![call];
            }
            if let Some(call) = self.iterated_element_call(caller, call, name) {
                return vec![call];
            }
        }
        let parameter_call = |function: Sym, position| ParameterCall {
            caller: call.caller,
            slot: Slot::Parameter { function: self.index.symbol(function).id, position },
            line: call.line,
            method: None,
        };
        let rules = crate::language_rules::rules_of(self.index.symbol(caller).language);
        match path {
            // The caller's own parameter, or one of an enclosing function it closes over
            // (`def make(src): def inner(): return src()`).
            [name] => self
                .closed_over_parameter(caller, name)
                .map(|(function, position)| parameter_call(function, position))
                .into_iter()
                .collect(),
            // (Rust calls a field's function as `(self.f)(x)`, another callee shape.)
            [receiver @ .., attribute]
                if !receiver.is_empty()
                    && rules.paths_read_attributes()
                    && self.index.attribute_parameter_names.contains(attribute.as_str()) =>
            {
                let resolved = self.context.with_use_position(caller, call.byte, || {
                    rules.path_in(self, caller, receiver, BindingUse::Allowed)
                });
                let Ok(Denotation::Instance { type_sym, .. }) =
                    resolved.map(|resolved| resolved.denotation)
                else {
                    return Vec::new();
                };
                let mut calls = Vec::new();
                for class in self.linearization(type_sym) {
                    let Some(setters) =
                        self.index.attribute_parameters.get(&(class, attribute.as_str()))
                    else {
                        continue;
                    };
                    for (method, parameter) in setters {
                        if let Some(position) = self.parameter_position(*method, parameter) {
                            calls.push(parameter_call(*method, position));
                        }
                    }
                }
                calls
            }
            _ => Vec::new(),
        }
    }

    /// A call of what a field of the receiver's project type holds (`(self.run)(x)`).
    fn field_call(
        &self,
        caller: Sym,
        call: &CallSite,
        receiver: &tether_model::Receiver,
        field: &str,
    ) -> Option<ParameterCall> {
        let language = self.index.symbol(caller).language;
        let value = self.context.with_use_position(caller, call.byte, || {
            self.receiver_value(caller, receiver, language)
        })?;
        let Denotation::Instance { type_sym, is_dyn: false, .. } = value.denotation else {
            return None;
        };
        let owner = self.index.symbol(type_sym).id;
        Some(ParameterCall {
            caller: call.caller,
            slot: Slot::Field { owner, name: field.to_string() },
            line: call.line,
            method: None,
        })
    }

    /// What a file stores into fields of project types: each store's type and the project
    /// function (or class) stored.
    pub(crate) fn field_store_flows(&self, file: &tether_model::FileFacts) -> Vec<ArgumentFlow> {
        let mut flows = Vec::new();
        for store in &file.field_stores {
            let Some(scope) = self.index.sym_of(store.scope) else { continue };
            let language = self.index.symbol(scope).language;
            let owner = self.context.with_use_position(scope, store.byte, || match &store.owner {
                tether_model::FieldOwner::Literal(path) => self.literal_type(scope, path),
                tether_model::FieldOwner::Value(receiver) => {
                    match self.receiver_value(scope, receiver, language)?.denotation {
                        Denotation::Instance { type_sym, is_dyn: false, .. } => Some(type_sym),
                        _ => None,
                    }
                }
            });
            let Some(owner) = owner else { continue };
            let Some(target) = self.named_value(scope, &store.value, store.byte) else { continue };
            flows.push(ArgumentFlow {
                slot: Slot::Field { owner: self.index.symbol(owner).id, name: store.field.clone() },
                value: FlowValue::Target(target),
            });
        }
        flows
    }

    /// The project type a struct literal (`Command { … }`, `Self { … }`) builds.
    fn literal_type(&self, scope: Sym, path: &[String]) -> Option<Sym> {
        let resolved = crate::language_rules::rules_of(self.index.symbol(scope).language)
            .called_path(self, scope, path, BindingUse::Forbidden)
            .ok()?;
        match resolved.denotation {
            Denotation::Symbol(sym) if self.index.symbol(sym).kind.is_type() => Some(sym),
            _ => None,
        }
    }

    /// Where each argument of a call bound to `targets` lands, and what it passes.
    pub(crate) fn argument_flows(
        &self,
        caller: Sym,
        arguments: &[&CallArgument],
        targets: &[(Sym, ResolutionRule)],
    ) -> Vec<ArgumentFlow> {
        let mut flows = Vec::new();
        for (target, rule) in targets {
            let Some(parameters) = self.index.parameters_by_function.get(target) else { continue };
            // A method called on an instance (or a class called, through `__init__`) receives
            // `self` first; one called on its class (`Runner.go(r, f)`) is passed it.
            let takes_self = parameters
                .first()
                .is_some_and(|first| matches!(first.name.as_str(), "self" | "cls"));
            let bound = matches!(
                rule,
                ResolutionRule::TypedReceiver
                    | ResolutionRule::SelfMethod
                    | ResolutionRule::Constructor
                    | ResolutionRule::DynamicDispatch
            );
            let offset = u32::from(takes_self && bound);
            let function = self.index.symbol(*target).id;
            for argument in arguments {
                match argument.form {
                    ArgumentForm::Unpacked | ArgumentForm::UnpackedKeywords => {
                        flows.extend(self.unpacked_argument_flows(
                            caller, argument, function, parameters, offset,
                        ));
                        continue;
                    }
                    ArgumentForm::Plain
                    | ArgumentForm::Dereferenced
                    | ArgumentForm::Decorated
                    | ArgumentForm::CallResult => {}
                }
                let slots = match (&argument.keyword, argument.position) {
                    (Some(keyword), _) => keyword_slots(function, parameters, keyword),
                    (None, Some(position)) => {
                        positional_slots(function, parameters, position + offset)
                    }
                    (None, None) => Vec::new(),
                };
                if slots.is_empty() {
                    continue;
                }
                if let Some(value) = self.argument_value(caller, argument) {
                    for slot in slots {
                        flows.push(ArgumentFlow { slot, value: value.clone() });
                    }
                }
            }
        }
        flows
    }

    /// What an argument names: the caller's own parameter, or a project function or class (a
    /// Rust function item or associated function).
    fn argument_value(&self, caller: Sym, argument: &CallArgument) -> Option<FlowValue> {
        // The function a decorator receives is the one defined, not what its name denotes
        // once decorated.
        if let (ArgumentForm::Decorated, [name]) = (argument.form, argument.path.as_slice()) {
            return self.index.children_named(caller, name).iter().copied().find_map(|child| {
                let kind = self.index.symbol(child).kind;
                (kind.is_callable() || kind.is_type())
                    .then(|| FlowValue::Target(self.index.symbol(child).id))
            });
        }
        if argument.form == ArgumentForm::CallResult {
            let class = self.named_value(caller, &argument.path, argument.byte)?;
            let kind = self.index.symbol(self.index.sym_of(class)?).kind;
            return (kind == SymbolKind::Class).then_some(FlowValue::Instance(class));
        }
        self.path_value(caller, &argument.path, argument.byte)
    }

    /// What a path passed or stored at `byte` names: the scope's own parameter (or one of an
    /// enclosing function it closes over), or a project function or class.
    pub(crate) fn path_value(&self, scope: Sym, path: &[String], byte: u32) -> Option<FlowValue> {
        if let [name] = path {
            if let Some((function, position)) = self.closed_over_parameter(scope, name) {
                let function = self.index.symbol(function).id;
                return Some(FlowValue::Forwarded(Slot::Parameter { function, position }));
            }
        }
        self.named_value(scope, path, byte).map(FlowValue::Target)
    }

    /// The project function, method or class a path names in `scope` at `byte`.
    fn named_value(&self, scope: Sym, path: &[String], byte: u32) -> Option<SymbolId> {
        let rules = crate::language_rules::rules_of(self.index.symbol(scope).language);
        let resolved = self
            .context
            .with_use_position(scope, byte, || rules.value_path(self, scope, path))
            .ok()?;
        let Denotation::Symbol(sym) = resolved.denotation else { return None };
        let kind = self.index.symbol(sym).kind;
        (kind.is_callable() || kind.is_type()).then(|| self.index.symbol(sym).id)
    }

    /// The CALLS edges of every call of a parameter, to what flows into it.
    pub(crate) fn value_flow_edges(
        &self,
        flows: &[ArgumentFlow],
        calls: &[ParameterCall],
    ) -> Vec<Edge> {
        if calls.is_empty() {
            return Vec::new();
        }
        let mut values: HashMap<Slot, BTreeSet<FlowValue>> = HashMap::default();
        for flow in flows {
            values.entry(flow.slot.clone()).or_default().insert(flow.value.clone());
        }
        self.add_default_values(&mut values, calls);
        let targets = forwarded_targets(&values);
        let mut edges = Vec::new();
        for call in calls {
            for held in crate::argument_slots::slot_targets(&targets, &call.slot) {
                let Some(target) = self.called_on_held(&held, call.method.as_deref()) else {
                    continue;
                };
                edges.push(Edge {
                    kind: EdgeKind::Calls,
                    source: call.caller,
                    target,
                    line: call.line,
                    confidence: ResolutionRule::ValueFlow.confidence(),
                    rule: ResolutionRule::ValueFlow,
                });
            }
        }
        edges
    }

    /// The defaults of the called parameters that name a function or class.
    fn add_default_values(
        &self,
        values: &mut HashMap<Slot, BTreeSet<FlowValue>>,
        calls: &[ParameterCall],
    ) {
        for call in calls {
            let Slot::Parameter { function: function_id, position } = &call.slot else { continue };
            let Some(function) = self.index.sym_of(*function_id) else { continue };
            let Some(parameters) = self.index.parameters_by_function.get(&function) else {
                continue;
            };
            let Some((path, byte)) = parameters
                .iter()
                .find(|parameter| parameter.position == *position)
                .and_then(|parameter| parameter.default.as_ref())
            else {
                continue;
            };
            // A default is evaluated where the function is defined.
            let scope = self.index.parent(function).unwrap_or(function);
            if let Some(target) = self.named_value(scope, path, *byte) {
                values.entry(call.slot.clone()).or_default().insert(FlowValue::Target(target));
            }
        }
    }
}

/// Each slot's targets: what flows in directly, and what flows into the slots forwarded to
/// it, to a fixpoint.
fn forwarded_targets(
    values: &HashMap<Slot, BTreeSet<FlowValue>>,
) -> BTreeMap<Slot, BTreeSet<FlowValue>> {
    let mut targets: BTreeMap<Slot, BTreeSet<FlowValue>> = BTreeMap::new();
    for (slot, flowing) in values {
        for value in flowing {
            if !matches!(value, FlowValue::Forwarded(_)) {
                targets.entry(slot.clone()).or_default().insert(value.clone());
            }
        }
    }
    for _ in 0..MAX_FORWARDING_ROUNDS {
        let mut changed = false;
        for (slot, flowing) in values {
            for value in flowing {
                let FlowValue::Forwarded(from) = value else { continue };
                let Some(forwarded) = targets.get(from).cloned() else { continue };
                let entry = targets.entry(slot.clone()).or_default();
                for target in forwarded {
                    changed |= entry.insert(target);
                }
            }
        }
        if !changed {
            break;
        }
    }
    targets
}
