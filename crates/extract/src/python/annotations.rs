//! Python annotations as facts: the class an annotation names, tuples and containers with
//! their elements, and what a generator annotation yields.

use tether_model::BindingValue;
use tree_sitter::Node;

use crate::outline::text_of;
use crate::python::dotted_path;

/// The value an annotation describes: a class (see [`annotation_path`]); a tuple of known
/// length `tuple[A, B]`; a container with its element `list[Item]`, `dict[str, Item]`
/// (arguments whose class is not visible are unknown).
pub(crate) fn annotation_value(annotation: Node<'_>, source: &str) -> Option<BindingValue> {
    let inner = if annotation.kind() == "type" { annotation.named_child(0)? } else { annotation };
    match inner.kind() {
        "generic_type" | "subscript" => {
            let head = inner.named_child(0).and_then(|head| dotted_path(head, source))?;
            let last = head.last().map(String::as_str).unwrap_or("");
            let arguments = type_arguments(inner);
            if WRAPPERS_OF_ONE_TYPE.contains(&last) {
                return annotation_value(*arguments.first()?, source);
            }
            if matches!(last, "tuple" | "Tuple") {
                let mut elements = Vec::new();
                for element in arguments {
                    // `tuple[A, ...]` has any length.
                    if text_of(element, source).trim() == "..." {
                        return Some(BindingValue::named_type(head));
                    }
                    elements.push(
                        annotation_path(element, source)
                            .map_or(BindingValue::Unknown, BindingValue::named_type),
                    );
                }
                return Some(BindingValue::Type {
                    path: vec![TUPLE_TYPE.to_string()],
                    is_dyn: false,
                    arguments: elements,
                });
            }
            if CONTAINERS.contains(&last) {
                let elements = arguments
                    .into_iter()
                    .map(|argument| {
                        annotation_value(argument, source).unwrap_or(BindingValue::Unknown)
                    })
                    .collect();
                return Some(BindingValue::Type { path: head, is_dyn: false, arguments: elements });
            }
            annotation_path(annotation, source).map(BindingValue::named_type)
        }
        "binary_operator" => {
            let (left, right) = (field_child!(inner, "left")?, field_child!(inner, "right")?);
            (text_of(right, source) == "None").then(|| annotation_value(left, source)).flatten()
        }
        _ => annotation_path(annotation, source).map(BindingValue::named_type),
    }
}

/// Generic containers whose element type an annotation keeps (the resolver decides which
/// of them it knows).
const CONTAINERS: &[&str] = &[
    "list",
    "List",
    "Sequence",
    "MutableSequence",
    "Iterable",
    "Iterator",
    "Collection",
    "set",
    "Set",
    "frozenset",
    "FrozenSet",
    "AbstractSet",
    "MutableSet",
    "deque",
    "Deque",
    "dict",
    "Dict",
    "Mapping",
    "MutableMapping",
    "defaultdict",
    "DefaultDict",
    "OrderedDict",
];

/// Annotations that describe a value of their one argument's type.
const WRAPPERS_OF_ONE_TYPE: &[&str] =
    &["Optional", "Final", "ClassVar", "Annotated", "Required", "NotRequired", "ReadOnly"];

/// The type arguments of a generic annotation, comments left out.
fn type_arguments(generic: Node<'_>) -> Vec<Node<'_>> {
    let nodes: Vec<Node<'_>> = match generic.named_child(1) {
        Some(arguments) if arguments.kind() == "type_parameter" => {
            arguments.named_children(&mut arguments.walk()).collect()
        }
        _ => generic.named_children(&mut generic.walk()).skip(1).collect(),
    };
    nodes.into_iter().filter(|node| !node.kind().ends_with("comment")).collect()
}

/// The path under which a tuple type with its elements is written in the facts (as in Rust).
const TUPLE_TYPE: &str = "()";

/// The class named by an annotation: `C`, `m.C`, `"C"`, `Optional[C]`, `C | None`.
pub(crate) fn annotation_path(annotation: Node<'_>, source: &str) -> Option<Vec<String>> {
    let inner = if annotation.kind() == "type" { annotation.named_child(0)? } else { annotation };
    match inner.kind() {
        "identifier" | "attribute" => dotted_path(inner, source),
        "string" => {
            let text = text_of(inner, source).trim_matches(|c| c == '"' || c == '\'');
            let valid = !text.is_empty()
                && text.split('.').all(|part| {
                    !part.is_empty() && part.chars().all(|c| c.is_alphanumeric() || c == '_')
                });
            valid.then(|| text.split('.').map(str::to_string).collect())
        }
        "generic_type" | "subscript" => {
            let head = inner.named_child(0).and_then(|head| dotted_path(head, source))?;
            match head.last().map(String::as_str).unwrap_or("") {
                // Wrappers of one type: `Optional[C]`, `Final[C]`, `ClassVar[C]`, `Annotated[C, …]`.
                "Optional" | "Final" | "ClassVar" | "Annotated" | "Required" | "NotRequired"
                | "ReadOnly" => {
                    let argument = inner.named_child(1)?;
                    let argument = if argument.kind() == "type_parameter" {
                        argument.named_child(0)?
                    } else {
                        argument
                    };
                    annotation_path(argument, source)
                }
                // Not a value of the head's type (or one of several types).
                "Union" | "Literal" | "Callable" | "Type" | "type" | "Generic" | "Protocol"
                | "Concatenate" | "TypeGuard" | "TypeIs" | "Unpack" => None,
                // A generic class names the value's class: `list[Item]` is a `list`,
                // `FixtureDef[T]` a `FixtureDef` (its type arguments are not kept).
                _ => Some(head),
            }
        }
        "binary_operator" => {
            let left = field_child!(inner, "left")?;
            let right = field_child!(inner, "right")?;
            if text_of(right, source) == "None" {
                annotation_path(left, source)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// The element `T` of a generator annotation: `Generator[T, …]`, `Iterator[T]`, `Iterable[T]`
/// and their async forms, when `T` is a class (`Optional[T]` and `T | None` allowed).
pub(crate) fn generator_element_path(annotation: Node<'_>, source: &str) -> Option<Vec<String>> {
    let inner = if annotation.kind() == "type" { annotation.named_child(0)? } else { annotation };
    if !matches!(inner.kind(), "generic_type" | "subscript") {
        return None;
    }
    let head = inner.named_child(0).and_then(|head| dotted_path(head, source))?;
    let is_generator = matches!(
        head.last().map(String::as_str),
        Some(
            "Generator"
                | "Iterator"
                | "Iterable"
                | "AsyncGenerator"
                | "AsyncIterator"
                | "AsyncIterable"
        )
    );
    if !is_generator {
        return None;
    }
    let arguments = inner.named_child(1)?;
    let first =
        if arguments.kind() == "type_parameter" { arguments.named_child(0)? } else { arguments };
    annotation_path(first, source)
}
