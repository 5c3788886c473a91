//! Python truth tests lowered to the dunders they call: `if x:`, `while x:`, `elif x:`,
//! `assert x`, `a if x else b`, `[… if x]`, `not x` and the operands of `and`/`or` call
//! `x.__bool__()`, falling back to `x.__len__()` when the class has no `__bool__`.
//!
//! Each is an implicit call site on the operand (see `implicit_calls.rs`): both methods are
//! sites, and the resolver binds the ones the operand's class defines. An operand whose value
//! is already a truth value (a comparison, `not`, `and`/`or`, which have their own sites) adds
//! none. The right operand of `a or b` is tested only where the whole is (`if a or b:`; not
//! `x = a or b`, which hands `b` on untested).

use tether_model::{FileFacts, SymbolId};
use tree_sitter::Node;

use crate::python::implicit_calls::{push_implicit_call, unparenthesized};

/// The methods a truth test calls, the fallback last.
const TRUTH_METHODS: [&str; 2] = ["__bool__", "__len__"];

/// Lowers a node that tests the truth of an operand: a condition's statement or clause, an
/// `assert`, a conditional expression, `not` or a boolean operator.
pub(crate) fn lower_truth_test(
    node: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    match node.kind() {
        "if_statement" | "elif_clause" | "while_statement" => {
            if let Some(condition) = field_child!(node, "condition") {
                push_truth_test(condition, node, caller, source, facts);
            }
        }
        // `a if x else b`: the condition is the middle expression.
        "conditional_expression" => {
            if let Some(condition) = named_children(node).get(1) {
                push_truth_test(*condition, node, caller, source, facts);
            }
        }
        "assert_statement" | "if_clause" => {
            if let Some(condition) = named_children(node).first() {
                push_truth_test(*condition, node, caller, source, facts);
            }
        }
        "not_operator" => {
            if let Some(argument) = field_child!(node, "argument") {
                push_truth_test(argument, node, caller, source, facts);
            }
        }
        "boolean_operator" => {
            if let Some(left) = field_child!(node, "left") {
                push_truth_test(left, node, caller, source, facts);
            }
            if let (Some(right), true) = (field_child!(node, "right"), is_truth_tested(node)) {
                push_truth_test(right, node, caller, source, facts);
            }
        }
        _ => {}
    }
}

fn named_children(node: Node<'_>) -> Vec<Node<'_>> {
    node.named_children(&mut node.walk())
        .filter(|child| !child.kind().ends_with("comment"))
        .collect()
}

/// `__bool__` and `__len__` of `operand`, unless its value is a truth value already.
fn push_truth_test(
    operand: Node<'_>,
    site: Node<'_>,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(operand) = unparenthesized(operand) else { return };
    if matches!(operand.kind(), "not_operator" | "boolean_operator" | "comparison_operator") {
        return;
    }
    for method in TRUTH_METHODS {
        push_implicit_call(operand, method, site, caller, source, facts);
    }
}

/// Whether the value of `node` is tested for truth where it stands: a condition, an operand
/// of `not`, the left operand of `and`/`or`, or the right one of a tested `and`/`or`.
fn is_truth_tested(node: Node<'_>) -> bool {
    let Some(parent) = node.parent() else { return false };
    let is_node = |child: Option<Node<'_>>| child.is_some_and(|child| child.id() == node.id());
    match parent.kind() {
        "if_statement" | "elif_clause" | "while_statement" => {
            is_node(field_child!(parent, "condition"))
        }
        "conditional_expression" => is_node(named_children(parent).get(1).copied()),
        "assert_statement" | "if_clause" => is_node(named_children(parent).first().copied()),
        "not_operator" => true,
        // `a and b` tests `a` to choose; `b` only where the whole is tested.
        "boolean_operator" => is_node(field_child!(parent, "left")) || is_truth_tested(parent),
        "parenthesized_expression" => is_truth_tested(parent),
        _ => false,
    }
}
