//! Python builtins whose result is made of their arguments' values (`next(gen())`, `map(f,
//! xs)`, `iter(xs)`, `filter(f, xs)`): data in `queries/python/builtin_results.txt`, parsed
//! once (an unknown way is rejected), read where the name denotes the builtin. `next` of a
//! project generator gives its first `yield`; `map` gives what its function returns, and,
//! like `filter`, passes its function each element (value flow into its first parameter).
//!
//! It deliberately reads positional arguments only (`sorted(xs, key=f)` passes `f` nothing
//! here), and a generator's first `yield` only where it runs unconditionally; otherwise
//! `next` gives any element.

use std::sync::OnceLock;

use rustc_hash::FxHashMap as HashMap;
use tether_model::{
    ArgumentForm, Branch, CallArgument, CallSite, CalleeExpr, Language, Receiver, ResolutionRule,
};

use crate::denotation::{Denotation, Resolved};
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_flow::{ArgumentFlow, FlowValue};
use crate::value_types::Wrapper;

const BUILTIN_RESULTS: &str = include_str!("../../../../queries/python/builtin_results.txt");

/// What a builtin gives, by argument positions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BuiltinWay {
    /// The first element of an argument (`next`).
    First(usize),
    /// A list or set of an argument's elements (`iter`, `sorted`, `list`, `set`).
    Elements(usize, Wrapper),
    /// An iterable of what calling `function` returns, each element of `iterable` passed.
    Applied { function: usize, iterable: usize },
    /// An iterable of `iterable`'s elements, each passed to `function` (`filter`).
    Filtered { function: usize, iterable: usize },
    /// An instance of the class an argument names (`typing.cast(Echo, x)`).
    Instance(usize),
    /// The class of an argument's value (`type(self)`), as `cls` is in a classmethod.
    Class(usize),
}

fn parse_builtin_results(text: &str) -> Result<HashMap<String, BuiltinWay>, String> {
    let mut table = HashMap::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let position = |index: usize| -> Result<usize, String> {
            words
                .get(index)
                .and_then(|word| word.parse().ok())
                .ok_or_else(|| format!("line {}: a position is missing", number + 1))
        };
        let way = match words.get(1).copied() {
            Some("first") => BuiltinWay::First(position(2)?),
            Some("elements") => {
                let kind = match words.get(3).copied() {
                    Some("list") => Wrapper::PythonList,
                    Some("set") => Wrapper::PythonSet,
                    other => {
                        return Err(format!(
                            "line {}: unknown kind `{}` (list or set)",
                            number + 1,
                            other.unwrap_or_default()
                        ))
                    }
                };
                BuiltinWay::Elements(position(2)?, kind)
            }
            Some("applied") => {
                BuiltinWay::Applied { function: position(2)?, iterable: position(3)? }
            }
            Some("instance") => BuiltinWay::Instance(position(2)?),
            Some("class") => BuiltinWay::Class(position(2)?),
            Some("filtered") => {
                BuiltinWay::Filtered { function: position(2)?, iterable: position(3)? }
            }
            other => {
                return Err(format!(
                    "line {}: unknown builtin result `{}`",
                    number + 1,
                    other.unwrap_or_default()
                ))
            }
        };
        table.insert(words[0].to_string(), way);
    }
    Ok(table)
}

fn builtin_ways() -> &'static HashMap<String, BuiltinWay> {
    static TABLE: OnceLock<HashMap<String, BuiltinWay>> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse_builtin_results(BUILTIN_RESULTS)
            .unwrap_or_else(|error| panic!("queries/python/builtin_results.txt: {error}"))
    })
}

impl Resolver<'_> {
    /// The value of `name(arguments…)`: what the builtin makes of its arguments, else (a
    /// shadowed name, nothing visible) the call's own result.
    pub(crate) fn builtin_call_value(
        &self,
        caller: Sym,
        name: &str,
        arguments: &[Receiver],
        language: Language,
    ) -> Option<Resolved> {
        let derived = self.builtin_way(caller, name).and_then(|way| match way {
            BuiltinWay::First(at) => self.first_element(caller, arguments.get(at)?, language),
            BuiltinWay::Elements(at, wrapper) => {
                let element = self.element_value(caller, arguments.get(at)?, language)?;
                Some(Denotation::Wrapped { wrapper, inner: Box::new(element) })
            }
            BuiltinWay::Filtered { iterable: at, .. } => {
                let element = self.element_value(caller, arguments.get(at)?, language)?;
                Some(Denotation::Wrapped { wrapper: Wrapper::PythonList, inner: Box::new(element) })
            }
            BuiltinWay::Applied { function, .. } => {
                let Denotation::Symbol(function) =
                    self.receiver_value(caller, arguments.get(function)?, language)?.denotation
                else {
                    return None;
                };
                let returned = self.declared_return_type(function, language)?;
                Some(Denotation::Wrapped {
                    wrapper: Wrapper::PythonList,
                    inner: Box::new(returned),
                })
            }
            BuiltinWay::Instance(at) => {
                match self.receiver_value(caller, arguments.get(at)?, language)?.denotation {
                    Denotation::Symbol(class) if self.index.symbol(class).kind.is_type() => {
                        Some(Denotation::Instance {
                            type_sym: class,
                            is_dyn: false,
                            arguments: Vec::new(),
                        })
                    }
                    _ => None,
                }
            }
            BuiltinWay::Class(at) => {
                match self.receiver_value(caller, arguments.get(at)?, language)?.denotation {
                    Denotation::Instance { type_sym, .. } => Some(Denotation::Symbol(type_sym)),
                    _ => None,
                }
            }
        });
        match derived {
            Some(denotation) => Some(Resolved { denotation, rule: ResolutionRule::TypedReceiver }),
            None => self.receiver_value(
                caller,
                &Receiver::Call(Box::new(CalleeExpr::Path(
                    name.split('.').map(str::to_string).collect(),
                ))),
                language,
            ),
        }
    }

    /// The table's way for what `name` denotes in `caller`, a builtin or an outside function.
    fn builtin_way(&self, caller: Sym, name: &str) -> Option<BuiltinWay> {
        // Most calls name no such builtin: the table is read before any path is resolved.
        let last = name.rsplit('.').next().unwrap_or(name);
        if !builtin_ways().keys().any(|key| key.rsplit('.').next() == Some(last)) {
            return None;
        }
        let path: Vec<String> = name.split('.').map(str::to_string).collect();
        match self.python_path(caller, &path).ok()?.denotation {
            Denotation::Builtin(denoted) | Denotation::External(denoted) => {
                builtin_ways().get(&denoted).copied()
            }
            _ => None,
        }
    }

    /// One element of what a value iterates over.
    fn element_value(
        &self,
        caller: Sym,
        iterated: &Receiver,
        language: Language,
    ) -> Option<Denotation> {
        let iterated = self.receiver_value(caller, iterated, language)?.denotation;
        // Iterating a dict gives its keys, whose type is not kept.
        if matches!(iterated, Denotation::Wrapped { wrapper: Wrapper::PythonDict, .. }) {
            return None;
        }
        let iterated = self.as_std_iterator(&iterated, None).unwrap_or(iterated);
        crate::value_types::element_of(&iterated)
    }

    /// `next(gen())`: the first `yield` of a project generator when it always runs first,
    /// else any element.
    fn first_element(
        &self,
        caller: Sym,
        iterated: &Receiver,
        language: Language,
    ) -> Option<Denotation> {
        if let Receiver::Call(callee) = iterated {
            if let CalleeExpr::Path(path) = &**callee {
                if let Ok(Resolved { denotation: Denotation::Symbol(function), .. }) =
                    self.python_path(caller, path)
                {
                    if let Some(first) = self.first_yield(function) {
                        return Some(first);
                    }
                }
            }
        }
        self.element_value(caller, iterated, language)
    }

    /// What the first `yield` of a generator gives, when it is not in a branch or loop.
    fn first_yield(&self, function: Sym) -> Option<Denotation> {
        let yields = self.index.bindings_named(function, crate::YIELD_BINDING)?;
        let first = yields.iter().min_by_key(|binding| binding.visible_from)?;
        if first.branch != Branch::ALWAYS {
            return None;
        }
        match self.binding_denotation(function, first, Language::Python)? {
            value @ (Denotation::Symbol(_) | Denotation::Ambiguous(_)) => Some(value),
            _ => None,
        }
    }

    /// `map(f, xs)`, `filter(f, xs)`: each element of `xs` flows into `f`'s first parameter.
    pub(crate) fn builtin_argument_flows(
        &self,
        caller: Sym,
        call: &CallSite,
        arguments: &[&CallArgument],
    ) -> Vec<ArgumentFlow> {
        let CalleeExpr::Path(path) = &call.callee else { return Vec::new() };
        let [name] = path.as_slice() else { return Vec::new() };
        let (function, iterable) = match self.builtin_way(caller, name) {
            Some(BuiltinWay::Applied { function, iterable })
            | Some(BuiltinWay::Filtered { function, iterable }) => (function, iterable),
            _ => return Vec::new(),
        };
        let at = |position: usize| {
            arguments.iter().find(|argument| argument.position == Some(position as u32))
        };
        let (Some(function), Some(iterable)) = (at(function), at(iterable)) else {
            return Vec::new();
        };
        let Some(FlowValue::Target(function)) = (function.form == ArgumentForm::Plain)
            .then(|| self.path_value(caller, &function.path, function.byte))
            .flatten()
        else {
            return Vec::new();
        };
        let iterated = match iterable.form {
            ArgumentForm::Plain => Receiver::Path(iterable.path.clone()),
            ArgumentForm::CallResult => {
                Receiver::Call(Box::new(CalleeExpr::Path(iterable.path.clone())))
            }
            _ => return Vec::new(),
        };
        let element = self.context.with_use_position(caller, iterable.byte, || {
            self.element_value(caller, &iterated, Language::Python)
        });
        let elements = match element {
            Some(Denotation::Symbol(sym)) => vec![sym],
            Some(Denotation::Ambiguous(syms)) => syms,
            _ => return Vec::new(),
        };
        let Some(target) = self.index.sym_of(function) else { return Vec::new() };
        let Some(parameters) = self.index.parameters_by_function.get(&target) else {
            return Vec::new();
        };
        let slots = crate::argument_slots::positional_slots(function, parameters, 0);
        let mut flows = Vec::new();
        for element in elements {
            let kind = self.index.symbol(element).kind;
            if !(kind.is_callable() || kind.is_type()) {
                continue;
            }
            for slot in &slots {
                flows.push(ArgumentFlow {
                    slot: slot.clone(),
                    value: FlowValue::Target(self.index.symbol(element).id),
                });
            }
        }
        flows
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_builtin_results, BuiltinWay, BUILTIN_RESULTS};
    use crate::value_types::Wrapper;

    #[test]
    fn the_builtin_table_loads_and_rejects_an_unknown_way() {
        let table = parse_builtin_results(BUILTIN_RESULTS).unwrap();
        assert_eq!(table.get("next"), Some(&BuiltinWay::First(0)));
        assert_eq!(table.get("map"), Some(&BuiltinWay::Applied { function: 0, iterable: 1 }));
        assert_eq!(table.get("set"), Some(&BuiltinWay::Elements(0, Wrapper::PythonSet)));
        let error = parse_builtin_results("zip pairs 0\n").unwrap_err();
        assert_eq!(error, "line 1: unknown builtin result `pairs`");
        let error = parse_builtin_results("deque elements 0 queue\n").unwrap_err();
        assert_eq!(error, "line 1: unknown kind `queue` (list or set)");
    }
}
