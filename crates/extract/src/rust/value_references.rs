//! Rust paths used as values: a function item or method passed as an argument
//! (`xs.iter().map(Self::convert)`, `spawn(worker)`), bound by `let`, stored in a field
//! (`Handler { run: on_event }`), assigned, returned, or put in a static table. Whoever
//! receives it may call it through a parameter (`f(x)`) where no call expression names it;
//! the resolver turns the paths that denote project functions into REFERENCES edges. Most
//! argument names are locals, which the resolver sees bound and drops.

use tether_model::{CallSite, CalleeExpr, FieldOwner, FieldStore, FileFacts};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::path_segments;

/// How far into nested arrays, tuples and references (`&[(a, b)]`) paths are looked for.
const MAX_CONTAINER_DEPTH: u32 = 3;

/// Records the paths used as values in one captured node.
pub(crate) fn lower_value_positions(
    node: Node<'_>,
    scopes: &ScopeStack<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    let scope = scopes.innermost_named().id;
    let values: Vec<Node<'_>> = match node.kind() {
        "arguments" => node.named_children(&mut node.walk()).collect(),
        "let_declaration" | "field_initializer" | "static_item" | "const_item" => {
            field_child!(node, "value").into_iter().collect()
        }
        "assignment_expression" => field_child!(node, "right").into_iter().collect(),
        "return_expression" => node.named_child(0).into_iter().collect(),
        _ => Vec::new(),
    };
    record_field_store(node, scope, source, facts);
    let call_line =
        (node.kind() == "arguments").then(|| node.parent().map(|call| line_of(call))).flatten();
    for value in values {
        record_values(value, scope, source, facts, 0, call_line);
    }
}

/// A path stored into a field: `Command { run: cmd_echo }` (a struct literal's field) or
/// `c.run = cmd_help` (an assignment to a field).
fn record_field_store(
    node: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let (owner, field, value) = match node.kind() {
        "field_initializer" => {
            let Some(literal) = node
                .parent()
                .and_then(|list| list.parent())
                .filter(|literal| literal.kind() == "struct_expression")
            else {
                return;
            };
            let Some(type_path) =
                field_child!(literal, "name").and_then(|name| path_segments(name, source, 0))
            else {
                return;
            };
            (
                FieldOwner::Literal(type_path),
                field_child!(node, "field"),
                field_child!(node, "value"),
            )
        }
        "assignment_expression" => {
            let Some(left) =
                field_child!(node, "left").filter(|left| left.kind() == "field_expression")
            else {
                return;
            };
            let Some(receiver) = field_child!(left, "value") else { return };
            (
                FieldOwner::Value(crate::rust::receivers::receiver_of(receiver, source, 0)),
                field_child!(left, "field"),
                field_child!(node, "right"),
            )
        }
        _ => return,
    };
    let (Some(field), Some(value)) = (field, value) else { return };
    let Some(path) = path_segments(value, source, 0) else { return };
    facts.field_stores.push(FieldStore {
        scope,
        byte: value.start_byte() as u32,
        owner,
        field: text_of(field, source).to_string(),
        value: path,
    });
}

/// `call_line`: for a call's arguments, the call's line, so an escape into an outside call
/// is matched with the call's edge however the arguments wrap.
fn record_values(
    value: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
    depth: u32,
    call_line: Option<u32>,
) {
    match value.kind() {
        "identifier" | "scoped_identifier" | "generic_function" => {
            if let Some(path) = path_segments(value, source, 0) {
                facts.value_references.push(CallSite {
                    caller: scope,
                    callee: CalleeExpr::Path(path),
                    line: call_line.unwrap_or_else(|| line_of(value)),
                    byte: value.start_byte() as u32,
                    text: String::new(),
                });
            }
        }
        "array_expression"
        | "tuple_expression"
        | "parenthesized_expression"
        | "reference_expression"
            if depth < MAX_CONTAINER_DEPTH =>
        {
            for element in value.named_children(&mut value.walk()) {
                record_values(element, scope, source, facts, depth + 1, call_line);
            }
        }
        _ => {}
    }
}
