//! Rust's rules: paths and namespaces, members and traits, std containers, derefs, macros,
//! closures and generic arguments. The core (the files above this folder) asks them through
//! `LanguageRules`.

pub(crate) mod blanket_impls;
pub(crate) mod closure_arguments;
pub(crate) mod closure_results;
pub(crate) mod deref_arguments;
pub(crate) mod deref_calls;
pub(crate) mod derived_calls;
pub(crate) mod drop_calls;
pub(crate) mod generic_arguments;
pub(crate) mod language;
pub(crate) mod macro_defined_types;
pub(crate) mod macro_expansions;
pub(crate) mod macro_mentions;
pub(crate) mod members;
pub(crate) mod module_files;
pub(crate) mod namespaces;
pub(crate) mod outside_type_impls;
pub(crate) mod project_iterators;
pub(crate) mod rules;
pub(crate) mod std_signatures;
pub(crate) mod std_wrappers;
pub(crate) mod trait_path_calls;
pub(crate) mod turbofish;
pub(crate) mod type_paths;
