//! Python's builtin containers with a visible element (`list[Item]`, `dict[str, Item]`,
//! `Sequence[Item]`…): iterating a sequence or set, or reading a dict's values, gives the
//! element; every method is the builtin's (`<builtin>.list.append`).

use crate::denotation::Denotation;
use crate::value_types::Wrapper;

/// The container an annotation's class name stands for (builtins, `typing` and
/// `collections.abc` names alike: `queries/python/container_types.txt`).
pub(crate) fn python_container(name: &str) -> Option<Wrapper> {
    crate::container_types::python_container(name)
}

/// What `container.name(…)` returns, when the element decides it.
pub(crate) fn python_method_result(
    container: Wrapper,
    element: &Denotation,
    name: &str,
) -> Option<Denotation> {
    let wrapped = |wrapper: Wrapper, inner: Denotation| {
        Some(Denotation::Wrapped { wrapper, inner: Box::new(inner) })
    };
    match (container, name) {
        (Wrapper::PythonList, "pop") | (Wrapper::PythonSet, "pop") => Some(element.clone()),
        (Wrapper::PythonList | Wrapper::PythonSet | Wrapper::PythonDict, "copy") => {
            wrapped(container, element.clone())
        }
        (Wrapper::PythonDict, "get" | "pop" | "setdefault" | "__getitem__") => {
            Some(element.clone())
        }
        (Wrapper::PythonDict, "values") => wrapped(Wrapper::PythonList, element.clone()),
        // (key, value) pairs; the key's type is not kept.
        (Wrapper::PythonDict, "items") => wrapped(
            Wrapper::PythonList,
            Denotation::Tuple(vec![Denotation::UntypedLocal, element.clone()]),
        ),
        _ => None,
    }
}
