//! Rust typed bindings: lets, parameters, struct and variant fields, closure parameters,
//! `for` loops and `Some(x)` / `Variant(x)` patterns, each with what makes its type visible
//! (a written type with its generic arguments, a call, an expression, an iterated value, or
//! the method a closure is passed to). The resolver types them; this file only records.

use tether_model::{Binding, BindingValue, FileFacts, Receiver, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::{callee_expression, literal_type, path_segments, receiver_of, type_path, MAX_NESTING_FOLLOWED};

/// Lowers one `@local.definition` capture. Lists (`parameters`, `closure_parameters`, a
/// tuple-struct pattern, a `for` loop) are captured whole, which keeps the query cheap, and
/// their binding children are lowered one by one.
pub(crate) fn lower_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    match node.kind() {
        "parameters" | "closure_parameters" | "tuple_struct_pattern" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor).filter(|child| matches!(child.kind(), "parameter" | "identifier")) {
                lower_one_binding(child, scopes, source, facts);
            }
        }
        "for_expression" => {
            if let Some(pattern) = node.child_by_field_name("pattern").filter(|pattern| pattern.kind() == "identifier") {
                lower_one_binding(pattern, scopes, source, facts);
            }
        }
        _ => lower_one_binding(node, scopes, source, facts),
    }
}

fn lower_one_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    match node.kind() {
        "let_declaration" => {
            // `let Some(x) = …` and `let Variant(x) = …` bind through their identifiers' captures.
            let Some(pattern) = node.child_by_field_name("pattern").filter(|pattern| pattern.kind() == "identifier") else { return };
            let value = match node.child_by_field_name("type") {
                Some(annotation) => binding_type(annotation, node, source),
                None => node.child_by_field_name("value").map(|value| expression_value(value, source)),
            };
            let Some(value) = value else { return };
            let scope = scopes.innermost_named().id;
            let (visible_from, visible_to) = in_force(node);
            facts.bindings.push(Binding { scope, name: text_of(pattern, source).to_string(), value, line, visible_from, visible_to });
        }
        "parameter" => {
            let owner = node.parent().and_then(|parameters| parameters.parent());
            let owner_is_function = owner.is_some_and(|owner| matches!(owner.kind(), "function_item" | "function_signature_item"));
            let owner_is_closure = node.parent().is_some_and(|parameters| parameters.kind() == "closure_parameters");
            if !owner_is_function && !owner_is_closure {
                return;
            }
            let Some(pattern) = node.child_by_field_name("pattern").filter(|pattern| pattern.kind() == "identifier") else { return };
            let value = node.child_by_field_name("type").and_then(|annotation| binding_type(annotation, node, source));
            // An untyped closure parameter is still a local: it hides outer names.
            let Some(value) = value.or(owner_is_closure.then_some(BindingValue::Unknown)) else { return };
            // A function's parameters belong to it (the innermost scope); a closure's to the
            // function around it.
            let scope = if owner_is_function { scopes.innermost().id } else { scopes.innermost_named().id };
            let (visible_from, visible_to) = in_force(node);
            facts.bindings.push(Binding { scope, name: text_of(pattern, source).to_string(), value, line, visible_from, visible_to });
        }
        // `|it| …`, `for item in …`, `Some(x)`, `Variant(x)`.
        "identifier" => {
            let Some(value) = identifier_binding_value(node, source) else { return };
            let scope = scopes.innermost_named().id;
            let (visible_from, visible_to) = in_force(node);
            facts.bindings.push(Binding { scope, name: text_of(node, source).to_string(), value, line, visible_from, visible_to });
        }
        "field_declaration" => {
            let owner = scopes.innermost();
            if !matches!(owner.kind, SymbolKind::Struct | SymbolKind::Union) {
                return;
            }
            let Some(name) = node.child_by_field_name("name").map(|name| text_of(name, source)).filter(|name| !name.is_empty()) else { return };
            let Some(value) = node.child_by_field_name("type").and_then(|annotation| binding_type(annotation, node, source)) else { return };
            facts.bindings.push(Binding::everywhere(owner.id, format!("self.{name}"), value, line));
        }
        // `struct S(A, B);` gives `self.0` and `self.1` on the struct.
        "ordered_field_declaration_list" => {
            let owner = scopes.innermost();
            if owner.kind == SymbolKind::Struct && node.parent().is_some_and(|parent| parent.kind() == "struct_item") {
                tuple_field_bindings(node, owner.id, "self", source, facts);
            }
        }
        // `enum E { V(A), W }` gives `V` and `W` (the variants exist) and `V.0` on the enum.
        "enum_variant" => {
            let owner = scopes.innermost();
            let Some(name) = node.child_by_field_name("name").map(|name| text_of(name, source)) else { return };
            if owner.kind != SymbolKind::Enum || name.is_empty() {
                return;
            }
            facts.bindings.push(Binding::everywhere(owner.id, name.to_string(), BindingValue::Unknown, line));
            if let Some(fields) = node.child_by_field_name("body").filter(|body| body.kind() == "ordered_field_declaration_list") {
                tuple_field_bindings(fields, owner.id, name, source, facts);
            }
        }
        _ => {}
    }
}

/// `prefix.0`, `prefix.1`… for the types of a tuple field list.
fn tuple_field_bindings(fields: Node<'_>, owner: tether_model::SymbolId, prefix: &str, source: &str, facts: &mut FileFacts) {
    let mut cursor = fields.walk();
    for (position, field_type) in fields.children_by_field_name("type", &mut cursor).enumerate() {
        let Some(value) = binding_type(field_type, fields, source) else { continue };
        facts.bindings.push(Binding::everywhere(owner, format!("{prefix}.{position}"), value, line_of(field_type)));
    }
}

/// The bytes where a local binding is in force (see [`Binding::visible_from`]): a `let`
/// from its end to the end of its block; a parameter, closure parameter, loop variable or
/// pattern binding from where it is written to the end of its function, closure, loop, arm,
/// or `if let` / `while let`.
fn in_force(node: Node<'_>) -> (u32, u32) {
    let from = node.start_byte() as u32;
    let mut current = Some(node);
    for _ in 0..MAX_NESTING_FOLLOWED {
        let Some(ancestor) = current else { break };
        match ancestor.kind() {
            "let_declaration" => {
                let block_end = ancestor.parent().map_or(u32::MAX, |block| block.end_byte() as u32);
                return (ancestor.end_byte() as u32, block_end);
            }
            // `if let Some(x) = x.parent()`: the value is read before `x` is bound.
            "let_condition" => {
                let mut owner = ancestor.parent();
                while let Some(current) = owner.filter(|current| !matches!(current.kind(), "if_expression" | "while_expression")) {
                    owner = current.parent();
                }
                return (ancestor.end_byte() as u32, owner.map_or(u32::MAX, |owner| owner.end_byte() as u32));
            }
            // `for x in x.children()`: likewise.
            "for_expression" => {
                let body_start = ancestor.child_by_field_name("body").map_or(from, |body| body.start_byte() as u32);
                return (body_start, ancestor.end_byte() as u32);
            }
            "function_item" | "function_signature_item" | "closure_expression" | "match_arm" | "if_expression" | "while_expression" => {
                return (from, ancestor.end_byte() as u32);
            }
            _ => current = ancestor.parent(),
        }
    }
    (from, u32::MAX)
}

/// What a `let` without a written type is bound to.
fn expression_value(value: Node<'_>, source: &str) -> BindingValue {
    match value.kind() {
        "call_expression" => match value.child_by_field_name("function") {
            Some(function) => BindingValue::CallResult(callee_expression(function, source, 0)),
            None => BindingValue::Unknown,
        },
        "struct_expression" => {
            value.child_by_field_name("name").and_then(|name| path_segments(name, source, 0)).map_or(BindingValue::Unknown, BindingValue::named_type)
        }
        // `vec![…]` and `format!(…)` build a `Vec` and a `String`.
        "macro_invocation" => match value.child_by_field_name("macro").map(|name| text_of(name, source)) {
            Some("vec") => BindingValue::named_type(vec!["Vec".to_string()]),
            Some("format") => BindingValue::named_type(vec!["String".to_string()]),
            _ => BindingValue::Unknown,
        },
        kind => match literal_type(kind) {
            Some(type_name) => BindingValue::named_type(vec![type_name.to_string()]),
            None => match receiver_of(value, source, 0) {
                Receiver::Other => BindingValue::Unknown,
                receiver => BindingValue::Expression(receiver),
            },
        },
    }
}

/// What an identifier bound by a closure parameter list, a `for` loop or a tuple-struct
/// pattern holds; `None` when the identifier binds nothing (a pattern's variant path).
fn identifier_binding_value(node: Node<'_>, source: &str) -> Option<BindingValue> {
    let Some(parent) = node.parent() else { return Some(BindingValue::Unknown) };
    let value = match parent.kind() {
        "closure_parameters" => closure_parameter_value(parent, node, source),
        "for_expression" => parent.child_by_field_name("value").map(|iterated| receiver_of(iterated, source, 0)).and_then(|receiver| match receiver {
            Receiver::Other => None,
            receiver => Some(BindingValue::ElementOf(receiver)),
        }),
        "tuple_struct_pattern" => {
            let variant = parent.child_by_field_name("type")?;
            if variant.id() == node.id() {
                return None;
            }
            tuple_struct_field_value(parent, variant, node, source)
        }
        _ => None,
    };
    Some(value.unwrap_or(BindingValue::Unknown))
}

/// `receiver.method(|a, b| …)`: parameter `b` is parameter 1 of the closure passed to `method`.
fn closure_parameter_value(parameters: Node<'_>, node: Node<'_>, source: &str) -> Option<BindingValue> {
    let position = parameters.named_children(&mut parameters.walk()).filter(|child| !child.kind().ends_with("comment")).position(|child| child.id() == node.id())?;
    let closure = parameters.parent().filter(|closure| closure.kind() == "closure_expression")?;
    let arguments = closure.parent().filter(|arguments| arguments.kind() == "arguments")?;
    let call = arguments.parent().filter(|call| call.kind() == "call_expression")?;
    let mut function = call.child_by_field_name("function")?;
    if function.kind() == "generic_function" {
        function = function.child_by_field_name("function")?;
    }
    if function.kind() != "field_expression" {
        return None;
    }
    let receiver = receiver_of(function.child_by_field_name("value")?, source, 0);
    let method = text_of(function.child_by_field_name("field")?, source).to_string();
    Some(BindingValue::ClosureParameter { receiver, method, parameter: position as u32 })
}

/// `Some(x)` / `Ok(x)` hold what the matched value holds (`value?`); `Variant(x)` holds the
/// variant's field at that position.
fn tuple_struct_field_value(pattern: Node<'_>, variant: Node<'_>, node: Node<'_>, source: &str) -> Option<BindingValue> {
    let position = pattern
        .named_children(&mut pattern.walk())
        .filter(|child| child.id() != variant.id() && !child.kind().ends_with("comment"))
        .position(|child| child.id() == node.id())?;
    let variant_path = path_segments(variant, source, 0)?;
    if matches!(variant_path.as_slice(), [name] if name == "Some" || name == "Ok") {
        let matched = matched_value(pattern)?;
        return match receiver_of(matched, source, 0) {
            Receiver::Other => None,
            receiver => Some(BindingValue::Expression(Receiver::Try(Box::new(receiver)))),
        };
    }
    Some(BindingValue::VariantField { variant: variant_path, position: position as u32 })
}

/// The value a top-level pattern is matched against: `if let P = value`, `let P = value
/// else …`, or `match value { P => … }`.
fn matched_value(pattern: Node<'_>) -> Option<Node<'_>> {
    let parent = pattern.parent()?;
    match parent.kind() {
        "let_condition" | "let_declaration" => parent.child_by_field_name("value"),
        "match_pattern" => {
            let match_expression = parent.parent()?.parent()?.parent().filter(|expression| expression.kind() == "match_expression")?;
            match_expression.child_by_field_name("value")
        }
        _ => None,
    }
}

/// `&dyn Trait`, `Box<dyn Trait>`, `impl Trait` and a generic `T: Trait` (the trait's path,
/// `is_dyn`). `used_at` is the node the type is written in, to find generic parameters.
pub(crate) fn binding_type(type_node: Node<'_>, used_at: Node<'_>, source: &str) -> Option<BindingValue> {
    let mut node = type_node;
    for _ in 0..MAX_NESTING_FOLLOWED {
        match node.kind() {
            "reference_type" => node = node.child_by_field_name("type")?,
            // `&(dyn A + Send)` parses as a one-element tuple type.
            "tuple_type" if node.named_child_count() == 1 => node = node.named_child(0)?,
            "bounded_type" => {
                node = node.named_children(&mut node.walk()).find(|bound| !matches!(bound.kind(), "lifetime" | "use_bounds" | "line_comment" | "block_comment"))?
            }
            "dynamic_type" | "abstract_type" => {
                let bound = node.child_by_field_name("trait")?;
                let path = first_bound_path(bound, source)?;
                // `impl Iterator<Item = T>` keeps `T` as its argument.
                let arguments = associated_item_type(bound, used_at, source).into_iter().collect();
                return Some(BindingValue::Type { path, is_dyn: true, arguments });
            }
            "array_type" => {
                let element = node.child_by_field_name("element").and_then(|element| binding_type(element, used_at, source)).unwrap_or(BindingValue::Unknown);
                return Some(BindingValue::Type { path: vec!["[]".to_string()], is_dyn: false, arguments: vec![element] });
            }
            // `Vec<T>`, `Option<T>`, and smart pointers (`Box<dyn Trait>`, `Arc<T>`), whose
            // methods the resolver tells from their pointee's.
            "generic_type" => {
                let path = path_segments(node, source, 0)?;
                let arguments = node.child_by_field_name("type_arguments").map(|arguments| type_arguments(arguments, used_at, source)).unwrap_or_default();
                return Some(BindingValue::Type { path, is_dyn: false, arguments });
            }
            "type_identifier" => {
                let name = text_of(node, source);
                // A return type is written at the function itself, whose own generics count.
                let is_return_type = matches!(used_at.kind(), "function_item" | "function_signature_item");
                let bound = match is_return_type {
                    true => generic_parameter_bound_in_item(name, used_at, source).or_else(|| generic_parameter_bound(name, used_at, source)),
                    false => generic_parameter_bound(name, used_at, source),
                };
                if let Some(bound_path) = bound {
                    // Calls on a parameter of type `T: Trait` may reach any impl of the trait;
                    // but what a function returns as `T` is its caller's type, not visible here.
                    if is_return_type {
                        return Some(BindingValue::Unknown);
                    }
                    return bound_path.map(|path| BindingValue::Type { path, is_dyn: true, arguments: Vec::new() });
                }
                return path_segments(node, source, 0).map(BindingValue::named_type);
            }
            _ => return path_segments(node, source, 0).map(BindingValue::named_type),
        }
    }
    None
}

/// The types among generic arguments, in order (lifetimes and constants left out); a type
/// that is not understood stays as `Unknown`, so that positions keep their meaning.
fn type_arguments(arguments: Node<'_>, used_at: Node<'_>, source: &str) -> Vec<BindingValue> {
    arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| !matches!(argument.kind(), "lifetime" | "line_comment" | "block_comment" | "type_binding" | "integer_literal" | "block"))
        .map(|argument| binding_type(argument, used_at, source).unwrap_or(BindingValue::Unknown))
        .collect()
}

/// The `Item` of a bound such as `Iterator<Item = T>` (or the first bound of `A + B` that has one).
fn associated_item_type(bound: Node<'_>, used_at: Node<'_>, source: &str) -> Option<BindingValue> {
    let generic = match bound.kind() {
        "generic_type" => bound,
        "bounded_type" | "trait_bounds" => bound.named_children(&mut bound.walk()).find(|child| child.kind() == "generic_type")?,
        _ => return None,
    };
    let arguments = generic.child_by_field_name("type_arguments")?;
    let item = arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| argument.kind() == "type_binding")
        .find(|binding| binding.child_by_field_name("name").is_some_and(|name| text_of(name, source) == "Item"))?;
    binding_type(item.child_by_field_name("type")?, used_at, source)
}

/// The path of the first trait of a bound list such as `A + Send` (lifetimes skipped).
fn first_bound_path(bound: Node<'_>, source: &str) -> Option<Vec<String>> {
    if bound.kind() == "bounded_type" || bound.kind() == "trait_bounds" {
        return bound
            .named_children(&mut bound.walk())
            .filter(|child| !matches!(child.kind(), "lifetime" | "removed_trait_bound" | "use_bounds" | "line_comment" | "block_comment"))
            .find_map(|child| type_path(child, source));
    }
    type_path(bound, source)
}

/// Whether `name` is a generic parameter of an item enclosing `used_at` (the function, and the
/// impl or trait around it, or the struct of a field): `Some(first bound's path)` if it is,
/// with `Some(None)` for an unbounded parameter; `None` if `name` is no generic parameter.
fn generic_parameter_bound(name: &str, used_at: Node<'_>, source: &str) -> Option<Option<Vec<String>>> {
    let mut current = used_at.parent();
    while let Some(ancestor) = current {
        if matches!(ancestor.kind(), "function_item" | "function_signature_item" | "impl_item" | "trait_item" | "struct_item" | "union_item" | "enum_item") {
            if let Some(found) = generic_parameter_bound_in_item(name, ancestor, source) {
                return Some(found);
            }
            // Generics of an outer function do not reach into a nested item, but those of an
            // impl or trait reach its methods.
            let is_method_of_impl_or_trait = matches!(ancestor.kind(), "function_item" | "function_signature_item")
                && ancestor.parent().is_some_and(|list| list.kind() == "declaration_list")
                && ancestor.parent().and_then(|list| list.parent()).is_some_and(|owner| matches!(owner.kind(), "impl_item" | "trait_item"));
            if !is_method_of_impl_or_trait {
                return None;
            }
        }
        current = ancestor.parent();
    }
    None
}

/// `name`'s bound in one item's `<…>` list or where clause (see [`generic_parameter_bound`]).
fn generic_parameter_bound_in_item(name: &str, item: Node<'_>, source: &str) -> Option<Option<Vec<String>>> {
    let type_parameters = item.child_by_field_name("type_parameters")?;
    let parameter = type_parameters
        .named_children(&mut type_parameters.walk())
        .find(|parameter| parameter.kind() == "type_parameter" && parameter.child_by_field_name("name").is_some_and(|declared| text_of(declared, source) == name))?;
    if let Some(path) = parameter.child_by_field_name("bounds").and_then(|bounds| first_bound_path(bounds, source)) {
        return Some(Some(path));
    }
    let where_clause = item.named_children(&mut item.walk()).find(|child| child.kind() == "where_clause");
    let where_bound = where_clause.and_then(|where_clause| {
        where_clause
            .named_children(&mut where_clause.walk())
            .filter(|predicate| predicate.kind() == "where_predicate")
            .filter(|predicate| predicate.child_by_field_name("left").is_some_and(|left| text_of(left, source) == name))
            .find_map(|predicate| predicate.child_by_field_name("bounds").and_then(|bounds| first_bound_path(bounds, source)))
    });
    Some(where_bound)
}
