//! The tidy test of the resolver's shape (issue 16): shared resolver files do not branch on
//! the language. What differs between languages is asked of `LanguageRules`
//! (`crates/resolve/src/language_rules.rs`); files that belong to one language hold its rules.
//! A shared file names no `Language::Python` or `Language::Rust`. It may still name an item of
//! one language (a `python_*` table of the project index, `Wrapper::PythonList`) as often as
//! listed, and that count only goes down: a file that names more fails, one that names fewer
//! must lower its count, one that reaches 0 must leave the list, and no file may join it.

use std::path::Path;

/// Resolver files that belong to one language: its rules, or an idiom only it has (Rust's
/// blanket impls, derefs and macros; Python's pytest fixtures, properties and `*args`).
/// Adding a language adds files here; it edits none of these.
const LANGUAGE_FILES: &[&str] = &[
    "language_rules.rs",
    "python_language.rs",
    "rust_language.rs",
    // Python.
    "python_rules.rs",
    "python_members.rs",
    "python_values.rs",
    "python_containers.rs",
    "python_builtin_stubs.rs",
    "python_dynamic_reads.rs",
    "pytest_fixtures.rs",
    "pytest_fixture_edges.rs",
    "property_reads.rs",
    "callback_edges.rs",
    "builtin_results.rs",
    "keyed_elements.rs",
    "element_flow.rs",
    "unpacked_arguments.rs",
    // Rust.
    "rust_rules.rs",
    "rust_members.rs",
    "rust_namespaces.rs",
    "rust_module_files.rs",
    "rust_type_paths.rs",
    "rust_std_wrappers.rs",
    "rust_std_signatures.rs",
    "blanket_impls.rs",
    "outside_type_impls.rs",
    "deref_arguments.rs",
    "deref_calls.rs",
    "turbofish.rs",
    "trait_path_calls.rs",
    "macro_expansions.rs",
    "macro_mentions.rs",
    "macro_defined_types.rs",
    "generic_arguments.rs",
    "closure_arguments.rs",
    "closure_results.rs",
    "project_iterators.rs",
];

/// Shared resolver files that still name items of one language, and how many times (outside
/// tests, comments and `mod` lines): the project index's per-language tables, the value
/// lattice's Python builtin containers, the std traits a derive implements.
const SHARED_LANGUAGE_ITEMS: &[(&str, usize)] = &[
    ("builtins.rs", 1),
    ("call_results.rs", 1),
    ("container_types.rs", 5),
    ("denotation.rs", 1),
    ("project_index.rs", 28),
    ("value_types.rs", 21),
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

/// The shared resolver files (those not in [`LANGUAGE_FILES`]) and their code.
fn shared_files() -> Vec<(String, String)> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/resolve/src");
    let mut files: Vec<(String, String)> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs") && !LANGUAGE_FILES.contains(&name.as_str()))
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
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/resolve/src");
    let listed =
        SHARED_LANGUAGE_ITEMS.iter().map(|(name, _)| *name).chain(LANGUAGE_FILES.iter().copied());
    for listed in listed {
        if !folder.join(listed).exists() {
            problems.push(format!("crates/resolve/src/{listed}: listed but gone"));
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
