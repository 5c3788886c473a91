//! Items wrapped in a macro call, such as tokio's `cfg_rt! { pub use task::spawn; }`:
//! tree-sitter leaves a macro's body as an unparsed token tree, so the functions, impls and
//! `use`s inside would be invisible. When a file has such wrappers, its text is parsed again
//! with each wrapper's `name! {` and closing `}` blanked out, so that the items inside parse
//! in place, at the same bytes and lines.
//!
//! Only brace-delimited calls in item position whose body starts like an item are unwrapped
//! (`cfg_if! { if … }` and `lazy_static! { static ref … }` bodies are not items), and the
//! unwrapped parse is kept only when it has no more syntax errors than the original.
//!
//! A blanked wrapper is still a call of its macro: each is returned as a [`WrapperCall`], made
//! by the module, impl or trait the wrapper sits in (a `macro_rules!` used only to wrap items
//! is used).

use tree_sitter::{Node, Tree};

/// How many times nested wrappers (`cfg_net! { cfg_rt! { … } }`) are unwrapped.
const MAX_UNWRAP_ROUNDS: usize = 4;

/// Words an item (or an attribute before one) starts with.
const ITEM_STARTS: [&str; 16] = [
    "pub",
    "use",
    "mod",
    "fn",
    "impl",
    "struct",
    "enum",
    "trait",
    "type",
    "const",
    "static",
    "#",
    "async",
    "unsafe",
    "extern",
    "macro_rules",
];

/// A wrapper's call of its macro, which blanking removes from the parse.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct WrapperCall {
    /// The macro's path as written (`cfg_rt`, `crate::cfg_rt`).
    pub path: Vec<String>,
    /// `name!`, as a call site's text.
    pub text: String,
    pub line: u32,
    pub byte: u32,
    /// Where the call ends: the definitions between are macro-written.
    pub end_byte: u32,
}

/// The text with item-wrapping macro calls blanked, its tree and the wrappers' calls, when the
/// file has any; `None` leaves the original parse as it is.
pub(crate) fn unwrap_item_macros(
    tree: &Tree,
    text: &str,
    parse: impl Fn(&str) -> Option<Tree>,
) -> Option<(String, Tree, Vec<WrapperCall>)> {
    let mut current: Option<(String, Tree, Vec<WrapperCall>)> = None;
    for _ in 0..MAX_UNWRAP_ROUNDS {
        let (source, root) = match &current {
            Some((source, tree, _)) => (source.as_str(), tree.root_node()),
            None => (text, tree.root_node()),
        };
        let mut wrappers = Vec::new();
        let mut calls = Vec::new();
        collect_item_wrappers(root, source, &mut wrappers, &mut calls, 0);
        if wrappers.is_empty() {
            break;
        }
        let mut bytes = source.as_bytes().to_vec();
        for (start, end) in wrappers {
            blank(&mut bytes, start, end);
        }
        // Only ASCII bytes were replaced by spaces: the text is still UTF-8.
        let unwrapped = String::from_utf8(bytes).ok()?;
        let reparsed = parse(&unwrapped)?;
        if error_count(reparsed.root_node()) > error_count(root) {
            break;
        }
        let mut all_calls = current.map(|(_, _, earlier)| earlier).unwrap_or_default();
        all_calls.extend(calls);
        current = Some((unwrapped, reparsed, all_calls));
    }
    current
}

/// The byte ranges to blank for each wrapper among the items of `container`: from the
/// macro's name to its `{`, and its closing `}` (and a `;` after it).
fn collect_item_wrappers(
    container: Node<'_>,
    source: &str,
    wrappers: &mut Vec<(usize, usize)>,
    calls: &mut Vec<WrapperCall>,
    depth: usize,
) {
    if depth > 16 {
        return;
    }
    let mut cursor = container.walk();
    for child in container.named_children(&mut cursor) {
        match child.kind() {
            "macro_invocation" => {
                if let Some(body) = item_body(child, source) {
                    wrappers.push((child.start_byte(), body.start_byte() + 1));
                    wrappers.push((body.end_byte() - 1, child.end_byte()));
                    let name = field_child!(child, "macro");
                    if let Some((name, path)) = name
                        .and_then(|name| Some((name, crate::rust::path_segments(name, source, 0)?)))
                    {
                        calls.push(WrapperCall {
                            path,
                            text: format!("{}!", &source[name.byte_range()]),
                            line: child.start_position().row as u32 + 1,
                            byte: child.start_byte() as u32,
                            end_byte: child.end_byte() as u32,
                        });
                    }
                }
            }
            // Items inside inline modules, impls and traits may be wrapped too.
            "mod_item" | "impl_item" | "trait_item" => {
                if let Some(body) = field_child!(child, "body") {
                    collect_item_wrappers(body, source, wrappers, calls, depth + 1);
                }
            }
            _ => {}
        }
    }
}

/// The `{ … }` token tree of a macro call whose body starts like an item.
pub(crate) fn item_body<'tree>(call: Node<'tree>, source: &str) -> Option<Node<'tree>> {
    let name = field_child!(call, "macro")?;
    if &source[name.byte_range()] == "macro_rules" {
        return None;
    }
    let body = call.named_children(&mut call.walk()).find(|child| child.kind() == "token_tree")?;
    let inside = source.get(body.start_byte() + 1..body.end_byte().checked_sub(1)?)?;
    if !source[body.byte_range()].starts_with('{') {
        return None;
    }
    let first_word: String = skip_comments(inside)
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '#')
        .collect();
    let first_word = if first_word.starts_with('#') { "#" } else { first_word.as_str() };
    ITEM_STARTS.contains(&first_word).then_some(body)
}

/// The text after leading whitespace and comments (doc comments come before items).
fn skip_comments(mut text: &str) -> &str {
    loop {
        text = text.trim_start();
        if let Some(rest) = text.strip_prefix("//") {
            text = rest.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(rest) = text.strip_prefix("/*") {
            text = rest.split_once("*/").map_or("", |(_, after)| after);
        } else {
            return text;
        }
    }
}

/// Replaces bytes with spaces, keeping newlines so that lines stay where they were.
fn blank(bytes: &mut [u8], start: usize, end: usize) {
    let end = end.min(bytes.len());
    for byte in &mut bytes[start.min(end)..end] {
        if *byte != b'\n' {
            *byte = b' ';
        }
    }
}

/// Records each wrapper's call of its macro, made by the innermost module, impl or trait
/// holding it, and marks the definitions inside it macro-written: the macro may do anything
/// with them (quickcheck's `quickcheck! { fn prop(…) … }` wraps each in a test).
pub(crate) fn push_wrapper_calls(calls: Vec<WrapperCall>, facts: &mut tether_model::FileFacts) {
    use tether_model::SymbolKind;
    for symbol in &mut facts.symbols {
        let start = symbol.span.start_byte;
        if calls.iter().any(|call| call.byte < start && start < call.end_byte) {
            symbol.visibility = tether_model::Visibility::MacroWritten;
        }
    }
    for call in calls {
        let caller = crate::outline::innermost_symbol_at(&facts.symbols, call.byte, |kind| {
            matches!(kind, SymbolKind::Module | SymbolKind::Impl | SymbolKind::Trait)
        });
        let Some(caller) = caller else { continue };
        facts.calls.push(tether_model::CallSite {
            caller,
            callee: tether_model::CalleeExpr::Macro(call.path),
            line: call.line,
            byte: call.byte,
            text: call.text,
        });
    }
}

fn error_count(node: Node<'_>) -> usize {
    // Iterative: a tree may nest deeper than the stack allows recursion.
    let mut count = 0;
    let mut cursor = node.walk();
    loop {
        let current = cursor.node();
        count += usize::from(current.is_error() || current.is_missing());
        if current.has_error() && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == node {
                return count;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return count;
            }
        }
    }
}
