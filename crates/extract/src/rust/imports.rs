//! Rust `use` trees and `extern crate`: each bound name becomes one import fact (path, alias,
//! glob, visibility), with nested trees flattened.

use tether_model::{FileFacts, Import, ImportStyle};
use tree_sitter::Node;

use crate::outline::{line_of, text_of, ScopeStack};
use crate::rust::{path_segments, MAX_NESTING_FOLLOWED};

pub(crate) fn lower_import(
    node: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let scope = scopes.innermost_named().id;
    let line = line_of(node);
    let is_public =
        node.named_children(&mut node.walk()).any(|child| child.kind() == "visibility_modifier");
    match node.kind() {
        "use_declaration" => {
            let Some(argument) = field_child!(node, "argument") else { return };
            let mut leaves = Vec::new();
            flatten_use_tree(argument, &[], source, 0, &mut leaves);
            for UseLeaf { path, alias, is_glob } in leaves {
                facts.imports.push(Import {
                    scope,
                    style: ImportStyle::RustUse,
                    relative_level: 0,
                    path,
                    alias,
                    is_glob,
                    is_public,
                    line,
                    visible_from: 0,
                    branch: tether_model::Branch::ALWAYS,
                });
            }
        }
        "extern_crate_declaration" => {
            let Some(name) = field_child!(node, "name")
                .map(|name| text_of(name, source).to_string())
                .filter(|name| !name.is_empty())
            else {
                return;
            };
            let alias = field_child!(node, "alias")
                .map(|alias| text_of(alias, source).to_string())
                .unwrap_or_else(|| name.clone());
            facts.imports.push(Import {
                scope,
                style: ImportStyle::RustUse,
                relative_level: 0,
                path: vec![name],
                alias: Some(alias),
                is_glob: false,
                is_public,
                line,
                visible_from: 0,
                branch: tether_model::Branch::ALWAYS,
            });
        }
        _ => {}
    }
}

/// One leaf of a use tree.
struct UseLeaf {
    path: Vec<String>,
    alias: Option<String>,
    is_glob: bool,
}

/// Flattens a use tree under `prefix` into its leaves: `a::{b, c as d, e::*, self}`.
fn flatten_use_tree(
    node: Node<'_>,
    prefix: &[String],
    source: &str,
    depth: usize,
    leaves: &mut Vec<UseLeaf>,
) {
    if depth > MAX_NESTING_FOLLOWED {
        return;
    }
    let joined =
        |tail: Vec<String>| -> Vec<String> { prefix.iter().cloned().chain(tail).collect() };
    match node.kind() {
        "identifier" | "crate" | "self" | "super" | "metavariable" | "scoped_identifier" => {
            let Some(segments) = path_segments(node, source, 0) else { return };
            let mut path = joined(segments);
            // `a::{self}` imports `a` itself.
            if path.len() > 1 && path.last().is_some_and(|last| last == "self") {
                path.pop();
            }
            let alias = path.last().cloned();
            leaves.push(UseLeaf { path, alias, is_glob: false });
        }
        "use_as_clause" => {
            let Some(segments) =
                field_child!(node, "path").and_then(|path| path_segments(path, source, 0))
            else {
                return;
            };
            let mut path = joined(segments);
            if path.len() > 1 && path.last().is_some_and(|last| last == "self") {
                path.pop();
            }
            let alias = field_child!(node, "alias").map(|alias| text_of(alias, source).to_string());
            leaves.push(UseLeaf { path, alias, is_glob: false });
        }
        "use_wildcard" => {
            let segments = node
                .named_children(&mut node.walk())
                .find(|child| !matches!(child.kind(), "line_comment" | "block_comment"))
                .and_then(|path| path_segments(path, source, 0))
                .unwrap_or_default();
            leaves.push(UseLeaf { path: joined(segments), alias: None, is_glob: true });
        }
        "scoped_use_list" => {
            let segments = match field_child!(node, "path") {
                Some(path) => match path_segments(path, source, 0) {
                    Some(segments) => segments,
                    None => return,
                },
                None => Vec::new(),
            };
            let inner_prefix = joined(segments);
            if let Some(list) = field_child!(node, "list") {
                flatten_use_tree(list, &inner_prefix, source, depth + 1, leaves);
            }
        }
        "use_list" => {
            for child in node.named_children(&mut node.walk()) {
                flatten_use_tree(child, prefix, source, depth + 1, leaves);
            }
        }
        _ => {}
    }
}
