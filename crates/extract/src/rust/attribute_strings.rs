//! Functions named in attributes: serde's `#[serde(default = "default_port")]`,
//! `serialize_with = "as_hex"`, `skip_serializing_if = "Option::is_none"`, `with =
//! "humantime_serde"` (whose `serialize` and `deserialize` it calls). A derive macro calls
//! them where the graph cannot see it, and clap's `#[arg(value_parser = parse_millis)]`,
//! so each name is recorded as a mention of the attribute (a `MacroInvocation`): its
//! definitions are then never proven unused.
//!
//! Only `key = "path"` and `key = path` pairs are read; `doc` and `cfg` attributes are not
//! (their strings are prose and feature names).

use tether_model::{FileFacts, MacroInvocation};
use tree_sitter::Node;

use crate::outline::{innermost_symbol_at, line_of};

/// Records the paths named in attribute strings of the file.
pub(crate) fn record_attribute_string_mentions(
    root: Node<'_>,
    source: &str,
    facts: &mut FileFacts,
) {
    let mut start = 0;
    while let Some(offset) = source[start..].find("#[") {
        let at = start + offset;
        start = at + 2;
        let Some(attribute) = root
            .descendant_for_byte_range(at, at + 2)
            .and_then(|node| ancestor_of_kind(node, "attribute_item"))
        else {
            continue;
        };
        let text = &source[attribute.byte_range()];
        let head: String =
            text[2..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if matches!(head.as_str(), "doc" | "cfg" | "cfg_attr" | "deprecated" | "path") {
            continue;
        }
        let mentions = named_paths(text);
        if mentions.is_empty() {
            continue;
        }
        let byte = attribute.start_byte() as u32;
        let Some(caller) = innermost_symbol_at(&facts.symbols, byte, |_| true) else { continue };
        facts.macro_invocations.push(MacroInvocation {
            caller,
            line: line_of(attribute),
            macro_name: head,
            identifiers: Vec::new(),
            mentions,
        });
        start = attribute.end_byte().max(start);
    }
}

fn ancestor_of_kind<'tree>(mut node: Node<'tree>, kind: &str) -> Option<Node<'tree>> {
    for _ in 0..8 {
        if node.kind() == kind {
            return Some(node);
        }
        node = node.parent()?;
    }
    None
}

/// The last segments of the paths in `key = "path"` pairs (`with = "m"` also gives
/// `serialize` and `deserialize`), sorted, each once.
fn named_paths(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let pieces: Vec<&str> = text.split('"').collect();
    // A string's text is every odd piece; the piece before it ends with `key =`.
    for index in (1..pieces.len()).step_by(2) {
        let before = pieces[index - 1].trim_end();
        let Some(before) = before.strip_suffix('=') else { continue };
        let key: String = before
            .trim_end()
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect::<Vec<char>>()
            .into_iter()
            .rev()
            .collect();
        let value = pieces[index];
        let is_path = !value.is_empty()
            && value.split("::").all(|segment| {
                !segment.is_empty()
                    && !segment.starts_with(|c: char| c.is_ascii_digit())
                    && segment.chars().all(|c| c.is_alphanumeric() || c == '_')
            });
        if !is_path {
            continue;
        }
        if let Some(last) = value.rsplit("::").next() {
            names.push(last.to_string());
        }
        if key == "with" {
            names.extend(["serialize".to_string(), "deserialize".to_string()]);
        }
    }
    // Outside strings: `key = path` (clap's `value_parser = parse_millis`).
    for outside in pieces.iter().step_by(2) {
        for (at, _) in outside.match_indices('=') {
            let after = outside[at + 1..].trim_start();
            let path: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let starts_like_a_name = path.starts_with(|c: char| c.is_alphabetic() || c == '_');
            if starts_like_a_name && !matches!(path.as_str(), "true" | "false") {
                if let Some(last) = path.rsplit("::").next().filter(|last| !last.is_empty()) {
                    names.push(last.to_string());
                }
            }
        }
    }
    names.sort_unstable();
    names.dedup();
    names
}

#[cfg(test)]
mod tests {
    use super::named_paths;

    #[test]
    fn paths_in_key_value_strings_are_named() {
        assert_eq!(named_paths(r#"#[serde(default = "default_port")]"#), ["default_port"]);
        assert_eq!(
            named_paths(r#"#[serde(skip_serializing_if = "Option::is_none", rename = "type")]"#),
            ["is_none", "type"]
        );
        assert_eq!(
            named_paths(r#"#[serde(with = "hex_bytes")]"#),
            ["deserialize", "hex_bytes", "serialize"]
        );
        assert!(named_paths(r#"#[error("a = \"{0}\"")]"#).is_empty());
        assert!(named_paths(r#"#[serde(rename = "two words")]"#).is_empty());
        assert_eq!(
            named_paths(
                r#"#[arg(long, hide = true, value_parser = parse_millis, default_value = "a b")]"#
            ),
            ["parse_millis"]
        );
        assert_eq!(named_paths("#[arg(value_parser = crate::cli::parse_size)]"), ["parse_size"]);
    }
}
