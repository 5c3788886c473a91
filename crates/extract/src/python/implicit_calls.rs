//! Python constructs that run methods with no call expression. Each becomes an implicit call
//! site (`FileFacts::implicit_calls`) on the operand's receiver, resolved like a method call;
//! only those bound to project methods become edges (a builtin's `__iter__` is no news):
//!
//! - `with x:` calls `x.__enter__()` and `x.__exit__()` (`__aenter__`/`__aexit__` for `async
//!   with`); `for _ in x` (and comprehensions) call `x.__iter__()`;
//! - `a in x` calls `x.__contains__(a)`; `a == b`, `a < b`… call `a.__eq__(b)`, `a.__lt__(b)`…;
//!   `a + b`, `a * b`… call `a.__add__(b)`, `a.__mul__(b)`…;
//! - `x[k]` calls `x.__getitem__`, `x[k] = v` `x.__setitem__`, `del x[k]` `x.__delitem__`;
//! - `raise C` (`raise mod.C`, `raise C from e`) calls `C()`: a class raised is instantiated;
//! - `len(x)`, `str(x)`, `repr(x)`, `bool(x)`, `hash(x)`, `iter(x)`, `next(x)`, `format(x)`
//!   call `x.__len__()`…; an f-string's `{x}` calls `x.__format__` and `x.__str__` (`{x!r}`
//!   `x.__repr__`).
//!
//! Attribute reads (`x.name`) are recorded beside them (`FileFacts::attribute_reads`): the
//! resolver keeps those that read a project property.
//!
//! Not lowered: reflected operators (`__radd__`), augmented assignment (`__iadd__`), unary
//! operators, unpacking (`a, b = x`), `yield from`, and `__bool__` of a condition (`if x:`).

use tether_model::{CallSite, CalleeExpr, FileFacts, SymbolId};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::{caller_scope, dotted_path, shorten, value_receiver};

/// A call of `method` on the value of `operand`, at `site`'s line.
fn push_implicit_call(
    operand: Node<'_>,
    method: &str,
    site: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut operand = operand;
    while operand.kind() == "parenthesized_expression" {
        let Some(inner) = operand.named_child(0) else { return };
        operand = inner;
    }
    // A literal's methods are a builtin's.
    if matches!(
        operand.kind(),
        "integer"
            | "float"
            | "string"
            | "concatenated_string"
            | "true"
            | "false"
            | "none"
            | "list"
            | "dictionary"
            | "set"
            | "tuple"
    ) {
        return;
    }
    let callee = match dotted_path(operand, source) {
        Some(mut path) => {
            path.push(method.to_string());
            CalleeExpr::Path(path)
        }
        None => CalleeExpr::Method {
            receiver: value_receiver(operand, source),
            name: method.to_string(),
        },
    };
    let text = shorten(&format!("{}.{method}", text_of(operand, source)));
    facts.implicit_calls.push(CallSite {
        caller,
        callee,
        line: line_of(site),
        byte: operand.start_byte() as u32,
        text,
    });
}

/// The dunder a binary or comparison operator calls on its left operand.
fn operator_method(operator: &str) -> Option<&'static str> {
    let method = match operator {
        "==" => "__eq__",
        "!=" => "__ne__",
        "<" => "__lt__",
        "<=" => "__le__",
        ">" => "__gt__",
        ">=" => "__ge__",
        "+" => "__add__",
        "-" => "__sub__",
        "*" => "__mul__",
        "/" => "__truediv__",
        "//" => "__floordiv__",
        "%" => "__mod__",
        "**" => "__pow__",
        "@" => "__matmul__",
        "&" => "__and__",
        "|" => "__or__",
        "^" => "__xor__",
        "<<" => "__lshift__",
        ">>" => "__rshift__",
        _ => return None,
    };
    Some(method)
}

/// Lowers one `@reference.protocol` node.
pub(crate) fn lower_protocol_calls(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let caller = caller_scope(node, scopes);
    match node.kind() {
        "with_item" => {
            let Some(value) = field_child!(node, "value") else { return };
            // `with open(p) as f`: the value is the `as_pattern`'s first child.
            let value = if value.kind() == "as_pattern" {
                value.named_child(0).unwrap_or(value)
            } else {
                value
            };
            let is_async = node
                .parent()
                .and_then(|clause| clause.parent())
                .is_some_and(|statement| text_of(statement, source).starts_with("async"));
            let methods: [&str; 2] =
                if is_async { ["__aenter__", "__aexit__"] } else { ["__enter__", "__exit__"] };
            for method in methods {
                push_implicit_call(value, method, node, caller, source, facts);
            }
        }
        "for_statement" | "for_in_clause" => {
            if let Some(iterated) = field_child!(node, "right") {
                let method = if text_of(node, source).starts_with("async") {
                    "__aiter__"
                } else {
                    "__iter__"
                };
                push_implicit_call(iterated, method, node, caller, source, facts);
            }
        }
        "comparison_operator" => {
            let operands: Vec<Node<'_>> = node.named_children(&mut node.walk()).collect();
            let Some(operator) = field_child!(node, "operators") else { return };
            let [left, right] = operands.as_slice() else { return };
            match text_of(operator, source) {
                "in" | "not in" => {
                    push_implicit_call(*right, "__contains__", node, caller, source, facts)
                }
                other => {
                    if let Some(method) = operator_method(other) {
                        push_implicit_call(*left, method, node, caller, source, facts);
                    }
                }
            }
        }
        "binary_operator" => {
            let (Some(left), Some(operator)) =
                (field_child!(node, "left"), field_child!(node, "operator"))
            else {
                return;
            };
            if let Some(method) = operator_method(text_of(operator, source)) {
                push_implicit_call(left, method, node, caller, source, facts);
            }
        }
        "subscript" => {
            let Some(value) = field_child!(node, "value") else { return };
            let parent = node.parent();
            let is_target = parent.is_some_and(|parent| {
                matches!(parent.kind(), "assignment" | "augmented_assignment")
                    && field_child!(parent, "left").is_some_and(|left| left.id() == node.id())
            });
            let is_deleted = parent.is_some_and(|parent| parent.kind() == "delete_statement");
            let method = if is_target {
                "__setitem__"
            } else if is_deleted {
                "__delitem__"
            } else {
                "__getitem__"
            };
            push_implicit_call(value, method, node, caller, source, facts);
        }
        "interpolation" => {
            let Some(expression) = field_child!(node, "expression") else { return };
            let conversion =
                field_child!(node, "type_conversion").map(|conversion| text_of(conversion, source));
            let methods: &[&str] = match conversion {
                Some("!r") => &["__repr__"],
                Some(_) => &["__str__"],
                None => &["__format__", "__str__"],
            };
            for method in methods {
                push_implicit_call(expression, method, node, caller, source, facts);
            }
        }
        "raise_statement" => {
            // `raise C`, `raise mod.C`, `raise C from e` make the instance they raise: `C()`.
            // (`raise C(...)` is a call expression of its own.)
            let cause = field_child!(node, "cause").map(|cause| cause.id());
            let Some(raised) = node.named_child(0).filter(|raised| Some(raised.id()) != cause)
            else {
                return;
            };
            if !matches!(raised.kind(), "identifier" | "attribute") {
                return;
            }
            let Some(path) = dotted_path(raised, source) else { return };
            facts.implicit_calls.push(CallSite {
                caller,
                callee: CalleeExpr::Path(path),
                line: line_of(node),
                byte: raised.start_byte() as u32,
                text: shorten(text_of(raised, source)),
            });
        }
        _ => {}
    }
}

/// `len(x)`, `str(x)`… call a dunder of their single argument.
pub(crate) fn lower_builtin_protocol_call(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let CalleeExpr::Path(path) = callee else { return };
    let [name] = path.as_slice() else { return };
    let method = match name.as_str() {
        "len" => "__len__",
        "str" => "__str__",
        "repr" => "__repr__",
        "bool" => "__bool__",
        "hash" => "__hash__",
        "iter" => "__iter__",
        "next" => "__next__",
        "format" => "__format__",
        "abs" => "__abs__",
        "reversed" => "__reversed__",
        _ => return,
    };
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let mut cursor = arguments.walk();
    let first = arguments
        .named_children(&mut cursor)
        .find(|argument| !argument.kind().ends_with("comment"));
    if let Some(argument) = first.filter(|argument| argument.kind() != "keyword_argument") {
        push_implicit_call(argument, method, call, caller, source, facts);
    }
}

/// An attribute read (`x.name`): recorded unless the attribute is called (the call records
/// it), assigned or deleted, or is a decorator (`@name.setter`). Only reads of project
/// properties become edges (the resolver's filter), so most are dropped there.
pub(crate) fn lower_attribute_read(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(parent) = node.parent() else { return };
    let is_same = |other: Option<Node<'_>>| other.is_some_and(|other| other.id() == node.id());
    let skipped = match parent.kind() {
        "call" => is_same(field_child!(parent, "function")),
        "assignment" | "augmented_assignment" | "for_statement" => {
            is_same(field_child!(parent, "left"))
        }
        "decorator" | "delete_statement" => true,
        // `a.b, c.d = …` are targets too.
        "pattern_list" | "tuple_pattern" => parent
            .parent()
            .is_some_and(|grand| matches!(grand.kind(), "assignment" | "for_statement")),
        _ => false,
    };
    let (Some(name), false) = (field_child!(node, "attribute"), skipped) else { return };
    let callee = match dotted_path(node, source) {
        Some(path) => CalleeExpr::Path(path),
        None => match field_child!(node, "object") {
            Some(object) => CalleeExpr::Method {
                receiver: value_receiver(object, source),
                name: text_of(name, source).to_string(),
            },
            None => return,
        },
    };
    facts.attribute_reads.push(CallSite {
        caller: caller_scope(node, scopes),
        callee,
        line: line_of(node),
        byte: node.start_byte() as u32,
        text: shorten(text_of(node, source)),
    });
}
