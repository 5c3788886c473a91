//! The tidy test of the resolver's shape (issues 16, 40): the core does not branch on the
//! language. What differs between languages is asked of `LanguageRules`
//! (`crates/resolve/src/language_rules.rs`, the one core file that names each language's
//! rules); each language's rules live in its own folder (`crates/resolve/src/python/`,
//! `crates/resolve/src/rust/`). No core file but that one names a language's folder, and a
//! language's folder names nothing of another's. A core file names no `Language::Python` or
//! `Language::Rust`. It may still name an item of one language (a `python_*` table of the
//! project index, `Wrapper::PythonList`) as often as listed, and that count only goes down: a
//! file that names more fails, one that names fewer must lower its count, one that reaches 0
//! must leave the list, and no file may join it.

use std::path::Path;

/// The languages' folders: each holds one language's rules, members, values and library
/// models. Adding a language adds a folder (and one line in `language_rules.rs`); it edits
/// neither of these.
const LANGUAGE_FOLDERS: &[&str] = &["python", "rust"];

/// The one core file that names every language: where `rules_of` picks a language's rules.
const LANGUAGE_ASSEMBLY: &str = "language_rules.rs";

/// Core files that still name items of one language, and how many times (outside tests,
/// comments and `mod` lines): the project index's per-language tables, the value lattice's
/// Python builtin containers, the std traits a derive implements.
const SHARED_LANGUAGE_ITEMS: &[(&str, usize)] = &[
    ("builtins.rs", 1),
    ("call_results.rs", 1),
    ("container_types.rs", 5),
    ("denotation.rs", 1),
    ("project_index.rs", 27),
    ("value_types.rs", 15),
];

/// `code` without comments and `mod name;` lines.
fn code_only(text: &str) -> String {
    let code = text.find("#[cfg(test)]").map_or(text, |at| &text[..at]);
    code.lines()
        .filter(|line| {
            let line = line.trim_start().trim_start_matches("pub(crate) ");
            !(line.starts_with("mod ") && line.ends_with(';'))
        })
        .map(|line| line.find("//").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many times `code` names a language variant.
fn language_mentions(code: &str) -> usize {
    ["Language::Python", "Language::Rust"]
        .iter()
        .map(|variant| {
            code.match_indices(variant)
                .filter(|(at, _)| {
                    !code[at + variant.len()..].starts_with(|c: char| c.is_alphanumeric())
                })
                .count()
        })
        .sum()
}

/// How many identifiers of `code` name a language: `python_…`, `rust_…`, `pytest_…`,
/// `is_python`, and types `Python…` or `Rust…`.
fn language_item_mentions(code: &str) -> usize {
    code.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| {
            ["python_", "rust_", "pytest_"].iter().any(|prefix| word.starts_with(prefix))
                || *word == "is_python"
                || (["Python", "Rust"].iter().any(|prefix| word.starts_with(prefix))
                    && word.len() > "Rust".len()
                    && !["PythonRules", "RustRules"].contains(word))
        })
        .count()
}

fn resolver_folder() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/resolve/src")
}

/// The core's files (those outside the languages' folders, but for [`LANGUAGE_ASSEMBLY`]) and
/// their code.
fn shared_files() -> Vec<(String, String)> {
    let folder = resolver_folder();
    let mut files: Vec<(String, String)> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs") && name != LANGUAGE_ASSEMBLY)
        .map(|name| {
            let text = std::fs::read_to_string(folder.join(&name)).unwrap();
            (name, code_only(&text))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn shared_resolver_files_do_not_branch_on_the_language() {
    let problems: Vec<String> = shared_files()
        .into_iter()
        .filter_map(|(name, code)| {
            let found = language_mentions(&code);
            (found > 0).then(|| {
                format!(
                    "crates/resolve/src/{name}: names a language {found} times; ask \
                     `LanguageRules`, or move the rule into the language's own file"
                )
            })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn shared_resolver_files_name_language_items_only_less_often() {
    let files = shared_files();
    let mut problems = Vec::new();
    for (name, code) in &files {
        let found = language_item_mentions(code);
        let allowed = SHARED_LANGUAGE_ITEMS
            .iter()
            .find(|(listed, _)| listed == name)
            .map(|(_, count)| *count);
        match allowed {
            None if found > 0 => problems.push(format!(
                "crates/resolve/src/{name}: names items of one language {found} times; ask \
                 `LanguageRules`, or move the rule into the language's own file"
            )),
            Some(0) => problems
                .push(format!("crates/resolve/src/{name}: listed with 0: remove it from the list")),
            Some(allowed) if found > allowed => problems.push(format!(
                "crates/resolve/src/{name}: names items of one language {found} times (at most \
                 {allowed})"
            )),
            Some(allowed) if found < allowed => problems.push(format!(
                "crates/resolve/src/{name}: names items of one language {found} times: lower \
                 its count from {allowed}{}",
                if found == 0 { " (to 0: remove it from the list)" } else { "" }
            )),
            _ => {}
        }
    }
    let folder = resolver_folder();
    let listed = SHARED_LANGUAGE_ITEMS.iter().map(|(name, _)| *name).chain([LANGUAGE_ASSEMBLY]);
    for listed in listed {
        if !folder.join(listed).exists() {
            problems.push(format!("crates/resolve/src/{listed}: listed but gone"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_core_imports_nothing_from_a_language_folder() {
    let problems: Vec<String> = shared_files()
        .into_iter()
        .flat_map(|(name, code)| {
            LANGUAGE_FOLDERS
                .iter()
                .filter(move |folder| code.contains(&format!("crate::{folder}::")))
                .map(move |folder| {
                    format!(
                        "crates/resolve/src/{name}: names `crate::{folder}::`; ask \
                         `LanguageRules` ({LANGUAGE_ASSEMBLY} is the one core file that names \
                         a language's folder)"
                    )
                })
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_language_folder_imports_nothing_from_another_language() {
    let mut problems = Vec::new();
    for folder in LANGUAGE_FOLDERS {
        let path = resolver_folder().join(folder);
        for entry in std::fs::read_dir(&path).unwrap().flatten() {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            for other in LANGUAGE_FOLDERS.iter().filter(|other| *other != folder) {
                if text.contains(&format!("crate::{other}::")) {
                    problems.push(format!(
                        "crates/resolve/src/{folder}/{}: names `crate::{other}::`; what two \
                         languages share belongs to the core",
                        entry.file_name().to_string_lossy()
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn language_item_mentions_count_identifiers_not_substrings() {
    let code = "self.index.python_conftests; Wrapper::PythonList; crate::PythonRules; trust_me";
    assert_eq!(language_item_mentions(code), 2);
    assert_eq!(language_mentions("Language::Python | Language::PythonLike"), 1);
    assert_eq!(code_only("mod python_rules;\nlet a = 1; // python_x\n").trim(), "let a = 1;");
}
