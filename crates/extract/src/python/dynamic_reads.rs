//! Python reads of names the code computes: `getattr(obj, name)` with a name not written as a
//! string, and `eval(code)` / `exec(code)` of code not written as a string. Each is recorded
//! as a dynamic read (`FileFacts::dynamic_reads`) of what it may reach: `obj`'s path for a
//! `getattr`, an empty path (the module's own globals) for `eval` and `exec`. The resolver
//! makes every project callable there escape as a value, so calls through what was read
//! (`getattr(self, "on_" + kind)()`) make answers about them lower bounds. An `eval` or
//! `exec` is also such a call through a value itself, at its own site (recorded as calling
//! what it returns, which the resolver counts as a call through a value).
//!
//! Only a `getattr` whose result may be called counts (called at once, passed to a call,
//! returned, or bound to a name its function calls or passes on); `getattr(Flask, name) is
//! method` reads without calling. `eval` and `exec` with a namespace of their own
//! (`eval(code, namespace)`) see that namespace, whose names are values passed to a call.
//!
//! It deliberately does not evaluate the name (`"on_" + kind` could be narrowed to a prefix),
//! nor follow a receiver it cannot write as a dotted path (`getattr(make(), name)`).

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
    let positional = crate::python::positional_arguments(arguments);
    let read = match function {
        "getattr" => {
            let [object, name, ..] = positional.as_slice() else { return };
            if is_literal_string(*name) || !result_may_be_called(call, source) {
                return;
            }
            let Some(object_path) = dotted_path(*object, source) else { return };
            object_path
        }
        "eval" | "exec" => {
            // With a namespace of its own (`eval(code, namespace)`), the code sees that.
            let has_namespace = positional.len() > 1
                || arguments.named_children(&mut arguments.walk()).any(|argument| {
                    argument.kind() == "keyword_argument"
                        && field_child!(argument, "name")
                            .is_some_and(|name| text_of(name, source) == "globals")
                });
            let Some(code) = positional.first() else { return };
            if is_literal_string(*code) || has_namespace {
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

/// Whether what a `getattr` call gives may be called: it is called at once, passed to a
/// call, returned, or bound to a name its scope calls (`handler = getattr(…)`, then
/// `handler(…)`). Read and compared only (`getattr(Flask, name) is method`), it calls nothing.
pub(crate) fn result_may_be_called(call: Node<'_>, source: &str) -> bool {
    let Some(parent) = call.parent() else { return false };
    match parent.kind() {
        "call" => {
            field_child!(parent, "function").is_some_and(|function| function.id() == call.id())
        }
        "argument_list" | "return_statement" | "keyword_argument" | "yield" => true,
        "assignment" => {
            let Some(target) =
                field_child!(parent, "left").filter(|left| left.kind() == "identifier")
            else {
                return false;
            };
            let name = text_of(target, source);
            let mut scope = parent;
            while let Some(outer) = scope.parent() {
                scope = outer;
                if matches!(scope.kind(), "function_definition" | "module") {
                    break;
                }
            }
            calls_name(scope, name, source)
        }
        _ => false,
    }
}

/// Whether `node`'s subtree calls the plain name `name` (`name(…)`), or passes it to a call.
fn calls_name(node: Node<'_>, name: &str, source: &str) -> bool {
    let mut pending = vec![node];
    while let Some(current) = pending.pop() {
        let is_use = match current.kind() {
            "call" => field_child!(current, "function").is_some_and(|function| {
                function.kind() == "identifier" && text_of(function, source) == name
            }),
            "argument_list" => current.named_children(&mut current.walk()).any(|argument| {
                argument.kind() == "identifier" && text_of(argument, source) == name
            }),
            _ => false,
        };
        if is_use {
            return true;
        }
        pending.extend(current.named_children(&mut current.walk()));
    }
    false
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
