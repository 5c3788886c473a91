//! Written Rust types as binding values: a type with its generic arguments (`Option<ast::Name>`,
//! `impl Iterator<Item = T>`, tuples, arrays), a generic parameter in scope (with its first
//! bound, or as the Self type's or the function's own parameter by position), found from the
//! items around where the type is written in one descent from the root.

use tether_model::BindingValue;
use tree_sitter::Node;

use crate::outline::text_of;
use crate::rust::{path_segments, type_path, MAX_NESTING_FOLLOWED};

/// `&dyn Trait`, `Box<dyn Trait>`, `impl Trait` and a generic `T: Trait` (the trait's path,
/// `is_dyn`). `used_at` is the node the type is written in, to find generic parameters.
pub(crate) fn binding_type(
    type_node: Node<'_>,
    used_at: Node<'_>,
    source: &str,
) -> Option<BindingValue> {
    binding_type_in(type_node, &GenericScope::new(used_at), source)
}

/// The generic parameters a type written at `used_at` can name, found once per written type
/// (walking up a tree-sitter tree is costly) and only when a bare type name asks.
struct GenericScope<'tree> {
    used_at: Node<'tree>,
    /// Each item's generic parameters with their first bound and their position among the
    /// Self type's arguments (see [`self_type_argument_position`]), innermost item first.
    items: std::cell::OnceCell<Vec<Vec<GenericParameterInScope>>>,
    /// Set while the parameter types of an `Fn` type are read: a generic parameter there is
    /// the caller's type, which a closure sees whole, not just its bound.
    in_callable_parameters: std::cell::Cell<bool>,
}

impl<'tree> GenericScope<'tree> {
    fn new(used_at: Node<'tree>) -> GenericScope<'tree> {
        GenericScope {
            used_at,
            items: std::cell::OnceCell::new(),
            in_callable_parameters: std::cell::Cell::new(false),
        }
    }

    /// A return type is written at the function itself, whose own generics count.
    fn is_return_type(&self) -> bool {
        matches!(self.used_at.kind(), "function_item" | "function_signature_item")
    }

    /// A struct field's type is written at its declaration (or a tuple struct's field list);
    /// a generic alias's (`type InFile<T> = InFileWrapper<HirFileId, T>`) at the alias.
    fn is_field_or_alias_type(&self) -> bool {
        matches!(
            self.used_at.kind(),
            "field_declaration" | "ordered_field_declaration_list" | "type_item"
        )
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

    /// The `Fn`-trait bound (`F: FnOnce(&mut T)`, or in a where clause) of a generic
    /// parameter in scope named `name`, for a parameter's type (not a return or field type).
    fn callable_bound(&self, name: &str, source: &str) -> Option<&BindingValue> {
        if self.is_return_type() || self.is_field_or_alias_type() {
            return None;
        }
        self.parameter_in_scope(name, source)?.callable_bound.as_ref()
    }

    fn parameter_in_scope(&self, name: &str, source: &str) -> Option<&GenericParameterInScope> {
        let items = self.items.get_or_init(|| {
            let mut items = Vec::new();
            // An alias's type is written at the alias, whose own parameters come first.
            if self.used_at.kind() == "type_item" {
                items.push(generic_parameters_with_bounds(self.used_at, source));
            }
            crate::ancestors::with_ancestors(self.used_at, |ancestors| {
                items.extend(
                    generic_items_around(ancestors)
                        .into_iter()
                        .map(|item| generic_parameters_with_bounds(item, source)),
                );
            });
            items
        });
        items
            .iter()
            .find_map(|parameters| parameters.iter().find(|parameter| parameter.name == name))
    }
}

/// One generic parameter of an item around a written type.
struct GenericParameterInScope {
    name: String,
    /// Its first trait bound's path, if any.
    bound: Option<Vec<String>>,
    /// Its position among the Self type's generic arguments (see [`self_type_argument_position`]).
    self_type_argument: Option<u32>,
    /// Its `Fn`-trait bound as a `Callable`, if it has one.
    callable_bound: Option<BindingValue>,
}

fn binding_type_in<'tree>(
    type_node: Node<'tree>,
    scope: &GenericScope<'tree>,
    source: &str,
) -> Option<BindingValue> {
    let mut node = type_node;
    for _ in 0..MAX_NESTING_FOLLOWED {
        match node.kind() {
            "reference_type" => node = field_child!(node, "type")?,
            // `&(dyn A + Send)` parses as a one-element tuple type.
            "tuple_type" if node.named_child_count() == 1 => node = node.named_child(0)?,
            // `(A, B)`: a tuple, whose elements are its arguments.
            "tuple_type" => {
                let mut cursor = node.walk();
                let elements = node
                    .named_children(&mut cursor)
                    .map(|element| {
                        binding_type_in(element, scope, source).unwrap_or(BindingValue::Unknown)
                    })
                    .collect();
                return Some(BindingValue::Type {
                    path: vec!["()".to_string()],
                    is_dyn: false,
                    arguments: elements,
                });
            }
            "bounded_type" => {
                node = node.named_children(&mut node.walk()).find(|bound| {
                    !matches!(
                        bound.kind(),
                        "lifetime" | "use_bounds" | "line_comment" | "block_comment"
                    )
                })?
            }
            "dynamic_type" | "abstract_type" => {
                let bound = field_child!(node, "trait")?;
                // `impl FnOnce(&mut Builder)`, `dyn Fn(A) + Send`: what its callers pass.
                if let Some(function_type) = callable_in_bounds(bound) {
                    return Some(callable_value(function_type, scope, source));
                }
                let path = first_bound_path(bound, source)?;
                // `impl Iterator<Item = T>` keeps `T` as its argument.
                let arguments = associated_item_type(bound, scope, source).into_iter().collect();
                return Some(BindingValue::Type { path, is_dyn: true, arguments });
            }
            "array_type" => {
                let element = field_child!(node, "element")
                    .and_then(|element| binding_type_in(element, scope, source))
                    .unwrap_or(BindingValue::Unknown);
                return Some(BindingValue::Type {
                    path: vec!["[]".to_string()],
                    is_dyn: false,
                    arguments: vec![element],
                });
            }
            // `Vec<T>`, `Option<T>`, and smart pointers (`Box<dyn Trait>`, `Arc<T>`), whose
            // methods the resolver tells from their pointee's.
            "generic_type" => {
                let path = path_segments(node, source, 0)?;
                let arguments = field_child!(node, "type_arguments")
                    .map(|arguments| type_arguments(arguments, scope, source))
                    .unwrap_or_default();
                return Some(BindingValue::Type { path, is_dyn: false, arguments });
            }
            // `fn(A) -> R`, or an `Fn` trait written bare (`Box<FnOnce(A)>`, old style).
            "function_type" => return Some(callable_value(node, scope, source)),
            "type_identifier" => return type_identifier_value(node, scope, source),
            _ => return path_segments(node, source, 0).map(BindingValue::named_type),
        }
    }
    None
}

/// A type named by an identifier: a generic parameter (its `Fn` bound as a callable; in an
/// `Fn` type's parameters or a return type, a position the caller or the receiver decides;
/// in a field, the Self type's argument; else its bound as a `dyn`), or a type by name.
fn type_identifier_value<'tree>(
    node: Node<'tree>,
    scope: &GenericScope<'tree>,
    source: &str,
) -> Option<BindingValue> {
    let name = text_of(node, source);
    // `f: F` with `F: FnOnce(&mut T)`.
    if let Some(callable) = scope.callable_bound(name, source) {
        return Some(callable.clone());
    }
    if let Some(bound_path) = scope.bound(name, source) {
        // In an `Fn` type's parameters a generic parameter is the caller's type,
        // except one of the impl around (`impl<T> InFile<T>`: `FnOnce(T)`), which
        // the receiver's arguments may say.
        if scope.in_callable_parameters.get() {
            return Some(scope.self_type_argument(name, source).map_or(
                BindingValue::Unknown,
                |position| BindingValue::SelfTypeArgument { position, bound: None },
            ));
        }
        // Calls on a parameter of type `T: Trait` may reach any impl of the trait;
        // but what a function returns as `T` is its caller's type, not visible here.
        if scope.is_return_type() {
            // The function's own parameter: a call may write it (`f::<T>()`).
            if let Some(position) = generic_parameter_position(name, scope.used_at, source) {
                return Some(BindingValue::GenericParameter { position });
            }
            // The impl's parameter: the receiver's arguments may say it (`InFile<T>`).
            return Some(scope.self_type_argument(name, source).map_or(
                BindingValue::Unknown,
                |position| BindingValue::SelfTypeArgument { position, bound: None },
            ));
        }
        if scope.is_field_or_alias_type() {
            if let Some(position) = scope.self_type_argument(name, source) {
                return Some(BindingValue::SelfTypeArgument { position, bound: bound_path });
            }
        }
        return bound_path.map(|path| BindingValue::Type {
            path,
            is_dyn: true,
            arguments: Vec::new(),
        });
    }
    path_segments(node, source, 0).map(BindingValue::named_type)
}

/// The types among generic arguments, in order (lifetimes and constants left out); a type
/// that is not understood stays as `Unknown`, so that positions keep their meaning.
pub(crate) fn written_type_arguments(
    arguments: Node<'_>,
    used_at: Node<'_>,
    source: &str,
) -> Vec<BindingValue> {
    type_arguments(arguments, &GenericScope::new(used_at), source)
}

fn type_arguments<'tree>(
    arguments: Node<'tree>,
    scope: &GenericScope<'tree>,
    source: &str,
) -> Vec<BindingValue> {
    arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| {
            !matches!(
                argument.kind(),
                "lifetime"
                    | "line_comment"
                    | "block_comment"
                    | "type_binding"
                    | "integer_literal"
                    | "block"
            )
        })
        .map(|argument| binding_type_in(argument, scope, source).unwrap_or(BindingValue::Unknown))
        .collect()
}

/// The `Item` of a bound such as `Iterator<Item = T>` or the `Output` of `Future<Output = T>`
/// (or of the first bound of `A + B` that has one).
fn associated_item_type<'tree>(
    bound: Node<'tree>,
    scope: &GenericScope<'tree>,
    source: &str,
) -> Option<BindingValue> {
    let generic = match bound.kind() {
        "generic_type" => bound,
        "bounded_type" | "trait_bounds" => {
            bound.named_children(&mut bound.walk()).find(|child| child.kind() == "generic_type")?
        }
        _ => return None,
    };
    let arguments = field_child!(generic, "type_arguments")?;
    let item = arguments
        .named_children(&mut arguments.walk())
        .filter(|argument| argument.kind() == "type_binding")
        .find(|binding| {
            field_child!(*binding, "name")
                .is_some_and(|name| matches!(text_of(name, source), "Item" | "Output"))
        })?;
    binding_type_in(field_child!(item, "type")?, scope, source)
}

/// The `Fn`-trait bound among a bound or bound list: `FnOnce(A)`, `for<'a> Fn(&'a A) + Send`.
pub(super) fn callable_in_bounds(bound: Node<'_>) -> Option<Node<'_>> {
    match bound.kind() {
        "function_type" => Some(bound),
        "higher_ranked_trait_bound" => {
            field_child!(bound, "type").filter(|bound| bound.kind() == "function_type")
        }
        "bounded_type" | "trait_bounds" => {
            bound.named_children(&mut bound.walk()).find_map(|child| match child.kind() {
                "function_type" | "higher_ranked_trait_bound" => callable_in_bounds(child),
                _ => None,
            })
        }
        _ => None,
    }
}

/// `Callable` with the parameter types of a `function_type` (`FnOnce(&mut Builder, u32)`).
fn callable_value<'tree>(
    function_type: Node<'tree>,
    scope: &GenericScope<'tree>,
    source: &str,
) -> BindingValue {
    let Some(parameters) = field_child!(function_type, "parameters") else {
        return BindingValue::Callable { parameters: Vec::new() };
    };
    let outer = scope.in_callable_parameters.replace(true);
    let parameters = parameters
        .named_children(&mut parameters.walk())
        .filter(|parameter| {
            !matches!(parameter.kind(), "line_comment" | "block_comment" | "attribute_item")
        })
        .map(|parameter| {
            // `fn(x: A)` names its parameters; `Fn(A)` and `fn(A)` do not.
            let written = if parameter.kind() == "parameter" {
                field_child!(parameter, "type")
            } else {
                Some(parameter)
            };
            written
                .and_then(|written| binding_type_in(written, scope, source))
                .unwrap_or(BindingValue::Unknown)
        })
        .collect();
    scope.in_callable_parameters.set(outer);
    BindingValue::Callable { parameters }
}

thread_local! {
    /// How many `Fn` bounds of generic parameters are being expanded on this thread: `F:
    /// Fn(G), G: Fn(F)` ends.
    static CALLABLE_BOUNDS_EXPANDED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// A generic parameter's `Fn` bound (`F: FnOnce(&mut T)`) as a `Callable`, its parameter
/// types read where the bound is written; `None` when nested too deep.
fn callable_bound_value(function_type: Node<'_>, source: &str) -> Option<BindingValue> {
    let depth = CALLABLE_BOUNDS_EXPANDED.with(std::cell::Cell::get);
    if depth >= 2 {
        return None;
    }
    CALLABLE_BOUNDS_EXPANDED.with(|expanded| expanded.set(depth + 1));
    let value = callable_value(function_type, &GenericScope::new(function_type), source);
    CALLABLE_BOUNDS_EXPANDED.with(|expanded| expanded.set(depth));
    Some(value)
}

/// The path of the first trait of a bound list such as `A + Send` (lifetimes skipped).
fn first_bound_path(bound: Node<'_>, source: &str) -> Option<Vec<String>> {
    if bound.kind() == "bounded_type" || bound.kind() == "trait_bounds" {
        return bound
            .named_children(&mut bound.walk())
            .filter(|child| {
                !matches!(
                    child.kind(),
                    "lifetime"
                        | "removed_trait_bound"
                        | "use_bounds"
                        | "line_comment"
                        | "block_comment"
                )
            })
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
        if matches!(
            ancestor.kind(),
            "function_item"
                | "function_signature_item"
                | "impl_item"
                | "trait_item"
                | "struct_item"
                | "union_item"
                | "enum_item"
                | "type_item"
        ) {
            items.push(*ancestor);
            // Generics of an outer function do not reach into a nested item, but those of an
            // impl or trait reach its methods.
            let list = ancestors.get(position + 1);
            let is_method_of_impl_or_trait =
                matches!(ancestor.kind(), "function_item" | "function_signature_item")
                    && list.is_some_and(|list| list.kind() == "declaration_list")
                    && ancestors
                        .get(position + 2)
                        .is_some_and(|owner| matches!(owner.kind(), "impl_item" | "trait_item"));
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
        .filter_map(|parameter| {
            field_child!(parameter, "name").map(|declared| text_of(declared, source))
        })
        .collect();
    names
        .into_iter()
        .filter_map(|name| {
            let bound = generic_parameter_bound_in_item(name, item, source)?;
            Some(GenericParameterInScope {
                name: name.to_string(),
                bound,
                self_type_argument: self_type_argument_position(name, item, source),
                callable_bound: super::callables::generic_parameter_callable_bound(
                    name, item, source,
                )
                .and_then(|bound| callable_bound_value(bound, source)),
            })
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
    if type_parameters
        .named_children(&mut type_parameters.walk())
        .any(|parameter| parameter.kind() == "const_parameter")
    {
        return None;
    }
    match item.kind() {
        "struct_item" | "enum_item" | "union_item" | "type_item" => {
            generic_parameter_position(name, item, source)
        }
        "impl_item" => {
            let self_type = field_child!(item, "type")?;
            if self_type.kind() != "generic_type" {
                return None;
            }
            let arguments = field_child!(self_type, "type_arguments")?;
            let position = arguments
                .named_children(&mut arguments.walk())
                .filter(|argument| {
                    !matches!(
                        argument.kind(),
                        "lifetime"
                            | "line_comment"
                            | "block_comment"
                            | "type_binding"
                            | "integer_literal"
                            | "block"
                    )
                })
                .position(|argument| {
                    argument.kind() == "type_identifier" && text_of(argument, source) == name
                })?;
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
        .position(|parameter| {
            field_child!(parameter, "name")
                .is_some_and(|declared| text_of(declared, source) == name)
        })?;
    u32::try_from(position).ok()
}

/// `name`'s bound in one item's `<…>` list or where clause (see [`GenericScope::bound`]).
pub(crate) fn generic_parameter_bound_in_item(
    name: &str,
    item: Node<'_>,
    source: &str,
) -> Option<Option<Vec<String>>> {
    let type_parameters = field_child!(item, "type_parameters")?;
    let parameter =
        type_parameters.named_children(&mut type_parameters.walk()).find(|parameter| {
            parameter.kind() == "type_parameter"
                && field_child!(*parameter, "name")
                    .is_some_and(|declared| text_of(declared, source) == name)
        })?;
    if let Some(path) =
        field_child!(parameter, "bounds").and_then(|bounds| first_bound_path(bounds, source))
    {
        return Some(Some(path));
    }
    let where_clause =
        item.named_children(&mut item.walk()).find(|child| child.kind() == "where_clause");
    let where_bound = where_clause.and_then(|where_clause| {
        where_clause
            .named_children(&mut where_clause.walk())
            .filter(|predicate| predicate.kind() == "where_predicate")
            .filter(|predicate| {
                field_child!(*predicate, "left").is_some_and(|left| text_of(left, source) == name)
            })
            .find_map(|predicate| {
                field_child!(predicate, "bounds")
                    .and_then(|bounds| first_bound_path(bounds, source))
            })
    });
    Some(where_bound)
}
