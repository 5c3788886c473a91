//! Python's rules: how Python names, members, values, builtins and pytest fixtures resolve.
//! The core (the files above this folder) asks them through `LanguageRules`.

pub(crate) mod builtin_results;
pub(crate) mod builtin_stubs;
pub(crate) mod callback_edges;
pub(crate) mod containers;
pub(crate) mod dynamic_reads;
pub(crate) mod element_flow;
pub(crate) mod keyed_elements;
pub(crate) mod language;
pub(crate) mod members;
pub(crate) mod property_reads;
pub(crate) mod pytest_fixture_edges;
pub(crate) mod pytest_fixtures;
pub(crate) mod rules;
pub(crate) mod unpacked_arguments;
pub(crate) mod values;
