//! Rust lowering: modules, types, traits, impls, functions, methods and macros; calls,
//! supertraits and impl blocks. `use` trees are in `rust_imports.rs`, typed bindings (lets,
//! parameters, struct fields) in `rust_bindings.rs`.

pub(crate) mod attribute_strings;
pub(crate) mod bindings;
pub(crate) mod derives;
pub(crate) mod field_getters;
pub(crate) mod implicit_calls;
pub(crate) mod imports;
pub(crate) mod item_macros;
pub(crate) mod macro_arguments;
pub(crate) mod macro_expansion;
pub(crate) mod macro_implicit_calls;
pub(crate) mod macro_matching;
pub(crate) mod macro_models;
pub(crate) mod pin_projections;
pub(crate) mod receivers;
pub(crate) mod returned_functions;
pub(crate) mod test_macros;
pub(crate) mod value_references;
pub(crate) mod visibility;
pub(crate) mod written_derefs;

use tether_model::{
    Binding, CallSite, CalleeExpr, FileFacts, ImplBlock, Language, SupertypeRef, Symbol, SymbolKind,
};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, Lowering, NewSymbol, ScopeStack};
use crate::python::shorten;
use crate::query::{CaptureRole, DefinitionCapture, Tag};
pub(crate) use crate::rust::receivers::receiver_of;
use crate::{PRIVATE_METHOD_BINDING, RETURN_BINDING, TYPE_ALIAS_BINDING};

/// Expressions, types and use trees nested deeper than this are not followed (the facts
/// degrade to `Other` or nothing), so that pathological input cannot exhaust the stack.
pub(crate) const MAX_NESTING_FOLLOWED: usize = 64;

pub(crate) struct RustLowering;

impl RustLowering {
    pub(crate) fn new(_path: &str) -> RustLowering {
        RustLowering
    }
}

impl Lowering for RustLowering {
    const LANGUAGE: Language = Language::Rust;
    const SEPARATOR: &'static str = "::";

    fn definition<'tree>(
        &self,
        capture: DefinitionCapture,
        tag: &Tag<'tree>,
        scopes: &ScopeStack,
        source: &str,
    ) -> Option<NewSymbol<'tree>> {
        let parent = scopes.innermost();
        let item = tag.node;
        let name_text = || {
            tag.name.map(|name| text_of(name, source).to_string()).filter(|name| !name.is_empty())
        };
        let (kind, name, child_prefix) = match capture {
            DefinitionCapture::Module => (SymbolKind::Module, name_text()?, None),
            DefinitionCapture::Struct => (SymbolKind::Struct, name_text()?, None),
            DefinitionCapture::Enum => (SymbolKind::Enum, name_text()?, None),
            DefinitionCapture::Union => (SymbolKind::Union, name_text()?, None),
            DefinitionCapture::Trait => (SymbolKind::Trait, name_text()?, None),
            DefinitionCapture::Macro => (SymbolKind::Macro, name_text()?, None),
            DefinitionCapture::TypeAlias => (SymbolKind::TypeAlias, name_text()?, None),
            DefinitionCapture::Function => {
                let kind = if matches!(parent.kind, SymbolKind::Impl | SymbolKind::Trait) {
                    SymbolKind::Method
                } else {
                    SymbolKind::Function
                };
                (kind, name_text()?, None)
            }
            DefinitionCapture::Impl => {
                let self_type_node = field_child!(item, "type")?;
                let self_type_name = type_display_name(self_type_node, source);
                match field_child!(item, "trait") {
                    Some(trait_node) => {
                        let trait_name = type_display_name(trait_node, source);
                        (
                            SymbolKind::Impl,
                            format!("{{impl {trait_name} for {self_type_name}}}"),
                            None,
                        )
                    }
                    None => {
                        // Methods of an inherent impl are named after the type: `m::Type::new`.
                        let has_path = type_path(self_type_node, source).is_some();
                        let child_prefix = has_path.then(|| {
                            format!("{}{}{}", parent.child_prefix, Self::SEPARATOR, self_type_name)
                        });
                        (SymbolKind::Impl, format!("{{impl {self_type_name}}}"), child_prefix)
                    }
                }
            }
            DefinitionCapture::Class | DefinitionCapture::Lambda | DefinitionCapture::Script => {
                return None
            }
        };
        let attributes = preceding_attribute_paths_and_arguments(item, source);
        let is_cfg_test = attributes.iter().any(|(path, arguments)| {
            path.len() == 1 && path[0] == "cfg" && arguments_say_test(arguments)
        });
        let is_test_attribute = matches!(kind, SymbolKind::Function | SymbolKind::Method)
            && attributes
                .iter()
                .any(|(path, _)| path.last().is_some_and(|last| is_test_attribute_name(last)));
        // `#[bench]` (libtest's benchmarks): code `cargo bench` runs by name, not a test
        // `cargo test` runs, and never dead for want of callers.
        let is_bench = matches!(kind, SymbolKind::Function)
            && attributes.iter().any(|(path, _)| path.len() == 1 && path[0] == "bench");
        Some(NewSymbol {
            kind,
            name,
            span_node: item,
            child_prefix,
            qualified_name: None,
            is_test: is_cfg_test || is_test_attribute || is_bench,
            // `#[test]` is for free functions; cargo runs no other.
            runs_as_test: is_test_attribute && kind == SymbolKind::Function,
            body_start_line: 0,
            is_overload_stub: false,
            visibility: crate::rust::visibility::declared_visibility(
                kind,
                item,
                &attributes,
                source,
            ),
        })
    }

    fn reference(&self, tag: &Tag<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
        match tag.role {
            CaptureRole::Call => lower_call(tag.node, scopes, source, facts),
            CaptureRole::Import => {
                crate::rust::imports::lower_import(tag.node, scopes, source, facts)
            }
            CaptureRole::Inherits => lower_supertraits(tag.node, scopes, source, facts),
            CaptureRole::Binding => {
                crate::rust::bindings::lower_binding(tag.node, scopes, source, facts)
            }
            CaptureRole::Value => crate::rust::value_references::lower_value_positions(
                tag.node, scopes, source, facts,
            ),
            CaptureRole::Protocol => {
                crate::rust::implicit_calls::lower_protocol_calls(tag.node, scopes, source, facts)
            }
            CaptureRole::Name
            | CaptureRole::Definition(_)
            | CaptureRole::LocalScope
            | CaptureRole::Attribute => {}
        }
    }

    fn generated_members(
        &self,
        tag: &Tag<'_>,
        symbol: &Symbol,
        source: &str,
        facts: &mut FileFacts,
    ) {
        // Only the text before the item is read when it holds no attribute.
        let models = crate::rust::macro_models::shipped_macro_models();
        let attributes = preceding_attribute_paths_and_arguments(tag.node, source);
        if models.gives_field_getters(&attributes) {
            crate::rust::field_getters::push_field_getters(tag.node, symbol, source, facts);
        }
        crate::rust::derives::push_derived_traits(tag.node, symbol, &attributes, source, facts);
        crate::rust::pin_projections::push_projection_methods(tag.node, symbol, source, facts);
    }

    fn after_definition(
        &self,
        tag: &Tag<'_>,
        symbol: &Symbol,
        _scopes: &ScopeStack,
        source: &str,
        facts: &mut FileFacts,
    ) {
        if symbol.kind == SymbolKind::Macro {
            crate::rust::macro_arguments::record_expansion_calls(
                tag.node, symbol.id, source, facts,
            );
            crate::rust::test_macros::record_test_macro(tag.node, symbol, source, facts);
            return;
        }
        if symbol.kind == SymbolKind::Method && is_private_inherent_method(tag.node) {
            facts.bindings.push(Binding::everywhere(
                symbol.id,
                PRIVATE_METHOD_BINDING.to_string(),
                tether_model::BindingValue::Unknown,
                line_of(tag.node),
            ));
        }
        if symbol.kind.is_callable() {
            // The declared return type, as the binding `return` of the function.
            if let Some(value) = field_child!(tag.node, "return_type").and_then(|return_type| {
                crate::rust::bindings::binding_type(return_type, tag.node, source)
            }) {
                // An `async fn` returns a future of its declared type (`.await` gives it).
                let value = match is_async(tag.node, source) {
                    true => {
                        let future = ["std", "future", "Future"].map(String::from).to_vec();
                        tether_model::BindingValue::Type {
                            path: future,
                            is_dyn: true,
                            arguments: vec![value],
                        }
                    }
                    false => value,
                };
                let returns_callable = matches!(value, tether_model::BindingValue::Callable { .. });
                facts.bindings.push(Binding::everywhere(
                    symbol.id,
                    RETURN_BINDING.to_string(),
                    value,
                    line_of(tag.node),
                ));
                if returns_callable {
                    crate::rust::returned_functions::record_returned_functions(
                        tag.node, symbol.id, source, facts,
                    );
                }
            }
            return;
        }
        if symbol.kind == SymbolKind::TypeAlias {
            // What the alias stands for, as the binding `type` of the alias.
            if let Some(value) = field_child!(tag.node, "type")
                .and_then(|aliased| crate::rust::bindings::binding_type(aliased, tag.node, source))
            {
                facts.bindings.push(Binding::everywhere(
                    symbol.id,
                    TYPE_ALIAS_BINDING.to_string(),
                    value,
                    line_of(tag.node),
                ));
            }
            return;
        }
        if matches!(symbol.kind, SymbolKind::Struct | SymbolKind::Enum) {
            crate::rust::bindings::lower_tuple_fields_and_variants(tag.node, symbol, source, facts);
            return;
        }
        if symbol.kind != SymbolKind::Impl {
            return;
        }
        // `impl<L: Link> LinkedList<L>`: `L::pointers(…)` in its methods.
        crate::rust::bindings::callables::record_generic_parameter_bounds(
            tag.node, symbol.id, source, facts,
        );
        let Some(self_type_node) = field_child!(tag.node, "type") else { return };
        let Some(self_type) = type_path(self_type_node, source) else { return };
        let trait_path =
            field_child!(tag.node, "trait").and_then(|trait_node| type_path(trait_node, source));
        // `impl<R: AsyncRead> AsyncReadExt for R`: the trait's methods reach every `AsyncRead`.
        let blanket_bound = match (self_type_node.kind(), &trait_path) {
            ("type_identifier", Some(_)) => crate::rust::bindings::generic_parameter_bound_in_item(
                text_of(self_type_node, source),
                tag.node,
                source,
            )
            .map(Option::unwrap_or_default),
            _ => None,
        };
        facts.impls.push(ImplBlock {
            impl_symbol: symbol.id,
            self_type,
            trait_path,
            blanket_bound,
            line: line_of(tag.node),
        });
    }
}

/// Whether a function item sits in an inherent impl (not a trait impl, whose methods are as
/// visible as the trait) and has no visibility modifier.
fn is_private_inherent_method(function: Node<'_>) -> bool {
    let impl_item = function.parent().and_then(|list| list.parent());
    let in_inherent_impl = impl_item
        .is_some_and(|item| item.kind() == "impl_item" && field_child!(item, "trait").is_none());
    in_inherent_impl
        && !function
            .children(&mut function.walk())
            .any(|child| child.kind() == "visibility_modifier")
}

/// Whether a function item is `async` (its modifiers say so).
fn is_async(function: Node<'_>, source: &str) -> bool {
    let mut cursor = function.walk();
    let modifiers =
        function.named_children(&mut cursor).find(|child| child.kind() == "function_modifiers");
    modifiers.is_some_and(|modifiers| {
        text_of(modifiers, source).split_whitespace().any(|word| word == "async")
    })
}

/// The attributes (`#[…]`) written before an item, each as (path segments, argument text),
/// found by walking back over attribute and comment siblings.
fn preceding_attribute_paths_and_arguments(
    item: Node<'_>,
    source: &str,
) -> Vec<(Vec<String>, String)> {
    let mut attributes = Vec::new();
    // Finding a node's previous sibling walks the tree from its root: look at the text first.
    if !text_before_ends_with_attribute(&source[..item.start_byte().min(source.len())]) {
        return attributes;
    }
    let mut sibling = item.prev_sibling();
    while let Some(node) = sibling {
        match node.kind() {
            "attribute_item" => {
                if let Some(attribute) =
                    node.named_children(&mut node.walk()).find(|child| child.kind() == "attribute")
                {
                    let path = attribute
                        .named_child(0)
                        .and_then(|path_node| path_segments(path_node, source, 0));
                    let arguments = field_child!(attribute, "arguments")
                        .map(|arguments| text_of(arguments, source))
                        .unwrap_or("");
                    if let Some(path) = path {
                        attributes.push((path, arguments.to_string()));
                    }
                }
            }
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        sibling = node.prev_sibling();
    }
    attributes
}

/// Whether the text before an item, past whitespace and comment lines, ends with `]` (an
/// attribute may be there).
fn text_before_ends_with_attribute(before: &str) -> bool {
    let mut rest = before.trim_end();
    loop {
        if rest.ends_with("*/") {
            match rest.rfind("/*") {
                Some(start) => rest = rest[..start].trim_end(),
                None => return false,
            }
            continue;
        }
        let line_start = rest.rfind('\n').map_or(0, |newline| newline + 1);
        let line = &rest[line_start..];
        if line.trim_start().starts_with("//") {
            rest = rest[..line_start].trim_end();
            continue;
        }
        // `#[cfg_attr(miri, ignore)] // Miri is too slow`: a comment after the attribute.
        let before_a_comment =
            line.match_indices("//").any(|(at, _)| line[..at].trim_end().ends_with(']'));
        return rest.ends_with(']') || before_a_comment;
    }
}

/// Whether `cfg` arguments enable the item only in tests: `(test)` or `(all(test, …))`.
fn arguments_say_test(arguments: &str) -> bool {
    let compact: String = arguments.chars().filter(|c| !c.is_whitespace()).collect();
    compact == "(test)" || compact.starts_with("(all(test,") || compact == "(all(test))"
}

/// The short name of a type for an impl's name: the last path segment without generic
/// arguments or references (`&'a mut fmt::Wrapper<T>` gives `Wrapper`); the whitespace-
/// normalized text for types that are not paths (`(A, B)`).
fn type_display_name(type_node: Node<'_>, source: &str) -> String {
    // `impl Emit for &Packet` beside `impl Emit for Packet`: the reference is part of the name.
    if type_node.kind() == "reference_type" {
        if let Some(inner) = field_child!(type_node, "type") {
            let is_mut = type_node
                .children(&mut type_node.walk())
                .any(|child| child.kind() == "mutable_specifier");
            let reference = if is_mut { "&mut " } else { "&" };
            return format!("{reference}{}", type_display_name(inner, source));
        }
    }
    match type_path(type_node, source).and_then(|path| path.last().cloned()) {
        Some(last) => last,
        None => text_of(type_node, source).split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// The path a type names, with references, lifetimes and generic arguments dropped
/// (`&'a mut a::Vec<T>` gives `["a", "Vec"]`); `dyn Trait` gives the trait's path.
pub(crate) fn type_path(type_node: Node<'_>, source: &str) -> Option<Vec<String>> {
    let mut node = type_node;
    for _ in 0..MAX_NESTING_FOLLOWED {
        match node.kind() {
            "reference_type" => node = field_child!(node, "type")?,
            "dynamic_type" | "abstract_type" => node = field_child!(node, "trait")?,
            "higher_ranked_trait_bound" => node = field_child!(node, "type")?,
            _ => return path_segments(node, source, 0),
        }
    }
    None
}

/// The segments of a path (`a::b::C`, `Vec::<u8>::new`, `crate::x`, `::std::fmt`), with
/// generic arguments and a leading `::` dropped; `None` for anything that is not a path
/// (such as `<T as Trait>::f`).
pub(crate) fn path_segments(node: Node<'_>, source: &str, depth: usize) -> Option<Vec<String>> {
    if depth > MAX_NESTING_FOLLOWED {
        return None;
    }
    match node.kind() {
        "identifier" | "type_identifier" | "field_identifier" | "primitive_type" | "crate"
        | "self" | "super" | "metavariable" => {
            let text = text_of(node, source);
            (!text.is_empty()).then(|| vec![text.to_string()])
        }
        "scoped_identifier" | "scoped_type_identifier" => {
            let mut segments = match field_child!(node, "path") {
                Some(path) => path_segments(path, source, depth + 1)?,
                None => Vec::new(),
            };
            let name = text_of(field_child!(node, "name")?, source);
            if name.is_empty() {
                return None;
            }
            segments.push(name.to_string());
            Some(segments)
        }
        "generic_type" | "generic_type_with_turbofish" => {
            path_segments(field_child!(node, "type")?, source, depth + 1)
        }
        "generic_function" => path_segments(field_child!(node, "function")?, source, depth + 1),
        _ => None,
    }
}

fn lower_call(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    let caller = scopes.innermost_named().id;
    let line = line_of(node);
    match node.kind() {
        "call_expression" => {
            let Some(function) = field_child!(node, "function") else { return };
            record_call_arguments(node, caller, source, facts);
            facts.calls.push(CallSite {
                caller,
                callee: callee_expression(function, source, 0),
                line,
                byte: node.start_byte() as u32,
                text: shorten(text_of(function, source)),
            });
            crate::rust::implicit_calls::push_to_string_call(node, function, scopes, source, facts);
        }
        "macro_invocation" => {
            let Some(macro_path) = field_child!(node, "macro") else { return };
            let callee = path_segments(macro_path, source, 0)
                .map(CalleeExpr::Macro)
                .unwrap_or(CalleeExpr::Other);
            facts.calls.push(CallSite {
                caller,
                callee,
                line,
                byte: node.start_byte() as u32,
                text: shorten(&format!("{}!", text_of(macro_path, source))),
            });
            if let Some(arguments) =
                node.named_children(&mut node.walk()).find(|child| child.kind() == "token_tree")
            {
                let name = text_of(macro_path, source).rsplit("::").next().unwrap_or_default();
                crate::rust::macro_arguments::record_invocation_identifiers(
                    caller, line, name, arguments, source, facts,
                );
                crate::rust::macro_arguments::calls_in_macro_arguments(
                    text_of(macro_path, source),
                    arguments,
                    caller,
                    source,
                    facts,
                    0,
                );
                crate::rust::test_macros::push_macro_written_test(
                    node, name, scopes, source, facts,
                );
            }
        }
        _ => {}
    }
}

/// The arguments of a call that name a value (`apply(double, x)`, `run(&Type::assoc)`), by
/// position: what a parameter typed `fn(…)` or `impl Fn(…)` may hold (value flow).
fn record_call_arguments(
    call: Node<'_>,
    caller: tether_model::SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let mut cursor = arguments.walk();
    let values = arguments
        .named_children(&mut cursor)
        .filter(|child| !child.kind().ends_with("comment") && child.kind() != "attribute_item");
    for (position, value) in values.enumerate() {
        // `&f`, `&mut f`: the function itself; `*x`: what `x` points to.
        let dereferenced = value.kind() == "unary_expression"
            && value.child(0).is_some_and(|operator| operator.kind() == "*");
        let named = match value.kind() {
            "reference_expression" => field_child!(value, "value"),
            _ if dereferenced => value.named_child(0),
            _ => Some(value),
        };
        let Some(named) =
            named.filter(|named| matches!(named.kind(), "identifier" | "scoped_identifier"))
        else {
            continue;
        };
        let Some(path) = path_segments(named, source, 0) else { continue };
        facts.call_arguments.push(tether_model::CallArgument {
            caller,
            call_byte: call.start_byte() as u32,
            position: Some(position as u32),
            keyword: None,
            path,
            byte: named.start_byte() as u32,
            form: match dereferenced {
                true => tether_model::ArgumentForm::Dereferenced,
                false => tether_model::ArgumentForm::Plain,
            },
        });
    }
}

/// The structure of the callee of a call expression (its `function` field).
pub(crate) fn callee_expression(function: Node<'_>, source: &str, depth: usize) -> CalleeExpr {
    if depth > MAX_NESTING_FOLLOWED {
        return CalleeExpr::Other;
    }
    let method_node = match function.kind() {
        "field_expression" => Some(function),
        "generic_function" => {
            field_child!(function, "function").filter(|inner| inner.kind() == "field_expression")
        }
        _ => None,
    };
    if let Some(method_node) = method_node {
        let (Some(value), Some(field)) =
            (field_child!(method_node, "value"), field_child!(method_node, "field"))
        else {
            return CalleeExpr::Other;
        };
        return CalleeExpr::Method {
            receiver: receiver_of(value, source, depth),
            name: text_of(field, source).to_string(),
        };
    }
    match function.kind() {
        // `(match mode { A => f, B => g })(msg)`: what any arm gives.
        "parenthesized_expression" if branch_values(function).is_some() => {
            let arms = branch_values(function).unwrap_or_default();
            CalleeExpr::Alternatives(
                arms.into_iter().map(|arm| callee_expression(arm, source, depth + 1)).collect(),
            )
        }
        // `(self.run)(x)`: the value a field holds.
        "parenthesized_expression" => match function.named_child(0) {
            Some(field) if field.kind() == "field_expression" => {
                match (field_child!(field, "value"), field_child!(field, "field")) {
                    (Some(value), Some(name)) => CalleeExpr::FieldValue {
                        receiver: receiver_of(value, source, depth),
                        field: text_of(name, source).to_string(),
                    },
                    _ => CalleeExpr::Other,
                }
            }
            _ => CalleeExpr::Other,
        },
        // `OPS[i](x)`: an element of a table of functions.
        "index_expression" => {
            match function.named_child(0).and_then(|table| path_segments(table, source, 0)) {
                Some(table) => CalleeExpr::Indexed(table),
                None => CalleeExpr::Other,
            }
        }
        // `pick(flag)(msg)`: what the inner call returns.
        "call_expression" => match field_child!(function, "function") {
            Some(inner) => {
                CalleeExpr::Returned(Box::new(callee_expression(inner, source, depth + 1)))
            }
            None => CalleeExpr::Other,
        },
        "identifier" | "scoped_identifier" | "generic_function" | "self" | "super" | "crate" => {
            path_segments(function, source, 0)
                .map(CalleeExpr::Path)
                .or_else(|| trait_path_callee(function, source))
                .unwrap_or(CalleeExpr::Other)
        }
        _ => CalleeExpr::Other,
    }
}

/// Alternatives at most followed in a conditional callee.
const MAX_ALTERNATIVES: usize = 16;

/// The value expressions of the arms of a parenthesized `match` or `if`/`else` (each block's
/// tail), when every arm has one: `(match m { A => f, B => g })`.
fn branch_values(parenthesized: Node<'_>) -> Option<Vec<Node<'_>>> {
    let inner = parenthesized.named_child(0)?;
    let mut values = Vec::new();
    match inner.kind() {
        "match_expression" => {
            let body = field_child!(inner, "body")?;
            for arm in body.named_children(&mut body.walk()) {
                if arm.kind() == "match_arm" {
                    values.push(block_tail(field_child!(arm, "value")?)?);
                }
            }
        }
        "if_expression" => {
            let mut branch = Some(inner);
            while let Some(conditional) = branch {
                values.push(block_tail(field_child!(conditional, "consequence")?)?);
                let alternative = field_child!(conditional, "alternative")?.named_child(0)?;
                if alternative.kind() == "if_expression" {
                    branch = Some(alternative);
                } else {
                    values.push(block_tail(alternative)?);
                    branch = None;
                }
            }
        }
        _ => return None,
    }
    (!values.is_empty() && values.len() <= MAX_ALTERNATIVES).then_some(values)
}

/// A block's tail expression (`{ f }` gives `f`), or the expression itself.
fn block_tail(node: Node<'_>) -> Option<Node<'_>> {
    if node.kind() != "block" {
        return Some(node);
    }
    let last = node
        .named_children(&mut node.walk())
        .filter(|child| !child.kind().ends_with("comment"))
        .last()?;
    (!last.kind().ends_with("_statement")
        && !last.kind().ends_with("_declaration")
        && last.kind() != "let_declaration")
        .then_some(last)
}

/// `<Type as Trait>::name` (also with generic arguments on either side, and as the function
/// of a turbofish), or `<Type>::name` as the path `Type::name`.
fn trait_path_callee(function: Node<'_>, source: &str) -> Option<CalleeExpr> {
    let scoped = match function.kind() {
        "generic_function" => field_child!(function, "function")?,
        _ => function,
    };
    if scoped.kind() != "scoped_identifier" {
        return None;
    }
    let name = text_of(field_child!(scoped, "name")?, source).to_string();
    let bracketed = field_child!(scoped, "path").filter(|path| path.kind() == "bracketed_type")?;
    let inner = bracketed.named_child(0)?;
    if inner.kind() != "qualified_type" {
        let mut path = type_path(inner, source)?;
        path.push(name);
        return Some(CalleeExpr::Path(path));
    }
    let self_type = type_path(field_child!(inner, "type")?, source)?;
    let trait_path = type_path(field_child!(inner, "alias")?, source)?;
    Some(CalleeExpr::TraitPath { self_type, trait_path, name })
}

/// The prelude type of a literal expression node (`"a".len()` calls a `str` method), with a
/// numeric literal's suffix (`3i8` is an `i8`; `0x1f32` is a hex `i32`, not an `f32`).
pub(crate) fn literal_type(node: Node<'_>, source: &str) -> Option<&'static str> {
    match node.kind() {
        "string_literal" | "raw_string_literal" => Some("str"),
        "char_literal" => Some("char"),
        "boolean_literal" => Some("bool"),
        kind @ ("integer_literal" | "float_literal") => {
            let text = text_of(node, source);
            let is_hex = text.starts_with("0x") || text.starts_with("0X");
            let suffix = NUMERIC_SUFFIXES
                .iter()
                .find(|suffix| text.ends_with(*suffix) && !(is_hex && suffix.starts_with('f')));
            Some(suffix.copied().unwrap_or(if kind == "integer_literal" { "i32" } else { "f64" }))
        }
        "array_expression" => Some("Vec"),
        _ => None,
    }
}

/// The types a numeric literal's suffix names.
const NUMERIC_SUFFIXES: [&str; 14] = [
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f32",
    "f64",
];

/// `trait A: B + fmt::Debug` (a bound of the trait) or `where Self: B` (a predicate).
fn lower_supertraits(node: Node<'_>, scopes: &ScopeStack, source: &str, facts: &mut FileFacts) {
    // The trait being defined is the innermost scope: its bounds lie inside its node.
    let subtype = scopes.innermost();
    if subtype.kind != SymbolKind::Trait {
        return;
    }
    let bounds: Vec<Node<'_>> = if node.kind() == "where_predicate" {
        let left_is_self =
            field_child!(node, "left").is_some_and(|left| text_of(left, source) == "Self");
        match field_child!(node, "bounds") {
            Some(bounds) if left_is_self => bounds.named_children(&mut bounds.walk()).collect(),
            _ => return,
        }
    } else {
        vec![node]
    };
    for bound in bounds {
        if matches!(
            bound.kind(),
            "lifetime" | "removed_trait_bound" | "line_comment" | "block_comment"
        ) {
            continue;
        }
        if let Some(path) = type_path(bound, source) {
            facts.supertypes.push(SupertypeRef { subtype: subtype.id, path, line: line_of(bound) });
        }
    }
}

const TEST_ATTRIBUTES: &str = include_str!("../../../../queries/rust/test_attributes.txt");

/// Whether an attribute whose path ends in `name` makes a function a test
/// (`queries/rust/test_attributes.txt`).
fn is_test_attribute_name(name: &str) -> bool {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    NAMES
        .get_or_init(|| {
            TEST_ATTRIBUTES
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty() && !line.starts_with('#'))
                .collect()
        })
        .contains(&name)
}
