//! Python names used as values: every name (or dotted name) that is not called, defined,
//! imported, assigned to, tested, compared or read through. Whoever receives such a value may
//! call it where no call expression names it (`register(handler)`, `self.cb = cb`,
//! `return inner`, `lambda: step`, `[f for _ in xs]`, `await job`); the resolver turns the names
//! that denote project callables into REFERENCES edges, and answers about them say so
//! (`escaped_value`).
//!
//! The rule is stated as its exceptions, as a type checker treats "unknown": a position this
//! module does not know is a value position, so an idiom nobody wrote a rule for makes answers
//! `lower_bound`, never silently `exact`. The exceptions are the positions where a name's value
//! is consumed on the spot and handed to nobody: a callee, a definition or parameter, an import,
//! a decorator, a target, an annotation or class base, an `except` type, a condition, an
//! operand of `not`, `is` or `==`, the object an attribute or subscript is read from, a
//! discarded expression statement, `del`, `global`, a `case` pattern, `raise C` (a constructor
//! call, see python_implicit_calls.rs) and an f-string's `{x}` (formatted, not called).

use tether_model::{CallSite, CalleeExpr, FileFacts};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::name_lists::PythonNameList;
use crate::python::{dotted_path, shorten, value_receiver};

/// How many enclosing expressions are climbed to find a name's position; deeper than that
/// (machine-written code) the name counts as a value.
const MAX_EXPRESSION_DEPTH: usize = 64;

/// Where a name's value goes.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Position {
    /// Consumed on the spot: called, bound, tested, read through.
    NotValue,
    /// Kept or handed on; for a call's argument, the receiving call's line and callee text, so
    /// the escape is matched with the call's edge however the arguments wrap.
    Value { receiving_call: Option<(u32, String)> },
}

/// Records `node` (an identifier or attribute) as a value reference when its position hands
/// its value on. Only the outermost name of a dotted chain is considered (`a.b.c` as a whole).
pub(crate) fn lower_value_name(
    node: Node<'_>,
    scopes: &ScopeStack<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    // One descent from the root gives every ancestor (`Node::parent` descends once per level).
    let position = crate::ancestors::with_ancestors(node, |ancestors| {
        if ancestors.first().is_some_and(|parent| parent.kind() == "attribute") {
            return Position::NotValue;
        }
        position_of(node, ancestors, source, facts)
    });
    let Position::Value { receiving_call } = position else { return };
    let callee = match dotted_path(node, source) {
        Some(path) => CalleeExpr::Path(path),
        // `machine.get_state(name).exit`: a method of a value no path names.
        None => match (field_child!(node, "object"), field_child!(node, "attribute")) {
            (Some(object), Some(attribute)) => CalleeExpr::Method {
                receiver: value_receiver(object, source),
                name: text_of(attribute, source).to_string(),
            },
            _ => return,
        },
    };
    let (line, text) = receiving_call.unwrap_or_else(|| (line_of(node), String::new()));
    facts.value_references.push(CallSite {
        caller: crate::python::caller_scope(node, scopes),
        callee,
        line,
        byte: node.start_byte() as u32,
        text,
    });
}

/// Climbs from `name` (its `ancestors` innermost first) through the expressions that hold
/// their parts as values (containers, operators, conditionals, splats, comprehension bodies)
/// to the construct that decides.
fn position_of(
    name: Node<'_>,
    ancestors: &[Node<'_>],
    source: &str,
    facts: &FileFacts,
) -> Position {
    let value = Position::Value { receiving_call: None };
    let mut child = name;
    for (level, parent) in ancestors.iter().copied().enumerate().take(MAX_EXPRESSION_DEPTH) {
        let is_field = |field: Option<Node<'_>>| field.is_some_and(|node| node.id() == child.id());
        match parent.kind() {
            "list"
            | "tuple"
            | "set"
            | "dictionary"
            | "pair"
            | "expression_list"
            | "parenthesized_expression"
            | "boolean_operator"
            | "binary_operator"
            | "unary_operator"
            | "list_splat"
            | "dictionary_splat"
            | "parenthesized_list_splat"
            | "list_comprehension"
            | "set_comprehension"
            | "dictionary_comprehension"
            | "generator_expression"
            | "as_pattern"
            | "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "list_splat_pattern"
            | "dictionary_splat_pattern" => {}
            "conditional_expression" => {
                // `a if test else b`: the test is consumed.
                if parent.named_child(1).is_some_and(|test| test.id() == child.id()) {
                    return Position::NotValue;
                }
            }
            "keyword_argument" => {
                if is_field(field_child!(parent, "name")) {
                    return Position::NotValue;
                }
            }
            "argument_list" => {
                let call = ancestors.get(level + 1).copied();
                return argument_position(parent, call, child, name, source, facts);
            }
            "call" => {
                // A callee named outright is a call; one computed (`(a or b)()`) may be anything.
                let is_callee = is_field(field_child!(parent, "function"));
                return if is_callee && child.id() == name.id() {
                    Position::NotValue
                } else {
                    value
                };
            }
            "subscript" => {
                let outer = ancestors.get(level + 1..).unwrap_or_default();
                if is_field(field_child!(parent, "value")) || is_inside_annotation(outer) {
                    return Position::NotValue;
                }
                return value;
            }
            "assignment" | "augmented_assignment" => {
                return if is_field(field_child!(parent, "right")) {
                    value
                } else {
                    Position::NotValue
                };
            }
            "named_expression" => {
                return if is_field(field_child!(parent, "value")) {
                    value
                } else {
                    Position::NotValue
                };
            }
            "default_parameter" | "typed_default_parameter" => {
                return if is_field(field_child!(parent, "value")) {
                    value
                } else {
                    Position::NotValue
                };
            }
            // `for step in [fetch, build]` binds the loop variable to each name
            // (python_bindings), so its calls are edges and the names stay followed; any other
            // iterable's names (`[fetch] + extra`) may be called through the loop variable.
            "for_statement" | "for_in_clause" => {
                let is_iterable = is_field(field_child!(parent, "right"));
                let binds_each = crate::python::bindings::literal_of_names(child, source).is_some();
                return if is_iterable && !binds_each { value } else { Position::NotValue };
            }
            "raise_statement" => {
                // `raise C` calls `C()`; `raise e from cause` keeps `cause`.
                return if is_field(field_child!(parent, "cause")) {
                    value
                } else {
                    Position::NotValue
                };
            }
            "attribute"
            | "function_definition"
            | "class_definition"
            | "parameters"
            | "lambda_parameters"
            | "typed_parameter"
            | "type"
            | "type_parameter"
            | "type_alias_statement"
            | "decorator"
            | "import_statement"
            | "import_from_statement"
            | "future_import_statement"
            | "aliased_import"
            | "dotted_name"
            | "relative_import"
            | "global_statement"
            | "nonlocal_statement"
            | "delete_statement"
            | "with_item"
            | "as_pattern_target"
            | "except_clause"
            | "except_group_clause"
            | "if_statement"
            | "elif_clause"
            | "while_statement"
            | "if_clause"
            | "assert_statement"
            | "not_operator"
            | "comparison_operator"
            | "expression_statement"
            | "interpolation"
            | "match_statement"
            | "case_clause"
            | "case_pattern"
            | "class_pattern"
            | "keyword_pattern"
            | "splat_pattern"
            | "dict_pattern"
            | "union_pattern" => return Position::NotValue,
            // Returned, yielded, awaited, a lambda's body, an index, a slice, and every
            // construct not named above.
            _ => return value,
        }
        child = parent;
    }
    value
}

/// A call's argument: a value handed to the call, except what only inspects it
/// (`isinstance(x, C)`), what a higher-order call is known to call (`map(f, xs)`, recorded as
/// called), and class bases (supertypes, not values).
fn argument_position(
    arguments: Node<'_>,
    call: Option<Node<'_>>,
    argument: Node<'_>,
    name: Node<'_>,
    source: &str,
    facts: &FileFacts,
) -> Position {
    let Some(function) = call
        .filter(|parent| parent.kind() == "call")
        .and_then(|call| field_child!(call, "function"))
    else {
        return Position::NotValue;
    };
    let function_name = dotted_path(function, source).and_then(|path| path.last().cloned());
    let function_name = function_name.as_deref();
    // `cast(T, value)` returns `value` itself: it goes wherever the call's value goes
    // (`return cast(C, inner)` hands `inner` on), a value kept as `return inner` would be.
    // The type argument is only read.
    if function_name == Some("cast") {
        let is_value = crate::python::positional_arguments(arguments)
            .get(1)
            .is_some_and(|value| value.id() == argument.id())
            || keyword_name(argument, source) == Some("val");
        if is_value {
            return Position::Value { receiving_call: None };
        }
    }
    if function_name.is_some_and(|name| PythonNameList::NonCallingFunctions.contains(name)) {
        return Position::NotValue;
    }
    // `setattr(obj, "name", value)` stores `value` as `obj.name = value` would: a value kept,
    // not one handed to outside code.
    if function_name == Some("setattr") {
        let is_stored = crate::python::positional_arguments(arguments)
            .get(2)
            .is_some_and(|stored| stored.id() == argument.id());
        return if is_stored {
            Position::Value { receiving_call: None }
        } else {
            Position::NotValue
        };
    }
    // A callback handed to any other call (`Option(callback=f)`, `Thread(target=f)`) is a value
    // too: it is called again later, by whoever keeps it.
    if function_name.is_some_and(|name| PythonNameList::HigherOrderFunctions.contains(name))
        && was_recorded_as_called(arguments, name, facts)
    {
        return Position::NotValue;
    }
    Position::Value {
        receiving_call: Some((line_of(function), shorten(text_of(function, source)))),
    }
}

/// Whether `record_function_references` recorded `name`, in this call's arguments, as called.
fn was_recorded_as_called(arguments: Node<'_>, name: Node<'_>, facts: &FileFacts) -> bool {
    let start = arguments.start_byte() as u32;
    facts
        .function_references
        .iter()
        .rev()
        .take_while(|reference| reference.byte >= start)
        .any(|reference| reference.byte == name.start_byte() as u32)
}

/// Whether an expression lies in an annotation (`x: dict[str, Handler]`), from the
/// expressions around it (`enclosing`, innermost first).
fn is_inside_annotation(enclosing: &[Node<'_>]) -> bool {
    for ancestor in enclosing.iter().take(MAX_EXPRESSION_DEPTH) {
        match ancestor.kind() {
            "type" => return true,
            "subscript"
            | "attribute"
            | "tuple"
            | "list"
            | "binary_operator"
            | "generic_type"
            | "union_type"
            | "parenthesized_expression" => {}
            _ => return false,
        }
    }
    false
}

/// The keyword of a `keyword_argument` (`val` of `val=x`).
fn keyword_name<'source>(argument: Node<'_>, source: &'source str) -> Option<&'source str> {
    (argument.kind() == "keyword_argument")
        .then(|| field_child!(argument, "name"))
        .flatten()
        .map(|name| text_of(name, source))
}
