//! The functions a Rust function returns when its declared return type is callable (`->
//! fn(&str) -> u32`, `-> impl Fn(u32) -> u32`): the paths its body's tail and `return`
//! expressions end in, through `if`/`else` and `match` arms and blocks. Each becomes one more
//! `return` binding of the function, after the declared type, so that calling what it returns
//! (`pick(flag)(msg)`, `let f = pick(flag); f(msg)`) reaches each of them.
//!
//! It deliberately does not look into closures returned (`move |x| x + 1` is not a path), nor
//! into values wrapped in `Some`/`Box::new`: those stay a callable of unknown target.

use tether_model::{Binding, BindingValue, FileFacts, Receiver, SymbolId};
use tree_sitter::Node;

use crate::outline::line_of;
use crate::rust::path_segments;
use crate::RETURN_BINDING;

/// How deep nested `if`/`match`/blocks are followed.
const MAX_RETURN_NESTING: usize = 8;

/// At most this many `return` statements are looked at per function.
const MAX_RETURN_STATEMENTS: usize = 64;

/// Records the paths a function with a callable return type returns.
pub(crate) fn record_returned_functions(
    function: Node<'_>,
    symbol: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(body) = field_child!(function, "body") else { return };
    let mut paths = Vec::new();
    tail_paths(body, source, 0, &mut paths);
    let mut returns = Vec::new();
    return_expressions(body, 0, &mut returns);
    for value in returns.into_iter().take(MAX_RETURN_STATEMENTS) {
        tail_paths(value, source, 0, &mut paths);
    }
    for (path, line) in paths {
        facts.bindings.push(Binding::everywhere(
            symbol,
            RETURN_BINDING.to_string(),
            BindingValue::Expression(Receiver::Path(path)),
            line,
        ));
    }
}

/// The paths an expression's value ends in: a path, or each branch's tail.
fn tail_paths(node: Node<'_>, source: &str, depth: usize, paths: &mut Vec<(Vec<String>, u32)>) {
    if depth > MAX_RETURN_NESTING {
        return;
    }
    match node.kind() {
        "identifier" | "scoped_identifier" => {
            if let Some(path) = path_segments(node, source, 0) {
                paths.push((path, line_of(node)));
            }
        }
        "block" => {
            let mut cursor = node.walk();
            let last = node
                .named_children(&mut cursor)
                .filter(|child| !child.kind().ends_with("comment"))
                .last();
            match last {
                // A block-like tail (`if … { a } else { b }`) is a statement without `;`.
                Some(last)
                    if last.kind() == "expression_statement"
                        && !crate::outline::text_of(last, source).ends_with(';') =>
                {
                    if let Some(inner) = last.named_child(0) {
                        tail_paths(inner, source, depth + 1, paths);
                    }
                }
                Some(last) if !last.kind().ends_with("_statement") => {
                    tail_paths(last, source, depth + 1, paths)
                }
                _ => {}
            }
        }
        "parenthesized_expression" | "else_clause" => {
            if let Some(inner) = node.named_child(0) {
                tail_paths(inner, source, depth + 1, paths);
            }
        }
        "if_expression" => {
            let branches = [field_child!(node, "consequence"), field_child!(node, "alternative")];
            for branch in branches.into_iter().flatten() {
                tail_paths(branch, source, depth + 1, paths);
            }
        }
        "match_expression" => {
            let Some(arms) = field_child!(node, "body") else { return };
            for arm in arms.named_children(&mut arms.walk()) {
                if let Some(value) = field_child!(arm, "value") {
                    tail_paths(value, source, depth + 1, paths);
                }
            }
        }
        "return_expression" => {
            if let Some(value) = node.named_child(0) {
                tail_paths(value, source, depth + 1, paths);
            }
        }
        _ => {}
    }
}

/// The values of the `return` expressions in a body, outside nested closures and items.
fn return_expressions<'tree>(node: Node<'tree>, depth: usize, found: &mut Vec<Node<'tree>>) {
    if depth > MAX_RETURN_NESTING * 4 || found.len() >= MAX_RETURN_STATEMENTS {
        return;
    }
    for child in node.named_children(&mut node.walk()) {
        match child.kind() {
            "closure_expression" | "function_item" | "impl_item" | "mod_item" => {}
            "return_expression" => {
                if let Some(value) = child.named_child(0) {
                    found.push(value);
                }
            }
            _ => return_expressions(child, depth + 1, found),
        }
    }
}
