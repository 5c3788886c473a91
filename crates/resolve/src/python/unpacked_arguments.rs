//! Python's `*args` and `**kwargs` in value flow: where a positional argument past the named
//! parameters, or a keyword no parameter takes, lands (`Slot::Rest` by index and "any",
//! `Slot::Keyword` by name); the calls of their elements (`args[0]()`, `kwargs["final"]()`,
//! `for f in args: f()`); and what `g(*args, **kwargs)` forwards into `g`'s parameters.
//!
//! It deliberately does not forward `**kwargs` into another `**kwargs` (the names are not
//! known), nor follow more than [`MAX_UNPACKED_POSITIONS`] elements of an unpacked `*args`, nor
//! unpack a literal list or dict.

use tether_model::{ArgumentForm, CallArgument, CallSite, Parameter, ParameterKind, SymbolId};

use crate::argument_slots::{positional_slots, takes_keyword};
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_flow::{ArgumentFlow, FlowValue, ParameterCall, Slot};

/// Elements of a forwarded `*args` followed (`f(*args)` passes `args[0]`… on).
const MAX_UNPACKED_POSITIONS: u32 = 8;

impl Resolver<'_> {
    /// The parameter `name` of `function`.
    pub(crate) fn parameter_named(&self, function: Sym, name: &str) -> Option<&Parameter> {
        let parameters = self.index.parameters_by_function.get(&function)?;
        parameters.iter().copied().find(|parameter| parameter.name == name)
    }

    /// `args[0]()`, `kwargs["final"]()`: an element of a `*args` or an entry of a `**kwargs`
    /// of the caller (or of a function it closes over).
    pub(crate) fn unpacked_element_call(
        &self,
        caller: Sym,
        call: &CallSite,
        path: &[String],
    ) -> Option<ParameterCall> {
        let [name, key] = path else { return None };
        let (function, _) = self.closed_over_parameter(caller, name)?;
        let kind = self.parameter_named(function, name)?.kind;
        let function = self.index.symbol(function).id;
        let key = key.strip_prefix('[')?.strip_suffix(']')?;
        let slot = match kind {
            ParameterKind::VarPositional => Slot::Rest { function, index: Some(key.parse().ok()?) },
            ParameterKind::VarKeyword => Slot::Keyword {
                function,
                name: key.strip_prefix('"')?.strip_suffix('"')?.to_string(),
            },
            _ => return None,
        };
        Some(ParameterCall { caller: call.caller, slot, line: call.line, method: None })
    }

    /// `for hook in hooks: hook()` with `*hooks` a parameter: any element of it is called.
    pub(crate) fn rest_element_call(
        &self,
        caller: Sym,
        call: &CallSite,
        name: &str,
    ) -> Option<ParameterCall> {
        let bindings = self.index.bindings_named(caller, name)?;
        let mut rest = None;
        for binding in bindings {
            let tether_model::BindingValue::ElementOf(tether_model::Receiver::Path(iterated)) =
                &binding.value
            else {
                return None;
            };
            let [iterated] = iterated.as_slice() else { return None };
            let (function, _) = self.closed_over_parameter(caller, iterated)?;
            if self.parameter_named(function, iterated)?.kind != ParameterKind::VarPositional {
                return None;
            }
            let function = self.index.symbol(function).id;
            if rest.is_some_and(|known| known != function) {
                return None;
            }
            rest = Some(function);
        }
        Some(ParameterCall {
            caller: call.caller,
            slot: Slot::Rest { function: rest?, index: None },
            line: call.line,
            method: None,
        })
    }

    /// What `f(*args)` and `f(**kwargs)` forward from the caller's own `*args`/`**kwargs`
    /// into `f`'s parameters: `args[k]` lands where a positional argument at the unpacking's
    /// position plus `k` would, and `kwargs[name]` in `f`'s parameter of that name.
    pub(crate) fn unpacked_argument_flows(
        &self,
        caller: Sym,
        argument: &CallArgument,
        function: SymbolId,
        parameters: &[&Parameter],
        offset: u32,
    ) -> Vec<ArgumentFlow> {
        let [name] = argument.path.as_slice() else { return Vec::new() };
        let Some((holder, _)) = self.closed_over_parameter(caller, name) else {
            return Vec::new();
        };
        let Some(kind) = self.parameter_named(holder, name).map(|parameter| parameter.kind) else {
            return Vec::new();
        };
        let holder = self.index.symbol(holder).id;
        let mut flows = Vec::new();
        match (argument.form, kind, argument.position) {
            (ArgumentForm::Unpacked, ParameterKind::VarPositional, Some(position)) => {
                for index in 0..MAX_UNPACKED_POSITIONS {
                    let from = Slot::Rest { function: holder, index: Some(index) };
                    for slot in positional_slots(function, parameters, position + offset + index) {
                        flows
                            .push(ArgumentFlow { slot, value: FlowValue::Forwarded(from.clone()) });
                    }
                }
            }
            (ArgumentForm::UnpackedKeywords, ParameterKind::VarKeyword, _) => {
                for parameter in parameters.iter().filter(|parameter| takes_keyword(parameter)) {
                    let from = Slot::Keyword { function: holder, name: parameter.name.clone() };
                    flows.push(ArgumentFlow {
                        slot: Slot::Parameter { function, position: parameter.position },
                        value: FlowValue::Forwarded(from),
                    });
                }
            }
            _ => {}
        }
        flows
    }
}
