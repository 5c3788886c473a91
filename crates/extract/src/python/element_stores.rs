//! Python element stores: named values put into a container after it is built
//! (`handlers[key] = f`, `steps.append(f)`, `table.update({"k": f})`), recorded as
//! [`ElementStore`]s for value flow through containers. Which methods store, and how, is data
//! (`queries/python/container_stores.txt`), parsed once; an unknown way is rejected.
//!
//! It deliberately records only stores whose container is a chain of names and whose value
//! is one: `make()[k] = f` or `xs.append(f(x))` say nothing a later call could follow.

use std::sync::OnceLock;

use std::collections::HashMap;
use tether_model::{CalleeExpr, ElementStore, FileFacts, SymbolId};
use tree_sitter::Node;

use crate::outline::{text_of, ScopeStack};
use crate::python::{dotted_path, literal_key};

const CONTAINER_STORES: &str = include_str!("../../../../queries/python/container_stores.txt");

/// How a container method stores its arguments.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum StoreWay {
    /// Argument N is stored as an element (`append(f)`, `insert(0, f)`).
    Element(usize),
    /// Each element of a literal at argument N (`extend([f, g])`).
    Elements(usize),
    /// Each value of a dict literal at argument N under its key, and each keyword argument
    /// under its name (`update({"k": f}, other=g)`).
    Entries(usize),
    /// Argument `value` under the literal key at argument `key` (`setdefault("k", f)`).
    Entry { key: usize, value: usize },
}

/// The table of storing methods. Lines are `method way positions…`; `#` comments and blank
/// lines say nothing. An unknown way or a missing position is an error naming the line.
fn parse_container_stores(text: &str) -> Result<HashMap<String, StoreWay>, String> {
    let mut table = HashMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let position = |index: usize| -> Result<usize, String> {
            words
                .get(index)
                .and_then(|word| word.parse().ok())
                .ok_or_else(|| format!("line {}: a position is missing", number + 1))
        };
        let way = match words.get(1).copied() {
            Some("element") => StoreWay::Element(position(2)?),
            Some("elements") => StoreWay::Elements(position(2)?),
            Some("entries") => StoreWay::Entries(position(2)?),
            Some("entry") => StoreWay::Entry { key: position(2)?, value: position(3)? },
            other => {
                return Err(format!(
                    "line {}: unknown way of storing `{}`",
                    number + 1,
                    other.unwrap_or_default()
                ))
            }
        };
        table.insert(words[0].to_string(), way);
    }
    Ok(table)
}

fn container_stores() -> &'static HashMap<String, StoreWay> {
    static TABLE: OnceLock<HashMap<String, StoreWay>> = OnceLock::new();
    TABLE.get_or_init(|| {
        parse_container_stores(CONTAINER_STORES)
            .unwrap_or_else(|error| panic!("queries/python/container_stores.txt: {error}"))
    })
}

/// `container[key] = value` (the key literal or not).
pub(crate) fn lower_subscript_store(
    assignment: Node<'_>,
    left: Node<'_>,
    scopes: &ScopeStack,
    source: &str,
    facts: &mut FileFacts,
) {
    let (Some(container), Some(value)) = (
        field_child!(left, "value").and_then(|container| dotted_path(container, source)),
        field_child!(assignment, "right").and_then(|value| dotted_path(value, source)),
    ) else {
        return;
    };
    let key = field_child!(left, "subscript").and_then(|key| literal_key(key, source));
    facts.element_stores.push(ElementStore {
        scope: scopes.innermost_named().id,
        byte: assignment.start_byte() as u32,
        container,
        key,
        value,
    });
}

/// A call of a storing method on a container: `steps.append(f)`, `table.update({"k": f})`.
pub(crate) fn lower_storing_call(
    call: Node<'_>,
    callee: &CalleeExpr,
    caller: SymbolId,
    source: &str,
    facts: &mut FileFacts,
) {
    let CalleeExpr::Path(path) = callee else { return };
    let Some((method, container)) = path.split_last() else { return };
    let Some(way) = container_stores().get(method.as_str()).copied() else { return };
    if container.is_empty() {
        return;
    }
    let Some(arguments) = field_child!(call, "arguments") else { return };
    let mut cursor = arguments.walk();
    let all: Vec<Node<'_>> = arguments
        .named_children(&mut cursor)
        .filter(|argument| !argument.kind().ends_with("comment"))
        .collect();
    let positional: Vec<Node<'_>> =
        all.iter().copied().filter(|argument| argument.kind() != "keyword_argument").collect();
    let mut stored: Vec<(Option<String>, Node<'_>)> = Vec::new();
    match way {
        StoreWay::Element(at) => stored.extend(positional.get(at).map(|value| (None, *value))),
        StoreWay::Elements(at) => {
            if let Some(literal) = positional
                .get(at)
                .filter(|literal| matches!(literal.kind(), "list" | "tuple" | "set"))
            {
                let mut cursor = literal.walk();
                stored.extend(literal.named_children(&mut cursor).map(|element| (None, element)));
            }
        }
        StoreWay::Entries(at) => {
            if let Some(literal) =
                positional.get(at).filter(|literal| literal.kind() == "dictionary")
            {
                let mut cursor = literal.walk();
                for pair in literal.named_children(&mut cursor).filter(|pair| pair.kind() == "pair")
                {
                    if let Some(value) = field_child!(pair, "value") {
                        let key =
                            field_child!(pair, "key").and_then(|key| literal_key(key, source));
                        stored.push((key, value));
                    }
                }
            }
            for keyword in
                all.iter().copied().filter(|argument| argument.kind() == "keyword_argument")
            {
                if let (Some(name), Some(value)) =
                    (field_child!(keyword, "name"), field_child!(keyword, "value"))
                {
                    stored.push((Some(format!("[{:?}]", text_of(name, source))), value));
                }
            }
        }
        StoreWay::Entry { key, value } => {
            if let Some(value) = positional.get(value) {
                let key = positional.get(key).and_then(|key| literal_key(*key, source));
                stored.push((key, *value));
            }
        }
    }
    for (key, value) in stored {
        let Some(value) = dotted_path(value, source) else { continue };
        facts.element_stores.push(ElementStore {
            scope: caller,
            byte: call.start_byte() as u32,
            container: container.to_vec(),
            key,
            value,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::{parse_container_stores, StoreWay, CONTAINER_STORES};

    #[test]
    fn the_store_table_loads_and_rejects_an_unknown_way() {
        let table = parse_container_stores(CONTAINER_STORES).unwrap();
        assert_eq!(table.get("append"), Some(&StoreWay::Element(0)));
        assert_eq!(table.get("setdefault"), Some(&StoreWay::Entry { key: 0, value: 1 }));
        let error = parse_container_stores("push somehow 0\n").unwrap_err();
        assert_eq!(error, "line 1: unknown way of storing `somehow`");
        let error = parse_container_stores("# comment\ninsert element\n").unwrap_err();
        assert_eq!(error, "line 2: a position is missing");
    }
}
