//! Python attribute reads written as calls with the attribute's name as a literal string:
//! `getattr(obj, "name")`, `obj.__getattribute__("name")`, `object.__getattribute__(obj,
//! "name")`, `super().__getattribute__("name")`, and a local alias of a bound
//! `__getattribute__` (`get_attr = super(Locked, self).__getattribute__`, then
//! `get_attr("_locked_method")`). Each reads `obj.name` as surely as the attribute expression
//! would; when what it reads may be called, it is recorded as that value reference
//! (`FileFacts::value_references`), so the method it reads escapes as a value and answers
//! about it say so.
//!
//! It deliberately does not follow an alias bound outside the function that calls it, nor a
//! name computed at run time (that is `python_dynamic_reads`).

use tether_model::{CallSite, CalleeExpr, FileFacts, Receiver, SymbolId};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::python::dynamic_reads::result_may_be_called;
use crate::python::fixture_requests::string_literal;
use crate::python::{dotted_path, value_receiver};

/// The bound method that reads an attribute by name.
const GET_ATTRIBUTE: &str = "__getattribute__";

/// Records the value reference a call reading an attribute by a literal name stands for.
pub(crate) fn record_attribute_read_by_name(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let positional = crate::python::positional_arguments(arguments);
    let (object, name) = match callee {
        // `getattr(obj, "name")`, `object.__getattribute__(obj, "name")`.
        CalleeExpr::Path(path)
            if matches!(
                path.iter().map(String::as_str).collect::<Vec<_>>().as_slice(),
                ["getattr"] | ["builtins", "getattr"] | ["object", GET_ATTRIBUTE]
            ) =>
        {
            let [object, name, ..] = positional.as_slice() else { return };
            (value_receiver(*object, source), *name)
        }
        // `self.__getattribute__("name")`.
        CalleeExpr::Path(path) if path.len() > 1 && path.last().unwrap() == GET_ATTRIBUTE => {
            let [name, ..] = positional.as_slice() else { return };
            (Receiver::Path(path[..path.len() - 1].to_vec()), *name)
        }
        // `get_attr("name")` where the function bound `get_attr = <object>.__getattribute__`.
        CalleeExpr::Path(path) if path.len() == 1 => {
            let [name, ..] = positional.as_slice() else { return };
            let Some(object) = aliased_object(call, &path[0], source) else { return };
            (object, *name)
        }
        // `super().__getattribute__("name")`, `make().__getattribute__("name")`.
        CalleeExpr::Method { name: method, .. } if method == GET_ATTRIBUTE => {
            let [name, ..] = positional.as_slice() else { return };
            let Some(object) = field_child!(call, "function")
                .and_then(|function| field_child!(function, "object"))
            else {
                return;
            };
            (bound_object(object, source), *name)
        }
        _ => return,
    };
    let Some(name) = string_literal(name, source) else { return };
    if !result_may_be_called(call, source) {
        return;
    }
    let callee = match object {
        Receiver::Path(mut path) => {
            path.push(name);
            CalleeExpr::Path(path)
        }
        receiver => CalleeExpr::Method { receiver, name },
    };
    facts.value_references.push(CallSite {
        caller,
        callee,
        line: line_of(call),
        byte: call.start_byte() as u32,
        text: String::new(),
    });
}

/// The object whose attributes a bound `__getattribute__` reads: `super(C, obj)` and `super()`
/// read `obj`'s (`self` in a method), looked up from its own class as every attribute read is.
fn bound_object(object: Node<'_>, source: &str) -> Receiver {
    let is_super = object.kind() == "call"
        && field_child!(object, "function")
            .is_some_and(|function| text_of(function, source) == "super");
    if !is_super {
        return value_receiver(object, source);
    }
    let explicit = field_child!(object, "arguments").and_then(|arguments| {
        let arguments: Vec<Node<'_>> = arguments.named_children(&mut arguments.walk()).collect();
        arguments.get(1).and_then(|bound| dotted_path(*bound, source))
    });
    Receiver::Path(explicit.unwrap_or_else(|| vec!["self".to_string()]))
}

/// What `alias` reads attributes of, when the function around `call` bound it, before the
/// call, to a bound `__getattribute__` (`alias = <object>.__getattribute__`).
fn aliased_object(call: Node<'_>, alias: &str, source: &str) -> Option<Receiver> {
    let mut scope = call.parent()?;
    while !matches!(scope.kind(), "function_definition" | "module") {
        scope = scope.parent()?;
    }
    // Every binding of the alias before the call, as (where, what it reads).
    let mut bindings: Vec<(usize, Receiver)> = Vec::new();
    let mut pending = vec![scope];
    while let Some(node) = pending.pop() {
        if node.start_byte() >= call.start_byte() {
            continue;
        }
        let binds_alias = node.kind() == "assignment"
            && field_child!(node, "left")
                .is_some_and(|left| left.kind() == "identifier" && text_of(left, source) == alias);
        if binds_alias {
            let object = field_child!(node, "right")
                .filter(|right| right.kind() == "attribute")
                .filter(|right| {
                    field_child!(*right, "attribute")
                        .is_some_and(|attribute| text_of(attribute, source) == GET_ATTRIBUTE)
                })
                .and_then(|right| field_child!(right, "object"));
            let read = object.map_or(Receiver::Other, |object| bound_object(object, source));
            bindings.push((node.start_byte(), read));
        }
        // A nested function or class binds its own names.
        if node.id() == scope.id()
            || !matches!(node.kind(), "function_definition" | "class_definition")
        {
            pending.extend(node.named_children(&mut node.walk()));
        }
    }
    // The last binding before the call is the one in force.
    let found = bindings.into_iter().max_by_key(|(byte, _)| *byte);
    found.map(|(_, object)| object).filter(|object| *object != Receiver::Other)
}
