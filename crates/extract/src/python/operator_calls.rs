//! Python operators lowered to the dunders they call: `a + b` calls `a.__add__(b)` and, when
//! that gives up, `b.__radd__(a)`; `a < b` `a.__lt__(b)`; `a in x` `x.__contains__(a)`;
//! `x += y` `x.__iadd__(y)` (falling back to `x.__add__(y)`); `-x` `x.__neg__()`.
//!
//! Each is an implicit call site on the operand (see `implicit_calls.rs`); only those bound to
//! a project method become edges. Where Python falls back, both methods are sites: the
//! resolver binds the ones the operand's class defines.
//!
//! Not lowered: reflected comparisons (`b.__gt__(a)` for `a < b`), which run only when the
//! left operand's class gives up; for a project class on the left that is its own method.

use tether_model::{FileFacts, SymbolId};
use tree_sitter::Node;

use crate::outline::text_of;
use crate::python::implicit_calls::push_implicit_call;

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

/// The reflected dunder an arithmetic operator calls on its right operand when the left one
/// gives up (`1 + v` calls `v.__radd__(1)`); comparisons have none here.
fn reflected_method(operator: &str) -> Option<&'static str> {
    let method = match operator {
        "+" => "__radd__",
        "-" => "__rsub__",
        "*" => "__rmul__",
        "/" => "__rtruediv__",
        "//" => "__rfloordiv__",
        "%" => "__rmod__",
        "**" => "__rpow__",
        "@" => "__rmatmul__",
        "&" => "__rand__",
        "|" => "__ror__",
        "^" => "__rxor__",
        "<<" => "__rlshift__",
        ">>" => "__rrshift__",
        _ => return None,
    };
    Some(method)
}

/// The in-place dunder of an augmented assignment's operator (`+=`: `__iadd__`).
fn in_place_method(operator: &str) -> Option<&'static str> {
    let method = match operator {
        "+=" => "__iadd__",
        "-=" => "__isub__",
        "*=" => "__imul__",
        "/=" => "__itruediv__",
        "//=" => "__ifloordiv__",
        "%=" => "__imod__",
        "**=" => "__ipow__",
        "@=" => "__imatmul__",
        "&=" => "__iand__",
        "|=" => "__ior__",
        "^=" => "__ixor__",
        "<<=" => "__ilshift__",
        ">>=" => "__irshift__",
        _ => return None,
    };
    Some(method)
}

/// Lowers a `comparison_operator`, `binary_operator`, `augmented_assignment` or
/// `unary_operator` node.
pub(crate) fn lower_operator(
    node: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    match node.kind() {
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
            let (Some(left), Some(operator), Some(right)) = (
                field_child!(node, "left"),
                field_child!(node, "operator"),
                field_child!(node, "right"),
            ) else {
                return;
            };
            let operator = text_of(operator, source);
            if let Some(method) = operator_method(operator) {
                push_implicit_call(left, method, node, caller, source, facts);
            }
            if let Some(method) = reflected_method(operator) {
                push_implicit_call(right, method, node, caller, source, facts);
            }
        }
        "augmented_assignment" => {
            let (Some(target), Some(operator)) =
                (field_child!(node, "left"), field_child!(node, "operator"))
            else {
                return;
            };
            let operator = text_of(operator, source);
            let binary = operator.strip_suffix('=').and_then(operator_method);
            for method in [in_place_method(operator), binary].into_iter().flatten() {
                push_implicit_call(target, method, node, caller, source, facts);
            }
        }
        "unary_operator" => {
            let (Some(operator), Some(argument)) =
                (field_child!(node, "operator"), field_child!(node, "argument"))
            else {
                return;
            };
            let method = match text_of(operator, source) {
                "-" => "__neg__",
                "+" => "__pos__",
                "~" => "__invert__",
                _ => return,
            };
            push_implicit_call(argument, method, node, caller, source, facts);
        }
        _ => {}
    }
}
