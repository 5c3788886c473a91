//! Closures passed to project functions: a function's parameter of an `Fn`-trait type is
//! recorded by position (`callback#3`), with the types its callers pass; a closure argument
//! records the call it is passed to and its position there, so the resolver can give the
//! closure's parameters the types the called function passes (`acc.add(id, label, range,
//! |builder| …)` with `f: impl FnOnce(&mut SourceChangeBuilder)`).

use tether_model::{Binding, BindingValue, FileFacts, Receiver};
use tree_sitter::Node;

use crate::outline::{line_of, text_of};
use crate::rust::{path_segments, receiver_of};

/// For a function's parameter at `position` (`self` counted) whose type is `Callable`: the
/// positional binding a closure passed there is typed from.
pub(super) fn record_callback_parameter(
    scope: tether_model::SymbolId,
    position: usize,
    parameter: Node<'_>,
    value: &BindingValue,
    facts: &mut FileFacts,
) {
    // `Box<dyn FnOnce(A)>` and `Arc<dyn Fn(A)>` are called like the closure they hold.
    let callable = match value {
        BindingValue::Type { path, arguments, .. }
            if matches!(path.last().map(String::as_str), Some("Box" | "Arc" | "Rc"))
                && arguments.len() == 1 =>
        {
            &arguments[0]
        }
        value => value,
    };
    if !matches!(callable, BindingValue::Callable { .. }) {
        return;
    }
    facts.bindings.push(Binding::everywhere(
        scope,
        Binding::callback_name(position as u32),
        callable.clone(),
        line_of(parameter),
    ));
}

/// What a closure's parameters are bound to when the closure is an argument of a call:
/// `receiver.method(…, |x| …)` or `path(…, |x| …)`, with the closure's position among the
/// call's arguments. `None` when the closure is not a call's argument.
pub(super) fn closure_passed_to(closure: Node<'_>, source: &str) -> Option<ClosurePassedTo> {
    let arguments = closure.parent().filter(|arguments| arguments.kind() == "arguments")?;
    let call = arguments.parent().filter(|call| call.kind() == "call_expression")?;
    let mut function = field_child!(call, "function")?;
    if function.kind() == "generic_function" {
        function = field_child!(function, "function")?;
    }
    let argument = arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| {
            !matches!(argument.kind(), "line_comment" | "block_comment" | "attribute_item")
        })
        .position(|argument| argument.id() == closure.id())?;
    let argument = u32::try_from(argument).ok()?;
    match function.kind() {
        "field_expression" => {
            let receiver = receiver_of(field_child!(function, "value")?, source, 0);
            let method = text_of(field_child!(function, "field")?, source).to_string();
            Some(ClosurePassedTo::Method { receiver, method, argument })
        }
        "identifier" | "scoped_identifier" => {
            Some(ClosurePassedTo::Path { function: path_segments(function, source, 0)?, argument })
        }
        _ => None,
    }
}

/// The call a closure is an argument of (see [`closure_passed_to`]).
pub(super) enum ClosurePassedTo {
    Method { receiver: Receiver, method: String, argument: u32 },
    Path { function: Vec<String>, argument: u32 },
}

impl ClosurePassedTo {
    /// What the closure's parameter at `parameter` is bound to.
    pub(super) fn parameter_value(&self, parameter: u32) -> BindingValue {
        match self {
            ClosurePassedTo::Method { receiver, method, argument } => {
                BindingValue::ClosureParameter {
                    receiver: receiver.clone(),
                    method: method.clone(),
                    argument: *argument,
                    parameter,
                }
            }
            ClosurePassedTo::Path { function, argument } => {
                BindingValue::PathCallClosureParameter {
                    function: function.clone(),
                    argument: *argument,
                    parameter,
                }
            }
        }
    }
}

/// The `Fn`-trait bound of an item's generic parameter `name`, in its `<…>` list or its
/// where clause: `F: FnOnce(&mut T)`, `where F: Fn(A) + Send`.
pub(crate) fn generic_parameter_callable_bound<'tree>(
    name: &str,
    item: Node<'tree>,
    source: &str,
) -> Option<Node<'tree>> {
    let type_parameters = field_child!(item, "type_parameters")?;
    let parameter =
        type_parameters.named_children(&mut type_parameters.walk()).find(|parameter| {
            parameter.kind() == "type_parameter"
                && field_child!(*parameter, "name")
                    .is_some_and(|declared| text_of(declared, source) == name)
        })?;
    if let Some(bound) =
        field_child!(parameter, "bounds").and_then(super::written_types::callable_in_bounds)
    {
        return Some(bound);
    }
    let where_clause =
        item.named_children(&mut item.walk()).find(|child| child.kind() == "where_clause")?;
    let predicates: Vec<Node<'tree>> = where_clause
        .named_children(&mut where_clause.walk())
        .filter(|predicate| predicate.kind() == "where_predicate")
        .collect();
    predicates
        .into_iter()
        .filter(|predicate| {
            field_child!(*predicate, "left").is_some_and(|left| text_of(left, source) == name)
        })
        .find_map(|predicate| {
            field_child!(predicate, "bounds").and_then(super::written_types::callable_in_bounds)
        })
}

/// For an item with generic parameters (a function, an impl, a trait): each bounded type
/// parameter as the binding `<T>` holding its first bound (`T: Encodable` gives `dyn
/// Encodable`), so that a static call `T::read(…)` reaches the trait's method and its impls.
pub(crate) fn record_generic_parameter_bounds(
    item: Node<'_>,
    scope: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(type_parameters) = field_child!(item, "type_parameters") else { return };
    let mut cursor = type_parameters.walk();
    let names: Vec<&str> = type_parameters
        .named_children(&mut cursor)
        .filter(|parameter| parameter.kind() == "type_parameter")
        .filter_map(|parameter| field_child!(parameter, "name").map(|name| text_of(name, source)))
        .collect();
    for name in names {
        let Some(Some(bound)) =
            super::written_types::generic_parameter_bound_in_item(name, item, source)
        else {
            continue;
        };
        let value = BindingValue::Type { path: bound, is_dyn: true, arguments: Vec::new() };
        facts.bindings.push(Binding::everywhere(
            scope,
            generic_parameter_binding_name(name),
            value,
            line_of(item),
        ));
    }
}

/// The binding name of a generic type parameter's bound (see [`record_generic_parameter_bounds`]).
pub fn generic_parameter_binding_name(name: &str) -> String {
    format!("<{name}>")
}
