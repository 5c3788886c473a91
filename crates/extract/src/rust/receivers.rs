//! The receiver of a Rust method call: a name or a chain of fields on a name, a path (a unit
//! variant), a call, `x?`, `x.await`, an element `xs[i]`, fields read on any of those, or
//! something else.

use tether_model::Receiver;
use tree_sitter::Node;

use crate::outline::text_of;
use crate::rust::{callee_expression, literal_type, path_segments, MAX_NESTING_FOLLOWED};

/// The receiver of a method call: a name or a chain of fields on a name, a call, or other.
pub(crate) fn receiver_of(value: Node<'_>, source: &str, depth: usize) -> Receiver {
    if value.kind() == "call_expression" {
        return call_receiver(value, source, depth);
    }
    if let Some(type_name) = literal_type(value, source) {
        return Receiver::Path(vec![type_name.to_string()]);
    }
    // `(3 as i8).is_odd()`: a value of the type cast to.
    if value.kind() == "parenthesized_expression" {
        if let Some(cast) =
            value.named_child(0).filter(|inner| inner.kind() == "type_cast_expression")
        {
            if let Some(path) = field_child!(cast, "type")
                .and_then(|cast_type| crate::rust::type_path(cast_type, source))
            {
                return Receiver::Path(path);
            }
        }
    }
    if let Some(receiver) = wrapped_receiver(value, source, depth) {
        return receiver;
    }
    field_chain_receiver(value, source, depth)
}

/// A call's result: `x.f::<T>()` with its written arguments, an iterator adapter's result
/// whose closure returns something visible, or the call.
fn call_receiver(value: Node<'_>, source: &str, depth: usize) -> Receiver {
    match field_child!(value, "function") {
        Some(function) => {
            let call = Box::new(callee_expression(function, source, depth + 1));
            // `x.f::<T>()`: the written arguments may decide what `f` returns.
            if function.kind() == "generic_function" {
                if let Some(arguments) = field_child!(function, "type_arguments") {
                    let arguments =
                        crate::rust::bindings::written_type_arguments(arguments, value, source);
                    return Receiver::Turbofish { call, arguments };
                }
            }
            match crate::rust::bindings::adapters::adapted_value(&call, value, source, depth) {
                Some((returned, at)) => {
                    Receiver::Adapted { call, returned: Box::new(returned), at }
                }
                None => Receiver::Call(call),
            }
        }
        None => Receiver::Other,
    }
}

/// A receiver around another: `x?`, `ready!(x)`, `x.await`, `*x`, a tuple, `&x` and `(x)`;
/// `None` for any other kind of node.
fn wrapped_receiver(value: Node<'_>, source: &str, depth: usize) -> Option<Receiver> {
    match value.kind() {
        "try_expression" => Some(match value.named_child(0) {
            Some(inner) if depth < MAX_NESTING_FOLLOWED => {
                Receiver::Try(Box::new(receiver_of(inner, source, depth + 1)))
            }
            _ => Receiver::Other,
        }),
        // `ready!(self.poll_inner(cx))`: what the poll gives when ready.
        "macro_invocation" if depth < MAX_NESTING_FOLLOWED => Some(
            crate::rust::macro_arguments::ready_macro_value(value, source)
                .map_or(Receiver::Other, |inner| Receiver::Ready(Box::new(inner))),
        ),
        "await_expression" => Some(match value.named_child(0) {
            Some(inner) if depth < MAX_NESTING_FOLLOWED => {
                Receiver::Await(Box::new(receiver_of(inner, source, depth + 1)))
            }
            _ => Receiver::Other,
        }),
        // `*x` calls what `x` dereferences to: its `impl Deref`'s target (`(*self.io).fmt(f)` is
        // the I/O source's `fmt`, not `PollEvented`'s), or what a pointer points to.
        "unary_expression"
            if text_of(value, source).starts_with('*') && depth < MAX_NESTING_FOLLOWED =>
        {
            let inner = value
                .named_children(&mut value.walk())
                .find(|child| !child.kind().ends_with("comment"));
            Some(match inner.map(|inner| receiver_of(inner, source, depth + 1)) {
                Some(Receiver::Other) | None => Receiver::Other,
                Some(inner) => Receiver::Deref(Box::new(inner)),
            })
        }
        // `&x` and `(x)` call the same methods as `x` (auto-referencing).
        // `(a, b.f())`: each element (a tuple of nothing visible is nothing).
        "tuple_expression" if depth < MAX_NESTING_FOLLOWED => {
            let mut cursor = value.walk();
            let elements: Vec<Receiver> = value
                .named_children(&mut cursor)
                .filter(|element| {
                    !element.kind().ends_with("comment") && element.kind() != "attribute_item"
                })
                .map(|element| receiver_of(element, source, depth + 1))
                .collect();
            Some(match elements.iter().all(|element| *element == Receiver::Other) {
                true => Receiver::Other,
                false => Receiver::Tuple(elements),
            })
        }
        "reference_expression" | "parenthesized_expression" | "unary_expression"
            if !text_of(value, source).starts_with(['!', '-']) =>
        {
            let inner = field_child!(value, "value").or_else(|| {
                value
                    .named_children(&mut value.walk())
                    .find(|child| !child.kind().ends_with("comment"))
            });
            Some(match inner {
                Some(inner) if depth < MAX_NESTING_FOLLOWED => {
                    receiver_of(inner, source, depth + 1)
                }
                _ => Receiver::Other,
            })
        }
        _ => None,
    }
}

/// A name with the fields read on it (`self.a.b`), a path (a unit variant), an element
/// (`xs[i]`), or the fields read on another receiver (`x.f()?.value`).
fn field_chain_receiver(value: Node<'_>, source: &str, depth: usize) -> Receiver {
    let mut fields_reversed = Vec::new();
    let mut node = value;
    for _ in 0..MAX_NESTING_FOLLOWED {
        match node.kind() {
            "identifier" | "self" => {
                let mut path = vec![text_of(node, source).to_string()];
                path.extend(fields_reversed.into_iter().rev());
                return Receiver::Path(path);
            }
            "field_expression" => {
                let (Some(inner), Some(field)) =
                    (field_child!(node, "value"), field_child!(node, "field"))
                else {
                    return Receiver::Other;
                };
                fields_reversed.push(text_of(field, source).to_string());
                node = inner;
            }
            // `WrapperKind::Result.label()`: a unit variant (or a constant) named by its path.
            "scoped_identifier" if fields_reversed.is_empty() => {
                return path_segments(node, source, 0).map_or(Receiver::Other, Receiver::Path)
            }
            // `xs[i]`: an element (a range gives a slice, whose type is not the element's).
            "index_expression" if fields_reversed.is_empty() && depth < MAX_NESTING_FOLLOWED => {
                let (Some(indexed), Some(index)) = (node.named_child(0), node.named_child(1))
                else {
                    return Receiver::Other;
                };
                if index.kind() == "range_expression" {
                    return Receiver::Other;
                }
                return match receiver_of(indexed, source, depth + 1) {
                    Receiver::Other => Receiver::Other,
                    inner => Receiver::Subscript(Box::new(inner)),
                };
            }
            // `x.f()?.value`, `self.store[id].name`: fields of a value that is not a name.
            _ if !fields_reversed.is_empty() && depth < MAX_NESTING_FOLLOWED => {
                return match receiver_of(node, source, depth + 1) {
                    Receiver::Other => Receiver::Other,
                    base => Receiver::Fields {
                        base: Box::new(base),
                        fields: fields_reversed.into_iter().rev().collect(),
                    },
                };
            }
            _ => return Receiver::Other,
        }
    }
    Receiver::Other
}
