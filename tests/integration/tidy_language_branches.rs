//! The tidy test of the resolver's shape (issue 16): shared resolver files do not branch on
//! the language. What differs between languages is asked of `LanguageRules`
//! (`crates/resolve/src/language_rules.rs`); files that belong to one language hold its rules.
//! A shared file still naming `Language::Python` or `Language::Rust` is listed with how often,
//! and the count only goes down: a file that branches more fails, one that branches less must
//! lower its count, one that reaches 0 must leave the list, and no file may join it.

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
    "blanket_impls.rs",
    "deref_arguments.rs",
    "deref_calls.rs",
    "turbofish.rs",
    "trait_path_calls.rs",
    "macro_expansions.rs",
    "macro_defined_types.rs",
    "generic_arguments.rs",
    "closure_arguments.rs",
    "closure_results.rs",
    "project_iterators.rs",
];

/// Shared resolver files that still name a language, and how many times (outside tests).
const SHARED_LANGUAGE_BRANCHES: &[(&str, usize)] = &[
    ("call_results.rs", 4),
    ("calls.rs", 4),
    ("denotation.rs", 1),
    ("project_index.rs", 3),
    ("resolver.rs", 2),
    ("structure.rs", 3),
    ("value_flow.rs", 1),
    ("value_types.rs", 1),
];

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

#[test]
fn shared_resolver_files_branch_on_the_language_only_less_often() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crates/resolve/src");
    let mut problems = Vec::new();
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".rs"))
        .collect();
    files.sort();
    for name in &files {
        if LANGUAGE_FILES.contains(&name.as_str()) {
            continue;
        }
        let text = std::fs::read_to_string(folder.join(name)).unwrap();
        let code = text.find("#[cfg(test)]").map_or(text.as_str(), |at| &text[..at]);
        let found = language_mentions(code);
        let allowed = SHARED_LANGUAGE_BRANCHES
            .iter()
            .find(|(listed, _)| listed == name)
            .map(|(_, count)| *count);
        match allowed {
            None if found > 0 => problems.push(format!(
                "crates/resolve/src/{name}: names a language {found} times; ask `LanguageRules`, \
                 or move the rule into the language's own file"
            )),
            Some(0) => problems
                .push(format!("crates/resolve/src/{name}: listed with 0: remove it from the list")),
            Some(allowed) if found > allowed => problems.push(format!(
                "crates/resolve/src/{name}: names a language {found} times (at most {allowed})"
            )),
            Some(allowed) if found < allowed => problems.push(format!(
                "crates/resolve/src/{name}: names a language {found} times: lower its count \
                 from {allowed}{}",
                if found == 0 { " (to 0: remove it from the list)" } else { "" }
            )),
            _ => {}
        }
    }
    let listed = SHARED_LANGUAGE_BRANCHES
        .iter()
        .map(|(name, _)| *name)
        .chain(LANGUAGE_FILES.iter().copied());
    for listed in listed {
        if !files.iter().any(|name| name == listed) {
            problems.push(format!("crates/resolve/src/{listed}: listed but gone"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
