//! The Python functions and decorators tether knows by name, as data: each list is a file in
//! `queries/python/`, one last name per line (`#` starts a comment), loaded once. Which names
//! a list holds is knowledge of builtins and libraries, so it lives there, not in code.

use std::collections::HashSet;
use std::sync::OnceLock;

/// One list of names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum PythonNameList {
    /// Decorators that hand the decorated function back as it was (or wrapped, but still
    /// called by its own name), so that decorating does not make it a value others may call.
    TransparentDecorators,
    /// Functions that take functions or classes as arguments without calling them.
    NonCallingFunctions,
    /// Functions that call the functions passed to them there and then (`map(f, xs)`).
    HigherOrderFunctions,
    /// Functions returning a callable that calls their first argument (`partial(f, x)`).
    FunctionBinders,
    /// Builtins whose result is made of their arguments' values (`next(gen())`, `map(f,
    /// xs)`): the first word of each line of `builtin_results.txt`, whose rest the resolver
    /// reads.
    BuiltinResults,
}

const LIST_COUNT: usize = 5;

impl PythonNameList {
    fn text(self) -> &'static str {
        match self {
            PythonNameList::TransparentDecorators => {
                include_str!("../../../../queries/python/transparent_decorators.txt")
            }
            PythonNameList::NonCallingFunctions => {
                include_str!("../../../../queries/python/non_calling_functions.txt")
            }
            PythonNameList::HigherOrderFunctions => {
                include_str!("../../../../queries/python/higher_order_functions.txt")
            }
            PythonNameList::FunctionBinders => {
                include_str!("../../../../queries/python/function_binders.txt")
            }
            PythonNameList::BuiltinResults => {
                include_str!("../../../../queries/python/builtin_results.txt")
            }
        }
    }

    fn slot(self) -> usize {
        match self {
            PythonNameList::TransparentDecorators => 0,
            PythonNameList::NonCallingFunctions => 1,
            PythonNameList::HigherOrderFunctions => 2,
            PythonNameList::FunctionBinders => 3,
            PythonNameList::BuiltinResults => 4,
        }
    }

    /// Whether the list holds `name` (a last name: `lru_cache`, `partial`).
    pub(crate) fn contains(self, name: &str) -> bool {
        static LISTS: [OnceLock<HashSet<&'static str>>; LIST_COUNT] =
            [const { OnceLock::new() }; LIST_COUNT];
        LISTS[self.slot()].get_or_init(|| names_in(self.text())).contains(name)
    }
}

/// The first word of each line that is neither blank nor a `#` comment (its last segment,
/// for a dotted `typing.cast`).
fn names_in(text: &'static str) -> HashSet<&'static str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .filter_map(|line| line.split_whitespace().next())
        .filter_map(|name| name.rsplit('.').next())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::PythonNameList;

    #[test]
    fn each_list_loads_and_names_the_usual_ones() {
        let cases = [
            (
                PythonNameList::TransparentDecorators,
                ["staticmethod", "lru_cache", "wraps"],
                "route",
            ),
            (PythonNameList::NonCallingFunctions, ["isinstance", "cast", "getattr"], "map"),
            (PythonNameList::HigherOrderFunctions, ["map", "sorted", "submit"], "partial"),
            (PythonNameList::FunctionBinders, ["partial", "partialmethod", "partial"], "map"),
            (PythonNameList::BuiltinResults, ["next", "map", "cast"], "len"),
        ];
        for (list, present, absent) in cases {
            for name in present {
                assert!(list.contains(name), "{list:?} lacks {name}");
            }
            assert!(!list.contains(absent), "{list:?} holds {absent}");
        }
    }
}
