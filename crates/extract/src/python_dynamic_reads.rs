//! Python reads of names the code computes: `getattr(obj, name)` with a name not written as a
//! string, and `eval(code)` / `exec(code)` of code not written as a string. Each is recorded
//! as a dynamic read (`FileFacts::dynamic_reads`) of what it may reach: `obj`'s path for a
//! `getattr`, an empty path (the module's own globals) for `eval` and `exec`. The resolver
//! makes every project callable there escape as a value, so calls through what was read
//! (`getattr(self, "on_" + kind)()`) make answers about them lower bounds. An `eval` or
//! `exec` is also such a call through a value itself, at its own site (recorded as calling
//! what it returns, which the resolver counts as a call through a value).
//!
//! It deliberately does not evaluate the name (`"on_" + kind` could be narrowed to a prefix),
//! follow a receiver it cannot write as a dotted path (`getattr(make(), name)`), nor treat
//! `eval` with explicit globals (`eval(code, namespace)`) other than as the module's: names
//! passed in the namespace are values passed to a call, recorded as such.

use tether_model::{CallSite, CalleeExpr, FileFacts, SymbolId};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::python::{dotted_path, shorten};

/// Records a dynamic read for a call of `getattr`, `eval` or `exec` whose name or code is not
/// a literal string.
pub(crate) fn record_dynamic_read(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let CalleeExpr::Path(path) = callee else { return };
    let function = match path.as_slice() {
        [name] | [_, name] if path.len() == 1 || path[0] == "builtins" => name.as_str(),
        _ => return,
    };
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let positional: Vec<Node<'_>> = arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| !matches!(argument.kind(), "keyword_argument" | "comment"))
        .collect();
    let read = match function {
        "getattr" => {
            let [object, name, ..] = positional.as_slice() else { return };
            if is_literal_string(*name) {
                return;
            }
            let Some(object_path) = dotted_path(*object, source) else { return };
            object_path
        }
        "eval" | "exec" => {
            let Some(code) = positional.first() else { return };
            if is_literal_string(*code) {
                return;
            }
            // The code it runs may call what escaped: a call through a value at this site.
            facts.calls.push(CallSite {
                caller,
                callee: CalleeExpr::Returned(Box::new(callee.clone())),
                line: line_of(call),
                byte: call.start_byte() as u32,
                text: shorten(text_of(call, source)),
            });
            Vec::new()
        }
        _ => return,
    };
    facts.dynamic_reads.push(CallSite {
        caller,
        callee: CalleeExpr::Path(read),
        line: line_of(call),
        byte: call.start_byte() as u32,
        text: shorten(text_of(call, source)),
    });
}

/// A string written whole (`"name"`, `'a' 'b'`), with no interpolation.
fn is_literal_string(node: Node<'_>) -> bool {
    match node.kind() {
        "string" => {
            !node.named_children(&mut node.walk()).any(|child| child.kind() == "interpolation")
        }
        "concatenated_string" => {
            node.named_children(&mut node.walk()).all(|part| is_literal_string(part))
        }
        _ => false,
    }
}
