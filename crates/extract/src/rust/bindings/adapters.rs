//! Std adapters whose result holds what their closure returns: `opt.map(|it| it.name())` is
//! an `Option` of what `it.name()` is, `xs.filter_map(ast::Expr::cast)` an iterator of what
//! `cast` returns. Extraction records the closure's value (or the function's path) beside
//! the adapter call; the resolver types it with the closure's parameters in force.

use tether_model::{CalleeExpr, Receiver};
use tree_sitter::Node;

use crate::rust::{path_segments, receiver_of, MAX_NESTING_FOLLOWED};

/// The adapters whose closure (their only argument) gives the result's element.
const ADAPTERS: [&str; 6] = ["map", "and_then", "filter_map", "flat_map", "find_map", "then"];

/// What a closure returns, when its body (or its block's tail expression) is a visible
/// value, and the byte where that value is read (its parameters are in force there).
pub(crate) fn closure_returned(
    closure: Node<'_>,
    source: &str,
    depth: usize,
) -> Option<(Receiver, u32)> {
    if depth >= MAX_NESTING_FOLLOWED {
        return None;
    }
    let mut body = field_child!(closure, "body")?;
    // `|it| { …; tail }`: the block's tail expression.
    if body.kind() == "block" {
        let last = u32::try_from(body.named_child_count().checked_sub(1)?).ok()?;
        let tail = body.named_child(last)?;
        if tail.kind().ends_with("_statement")
            || tail.kind().ends_with("_declaration")
            || tail.kind().ends_with("comment")
        {
            return None;
        }
        body = tail;
    }
    let returned = receiver_of(body, source, depth + 1);
    (returned != Receiver::Other).then_some((returned, body.start_byte() as u32))
}

/// For a call of a std adapter (`call` is its callee) with one closure or function argument:
/// what the argument returns, and the byte where the closure's value is read.
pub(crate) fn adapted_value(
    call: &CalleeExpr,
    call_node: Node<'_>,
    source: &str,
    depth: usize,
) -> Option<(Receiver, u32)> {
    let CalleeExpr::Method { name, .. } = call else { return None };
    if depth >= MAX_NESTING_FOLLOWED || !ADAPTERS.contains(&name.as_str()) {
        return None;
    }
    let arguments = field_child!(call_node, "arguments")?;
    if arguments.named_child_count() != 1 {
        return None;
    }
    let argument = arguments.named_child(0)?;
    match argument.kind() {
        "closure_expression" => closure_returned(argument, source, depth),
        // `.and_then(ast::Expr::cast)`: the function's result, as if called. (A bare name may
        // be a local closure, whose result is not visible.)
        "scoped_identifier" => {
            let path = path_segments(argument, source, 0)?;
            Some((Receiver::Call(Box::new(CalleeExpr::Path(path))), argument.start_byte() as u32))
        }
        _ => None,
    }
}
