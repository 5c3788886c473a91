//! `*x` written out, as an implicit call: on a value whose type has an `impl Deref`, it calls
//! that impl's `deref` (`deref_mut` where the place is assigned to or borrowed mutably:
//! `*x = v`, `&mut *x`), with no call expression. The site is recorded on `x`'s receiver,
//! resolved like a method call named `deref`; only a project impl makes an edge (a `Box`'s or
//! a `String`'s deref is std's).
//!
//! `*x` where `x` is a reference is the built-in dereference, no call. The signature tells
//! that much: `self` of a `&self` method and a parameter typed `&T` are references, so
//! `*self` calls nothing and `**self` calls `Self`'s `deref`. Any other `x` (a local, a
//! field, a call's result) is taken as a value: `let r = &v; *r` is a dereference of a
//! reference recorded as a call of `v`'s type's `deref`, an edge too many rather than one
//! too few.

use tether_model::{CallSite, CalleeExpr, FileFacts, Receiver};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::python::shorten;

/// Lowers a `unary_expression` that is a `*` dereference.
pub(crate) fn push_written_deref_call(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    if !text_of(node, source).starts_with('*') {
        return;
    }
    let Some(operand) = operand_of(node) else { return };
    let Some(receiver) = dereferenced_value(operand, source) else { return };
    if receiver == Receiver::Other {
        return;
    }
    let method =
        if crate::rust::implicit_calls::is_mutable_place(node) { "deref_mut" } else { "deref" };
    facts.implicit_calls.push(CallSite {
        caller: scopes.innermost_named().id,
        callee: CalleeExpr::Method { receiver, name: method.to_string() },
        line: line_of(node),
        byte: node.start_byte() as u32,
        text: shorten(text_of(node, source)),
    });
}

/// The operand of a unary expression (comments skipped).
fn operand_of(node: Node<'_>) -> Option<Node<'_>> {
    node.named_children(&mut node.walk()).find(|child| !child.kind().ends_with("comment"))
}

/// The value `*operand` dereferences, when that may call a `deref`: `None` when `operand` is
/// declared a reference (a built-in dereference); for `**r` with `r` declared a reference,
/// the value `r` refers to.
fn dereferenced_value(operand: Node<'_>, source: &str) -> Option<Receiver> {
    let operand = strip_parentheses(operand);
    if is_declared_reference(operand, source) {
        return None;
    }
    if operand.kind() == "unary_expression" && text_of(operand, source).starts_with('*') {
        let inner = strip_parentheses(operand_of(operand)?);
        return is_declared_reference(inner, source)
            .then(|| crate::rust::receivers::receiver_of(inner, source, 0));
    }
    Some(crate::rust::receivers::receiver_of(operand, source, 0))
}

fn strip_parentheses(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression" {
        match operand_of(node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// Whether `operand` names a reference by its function's signature: `self` of a `&self` or
/// `&mut self` method, or a parameter (of the function or of a closure around the operand)
/// whose written type is `&T`.
fn is_declared_reference(operand: Node<'_>, source: &str) -> bool {
    if !matches!(operand.kind(), "self" | "identifier") {
        return false;
    }
    let name = text_of(operand, source);
    let mut current = operand;
    while let Some(parent) = current.parent() {
        let parameters = match parent.kind() {
            "function_item" => field_child!(parent, "parameters"),
            "closure_expression" => field_child!(parent, "parameters"),
            _ => None,
        };
        if let Some(parameters) = parameters {
            if let Some(is_reference) = parameter_is_reference(parameters, name, source) {
                return is_reference;
            }
            if parent.kind() == "function_item" {
                return false;
            }
        }
        current = parent;
    }
    false
}

/// Among a parameter list, the one named `name`: whether its type is written as a
/// reference; `None` when no parameter has that name.
fn parameter_is_reference(parameters: Node<'_>, name: &str, source: &str) -> Option<bool> {
    let mut cursor = parameters.walk();
    for parameter in parameters.named_children(&mut cursor) {
        match parameter.kind() {
            "self_parameter" if name == "self" => {
                return Some(text_of(parameter, source).starts_with('&'))
            }
            "parameter" => {
                let named = field_child!(parameter, "pattern")
                    .is_some_and(|pattern| text_of(pattern, source) == name);
                if named {
                    return Some(
                        field_child!(parameter, "type")
                            .is_some_and(|written| written.kind() == "reference_type"),
                    );
                }
            }
            // A closure's untyped parameter: `|x| *x`.
            "identifier" if text_of(parameter, source) == name => return Some(false),
            _ => {}
        }
    }
    None
}
