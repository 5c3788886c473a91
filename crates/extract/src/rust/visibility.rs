//! A Rust definition's declared visibility, from its own modifier: `pub` is public,
//! `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in path)` and the old `crate` are crate-local,
//! no modifier is private. What has no modifier of its own takes its container's: a trait's
//! items are as visible as the trait, a trait impl's methods as public as the trait they
//! implement. A `macro_rules!` is crate-local unless `#[macro_export]`; a function the linker
//! names (`#[no_mangle]`, `#[export_name]`, also under `cfg_attr`) is public whatever its
//! modifier. An item under an attribute `queries/rust/inert_attributes.txt` does not list
//! (`#[pyfunction]`), or a method of an impl under one (`#[pymethods]`), is macro-written:
//! the macro may register or call it.

use tether_model::{SymbolKind, Visibility};
use tree_sitter::Node;

use crate::outline::text_of;

const INERT_ATTRIBUTES: &str = include_str!("../../../../queries/rust/inert_attributes.txt");

/// The visibility of a definition of `kind` at `item`, whose attributes are `attributes`
/// (paths and argument text, as `preceding_attribute_paths_and_arguments` reads them).
pub(crate) fn declared_visibility(
    kind: SymbolKind,
    item: Node<'_>,
    attributes: &[(Vec<String>, String)],
    source: &str,
) -> Visibility {
    let names = attribute_names(attributes);
    let named =
        |name: &str| names.iter().any(|written| written.last().is_some_and(|last| last == name));
    if named("no_mangle") || named("export_name") || named("macro_export") {
        return Visibility::Public;
    }
    if names.iter().any(|path| !is_inert(path)) {
        return Visibility::MacroWritten;
    }
    if kind == SymbolKind::Impl {
        // An impl has no modifier: it is visible wherever its type (and trait) is.
        return Visibility::Undeclared;
    }
    if let Some(modifier) = own_modifier(item, source) {
        return modifier;
    }
    if kind == SymbolKind::Macro {
        return Visibility::Crate;
    }
    // `item` sits in a `declaration_list` whose parent is the trait or the impl.
    match item.parent().and_then(|list| list.parent()) {
        Some(container) if container.kind() == "trait_item" => {
            own_modifier(container, source).unwrap_or(Visibility::Private)
        }
        Some(container) if container.kind() == "impl_item" => {
            let container_attributes =
                super::preceding_attribute_paths_and_arguments(container, source);
            if attribute_names(&container_attributes).iter().any(|path| !is_inert(path)) {
                Visibility::MacroWritten
            } else if container.child_by_field_name("trait").is_some() {
                Visibility::Public
            } else {
                Visibility::Private
            }
        }
        _ => Visibility::Private,
    }
}

/// Every attribute's path, with those a `cfg_attr(condition, a, b(…))` applies read inside
/// it (`a`, `b`); edition 2024's `unsafe(no_mangle)` gives `no_mangle`.
fn attribute_names(attributes: &[(Vec<String>, String)]) -> Vec<Vec<String>> {
    let mut names = Vec::new();
    for (path, arguments) in attributes {
        let wraps = path.len() == 1 && (path[0] == "cfg_attr" || path[0] == "unsafe");
        if !wraps {
            names.push(path.clone());
            continue;
        }
        let inside = arguments.trim().trim_start_matches('(').trim_end_matches(')');
        let parts = top_level_parts(inside);
        // `cfg_attr`'s first part is its condition.
        let applied = parts.iter().skip(usize::from(path[0] == "cfg_attr"));
        for part in applied {
            let name: String = part
                .trim()
                .chars()
                .take_while(|character| {
                    character.is_alphanumeric() || matches!(character, '_' | ':')
                })
                .collect();
            let segments: Vec<String> =
                name.split("::").filter(|segment| !segment.is_empty()).map(String::from).collect();
            if !segments.is_empty() {
                names.push(segments);
            }
        }
    }
    names
}

/// `text` split at commas outside brackets and quotes.
fn top_level_parts(text: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut quoted, mut start) = (Vec::new(), 0usize, false, 0);
    let mut previous = ' ';
    for (at, character) in text.char_indices() {
        match character {
            '"' if previous != '\\' => quoted = !quoted,
            '(' | '[' | '{' if !quoted => depth += 1,
            ')' | ']' | '}' if !quoted => depth = depth.saturating_sub(1),
            ',' if !quoted && depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
        previous = character;
    }
    parts.push(&text[start..]);
    parts
}

/// Whether the data file lists the attribute by its first or last path segment.
fn is_inert(path: &[String]) -> bool {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        INERT_ATTRIBUTES
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect()
    });
    let segment_listed =
        |segment: Option<&String>| segment.is_some_and(|segment| names.contains(&segment.as_str()));
    segment_listed(path.first()) || segment_listed(path.last())
}

/// What an item's `visibility_modifier` says; `None` when it has none.
fn own_modifier(item: Node<'_>, source: &str) -> Option<Visibility> {
    let modifier = item
        .named_children(&mut item.walk())
        .find(|child| child.kind() == "visibility_modifier")?;
    let text: String =
        text_of(modifier, source).chars().filter(|character| !character.is_whitespace()).collect();
    Some(if text == "pub" { Visibility::Public } else { Visibility::Crate })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(written: &[(&str, &str)]) -> Vec<String> {
        let attributes: Vec<(Vec<String>, String)> = written
            .iter()
            .map(|(path, arguments)| {
                (path.split("::").map(String::from).collect(), arguments.to_string())
            })
            .collect();
        attribute_names(&attributes).iter().map(|path| path.join("::")).collect()
    }

    #[test]
    fn cfg_attr_and_unsafe_are_read_inside() {
        assert_eq!(names(&[("cfg_attr", "(not(test), no_mangle)")]), ["no_mangle"]);
        assert_eq!(
            names(&[(
                "cfg_attr",
                "(feature = \"serde\", derive(Serialize, Deserialize), serde(rename = \"a,b\"))"
            )]),
            ["derive", "serde"]
        );
        assert_eq!(names(&[("unsafe", "(no_mangle)")]), ["no_mangle"]);
        assert_eq!(names(&[("pyo3::pyfunction", "")]), ["pyo3::pyfunction"]);
    }

    #[test]
    fn inert_attributes_are_read_from_the_data_file() {
        for inert in ["allow", "clippy::too_many_arguments", "tracing::instrument", "derive"] {
            let path: Vec<String> = inert.split("::").map(String::from).collect();
            assert!(is_inert(&path), "{inert}");
        }
        for active in ["pyfunction", "ctor::ctor", "pymethods", "linkme::distributed_slice"] {
            let path: Vec<String> = active.split("::").map(String::from).collect();
            assert!(!is_inert(&path), "{active}");
        }
    }
}
