//! Python names used as values: a function, method or class passed as an argument, assigned
//! or stored (`self.cb = handler`, `table = {"a": f}`), returned or yielded, a parameter's
//! default, or iterated by a loop. Whoever receives such a value may call it where no call
//! expression names it; the resolver turns the names that denote project callables into REFERENCES edges, and answers
//! about them say so (`escaped_value`). Calls, lambdas and literals are not names and are
//! skipped; containers and conditional expressions are looked into, a few levels deep.

use tether_model::{CallSite, CalleeExpr, FileFacts};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::{dotted_path, shorten, value_receiver};
use crate::python_name_lists::PythonNameList;

/// How far into nested containers (`[(f, g)]`) names are looked for.
const MAX_CONTAINER_DEPTH: u32 = 3;

/// Records the names used as values in one captured node: an assignment's right side, a
/// return or yield value, a parameter default, or a call's arguments.
pub(crate) fn lower_value_positions(
    node: Node<'_>,
    scopes: &ScopeStack<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    let scope = scopes.innermost_named().id;
    match node.kind() {
        "assignment" | "augmented_assignment" => {
            if let Some(right) = field_child!(node, "right") {
                record_values(right, scope, source, facts, 0, None);
            }
        }
        // What a loop iterates: `for step in [fetch, build]` binds the loop variable to each
        // name (python_bindings), so its calls are edges and the names stay followed; any
        // other iterable's names (`[fetch] + extra`, `(a, *rest)`) are values that may be
        // called through the loop variable.
        "for_statement" | "for_in_clause" => {
            let Some(right) = field_child!(node, "right") else { return };
            if crate::python_bindings::literal_of_names(right, source).is_none() {
                record_values(right, scope, source, facts, 0, None);
            }
        }
        "return_statement" | "yield" => {
            for child in node.named_children(&mut node.walk()) {
                record_values(child, scope, source, facts, 0, None);
            }
        }
        "default_parameter" | "typed_default_parameter" => {
            if let Some(value) = field_child!(node, "value") {
                // A default is evaluated where the function is defined.
                let scope =
                    scopes.enclosing_of_innermost_named().map_or(scope, |enclosing| enclosing.id);
                record_values(value, scope, source, facts, 0, None);
            }
        }
        // Class bases are supertypes, not values; a call's arguments are values, except those
        // a higher-order call already records as called (`map(f, xs)`). A callback handed to
        // any other call (`Option(callback=f)`, `Thread(target=f)`) is recorded as called
        // there and is a value too: it is called again later, by whoever keeps it.
        "argument_list" if node.parent().is_some_and(|parent| parent.kind() == "call") => {
            let function_name = node
                .parent()
                .and_then(|call| field_child!(call, "function"))
                .and_then(|function| dotted_path(function, source))
                .and_then(|path| path.last().cloned());
            if function_name
                .as_deref()
                .is_some_and(|name| PythonNameList::NonCallingFunctions.contains(name))
            {
                return;
            }
            // `setattr(obj, "name", value)` stores `value` as `obj.name = value` would: a value
            // kept, not one handed to outside code.
            if function_name.as_deref() == Some("setattr") {
                if let Some(value) = crate::python::positional_arguments(node).get(2) {
                    record_values(*value, scope, source, facts, 0, None);
                }
                return;
            }
            let is_higher_order = function_name
                .as_deref()
                .is_some_and(|name| PythonNameList::HigherOrderFunctions.contains(name));
            let called =
                if is_higher_order { called_argument_bytes(node, facts) } else { Vec::new() };
            // The receiving call, by its line and callee text (as its call site records them).
            let call = node.parent().and_then(|call| {
                Some((line_of(call), shorten(text_of(field_child!(call, "function")?, source))))
            });
            let call = call.as_ref().map(|(line, text)| (*line, text.as_str()));
            for argument in node.named_children(&mut node.walk()) {
                let value = match argument.kind() {
                    "keyword_argument" => field_child!(argument, "value"),
                    "list_splat" | "dictionary_splat" => None,
                    _ => Some(argument),
                };
                if let Some(value) =
                    value.filter(|value| !called.contains(&(value.start_byte() as u32)))
                {
                    record_values(value, scope, source, facts, 0, call);
                }
            }
        }
        _ => {}
    }
}

/// The bytes of this call's arguments that `record_function_references` recorded as called.
fn called_argument_bytes(arguments: Node<'_>, facts: &FileFacts) -> Vec<u32> {
    let (start, end) = (arguments.start_byte() as u32, arguments.end_byte() as u32);
    facts
        .function_references
        .iter()
        .rev()
        .take_while(|reference| reference.byte >= start)
        .filter(|reference| reference.byte < end)
        .map(|reference| reference.byte)
        .collect()
}

/// `call`: for a call's arguments, the call's line and callee text, so an escape into an
/// outside call is matched with the call's edge however the arguments wrap.
fn record_values(
    value: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
    depth: u32,
    call: Option<(u32, &str)>,
) {
    match value.kind() {
        "identifier" | "attribute" => {
            // `None`, `True` and friends are keywords in the grammar; `self.x` may hold a
            // function as well as anything else: the resolver decides.
            let callee = match dotted_path(value, source) {
                Some(path) => CalleeExpr::Path(path),
                // `machine.get_state(name).exit`: a method of a value no path names.
                None => match (field_child!(value, "object"), field_child!(value, "attribute")) {
                    (Some(object), Some(attribute)) => CalleeExpr::Method {
                        receiver: value_receiver(object, source),
                        name: text_of(attribute, source).to_string(),
                    },
                    _ => return,
                },
            };
            let (line, text) = call.map_or_else(
                || (line_of(value), String::new()),
                |(line, text)| (line, text.to_string()),
            );
            facts.value_references.push(CallSite {
                caller: scope,
                callee,
                line,
                byte: value.start_byte() as u32,
                text,
            });
        }
        // Containers, `handler if debug else other`, `a or b`, and the concatenations and
        // merges of containers (`BASE_STEPS + [extra]`, `HOOKS | {"b": f}`).
        _ if depth < MAX_CONTAINER_DEPTH && holds_its_elements_as_values(value, source) => {
            for element in value.named_children(&mut value.walk()) {
                record_values(element, scope, source, facts, depth + 1, call);
            }
        }
        "dictionary" if depth < MAX_CONTAINER_DEPTH => {
            for pair in value.named_children(&mut value.walk()).filter(|pair| pair.kind() == "pair")
            {
                if let Some(element) = field_child!(pair, "value") {
                    record_values(element, scope, source, facts, depth + 1, call);
                }
            }
        }
        _ => {}
    }
}

/// Whether an expression's value is made of its named children's values: a list, tuple or
/// set, a conditional or `or`, a `+` or `|` (arithmetic is not looked into).
fn holds_its_elements_as_values(value: Node<'_>, source: &str) -> bool {
    match value.kind() {
        "list"
        | "tuple"
        | "set"
        | "expression_list"
        | "parenthesized_expression"
        | "pattern_list"
        | "conditional_expression"
        | "boolean_operator" => true,
        "binary_operator" => field_child!(value, "operator")
            .is_some_and(|operator| matches!(text_of(operator, source), "+" | "|")),
        _ => false,
    }
}
