//! Which type names are containers of their generic argument (`Vec`, `SmallVec`, `Option`,
//! Python's `list`, `Mapping`…): data in `queries/{rust,python}/container_types.txt`, one line
//! per kind, parsed once; a line naming an unknown kind is rejected when the table loads.
//!
//! It deliberately knows names only (the last segment of a type's path): a project type named
//! like a container is the project's, because project types are looked up first.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::value_types::Wrapper;

const RUST_CONTAINER_TYPES: &str = include_str!("../../../queries/rust/container_types.txt");

const PYTHON_CONTAINER_TYPES: &str = include_str!("../../../queries/python/container_types.txt");

/// The container kinds a data file may name, by the word it uses.
const KINDS: [(&str, Wrapper); 15] = [
    ("option", Wrapper::Option),
    ("result", Wrapper::Result),
    ("sequence", Wrapper::Sequence),
    // A sequence whose written argument is an array of its element (`SmallVec<[T; 4]>`).
    (ARRAY_SEQUENCE, Wrapper::Sequence),
    ("map", Wrapper::Map),
    ("iterator", Wrapper::Iterator),
    ("box", Wrapper::Box),
    ("rc", Wrapper::Rc),
    ("arc", Wrapper::Arc),
    ("pin", Wrapper::Pin),
    ("future", Wrapper::Future),
    ("poll", Wrapper::Poll),
    ("list", Wrapper::PythonList),
    ("set", Wrapper::PythonSet),
    ("dict", Wrapper::PythonDict),
];

/// The kind word of a sequence written with an array argument.
const ARRAY_SEQUENCE: &str = "array-sequence";

/// A parsed table: each name's kind, and which sequences hold the element of an array
/// argument.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ContainerTable {
    pub(crate) kinds: HashMap<String, Wrapper>,
    pub(crate) array_sequences: HashSet<String>,
}

/// A table of container names: each name's kind. Lines are `kind name…`; blank lines and
/// `#` comments say nothing. An unknown kind, or a line with no names, is an error naming
/// the line.
pub(crate) fn parse_container_types(text: &str) -> Result<ContainerTable, String> {
    let mut table = ContainerTable::default();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let kind = words.next().unwrap_or_default();
        let Some((_, wrapper)) = KINDS.iter().find(|(word, _)| *word == kind) else {
            return Err(format!("line {}: unknown container kind `{kind}`", number + 1));
        };
        let mut named = false;
        for name in words {
            table.kinds.insert(name.to_string(), *wrapper);
            if kind == ARRAY_SEQUENCE {
                table.array_sequences.insert(name.to_string());
            }
            named = true;
        }
        if !named {
            return Err(format!("line {}: `{kind}` names no type", number + 1));
        }
    }
    Ok(table)
}

fn shipped_table(
    cell: &'static OnceLock<ContainerTable>,
    text: &'static str,
) -> &'static ContainerTable {
    cell.get_or_init(|| {
        // The shipped files are checked by a test; a broken one must not pass silently.
        parse_container_types(text).expect("queries/*/container_types.txt parses")
    })
}

/// The container a Rust type name stands for (`Vec`, `FxHashMap`, `Arc`…).
pub(crate) fn rust_container(name: &str) -> Option<Wrapper> {
    shipped_table(&RUST_TABLE, RUST_CONTAINER_TYPES).kinds.get(name).copied()
}

/// Whether a Rust sequence is written with an array of its element (`SmallVec<[T; 4]>`).
pub(crate) fn is_array_sequence(name: &str) -> bool {
    shipped_table(&RUST_TABLE, RUST_CONTAINER_TYPES).array_sequences.contains(name)
}

/// The container a Python annotation's class name stands for (`list`, `Sequence`, `dict`…).
pub(crate) fn python_container(name: &str) -> Option<Wrapper> {
    shipped_table(&PYTHON_TABLE, PYTHON_CONTAINER_TYPES).kinds.get(name).copied()
}

static RUST_TABLE: OnceLock<ContainerTable> = OnceLock::new();

static PYTHON_TABLE: OnceLock<ContainerTable> = OnceLock::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_tables_parse_and_name_the_common_containers() {
        let rust = parse_container_types(RUST_CONTAINER_TYPES).expect("the Rust table parses");
        assert_eq!(rust.kinds.get("SmallVec"), Some(&Wrapper::Sequence));
        assert!(rust.array_sequences.contains("SmallVec"));
        assert!(!rust.array_sequences.contains("Vec"));
        assert_eq!(rust.kinds.get("FxHashMap"), Some(&Wrapper::Map));
        let python = parse_container_types(PYTHON_CONTAINER_TYPES).expect("the Python table");
        assert_eq!(python.kinds.get("Mapping"), Some(&Wrapper::PythonDict));
        assert_eq!(rust_container("Arc"), Some(Wrapper::Arc));
        assert_eq!(python_container("frozenset"), Some(Wrapper::PythonSet));
        assert_eq!(rust_container("MyVec"), None);
    }

    #[test]
    fn a_line_added_to_a_table_makes_a_new_container_and_unknown_kinds_are_rejected() {
        let extended = format!("{RUST_CONTAINER_TYPES}\nsequence TinyVec\n");
        let table = parse_container_types(&extended).expect("the extended table parses");
        assert_eq!(table.kinds.get("TinyVec"), Some(&Wrapper::Sequence));
        assert_eq!(
            parse_container_types("# a comment\nvector Vec\n"),
            Err("line 2: unknown container kind `vector`".to_string())
        );
        assert_eq!(
            parse_container_types("sequence\n"),
            Err("line 1: `sequence` names no type".to_string())
        );
    }
}
