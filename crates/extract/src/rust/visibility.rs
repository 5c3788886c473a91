//! A Rust definition's declared visibility, from its own modifier: `pub` is public,
//! `pub(crate)`, `pub(super)`, `pub(self)`, `pub(in path)` and the old `crate` are crate-local,
//! no modifier is private. What has no modifier of its own takes its container's: a trait's
//! items are as visible as the trait, a trait impl's methods as public as the trait they
//! implement. A `macro_rules!` is crate-local unless `#[macro_export]`; a function the linker
//! names (`#[no_mangle]`, `#[export_name]`) is public whatever its modifier.

use tether_model::{SymbolKind, Visibility};
use tree_sitter::Node;

use crate::outline::text_of;

/// The visibility of a definition of `kind` at `item`, whose attributes are `attributes`
/// (paths and argument text, as `preceding_attribute_paths_and_arguments` reads them).
pub(crate) fn declared_visibility(
    kind: SymbolKind,
    item: Node<'_>,
    attributes: &[(Vec<String>, String)],
    source: &str,
) -> Visibility {
    let named = |name: &str| {
        attributes.iter().any(|(path, arguments)| {
            path.last().is_some_and(|last| last == name)
                // Edition 2024 spells `#[unsafe(no_mangle)]`.
                || (path.len() == 1 && path[0] == "unsafe" && arguments.contains(name))
        })
    };
    if kind == SymbolKind::Macro {
        return if named("macro_export") { Visibility::Public } else { Visibility::Crate };
    }
    if kind == SymbolKind::Impl {
        // An impl has no modifier: it is visible wherever its type (and trait) is.
        return Visibility::Undeclared;
    }
    if named("no_mangle") || named("export_name") {
        return Visibility::Public;
    }
    if let Some(modifier) = own_modifier(item, source) {
        return modifier;
    }
    // `item` sits in a `declaration_list` whose parent is the trait or the impl.
    match item.parent().and_then(|list| list.parent()) {
        Some(container) if container.kind() == "trait_item" => {
            own_modifier(container, source).unwrap_or(Visibility::Private)
        }
        Some(container)
            if container.kind() == "impl_item"
                && container.child_by_field_name("trait").is_some() =>
        {
            Visibility::Public
        }
        _ => Visibility::Private,
    }
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
