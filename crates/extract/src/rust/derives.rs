//! `#[derive(…)]` on a Rust struct, enum or union: the traits it derives and the types its
//! fields name (`FileFacts::derives`). A derived `PartialEq`, `Ord`, `Hash`, `Clone`,
//! `Debug` or `Default` calls the same trait's method of each field, which the resolver
//! follows to the fields' project impls (`resolve::rust::derived_calls`).
//!
//! It deliberately reads only `derive` written as such (also `::core::prelude::v1::derive`
//! paths ending in `derive`); a `cfg_attr(…, derive(…))` is not read, nor a derive macro
//! from another crate (`serde::Serialize`), whose generated code tether does not see.

use tether_model::{DerivedTraits, FileFacts, Symbol, SymbolKind};
use tree_sitter::Node;

use crate::outline::text_of;

/// How deep under the item's body the fields' types are read (`Vec<Option<Box<Item>>>` in
/// a variant's field is about ten nodes down).
const MAX_NODE_DEPTH: usize = 16;

/// Records the derives written on a type item (`symbol` is its symbol, just pushed).
pub(crate) fn push_derived_traits(
    item: Node<'_>,
    symbol: &Symbol,
    attributes: &[(Vec<String>, String)],
    source: &str,
    facts: &mut FileFacts,
) {
    if !matches!(symbol.kind, SymbolKind::Struct | SymbolKind::Enum | SymbolKind::Union) {
        return;
    }
    let traits: Vec<String> = attributes
        .iter()
        .filter(|(path, _)| path.last().is_some_and(|last| last == "derive"))
        .flat_map(|(_, arguments)| derived_names(arguments))
        .collect();
    if traits.is_empty() {
        return;
    }
    let mut field_types = Vec::new();
    if let Some(body) = field_child!(item, "body") {
        collect_type_paths(body, source, 0, &mut field_types);
    }
    field_types.sort();
    field_types.dedup();
    facts.derives.push(DerivedTraits { type_symbol: symbol.id, traits, field_types });
}

/// `(PartialEq, std::hash::Hash)` gives `PartialEq` and `Hash`.
fn derived_names(arguments: &str) -> Vec<String> {
    arguments
        .trim()
        .trim_start_matches('(')
        .trim_end_matches(')')
        .split(',')
        .filter_map(|name| name.trim().rsplit("::").next())
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .map(str::to_string)
        .collect()
}

/// Every type path under `node` (a field list, a variant list, a type): `Vec<Item>` gives
/// `Vec` and `Item`; attributes and discriminants are skipped.
fn collect_type_paths(node: Node<'_>, source: &str, depth: usize, found: &mut Vec<Vec<String>>) {
    if depth > MAX_NODE_DEPTH {
        return;
    }
    match node.kind() {
        "type_identifier" => found.push(vec![text_of(node, source).to_string()]),
        "scoped_type_identifier" => {
            let path: Vec<String> = text_of(node, source)
                .split("::")
                .map(|segment| segment.trim().to_string())
                .filter(|segment| !segment.is_empty())
                .collect();
            if !path.is_empty() {
                found.push(path);
            }
        }
        "attribute_item" | "line_comment" | "block_comment" => {}
        _ => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                // A variant's `= 3` is a value, not a type.
                if child.kind().ends_with("expression") || child.kind().ends_with("literal") {
                    continue;
                }
                collect_type_paths(child, source, depth + 1, found);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::derived_names;

    #[test]
    fn derived_names_are_the_last_segments_of_the_listed_paths() {
        assert_eq!(
            derived_names("(Clone, PartialEq, std::hash::Hash, )"),
            ["Clone", "PartialEq", "Hash"]
        );
        assert_eq!(derived_names("()"), Vec::<String>::new());
    }
}
