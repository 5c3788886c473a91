//! Rust operators and loops that call trait methods with no call expression. Each becomes an
//! implicit call site (`FileFacts::implicit_calls`) on the operand's receiver, resolved like a
//! method call; only those bound to project impls become edges (a derived `PartialEq` or an
//! integer's `Add` is std's):
//!
//! - `a == b` / `a != b` call `PartialEq::eq`; `<`, `<=`, `>`, `>=` call `PartialOrd::partial_cmp`;
//! - `a + b`, `a - b`, `a * b`, `a / b`, `a % b`, `&`, `|`, `^`, `<<`, `>>` call `Add::add`…;
//! - `a[i]` calls `Index::index` (`IndexMut::index_mut` when assigned to);
//! - `for x in v` calls `IntoIterator::into_iter` and then `Iterator::next` on what it gives
//!   (recorded on `v`: a project iterator's own `next`);
//! - `x?` in a function returning `Result<T, E>` calls `<E as From<_>>::from` on an error:
//!   recorded as that trait path, which binds to every `impl From<…> for E` of the project
//!   (which one runs depends on the error's type, not written there).
//!
//! `Drop` at the end of a scope is the resolver's (`resolve::rust::drop_calls`): it needs
//! the called function's return type. What macros' arguments call (`assert!(a == b)`,
//! `assert_eq!(a, b)`, `format!("{}", x)`: `PartialEq::eq`, `Display::fmt`, `Debug::fmt`, as
//! the models of `queries/rust/macro_models.txt` say) is `macro_implicit_calls`'.
//!
//! - `*x` calls `Deref::deref` (`written_derefs`);
//! - `x.to_string()` calls `Display::fmt` of `x`'s type (std's `impl<T: Display> ToString`).
//!
//! Not lowered: `?` in a closure or an async block, or in a function whose error type is not
//! written as `Result<T, E>` (an alias such as `io::Result<T>`), derives calling their
//! fields' impls, `-x` and `!x`, compound assignment (`+=`), and `Ord` through
//! `sort`/`max`/`BTreeMap` keys.

use tether_model::{CallSite, CalleeExpr, FileFacts};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::shorten;

/// The trait method a binary operator calls on its left operand.
fn operator_method(operator: &str) -> Option<&'static str> {
    let method = match operator {
        "==" | "!=" => "eq",
        "<" | "<=" | ">" | ">=" => "partial_cmp",
        "+" => "add",
        "-" => "sub",
        "*" => "mul",
        "/" => "div",
        "%" => "rem",
        "&" => "bitand",
        "|" => "bitor",
        "^" => "bitxor",
        "<<" => "shl",
        ">>" => "shr",
        _ => return None,
    };
    Some(method)
}

fn push_implicit_call(
    operand: Node<'_>,
    method: &str,
    site: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    // A literal's operators are std's.
    if matches!(
        operand.kind(),
        "integer_literal"
            | "float_literal"
            | "string_literal"
            | "char_literal"
            | "boolean_literal"
            | "raw_string_literal"
    ) {
        return;
    }
    let receiver = crate::rust::receivers::receiver_of(operand, source, 0);
    if receiver == tether_model::Receiver::Other {
        return;
    }
    let text = shorten(&format!("{}.{method}", text_of(operand, source)));
    facts.implicit_calls.push(CallSite {
        caller: scopes.innermost_named().id,
        callee: CalleeExpr::Method { receiver, name: method.to_string() },
        line: line_of(site),
        byte: operand.start_byte() as u32,
        text,
    });
}

/// Whether a place expression is written to or borrowed mutably: `x[i] = v`, `x[i].f += 1`,
/// `&mut x[i]` (through the fields and indexes it is the base of).
pub(crate) fn is_mutable_place(place: Node<'_>) -> bool {
    let mut current = place;
    while let Some(parent) = current.parent() {
        let is_base = parent.named_child(0).is_some_and(|base| base.id() == current.id());
        match parent.kind() {
            "field_expression" | "index_expression" if is_base => current = parent,
            "assignment_expression" | "compound_assignment_expr" => {
                return field_child!(parent, "left").is_some_and(|left| left.id() == current.id())
            }
            "reference_expression" => {
                return parent.child(1).is_some_and(|second| second.kind() == "mutable_specifier")
            }
            _ => return false,
        }
    }
    false
}

/// Lowers one `@reference.protocol` node of a Rust file.
pub(crate) fn lower_protocol_calls(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    match node.kind() {
        "binary_expression" => {
            let (Some(left), Some(operator)) =
                (field_child!(node, "left"), field_child!(node, "operator"))
            else {
                return;
            };
            if let Some(method) = operator_method(text_of(operator, source)) {
                push_implicit_call(left, method, node, scopes, source, facts);
            }
        }
        "index_expression" => {
            let Some(value) = node.named_child(0) else { return };
            push_implicit_call(
                value,
                if is_mutable_place(node) { "index_mut" } else { "index" },
                node,
                scopes,
                source,
                facts,
            );
        }
        "for_expression" => {
            let Some(value) = field_child!(node, "value") else { return };
            push_implicit_call(value, "into_iter", node, scopes, source, facts);
            push_implicit_call(value, "next", node, scopes, source, facts);
        }
        "try_expression" => push_question_mark_call(node, scopes, source, facts),
        "unary_expression" => {
            crate::rust::written_derefs::push_written_deref_call(node, scopes, source, facts)
        }
        _ => {}
    }
}

/// `x?`: on an error, `<E as From<_>>::from(error)` where the enclosing function returns
/// `Result<T, E>` and E is written as a path. A `?` in a closure or an async block returns
/// from that, not from the function: left alone.
fn push_question_mark_call(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut current = node;
    let function = loop {
        let Some(parent) = current.parent() else { return };
        match parent.kind() {
            "function_item" => break parent,
            "closure_expression" | "async_block" => return,
            _ => current = parent,
        }
    };
    let Some(error_type) = field_child!(function, "return_type")
        .filter(|returned| returned.kind() == "generic_type")
        .filter(|returned| {
            field_child!(*returned, "type")
                .is_some_and(|name| text_of(name, source).rsplit("::").next() == Some("Result"))
        })
        .and_then(|returned| field_child!(returned, "type_arguments"))
        .filter(|arguments| arguments.named_child_count() == 2)
        .and_then(|arguments| arguments.named_child(1))
        .filter(|error| matches!(error.kind(), "type_identifier" | "scoped_type_identifier"))
    else {
        return;
    };
    let self_type: Vec<String> =
        text_of(error_type, source).split("::").map(|segment| segment.trim().to_string()).collect();
    let operand = node.named_child(0).map_or("", |operand| text_of(operand, source));
    facts.implicit_calls.push(CallSite {
        caller: scopes.innermost_named().id,
        callee: CalleeExpr::TraitPath {
            self_type,
            trait_path: vec!["From".to_string()],
            name: "from".to_string(),
        },
        line: line_of(node),
        byte: node.start_byte() as u32,
        text: shorten(&format!("{operand}?")),
    });
}

/// `x.to_string()` (no arguments): std's blanket `impl<T: Display> ToString for T` calls
/// `Display::fmt` of `x`'s type. Recorded as that trait method on `x`; a project type with
/// an inherent `to_string` of its own binds both.
pub(crate) fn push_to_string_call(
    call: Node<'_>,
    function: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    if function.kind() != "field_expression" {
        return;
    }
    let (Some(value), Some(field)) =
        (field_child!(function, "value"), field_child!(function, "field"))
    else {
        return;
    };
    let no_arguments =
        field_child!(call, "arguments").is_some_and(|arguments| arguments.named_child_count() == 0);
    if text_of(field, source) != "to_string" || !no_arguments {
        return;
    }
    let receiver = crate::rust::receivers::receiver_of(value, source, 0);
    if receiver == tether_model::Receiver::Other {
        return;
    }
    facts.implicit_calls.push(CallSite {
        caller: scopes.innermost_named().id,
        callee: CalleeExpr::TraitMethod {
            receiver,
            trait_path: vec!["Display".to_string()],
            name: "fmt".to_string(),
        },
        line: line_of(call),
        byte: call.start_byte() as u32,
        text: shorten(&format!("Display::fmt({})", text_of(value, source))),
    });
}
