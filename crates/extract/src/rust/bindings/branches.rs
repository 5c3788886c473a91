//! `let x = if … { a } else { b }` and `let x = match … { … => a, … }`: every branch of an
//! `if` or `match` has the same type, so the value is that of the first branch whose tail
//! value is visible. Extraction records each branch's tail value with the byte where it is
//! read (its arm's and block's bindings are in force there); the resolver types them in order.

use tether_model::{BindingValue, Receiver};
use tree_sitter::Node;

use crate::rust::{receiver_of, MAX_NESTING_FOLLOWED};

/// How many branch values are kept: the first visible one decides, and long `match`es
/// would otherwise be typed arm by arm.
const MAX_BRANCHES_KEPT: usize = 6;

/// The tail values of an `if` or `match` expression's branches, when any is visible.
pub(crate) fn branch_values(expression: Node<'_>, source: &str) -> Option<BindingValue> {
    let mut values = Vec::new();
    collect_branch_values(expression, source, &mut values, 0);
    (!values.is_empty()).then_some(BindingValue::BranchValues { values })
}

fn collect_branch_values(
    expression: Node<'_>,
    source: &str,
    values: &mut Vec<(Receiver, u32)>,
    depth: usize,
) {
    if depth >= MAX_NESTING_FOLLOWED || values.len() >= MAX_BRANCHES_KEPT {
        return;
    }
    match expression.kind() {
        "if_expression" => {
            if let Some(consequence) = field_child!(expression, "consequence") {
                collect_branch_values(consequence, source, values, depth + 1);
            }
            // `else { … }` or `else if …`.
            if let Some(alternative) = field_child!(expression, "alternative") {
                let mut cursor = alternative.walk();
                let branches: Vec<Node<'_>> = alternative
                    .named_children(&mut cursor)
                    .filter(|child| matches!(child.kind(), "block" | "if_expression"))
                    .collect();
                for branch in branches {
                    collect_branch_values(branch, source, values, depth + 1);
                }
            }
        }
        "match_expression" => {
            let Some(body) = field_child!(expression, "body") else { return };
            let mut cursor = body.walk();
            let arms: Vec<Node<'_>> =
                body.named_children(&mut cursor).filter(|arm| arm.kind() == "match_arm").collect();
            for arm in arms {
                if let Some(value) = field_child!(arm, "value") {
                    collect_branch_values(value, source, values, depth + 1);
                }
                if values.len() >= MAX_BRANCHES_KEPT {
                    return;
                }
            }
        }
        // A block's tail expression (none when it ends with a statement).
        "block" => {
            let Some(last) = expression
                .named_child_count()
                .checked_sub(1)
                .and_then(|last| u32::try_from(last).ok())
            else {
                return;
            };
            let Some(tail) = expression.named_child(last) else { return };
            if tail.kind().ends_with("_statement")
                || tail.kind().ends_with("_declaration")
                || tail.kind().ends_with("comment")
                || tail.kind().ends_with("_item")
            {
                return;
            }
            collect_branch_values(tail, source, values, depth + 1);
        }
        _ => {
            let receiver = receiver_of(expression, source, 0);
            if receiver != Receiver::Other {
                values.push((receiver, expression.start_byte() as u32));
            }
        }
    }
}
