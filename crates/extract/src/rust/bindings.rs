//! Rust typed bindings: lets, parameters, struct and variant fields, closure parameters,
//! `for` loops and `Some(x)` / `Variant(x)` patterns, each with what makes its type visible
//! (a written type with its generic arguments, a call, an expression, an iterated value, or
//! the method a closure is passed to). The resolver types them; this file only records.

use tether_model::{Binding, BindingValue, FileFacts, Receiver, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::{
    callee_expression, literal_type, path_segments, receiver_of, MAX_NESTING_FOLLOWED,
};

pub(crate) mod adapters;
mod branches;
pub(crate) mod callables;
mod patterns;
mod written_types;

use patterns::without_binding_modifiers;
pub(crate) use written_types::{
    binding_type, generic_parameter_bound_in_item, written_type_arguments,
};

/// Lowers one `@local.definition` capture. Lists (`parameters`, `closure_parameters`, a
/// tuple-struct pattern, a `for` loop) are captured whole, which keeps the query cheap; what
/// their bindings share (the owner, the bytes where they are in force, the call a closure is
/// passed to, the value a pattern matches) is worked out once per list, since walking up a
/// tree-sitter tree costs a walk down from the root at every step.
pub(crate) fn lower_binding(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    match node.kind() {
        "let_declaration" => lower_let(node, scopes, source, facts),
        "parameters" => lower_function_parameters(node, scopes, source, facts),
        "closure_parameters" => lower_closure_parameters(node, scopes, source, facts),
        "for_expression" => lower_for_pattern(node, scopes, source, facts),
        "tuple_struct_pattern" => lower_tuple_struct_pattern(node, scopes, source, facts),
        "struct_pattern" => patterns::lower_struct_pattern(node, scopes, source, facts),
        "field_declaration" => lower_struct_field(node, scopes, source, facts),
        "const_item" | "static_item" => lower_const_or_static(node, scopes, source, facts),
        _ => {}
    }
}

/// `let x: T = …`, `let x = v`, `let (a, b) = …`: in force from the end of the statement to
/// the end of its block.
fn lower_let(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    // `let Some(x) = …` and `let Variant(x) = …` bind through their pattern's capture.
    let Some(pattern) =
        field_child!(node, "pattern").map(without_binding_modifiers).filter(|pattern| {
            matches!(pattern.kind(), "identifier" | "tuple_pattern" | "slice_pattern")
        })
    else {
        return;
    };
    let value = match field_child!(node, "type") {
        Some(annotation) => binding_type(annotation, node, source),
        None => field_child!(node, "value").map(|value| expression_value(value, source)),
    };
    let Some(value) = value else { return };
    let scope = scopes.innermost_named().id;
    // In force from the end of the statement to the end of its block.
    let visible_to = scopes.innermost_local_scope_end().map_or(u32::MAX, |end| end as u32);
    let visible_from = node.end_byte() as u32;
    for (name, value) in pattern_bindings(pattern, value, source) {
        facts.bindings.push(Binding {
            scope,
            name,
            value,
            line,
            visible_from,
            visible_to,
            branch: tether_model::Branch::ALWAYS,
        });
    }
}

/// A function's typed parameters (and its generic parameters' bounds), in force in its body;
/// a parameter of a callable type is recorded as a callback parameter too.
fn lower_function_parameters(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(function) = node
        .parent()
        .filter(|owner| matches!(owner.kind(), "function_item" | "function_signature_item"))
    else {
        return;
    };
    // Parameters belong to the function being defined, which is the innermost scope.
    let scope = scopes.innermost().id;
    callables::record_generic_parameter_bounds(function, scope, source, facts);
    let mut cursor = node.walk();
    // Positions count `self`: a method call's arguments start at 1.
    let parameters: Vec<Node<'_>> = node
        .named_children(&mut cursor)
        .filter(|child| matches!(child.kind(), "parameter" | "self_parameter"))
        .collect();
    record_parameter_positions(scope, &parameters, source, facts);
    for (position, parameter) in
        parameters.into_iter().enumerate().filter(|(_, child)| child.kind() == "parameter")
    {
        let Some(value) = field_child!(parameter, "type")
            .and_then(|annotation| binding_type(annotation, parameter, source))
        else {
            continue;
        };
        callables::record_callback_parameter(scope, position, parameter, &value, facts);
        // `mut f: impl FnMut(…)` binds `f`; `self: Pin<&mut Self>` binds `self`.
        let Some(pattern) = field_child!(parameter, "pattern")
            .map(without_binding_modifiers)
            .filter(|pattern| matches!(pattern.kind(), "identifier" | "self"))
        else {
            continue;
        };
        let name = text_of(pattern, source).to_string();
        facts.bindings.push(Binding {
            scope,
            name,
            value,
            line: line_of(parameter),
            visible_from: parameter.start_byte() as u32,
            visible_to: function.end_byte() as u32,
            branch: tether_model::Branch::ALWAYS,
        });
    }
}

/// A function's parameters by position (`self` first when it has one): where value flow
/// finds what a parameter holds.
fn record_parameter_positions(
    function: tether_model::SymbolId,
    parameters: &[Node<'_>],
    source: &str,
    facts: &mut FileFacts,
) {
    for (position, parameter) in parameters.iter().enumerate() {
        let name = match parameter.kind() {
            "self_parameter" => Some("self".to_string()),
            _ => field_child!(*parameter, "pattern")
                .map(without_binding_modifiers)
                .filter(|pattern| pattern.kind() == "identifier")
                .map(|pattern| text_of(pattern, source).to_string()),
        };
        let Some(name) = name else { continue };
        facts.parameters.push(tether_model::Parameter {
            function,
            position: position as u32,
            name,
            kind: tether_model::ParameterKind::Positional,
            default: None,
        });
    }
}

/// `for item in items`: an element of what is iterated, in force in the body.
fn lower_for_pattern(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let Some(pattern) = field_child!(node, "pattern")
        .map(without_binding_modifiers)
        .filter(|pattern| matches!(pattern.kind(), "identifier" | "tuple_pattern"))
    else {
        return;
    };
    let iterated = field_child!(node, "value")
        .map_or(Receiver::Other, |iterated| receiver_of(iterated, source, 0));
    let value = match iterated {
        Receiver::Other => BindingValue::Unknown,
        receiver => BindingValue::ElementOf(receiver),
    };
    let visible_from =
        field_child!(node, "body").map_or(pattern.end_byte(), |body| body.start_byte()) as u32;
    let scope = scopes.innermost_named().id;
    for (name, value) in pattern_bindings(pattern, value, source) {
        facts.bindings.push(Binding {
            scope,
            name,
            value,
            line,
            visible_from,
            visible_to: node.end_byte() as u32,
            branch: tether_model::Branch::ALWAYS,
        });
    }
}

/// A named field of a struct or union: `self.field` of the written type, on the type.
fn lower_struct_field(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let owner = scopes.innermost();
    if !matches!(owner.kind, SymbolKind::Struct | SymbolKind::Union) {
        return;
    }
    let Some((name, value)) = named_item_type(node, source) else { return };
    facts.bindings.push(Binding::everywhere(owner.id, format!("self.{name}"), value, line));
}

/// An item's name and written type (a field, a const or a static), when both are there.
fn named_item_type<'source>(
    node: Node<'_>,
    source: &'source str,
) -> Option<(&'source str, BindingValue)> {
    let name = field_child!(node, "name")
        .map(|name| text_of(name, source))
        .filter(|name| !name.is_empty())?;
    let value =
        field_child!(node, "type").and_then(|annotation| binding_type(annotation, node, source))?;
    Some((name, value))
}

/// `static ONCE: OnceCell<u32> = …;`, `const ALL: &[Kind] = …;`: a value of the written
/// type, named in the module, impl, trait or function around it.
/// A table of functions (`const OPS: [fn(u32) -> u32; 2] = [add, sub];`) is the functions it
/// holds, which `OPS[i](x)` may call.
fn lower_const_or_static(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    let Some((name, value)) = named_item_type(node, source) else { return };
    let value = function_table(node, &value, source).unwrap_or(value);
    facts.bindings.push(Binding::everywhere(scopes.innermost().id, name.to_string(), value, line));
}

/// The paths an array of a callable element type holds, when every element is one.
fn function_table(node: Node<'_>, written: &BindingValue, source: &str) -> Option<BindingValue> {
    let BindingValue::Type { arguments, .. } = written else { return None };
    if !matches!(arguments.as_slice(), [BindingValue::Callable { .. }]) {
        return None;
    }
    let mut array = field_child!(node, "value")?;
    if array.kind() == "reference_expression" {
        array = field_child!(array, "value")?;
    }
    if array.kind() != "array_expression" {
        return None;
    }
    let elements: Option<Vec<Vec<String>>> = array
        .named_children(&mut array.walk())
        .filter(|element| !element.kind().ends_with("comment"))
        .map(|element| crate::rust::path_segments(element, source, 0))
        .collect();
    elements.filter(|elements| !elements.is_empty()).map(BindingValue::Collection)
}

/// Read from a struct's or enum's own definition (no query capture needed): `struct S(A, B);`
/// gives `self.0` and `self.1`; `enum E { V(A), W }` gives `V` and `W` (the variants exist)
/// and `V.0`, all on the type.
pub(crate) fn lower_tuple_fields_and_variants(
    item: Node<'_>,
    symbol: &tether_model::Symbol,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(body) = field_child!(item, "body") else { return };
    if symbol.kind == SymbolKind::Struct {
        if body.kind() == "ordered_field_declaration_list" {
            tuple_field_bindings(body, symbol.id, "self", source, facts);
        }
        return;
    }
    let mut cursor = body.walk();
    for variant in body.named_children(&mut cursor).filter(|child| child.kind() == "enum_variant") {
        let Some(name) = field_child!(variant, "name")
            .map(|name| text_of(name, source))
            .filter(|name| !name.is_empty())
        else {
            continue;
        };
        facts.bindings.push(Binding::everywhere(
            symbol.id,
            name.to_string(),
            BindingValue::Unknown,
            line_of(variant),
        ));
        match field_child!(variant, "body") {
            Some(fields) if fields.kind() == "ordered_field_declaration_list" => {
                tuple_field_bindings(fields, symbol.id, name, source, facts)
            }
            Some(fields) if fields.kind() == "field_declaration_list" => {
                patterns::variant_named_field_bindings(fields, symbol.id, name, source, facts)
            }
            _ => {}
        }
    }
}

/// `receiver.method(|a, b: T| …)`: `a` is parameter 0 of the closure passed to `method`, `b`
/// is a `T`; both are in force inside the closure and belong to the function around it.
fn lower_closure_parameters(
    parameters: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(closure) =
        parameters.parent().filter(|closure| closure.kind() == "closure_expression")
    else {
        return;
    };
    let passed_to = callables::closure_passed_to(closure, source);
    let scope = scopes.innermost_named().id;
    let visible_to = closure.end_byte() as u32;
    let mut cursor = parameters.walk();
    for (position, parameter) in
        parameters.children(&mut cursor).filter(|child| is_list_element(*child)).enumerate()
    {
        // `|mut x|` binds `x`.
        let parameter = without_binding_modifiers(parameter);
        let (name_node, value) = match parameter.kind() {
            "identifier" | "tuple_pattern" => {
                let value = passed_to.as_ref().map_or(BindingValue::Unknown, |passed_to| {
                    passed_to.parameter_value(position as u32)
                });
                // `|(key, value)|`: each name is an element of the parameter.
                if parameter.kind() == "tuple_pattern" {
                    for (name, value) in pattern_bindings(parameter, value, source) {
                        facts.bindings.push(Binding {
                            scope,
                            name,
                            value,
                            line: line_of(parameter),
                            visible_from: parameter.start_byte() as u32,
                            visible_to,
                            branch: tether_model::Branch::ALWAYS,
                        });
                    }
                    continue;
                }
                (parameter, value)
            }
            "parameter" => {
                let Some(pattern) = field_child!(parameter, "pattern")
                    .filter(|pattern| pattern.kind() == "identifier")
                else {
                    continue;
                };
                // An untyped closure parameter is still a local: it hides outer names.
                let value = field_child!(parameter, "type")
                    .and_then(|annotation| binding_type(annotation, parameter, source));
                (pattern, value.unwrap_or(BindingValue::Unknown))
            }
            _ => continue,
        };
        let name = text_of(name_node, source).to_string();
        facts.bindings.push(Binding {
            scope,
            name,
            value,
            line: line_of(name_node),
            visible_from: name_node.start_byte() as u32,
            visible_to,
            branch: tether_model::Branch::ALWAYS,
        });
    }
}

/// The names an identifier or (nested) tuple pattern binds, each with its part of `value`.
fn pattern_bindings(
    pattern: Node<'_>,
    value: BindingValue,
    source: &str,
) -> Vec<(String, BindingValue)> {
    let mut bindings = Vec::new();
    collect_pattern_bindings(pattern, value, source, &mut bindings, 0);
    bindings
}

fn collect_pattern_bindings(
    pattern: Node<'_>,
    value: BindingValue,
    source: &str,
    bindings: &mut Vec<(String, BindingValue)>,
    depth: usize,
) {
    match pattern.kind() {
        "identifier" => bindings.push((text_of(pattern, source).to_string(), value)),
        "mut_pattern" | "ref_pattern" | "reference_pattern" if depth < 8 => {
            collect_pattern_bindings(
                without_binding_modifiers(pattern),
                value,
                source,
                bindings,
                depth + 1,
            )
        }
        "tuple_pattern" if depth < 8 => {
            let mut cursor = pattern.walk();
            // Positions after a `..` count from the end: those names are locals of no known type.
            let mut after_rest = false;
            for (position, element) in
                pattern.children(&mut cursor).filter(|child| is_list_element(*child)).enumerate()
            {
                after_rest |= element.kind() == "remaining_field_pattern";
                let element_value = match after_rest {
                    true => BindingValue::Unknown,
                    false => BindingValue::TupleElement {
                        of: Box::new(value.clone()),
                        position: position as u32,
                    },
                };
                collect_pattern_bindings(element, element_value, source, bindings, depth + 1);
            }
        }
        // `let [first, second] = table();`: each name is an element of the array or slice
        // (a rest pattern, `rest @ ..`, binds a local of no known type).
        "slice_pattern" if depth < 8 => {
            let of = match &value {
                BindingValue::CallResult(callee) => Receiver::Call(Box::new(callee.clone())),
                BindingValue::Expression(receiver) => receiver.clone(),
                _ => Receiver::Other,
            };
            let mut cursor = pattern.walk();
            for element in pattern.children(&mut cursor).filter(|child| is_list_element(*child)) {
                let element_value = match (&of, element.kind()) {
                    (Receiver::Other, _) | (_, "captured_pattern" | "remaining_field_pattern") => {
                        BindingValue::Unknown
                    }
                    _ => BindingValue::ElementOf(of.clone()),
                };
                // `rest @ ..` names its identifier.
                let element = match element.kind() {
                    "captured_pattern" => element.named_child(0).unwrap_or(element),
                    _ => element,
                };
                collect_pattern_bindings(element, element_value, source, bindings, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether a child of a parameter list or pattern takes a position in it: every element,
/// including the wildcard `_` (an unnamed node), but no punctuation or comment.
fn is_list_element(child: Node<'_>) -> bool {
    !matches!(child.kind(), "(" | ")" | "[" | "]" | "," | "|" | "line_comment" | "block_comment")
}

/// `Some(x)` / `Ok(x)` hold what the matched value holds (`value?`); `Variant(a, b)` holds the
/// variant's fields by position. In force from after the matched value to the end of the
/// `if let`, `while let`, `match` arm, or `let … else` block.
fn lower_tuple_struct_pattern(
    pattern: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(variant) = field_child!(pattern, "type") else { return };
    let Some(variant_path) = path_segments(variant, source, 0) else { return };
    let (matched, (visible_from, visible_to)) = pattern_context(pattern);
    let unwraps = matches!(variant_path.as_slice(), [name] if name == "Some" || name == "Ok");
    let scope = scopes.innermost_named().id;
    let mut cursor = pattern.walk();
    let fields = pattern
        .children(&mut cursor)
        .filter(|child| child.id() != variant.id() && is_list_element(*child));
    let mut after_rest = false;
    for (position, field) in fields.enumerate() {
        // Positions after a `..` count from the end: those names are locals of no known type.
        after_rest |= field.kind() == "remaining_field_pattern";
        // `Some(ref mut x)` binds `x`.
        let field = without_binding_modifiers(field);
        if !matches!(field.kind(), "identifier" | "tuple_pattern") {
            continue;
        }
        let value = match (unwraps, matched) {
            _ if after_rest => BindingValue::Unknown,
            (true, Some(matched)) => match receiver_of(matched, source, 0) {
                Receiver::Other => BindingValue::Unknown,
                receiver => BindingValue::Expression(Receiver::Try(Box::new(receiver))),
            },
            (true, None) => BindingValue::Unknown,
            (false, _) => BindingValue::VariantField {
                variant: variant_path.clone(),
                position: position as u32,
            },
        };
        // `Some((a, b))`: each name is an element of what the variant holds.
        for (name, value) in pattern_bindings(field, value, source) {
            facts.bindings.push(Binding {
                scope,
                name,
                value,
                line: line_of(field),
                visible_from,
                visible_to,
                branch: tether_model::Branch::ALWAYS,
            });
        }
    }
}

/// For a pattern: the value a top-level pattern is matched against (`if let P = value`, `let
/// P = value else …`, `match value { P => … }`; `None` for nested patterns), and the bytes
/// where its bindings are in force.
pub(crate) fn pattern_context(pattern: Node<'_>) -> (Option<Node<'_>>, (u32, u32)) {
    let from = pattern.start_byte() as u32;
    let mut matched = None;
    let mut current = pattern.parent();
    for depth in 0..MAX_NESTING_FOLLOWED {
        let Some(ancestor) = current else { break };
        match ancestor.kind() {
            "let_declaration" => {
                if depth == 0 {
                    matched = field_child!(ancestor, "value");
                }
                let block_end = ancestor.parent().map_or(u32::MAX, |block| block.end_byte() as u32);
                return (matched, (ancestor.end_byte() as u32, block_end));
            }
            // `if let Some(x) = x.parent()`: the value is read before `x` is bound.
            "let_condition" => {
                if depth == 0 {
                    matched = field_child!(ancestor, "value");
                }
                let mut owner = ancestor.parent();
                while let Some(current) = owner.filter(|current| {
                    !matches!(current.kind(), "if_expression" | "while_expression")
                }) {
                    owner = current.parent();
                }
                return (
                    matched,
                    (
                        ancestor.end_byte() as u32,
                        owner.map_or(u32::MAX, |owner| owner.end_byte() as u32),
                    ),
                );
            }
            "match_arm" => {
                if depth == 1 {
                    matched = ancestor
                        .parent()
                        .and_then(|block| block.parent())
                        .and_then(|expression| field_child!(expression, "value"));
                }
                return (matched, (from, ancestor.end_byte() as u32));
            }
            "for_expression" => {
                let body_start =
                    field_child!(ancestor, "body").map_or(from, |body| body.start_byte() as u32);
                return (None, (body_start, ancestor.end_byte() as u32));
            }
            // A parameter's pattern (`TypeInfo { original, adjusted }: &TypeInfo`) binds in the
            // whole function or closure, not only in its parameter list.
            "parameters" | "closure_parameters" => {
                return (None, (from, ancestor.parent().unwrap_or(ancestor).end_byte() as u32))
            }
            "function_item" | "closure_expression" => {
                return (None, (from, ancestor.end_byte() as u32))
            }
            _ => current = ancestor.parent(),
        }
    }
    (matched, (from, u32::MAX))
}

/// `prefix.0`, `prefix.1`… for the types of a tuple field list.
fn tuple_field_bindings(
    fields: Node<'_>,
    owner: tether_model::SymbolId,
    prefix: &str,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut cursor = fields.walk();
    for (position, field_type) in fields.children_by_field_name("type", &mut cursor).enumerate() {
        let Some(value) = binding_type(field_type, fields, source) else { continue };
        facts.bindings.push(Binding::everywhere(
            owner,
            format!("{prefix}.{position}"),
            value,
            line_of(field_type),
        ));
    }
}

/// What a `let` without a written type is bound to.
fn expression_value(value: Node<'_>, source: &str) -> BindingValue {
    match value.kind() {
        "call_expression" => match receiver_of(value, source, 0) {
            // `let names = xs.map(|x| x.name())`: what the closure returns is kept.
            adapted @ (Receiver::Adapted { .. } | Receiver::Turbofish { .. }) => {
                BindingValue::Expression(adapted)
            }
            _ => match field_child!(value, "function") {
                Some(function) => BindingValue::CallResult(callee_expression(function, source, 0)),
                None => BindingValue::Unknown,
            },
        },
        // `let m = |path| matcher.matched(path);`: calling `m` gives what the body is.
        "closure_expression" => match adapters::closure_returned(value, source, 0) {
            Some((returned, at)) => BindingValue::Closure { returned, at },
            None => BindingValue::Unknown,
        },
        // `let x = if c { a } else { b };`: the first branch whose value is visible.
        "if_expression" | "match_expression" => {
            branches::branch_values(value, source).unwrap_or(BindingValue::Unknown)
        }
        "struct_expression" => field_child!(value, "name")
            .and_then(|name| path_segments(name, source, 0))
            .map_or(BindingValue::Unknown, BindingValue::named_type),
        // `vec![…]` and `format!(…)` build a `Vec` and a `String`.
        "macro_invocation" => {
            match field_child!(value, "macro").map(|name| text_of(name, source)) {
                Some("vec") => BindingValue::named_type(vec!["Vec".to_string()]),
                Some("format") => BindingValue::named_type(vec!["String".to_string()]),
                _ => match crate::rust::macro_arguments::ready_macro_value(value, source) {
                    Some(inner) => BindingValue::Expression(Receiver::Ready(Box::new(inner))),
                    None => BindingValue::Unknown,
                },
            }
        }
        _ => match literal_type(value, source) {
            Some(type_name) => BindingValue::named_type(vec![type_name.to_string()]),
            None => match receiver_of(value, source, 0) {
                Receiver::Other => BindingValue::Unknown,
                receiver => BindingValue::Expression(receiver),
            },
        },
    }
}
