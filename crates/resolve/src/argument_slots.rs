//! Where a value lands among a function's parameters and a container's elements, in value
//! flow's `Slot`s: a positional or keyword argument's parameter (or its `*args` element or
//! `**kwargs` entry, for the languages whose functions have them), what an element's slot
//! holds by key, and a path's trailing literal keys (`table["k"][1]`).
//!
//! It deliberately holds no language's rules: which calls store into a container, and how a
//! language forwards unpacked arguments, are the languages' own (`python::element_flow`,
//! `python::unpacked_arguments`).

use std::collections::{BTreeMap, BTreeSet};

use tether_model::{Parameter, ParameterKind, SymbolId};

use crate::value_flow::{FlowValue, Slot};

/// An indexed path's container and its trailing literal keys: `nested["basic"][1]` gives
/// `nested` and `["basic"]`, `[1]`.
pub(crate) fn split_literal_keys(path: &[String]) -> (&[String], &[String]) {
    let keys = path.iter().rev().take_while(|segment| segment.starts_with('[')).count();
    path.split_at(path.len() - keys)
}

/// What a called slot may hold: its own targets; for an element, also those stored under no
/// key, and, read under no key, those stored under any.
pub(crate) fn slot_targets(
    targets: &BTreeMap<Slot, BTreeSet<FlowValue>>,
    slot: &Slot,
) -> BTreeSet<FlowValue> {
    let Slot::Element { owner, name, key } = slot else {
        return targets.get(slot).cloned().unwrap_or_default();
    };
    let first = Slot::Element { owner: *owner, name: name.clone(), key: None };
    let mut found = BTreeSet::new();
    for (stored, held) in targets.range(first..) {
        let Slot::Element { owner: stored_owner, name: stored_name, key: stored_key } = stored
        else {
            break;
        };
        if stored_owner != owner || stored_name != name {
            break;
        }
        if key.is_none() || stored_key.is_none() || stored_key == key {
            found.extend(held.iter().cloned());
        }
    }
    found
}

/// Whether a parameter can be passed by keyword.
pub(crate) fn takes_keyword(parameter: &Parameter) -> bool {
    matches!(parameter.kind, ParameterKind::Positional | ParameterKind::KeywordOnly)
}

/// Where a positional argument at `position` (`self` counted) lands: the parameter there,
/// or an element of the `*args` at or before it (that element, and any element).
pub(crate) fn positional_slots(
    function: SymbolId,
    parameters: &[&Parameter],
    position: u32,
) -> Vec<Slot> {
    if let Some(parameter) = parameters.iter().find(|parameter| {
        parameter.position == position && parameter.kind == ParameterKind::Positional
    }) {
        return vec![Slot::Parameter { function, position: parameter.position }];
    }
    let rest = parameters.iter().find(|parameter| {
        parameter.kind == ParameterKind::VarPositional && parameter.position <= position
    });
    match rest {
        Some(rest) => vec![
            Slot::Rest { function, index: Some(position - rest.position) },
            Slot::Rest { function, index: None },
        ],
        None => Vec::new(),
    }
}

/// Where a keyword argument lands: the parameter of that name, or an entry of `**kwargs`.
pub(crate) fn keyword_slots(
    function: SymbolId,
    parameters: &[&Parameter],
    keyword: &str,
) -> Vec<Slot> {
    if let Some(parameter) =
        parameters.iter().find(|parameter| parameter.name == keyword && takes_keyword(parameter))
    {
        return vec![Slot::Parameter { function, position: parameter.position }];
    }
    if parameters.iter().any(|parameter| parameter.kind == ParameterKind::VarKeyword) {
        return vec![Slot::Keyword { function, name: keyword.to_string() }];
    }
    Vec::new()
}
