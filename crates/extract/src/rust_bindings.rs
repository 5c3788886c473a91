//! Rust typed bindings: lets, parameters, struct and variant fields, closure parameters,
//! `for` loops and `Some(x)` / `Variant(x)` patterns, each with what makes its type visible
//! (a written type with its generic arguments, a call, an expression, an iterated value, or
//! the method a closure is passed to). The resolver types them; this file only records.

use tether_model::{Binding, BindingValue, FileFacts, Receiver, SymbolKind};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::{callee_expression, literal_type, path_segments, receiver_of, type_path, MAX_NESTING_FOLLOWED};

pub(crate) mod adapters;
mod patterns;

use patterns::without_binding_modifiers;

/// Lowers one `@local.definition` capture. Lists (`parameters`, `closure_parameters`, a
/// tuple-struct pattern, a `for` loop) are captured whole, which keeps the query cheap; what
/// their bindings share (the owner, the bytes where they are in force, the call a closure is
/// passed to, the value a pattern matches) is worked out once per list, since walking up a
/// tree-sitter tree costs a walk down from the root at every step.
pub(crate) fn lower_binding(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let line = line_of(node);
    match node.kind() {
        "let_declaration" => {
            // `let Some(x) = …` and `let Variant(x) = …` bind through their pattern's capture.
            let Some(pattern) = field_child!(node, "pattern").map(without_binding_modifiers).filter(|pattern| matches!(pattern.kind(), "identifier" | "tuple_pattern")) else { return };
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
                facts.bindings.push(Binding { scope, name, value, line, visible_from, visible_to });
            }
        }
        "parameters" => {
            let Some(function) = node.parent().filter(|owner| matches!(owner.kind(), "function_item" | "function_signature_item")) else { return };
            // Parameters belong to the function being defined, which is the innermost scope.
            let scope = scopes.innermost().id;
            let mut cursor = node.walk();
            for parameter in node.named_children(&mut cursor).filter(|child| child.kind() == "parameter") {
                let Some(pattern) = field_child!(parameter, "pattern").filter(|pattern| pattern.kind() == "identifier") else { continue };
                let Some(value) = field_child!(parameter, "type").and_then(|annotation| binding_type(annotation, parameter, source)) else { continue };
                let name = text_of(pattern, source).to_string();
                facts.bindings.push(Binding { scope, name, value, line: line_of(parameter), visible_from: parameter.start_byte() as u32, visible_to: function.end_byte() as u32 });
            }
        }
        "closure_parameters" => lower_closure_parameters(node, scopes, source, facts),
        // `for item in items`: an element of what is iterated, in force in the body.
        "for_expression" => {
            let Some(pattern) = field_child!(node, "pattern").map(without_binding_modifiers).filter(|pattern| matches!(pattern.kind(), "identifier" | "tuple_pattern")) else { return };
            let iterated = field_child!(node, "value").map_or(Receiver::Other, |iterated| receiver_of(iterated, source, 0));
            let value = match iterated {
                Receiver::Other => BindingValue::Unknown,
                receiver => BindingValue::ElementOf(receiver),
            };
            let visible_from = field_child!(node, "body").map_or(pattern.end_byte(), |body| body.start_byte()) as u32;
            let scope = scopes.innermost_named().id;
            for (name, value) in pattern_bindings(pattern, value, source) {
                facts.bindings.push(Binding { scope, name, value, line, visible_from, visible_to: node.end_byte() as u32 });
            }
        }
        "tuple_struct_pattern" => lower_tuple_struct_pattern(node, scopes, source, facts),
        "struct_pattern" => patterns::lower_struct_pattern(node, scopes, source, facts),
        "field_declaration" => {
            let owner = scopes.innermost();
            if !matches!(owner.kind, SymbolKind::Struct | SymbolKind::Union) {
                return;
            }
            let Some(name) = field_child!(node, "name").map(|name| text_of(name, source)).filter(|name| !name.is_empty()) else { return };
            let Some(value) = field_child!(node, "type").and_then(|annotation| binding_type(annotation, node, source)) else { return };
            facts.bindings.push(Binding::everywhere(owner.id, format!("self.{name}"), value, line));
        }
        _ => {}
    }
}

/// Read from a struct's or enum's own definition (no query capture needed): `struct S(A, B);`
/// gives `self.0` and `self.1`; `enum E { V(A), W }` gives `V` and `W` (the variants exist)
/// and `V.0`, all on the type.
pub(crate) fn lower_tuple_fields_and_variants(item: Node<'_>, symbol: &tether_model::Symbol, source: &str, facts: &mut FileFacts) {
    let Some(body) = field_child!(item, "body") else { return };
    if symbol.kind == SymbolKind::Struct {
        if body.kind() == "ordered_field_declaration_list" {
            tuple_field_bindings(body, symbol.id, "self", source, facts);
        }
        return;
    }
    let mut cursor = body.walk();
    for variant in body.named_children(&mut cursor).filter(|child| child.kind() == "enum_variant") {
        let Some(name) = field_child!(variant, "name").map(|name| text_of(name, source)).filter(|name| !name.is_empty()) else { continue };
        facts.bindings.push(Binding::everywhere(symbol.id, name.to_string(), BindingValue::Unknown, line_of(variant)));
        match field_child!(variant, "body") {
            Some(fields) if fields.kind() == "ordered_field_declaration_list" => tuple_field_bindings(fields, symbol.id, name, source, facts),
            Some(fields) if fields.kind() == "field_declaration_list" => patterns::variant_named_field_bindings(fields, symbol.id, name, source, facts),
            _ => {}
        }
    }
}

/// `receiver.method(|a, b: T| …)`: `a` is parameter 0 of the closure passed to `method`, `b`
/// is a `T`; both are in force inside the closure and belong to the function around it.
fn lower_closure_parameters(parameters: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let Some(closure) = parameters.parent().filter(|closure| closure.kind() == "closure_expression") else { return };
    let passed_to = method_call_taking(closure).and_then(|function| {
        let receiver = receiver_of(field_child!(function, "value")?, source, 0);
        Some((receiver, text_of(field_child!(function, "field")?, source).to_string()))
    });
    let scope = scopes.innermost_named().id;
    let visible_to = closure.end_byte() as u32;
    let mut cursor = parameters.walk();
    for (position, parameter) in parameters.children(&mut cursor).filter(|child| is_list_element(*child)).enumerate() {
        // `|mut x|` binds `x`.
        let parameter = without_binding_modifiers(parameter);
        let (name_node, value) = match parameter.kind() {
            "identifier" | "tuple_pattern" => {
                let value = match &passed_to {
                    Some((receiver, method)) => BindingValue::ClosureParameter { receiver: receiver.clone(), method: method.clone(), parameter: position as u32 },
                    None => BindingValue::Unknown,
                };
                // `|(key, value)|`: each name is an element of the parameter.
                if parameter.kind() == "tuple_pattern" {
                    for (name, value) in pattern_bindings(parameter, value, source) {
                        facts.bindings.push(Binding { scope, name, value, line: line_of(parameter), visible_from: parameter.start_byte() as u32, visible_to });
                    }
                    continue;
                }
                (parameter, value)
            }
            "parameter" => {
                let Some(pattern) = field_child!(parameter, "pattern").filter(|pattern| pattern.kind() == "identifier") else { continue };
                // An untyped closure parameter is still a local: it hides outer names.
                let value = field_child!(parameter, "type").and_then(|annotation| binding_type(annotation, parameter, source));
                (pattern, value.unwrap_or(BindingValue::Unknown))
            }
            _ => continue,
        };
        let name = text_of(name_node, source).to_string();
        facts.bindings.push(Binding { scope, name, value, line: line_of(name_node), visible_from: name_node.start_byte() as u32, visible_to });
    }
}

/// The names an identifier or (nested) tuple pattern binds, each with its part of `value`.
fn pattern_bindings(pattern: Node<'_>, value: BindingValue, source: &str) -> Vec<(String, BindingValue)> {
    let mut bindings = Vec::new();
    collect_pattern_bindings(pattern, value, source, &mut bindings, 0);
    bindings
}

fn collect_pattern_bindings(pattern: Node<'_>, value: BindingValue, source: &str, bindings: &mut Vec<(String, BindingValue)>, depth: usize) {
    match pattern.kind() {
        "identifier" => bindings.push((text_of(pattern, source).to_string(), value)),
        "mut_pattern" | "ref_pattern" if depth < 8 => collect_pattern_bindings(without_binding_modifiers(pattern), value, source, bindings, depth + 1),
        "tuple_pattern" if depth < 8 => {
            let mut cursor = pattern.walk();
            // Positions after a `..` count from the end: those names are locals of no known type.
            let mut after_rest = false;
            for (position, element) in pattern.children(&mut cursor).filter(|child| is_list_element(*child)).enumerate() {
                after_rest |= element.kind() == "remaining_field_pattern";
                let element_value = match after_rest {
                    true => BindingValue::Unknown,
                    false => BindingValue::TupleElement { of: Box::new(value.clone()), position: position as u32 },
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
    !matches!(child.kind(), "(" | ")" | "," | "|" | "line_comment" | "block_comment")
}

/// The `receiver.method` a closure is an argument of, when it is one.
fn method_call_taking(closure: Node<'_>) -> Option<Node<'_>> {
    let arguments = closure.parent().filter(|arguments| arguments.kind() == "arguments")?;
    let call = arguments.parent().filter(|call| call.kind() == "call_expression")?;
    let mut function = field_child!(call, "function")?;
    if function.kind() == "generic_function" {
        function = field_child!(function, "function")?;
    }
    (function.kind() == "field_expression").then_some(function)
}

/// `Some(x)` / `Ok(x)` hold what the matched value holds (`value?`); `Variant(a, b)` holds the
/// variant's fields by position. In force from after the matched value to the end of the
/// `if let`, `while let`, `match` arm, or `let … else` block.
fn lower_tuple_struct_pattern(pattern: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let Some(variant) = field_child!(pattern, "type") else { return };
    let Some(variant_path) = path_segments(variant, source, 0) else { return };
    let (matched, (visible_from, visible_to)) = pattern_context(pattern);
    let unwraps = matches!(variant_path.as_slice(), [name] if name == "Some" || name == "Ok");
    let scope = scopes.innermost_named().id;
    let mut cursor = pattern.walk();
    let fields = pattern.children(&mut cursor).filter(|child| child.id() != variant.id() && is_list_element(*child));
    let mut after_rest = false;
    for (position, field) in fields.enumerate() {
        // Positions after a `..` count from the end: those names are locals of no known type.
        after_rest |= field.kind() == "remaining_field_pattern";
        // `Some(ref mut x)` binds `x`.
        let field = without_binding_modifiers(field);
        if field.kind() != "identifier" {
            continue;
        }
        let value = match (unwraps, matched) {
            _ if after_rest => BindingValue::Unknown,
            (true, Some(matched)) => match receiver_of(matched, source, 0) {
                Receiver::Other => BindingValue::Unknown,
                receiver => BindingValue::Expression(Receiver::Try(Box::new(receiver))),
            },
            (true, None) => BindingValue::Unknown,
            (false, _) => BindingValue::VariantField { variant: variant_path.clone(), position: position as u32 },
        };
        facts.bindings.push(Binding { scope, name: text_of(field, source).to_string(), value, line: line_of(field), visible_from, visible_to });
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
                while let Some(current) = owner.filter(|current| !matches!(current.kind(), "if_expression" | "while_expression")) {
                    owner = current.parent();
                }
                return (matched, (ancestor.end_byte() as u32, owner.map_or(u32::MAX, |owner| owner.end_byte() as u32)));
            }
            "match_arm" => {
                if depth == 1 {
                    matched = ancestor.parent().and_then(|block| block.parent()).and_then(|expression| field_child!(expression, "value"));
                }
                return (matched, (from, ancestor.end_byte() as u32));
            }
            "for_expression" => {
                let body_start = field_child!(ancestor, "body").map_or(from, |body| body.start_byte() as u32);
                return (None, (body_start, ancestor.end_byte() as u32));
            }
            "function_item" | "closure_expression" | "parameters" | "closure_parameters" => return (None, (from, ancestor.end_byte() as u32)),
            _ => current = ancestor.parent(),
        }
    }
    (matched, (from, u32::MAX))
}

/// `prefix.0`, `prefix.1`… for the types of a tuple field list.
fn tuple_field_bindings(fields: Node<'_>, owner: tether_model::SymbolId, prefix: &str, source: &str, facts: &mut FileFacts) {
    let mut cursor = fields.walk();
    for (position, field_type) in fields.children_by_field_name("type", &mut cursor).enumerate() {
        let Some(value) = binding_type(field_type, fields, source) else { continue };
        facts.bindings.push(Binding::everywhere(owner, format!("{prefix}.{position}"), value, line_of(field_type)));
    }
}

/// What a `let` without a written type is bound to.
fn expression_value(value: Node<'_>, source: &str) -> BindingValue {
    match value.kind() {
        "call_expression" => match receiver_of(value, source, 0) {
            // `let names = xs.map(|x| x.name())`: what the closure returns is kept.
            adapted @ (Receiver::Adapted { .. } | Receiver::Turbofish { .. }) => BindingValue::Expression(adapted),
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
        "struct_expression" => {
            field_child!(value, "name").and_then(|name| path_segments(name, source, 0)).map_or(BindingValue::Unknown, BindingValue::named_type)
        }
        // `vec![…]` and `format!(…)` build a `Vec` and a `String`.
        "macro_invocation" => match field_child!(value, "macro").map(|name| text_of(name, source)) {
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

/// `&dyn Trait`, `Box<dyn Trait>`, `impl Trait` and a generic `T: Trait` (the trait's path,
/// `is_dyn`). `used_at` is the node the type is written in, to find generic parameters.
pub(crate) fn binding_type(type_node: Node<'_>, used_at: Node<'_>, source: &str) -> Option<BindingValue> {
    binding_type_in(type_node, &GenericScope::new(used_at), source)
}

/// The generic parameters a type written at `used_at` can name, found once per written type
/// (walking up a tree-sitter tree is costly) and only when a bare type name asks.
struct GenericScope<'tree> {
    used_at: Node<'tree>,
    /// Each item's generic parameters with their first bound and their position among the
    /// Self type's arguments (see [`self_type_argument_position`]), innermost item first.
    items: std::cell::OnceCell<Vec<Vec<GenericParameterInScope>>>,
}

impl<'tree> GenericScope<'tree> {
    fn new(used_at: Node<'tree>) -> GenericScope<'tree> {
        GenericScope { used_at, items: std::cell::OnceCell::new() }
    }

    /// A return type is written at the function itself, whose own generics count.
    fn is_return_type(&self) -> bool {
        matches!(self.used_at.kind(), "function_item" | "function_signature_item")
    }

    /// A struct field's type is written at its declaration (or a tuple struct's field list);
    /// a generic alias's (`type InFile<T> = InFileWrapper<HirFileId, T>`) at the alias.
    fn is_field_or_alias_type(&self) -> bool {
        matches!(self.used_at.kind(), "field_declaration" | "ordered_field_declaration_list" | "type_item")
    }

    /// `Some(first bound's path)` when `name` is a generic parameter in scope (`Some(None)`
    /// for an unbounded one), `None` when it is not one.
    fn bound(&self, name: &str, source: &str) -> Option<Option<Vec<String>>> {
        if self.is_return_type() {
            if let Some(found) = generic_parameter_bound_in_item(name, self.used_at, source) {
                return Some(found);
            }
        }
        self.parameter_in_scope(name, source).map(|parameter| parameter.bound.clone())
    }

    /// Where `name` stands among the Self type's generic arguments, when it is a parameter
    /// of the struct around a field or of the impl around a method (and not the function's).
    fn self_type_argument(&self, name: &str, source: &str) -> Option<u32> {
        self.parameter_in_scope(name, source)?.self_type_argument
    }

    fn parameter_in_scope(&self, name: &str, source: &str) -> Option<&GenericParameterInScope> {
        let items = self.items.get_or_init(|| {
            let mut items = Vec::new();
            // An alias's type is written at the alias, whose own parameters come first.
            if self.used_at.kind() == "type_item" {
                items.push(generic_parameters_with_bounds(self.used_at, source));
            }
            crate::ancestors::with_ancestors(self.used_at, |ancestors| {
                items.extend(generic_items_around(ancestors).into_iter().map(|item| generic_parameters_with_bounds(item, source)));
            });
            items
        });
        items.iter().find_map(|parameters| parameters.iter().find(|parameter| parameter.name == name))
    }
}

/// One generic parameter of an item around a written type.
struct GenericParameterInScope {
    name: String,
    /// Its first trait bound's path, if any.
    bound: Option<Vec<String>>,
    /// Its position among the Self type's generic arguments (see [`self_type_argument_position`]).
    self_type_argument: Option<u32>,
}

fn binding_type_in(type_node: Node<'_>, scope: &GenericScope<'_>, source: &str) -> Option<BindingValue> {
    let mut node = type_node;
    for _ in 0..MAX_NESTING_FOLLOWED {
        match node.kind() {
            "reference_type" => node = field_child!(node, "type")?,
            // `&(dyn A + Send)` parses as a one-element tuple type.
            "tuple_type" if node.named_child_count() == 1 => node = node.named_child(0)?,
            // `(A, B)`: a tuple, whose elements are its arguments.
            "tuple_type" => {
                let mut cursor = node.walk();
                let elements = node.named_children(&mut cursor).map(|element| binding_type_in(element, scope, source).unwrap_or(BindingValue::Unknown)).collect();
                return Some(BindingValue::Type { path: vec!["()".to_string()], is_dyn: false, arguments: elements });
            }
            "bounded_type" => {
                node = node.named_children(&mut node.walk()).find(|bound| !matches!(bound.kind(), "lifetime" | "use_bounds" | "line_comment" | "block_comment"))?
            }
            "dynamic_type" | "abstract_type" => {
                let bound = field_child!(node, "trait")?;
                let path = first_bound_path(bound, source)?;
                // `impl Iterator<Item = T>` keeps `T` as its argument.
                let arguments = associated_item_type(bound, scope, source).into_iter().collect();
                return Some(BindingValue::Type { path, is_dyn: true, arguments });
            }
            "array_type" => {
                let element = field_child!(node, "element").and_then(|element| binding_type_in(element, scope, source)).unwrap_or(BindingValue::Unknown);
                return Some(BindingValue::Type { path: vec!["[]".to_string()], is_dyn: false, arguments: vec![element] });
            }
            // `Vec<T>`, `Option<T>`, and smart pointers (`Box<dyn Trait>`, `Arc<T>`), whose
            // methods the resolver tells from their pointee's.
            "generic_type" => {
                let path = path_segments(node, source, 0)?;
                let arguments = field_child!(node, "type_arguments").map(|arguments| type_arguments(arguments, scope, source)).unwrap_or_default();
                return Some(BindingValue::Type { path, is_dyn: false, arguments });
            }
            "type_identifier" => {
                let name = text_of(node, source);
                if let Some(bound_path) = scope.bound(name, source) {
                    // Calls on a parameter of type `T: Trait` may reach any impl of the trait;
                    // but what a function returns as `T` is its caller's type, not visible here.
                    if scope.is_return_type() {
                        // The function's own parameter: a call may write it (`f::<T>()`).
                        if let Some(position) = generic_parameter_position(name, scope.used_at, source) {
                            return Some(BindingValue::GenericParameter { position });
                        }
                        // The impl's parameter: the receiver's arguments may say it (`InFile<T>`).
                        return Some(scope.self_type_argument(name, source).map_or(BindingValue::Unknown, |position| BindingValue::SelfTypeArgument { position, bound: None }));
                    }
                    if scope.is_field_or_alias_type() {
                        if let Some(position) = scope.self_type_argument(name, source) {
                            return Some(BindingValue::SelfTypeArgument { position, bound: bound_path });
                        }
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
pub(crate) fn written_type_arguments(arguments: Node<'_>, used_at: Node<'_>, source: &str) -> Vec<BindingValue> {
    type_arguments(arguments, &GenericScope::new(used_at), source)
}

fn type_arguments(arguments: Node<'_>, scope: &GenericScope<'_>, source: &str) -> Vec<BindingValue> {
    arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| !matches!(argument.kind(), "lifetime" | "line_comment" | "block_comment" | "type_binding" | "integer_literal" | "block"))
        .map(|argument| binding_type_in(argument, scope, source).unwrap_or(BindingValue::Unknown))
        .collect()
}

/// The `Item` of a bound such as `Iterator<Item = T>` or the `Output` of `Future<Output = T>`
/// (or of the first bound of `A + B` that has one).
fn associated_item_type(bound: Node<'_>, scope: &GenericScope<'_>, source: &str) -> Option<BindingValue> {
    let generic = match bound.kind() {
        "generic_type" => bound,
        "bounded_type" | "trait_bounds" => bound.named_children(&mut bound.walk()).find(|child| child.kind() == "generic_type")?,
        _ => return None,
    };
    let arguments = field_child!(generic, "type_arguments")?;
    let item = arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| argument.kind() == "type_binding")
        .find(|binding| field_child!(*binding, "name").is_some_and(|name| matches!(text_of(name, source), "Item" | "Output")))?;
    binding_type_in(field_child!(item, "type")?, scope, source)
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

/// The items whose generic parameters a type written below `ancestors` (innermost first) can
/// name, innermost first: the function, struct or enum around it, and the impl or trait
/// around a method.
fn generic_items_around<'tree>(ancestors: &[Node<'tree>]) -> Vec<Node<'tree>> {
    let mut items = Vec::new();
    let mut position = 0;
    while let Some(ancestor) = ancestors.get(position) {
        if matches!(ancestor.kind(), "function_item" | "function_signature_item" | "impl_item" | "trait_item" | "struct_item" | "union_item" | "enum_item" | "type_item") {
            items.push(*ancestor);
            // Generics of an outer function do not reach into a nested item, but those of an
            // impl or trait reach its methods.
            let list = ancestors.get(position + 1);
            let is_method_of_impl_or_trait = matches!(ancestor.kind(), "function_item" | "function_signature_item")
                && list.is_some_and(|list| list.kind() == "declaration_list")
                && ancestors.get(position + 2).is_some_and(|owner| matches!(owner.kind(), "impl_item" | "trait_item"));
            if !is_method_of_impl_or_trait {
                break;
            }
        }
        position += 1;
    }
    items
}

/// An item's generic type parameters, each with its first bound (see [`GenericScope::bound`])
/// and its position among the Self type's arguments.
fn generic_parameters_with_bounds(item: Node<'_>, source: &str) -> Vec<GenericParameterInScope> {
    let Some(type_parameters) = field_child!(item, "type_parameters") else { return Vec::new() };
    let mut cursor = type_parameters.walk();
    let names: Vec<&str> = type_parameters
        .named_children(&mut cursor)
        .filter(|parameter| parameter.kind() == "type_parameter")
        .filter_map(|parameter| field_child!(parameter, "name").map(|declared| text_of(declared, source)))
        .collect();
    names
        .into_iter()
        .filter_map(|name| {
            let bound = generic_parameter_bound_in_item(name, item, source)?;
            Some(GenericParameterInScope { name: name.to_string(), bound, self_type_argument: self_type_argument_position(name, item, source) })
        })
        .collect()
}

/// Where an item's generic parameter `name` stands among its Self type's generic arguments:
/// a struct's, enum's or union's own position; for an impl, the position of the argument
/// that is exactly `name` in the implemented type (`impl<T> InFile<T>` gives 0; `impl<T>
/// Foo<Vec<T>>` nothing). Functions and traits have no Self type's arguments to fill them.
fn self_type_argument_position(name: &str, item: Node<'_>, source: &str) -> Option<u32> {
    // A const parameter, left out of written arguments only when it is a literal, would shift
    // the positions.
    let type_parameters = field_child!(item, "type_parameters")?;
    if type_parameters.named_children(&mut type_parameters.walk()).any(|parameter| parameter.kind() == "const_parameter") {
        return None;
    }
    match item.kind() {
        "struct_item" | "enum_item" | "union_item" | "type_item" => generic_parameter_position(name, item, source),
        "impl_item" => {
            let self_type = field_child!(item, "type")?;
            if self_type.kind() != "generic_type" {
                return None;
            }
            let arguments = field_child!(self_type, "type_arguments")?;
            let position = arguments
                .named_children(&mut arguments.walk())
                .filter(|argument| !matches!(argument.kind(), "lifetime" | "line_comment" | "block_comment" | "type_binding" | "integer_literal" | "block"))
                .position(|argument| argument.kind() == "type_identifier" && text_of(argument, source) == name)?;
            u32::try_from(position).ok()
        }
        _ => None,
    }
}

/// `name`'s position among an item's type parameters (lifetimes and constants not counted).
fn generic_parameter_position(name: &str, item: Node<'_>, source: &str) -> Option<u32> {
    let type_parameters = field_child!(item, "type_parameters")?;
    let position = type_parameters
        .named_children(&mut type_parameters.walk())
        .filter(|parameter| parameter.kind() == "type_parameter")
        .position(|parameter| field_child!(parameter, "name").is_some_and(|declared| text_of(declared, source) == name))?;
    u32::try_from(position).ok()
}

/// `name`'s bound in one item's `<…>` list or where clause (see [`GenericScope::bound`]).
pub(crate) fn generic_parameter_bound_in_item(name: &str, item: Node<'_>, source: &str) -> Option<Option<Vec<String>>> {
    let type_parameters = field_child!(item, "type_parameters")?;
    let parameter = type_parameters
        .named_children(&mut type_parameters.walk())
        .find(|parameter| parameter.kind() == "type_parameter" && field_child!(*parameter, "name").is_some_and(|declared| text_of(declared, source) == name))?;
    if let Some(path) = field_child!(parameter, "bounds").and_then(|bounds| first_bound_path(bounds, source)) {
        return Some(Some(path));
    }
    let where_clause = item.named_children(&mut item.walk()).find(|child| child.kind() == "where_clause");
    let where_bound = where_clause.and_then(|where_clause| {
        where_clause
            .named_children(&mut where_clause.walk())
            .filter(|predicate| predicate.kind() == "where_predicate")
            .filter(|predicate| field_child!(*predicate, "left").is_some_and(|left| text_of(left, source) == name))
            .find_map(|predicate| field_child!(predicate, "bounds").and_then(|bounds| first_bound_path(bounds, source)))
    });
    Some(where_bound)
}
