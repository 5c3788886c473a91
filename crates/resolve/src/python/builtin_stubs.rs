//! Python's builtins as a stub written in Python (`queries/python/builtins.pyi`): what
//! calling a builtin function or a method of a builtin type gives, so that
//! `value.strip().lower()` calls `str.lower` and `len(x)` gives an `int`. The stub is read
//! once; a line of a shape the reader does not know is rejected (a test reads the shipped one).
//!
//! Not read: parameters (calls are not checked against them), overloads, generics (a
//! `list[str]` is a `list`), and anything that returns what the receiver holds (`dict.get`,
//! `list.pop`: the project's value flow knows those, the stub does not).

use std::collections::HashMap;
use std::sync::OnceLock;

const PYTHON_BUILTIN_STUBS: &str = include_str!("../../../../queries/python/builtins.pyi");

/// What the stub says calls give: `"len"` → `"int"`, `"str.strip"` → `"str"`, and each
/// class (constructing it gives one of it).
#[derive(Debug, Default, PartialEq)]
pub(crate) struct BuiltinStubs {
    results: HashMap<String, String>,
    classes: Vec<String>,
}

impl BuiltinStubs {
    /// The builtin class a call of `path` (`len`, `str.strip`, `str`) gives, when known.
    pub(crate) fn call_result(&self, path: &str) -> Option<&str> {
        match self.classes.iter().find(|class| *class == path) {
            Some(class) => Some(class),
            None => self.results.get(path).map(String::as_str),
        }
    }
}

/// Reads a stub: `class NAME:` at the margin, `def NAME(…) -> TYPE: ...` at the margin or
/// indented under the last class, comments and blank lines.
pub(crate) fn parse_builtin_stubs(text: &str) -> Result<BuiltinStubs, String> {
    let mut stubs = BuiltinStubs::default();
    let mut class: Option<String> = None;
    for (number, line) in text.lines().enumerate() {
        let problem = |what: &str| format!("line {}: {what}: `{}`", number + 1, line.trim());
        let code = line.split('#').next().unwrap_or("").trim_end();
        if code.trim().is_empty() {
            continue;
        }
        let indented = code.starts_with(' ');
        let code = code.trim_start();
        if let Some(rest) = code.strip_prefix("class ") {
            if indented {
                return Err(problem("a nested class"));
            }
            let name =
                rest.strip_suffix(':').ok_or_else(|| problem("a class line ends with `:`"))?;
            if !is_identifier(name) {
                return Err(problem("a class name (bases are not read)"));
            }
            stubs.classes.push(name.to_string());
            class = Some(name.to_string());
            continue;
        }
        let Some(rest) = code.strip_prefix("def ") else {
            return Err(problem("only `class` and `def` lines are read"));
        };
        let (name, rest) = rest.split_once('(').ok_or_else(|| problem("a `def` without `(`"))?;
        let returned = rest
            .rsplit_once(") -> ")
            .and_then(|(_, returned)| returned.strip_suffix(": ..."))
            .ok_or_else(|| problem("a `def` ends with `) -> TYPE: ...`"))?;
        let returned = result_class(returned).ok_or_else(|| problem("an unknown return type"))?;
        if !is_identifier(name) {
            return Err(problem("a function name"));
        }
        let path = match (indented, &class) {
            (true, Some(class)) => format!("{class}.{name}"),
            (true, None) => return Err(problem("a method outside a class")),
            (false, _) => {
                class = None;
                name.to_string()
            }
        };
        stubs.results.insert(path, returned.to_string());
    }
    for returned in stubs.results.values() {
        if !stubs.classes.contains(returned) {
            return Err(format!("a call gives `{returned}`, which the stub defines no class for"));
        }
    }
    Ok(stubs)
}

/// The class a return annotation names: `str`, `str | None` → `str`, `list[str]` → `list`.
fn result_class(annotation: &str) -> Option<&str> {
    let annotation = annotation.strip_suffix(" | None").unwrap_or(annotation);
    let class = annotation.split_once('[').map_or(annotation, |(class, _)| class);
    is_identifier(class).then_some(class)
}

fn is_identifier(text: &str) -> bool {
    let mut characters = text.chars();
    characters.next().is_some_and(|first| first.is_alphabetic() || first == '_')
        && characters.all(|character| character.is_alphanumeric() || character == '_')
}

/// The shipped stub of Python's builtins.
pub(crate) fn python_builtin_stubs() -> &'static BuiltinStubs {
    static SHIPPED: OnceLock<BuiltinStubs> = OnceLock::new();
    SHIPPED.get_or_init(|| {
        // The shipped stub is checked by a test; a broken one must not pass silently.
        parse_builtin_stubs(PYTHON_BUILTIN_STUBS).expect("queries/python/builtins.pyi parses")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_stub_parses_and_types_common_builtin_calls() {
        let stubs = parse_builtin_stubs(PYTHON_BUILTIN_STUBS).expect("the stub parses");
        assert_eq!(stubs.call_result("str.strip"), Some("str"));
        assert_eq!(stubs.call_result("str.split"), Some("list"));
        assert_eq!(stubs.call_result("bytes.decode"), Some("str"));
        assert_eq!(stubs.call_result("len"), Some("int"));
        assert_eq!(stubs.call_result("str"), Some("str"));
        assert_eq!(stubs.call_result("dict.get"), None);
        assert_eq!(stubs.call_result("getattr"), None);
    }

    #[test]
    fn a_line_added_to_the_stub_types_a_new_call_and_other_shapes_are_rejected() {
        let extended = format!("{PYTHON_BUILTIN_STUBS}\ndef vars(obj) -> dict: ...\n");
        let stubs = parse_builtin_stubs(&extended).expect("the extended stub parses");
        assert_eq!(stubs.call_result("vars"), Some("dict"));
        assert_eq!(python_builtin_stubs().call_result("vars"), None);
        assert_eq!(
            parse_builtin_stubs("x = 1\n"),
            Err("line 1: only `class` and `def` lines are read: `x = 1`".to_string())
        );
        assert_eq!(
            parse_builtin_stubs("def f(x):\n"),
            Err("line 1: a `def` ends with `) -> TYPE: ...`: `def f(x):`".to_string())
        );
        assert_eq!(
            parse_builtin_stubs("class str:\n    def f(self) -> Widget: ...\n"),
            Err("a call gives `Widget`, which the stub defines no class for".to_string())
        );
    }
}
