//! An answer's lists, for a client that fits answers to a size (MCP's `budget_tokens`): the
//! main list (items, owners, memory entries, one health section's findings) and the secondary
//! ones (tests affected, changed symbols, each section's findings when health gives several),
//! and the JSON of an answer cut to shorter lists, the cut said in the answer.
//!
//! It deliberately decides nothing about sizes: which cut fits is the client's to find.

use serde_json::{json, Value};

use super::{Answer, ChangesAnswer, HealthAnswer};

/// How an answer's JSON is cut.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonCut {
    /// Items of the main list kept (from the start); `None` keeps them all.
    pub shown: Option<usize>,
    /// The cursor that fetches the cut items, when the list is paged by cursor.
    pub cursor: Option<String>,
    /// The answer's `next` hint in its place when the list is cut (the daemon's names a cursor
    /// that would skip the items not shown).
    pub next: Option<String>,
    /// What the cut means for the reader (how to see the rest).
    pub note: Option<String>,
    /// Secondary lists kept to this many elements, by key.
    pub secondary_kept: Vec<(&'static str, usize)>,
}

/// The lists of an answer that may be cut besides its main one, in the order a client should
/// keep them when it cannot keep all; `causes` are those of its `completeness`, the file lists
/// those of its `freshness`.
pub const SECONDARY_LIST_KEYS: [&str; 6] =
    ["tests_affected", "causes", "changed", "uncommitted_files", "files_not_in_graph", "traces"];

/// The lists of `health`'s sections, each under the section of the same `kind` and named like
/// it: the main list when one section is asked for, secondary lists when several are.
pub const HEALTH_LIST_KEYS: [&str; 5] = tether_query::HealthKind::NAMES;

/// The object of an answer's JSON that holds the list `key`.
fn holder_of<'v>(value: &'v mut Value, key: &str) -> Option<&'v mut Value> {
    match key {
        // One health section's causes are its own.
        "causes" if value.get("completeness").is_none() => {
            match value.get_mut("sections")?.as_array_mut()?.as_mut_slice() {
                [section] => section.get_mut("completeness"),
                _ => None,
            }
        }
        "causes" => value.get_mut("completeness"),
        "uncommitted_files" | "files_not_in_graph" => value.get_mut("freshness"),
        _ if HEALTH_LIST_KEYS.contains(&key) => value
            .get_mut("sections")?
            .as_array_mut()?
            .iter_mut()
            .find(|section| section.get("kind").and_then(Value::as_str) == Some(key)),
        _ => Some(value),
    }
}

impl HealthAnswer {
    /// The one section asked for, when only one is in the answer.
    fn only_section(&self) -> Option<&super::HealthSection> {
        match self.sections.as_slice() {
            [section] => Some(section),
            _ => None,
        }
    }
}

impl super::HealthSection {
    /// The key of the section's findings and how many this page holds.
    pub fn findings_list(&self) -> Option<(&'static str, usize)> {
        let key = HEALTH_LIST_KEYS.into_iter().find(|key| *key == self.kind)?;
        let length = match key {
            "god_objects" => self.god_objects.len(),
            "coupling" => self.coupling.len(),
            "cycles" => self.cycles.len(),
            "churn" => self.churn.len(),
            _ => self.dead_code.len(),
        };
        Some((key, length))
    }
}

impl Answer {
    /// The key of the answer's main list and its length, for answers that list items.
    pub fn main_list(&self) -> Option<(&'static str, usize)> {
        match self {
            Answer::Blast(blast) => Some(("items", blast.items.len())),
            Answer::Changes(ChangesAnswer::Diff { blast, .. }) => {
                Some(("items", blast.items.len()))
            }
            Answer::Neighbours(neighbours) => Some(("items", neighbours.items.len())),
            Answer::Lookup(lookup) => Some(("items", lookup.items.len())),
            Answer::SearchMemory(search) => Some(("items", search.items.len())),
            Answer::Ownership(ownership) => Some(("owners", ownership.owners.len())),
            Answer::Context(context) => Some(("chain", context.chain.len())),
            Answer::Health(health) => health.only_section()?.findings_list(),
            Answer::Recall(recall) => Some(("traces", recall.traces.len())),
            Answer::Tree(tree) => Some(("items", tree.items.len())),
            Answer::OpenPhases(open) => Some(("items", open.items.len())),
            _ => None,
        }
    }

    /// The JSON pointer of the object holding the main list ("" for the answer itself).
    fn main_list_holder(&self) -> &'static str {
        match self {
            Answer::Health(_) => "/sections/0",
            _ => "",
        }
    }

    /// How many items the whole list has, across pages, when the answer says.
    pub fn list_total(&self) -> Option<usize> {
        match self {
            Answer::Blast(blast) => Some(blast.total),
            Answer::Changes(ChangesAnswer::Diff { blast, .. }) => Some(blast.total),
            Answer::Neighbours(neighbours) => Some(neighbours.total),
            Answer::Lookup(lookup) => Some(lookup.total),
            Answer::SearchMemory(search) => Some(search.total),
            Answer::Health(health) => Some(health.only_section()?.total),
            Answer::Tree(tree) => Some(tree.total),
            Answer::OpenPhases(open) => Some(open.total),
            _ => None,
        }
    }

    /// The cursor of the next page, when there is one.
    pub fn next_cursor(&self) -> Option<&str> {
        match self {
            Answer::Blast(blast) => blast.next_cursor.as_deref(),
            Answer::Changes(ChangesAnswer::Diff { blast, .. }) => blast.next_cursor.as_deref(),
            Answer::Neighbours(neighbours) => neighbours.next_cursor.as_deref(),
            Answer::Lookup(lookup) => lookup.next_cursor.as_deref(),
            Answer::SearchMemory(search) => search.next_cursor.as_deref(),
            Answer::Health(health) => health.only_section()?.next_cursor.as_deref(),
            Answer::Tree(tree) => tree.next_cursor.as_deref(),
            Answer::OpenPhases(open) => open.next_cursor.as_deref(),
            _ => None,
        }
    }

    /// The secondary lists the answer has (of [`SECONDARY_LIST_KEYS`], then of
    /// [`HEALTH_LIST_KEYS`] but the main list, in that order), with their lengths.
    pub fn secondary_lists(&self) -> Vec<(&'static str, usize)> {
        let mut value = self.to_json();
        let main = self.main_list().map(|(key, _)| key);
        SECONDARY_LIST_KEYS
            .iter()
            .chain(HEALTH_LIST_KEYS.iter())
            .filter(|key| Some(**key) != main)
            .filter_map(|key| {
                let length = holder_of(&mut value, key)?.get(*key)?.as_array()?.len();
                Some((*key, length))
            })
            .collect()
    }

    /// The answer's JSON text with its lists cut: a cut main list adds `truncated`
    /// (`shown`, `omitted`, `cursor`, `note`) and, when paged by cursor, the `next_cursor`
    /// to continue; a cut secondary list adds `<key>_omitted`.
    pub fn cut_json_text(&self, cut: &JsonCut) -> String {
        let mut value = self.to_json();
        if let (Some(shown), Some((key, listed))) = (cut.shown, self.main_list()) {
            if shown < listed {
                if let Some(holder) = value.pointer_mut(self.main_list_holder()) {
                    if let Some(items) = holder.get_mut(key).and_then(Value::as_array_mut) {
                        items.truncate(shown);
                    }
                    if let Some(cursor) = &cut.cursor {
                        holder["next_cursor"] = json!(cursor);
                    }
                }
                if let Some(next) = &cut.next {
                    value["next"] = json!(next);
                }
                value["truncated"] = json!({
                    "shown": shown,
                    "omitted": listed - shown,
                    "cursor": cut.cursor,
                    "note": cut.note,
                });
            }
        }
        for (key, kept) in &cut.secondary_kept {
            let Some(holder) = holder_of(&mut value, key) else { continue };
            let Some(items) = holder.get_mut(*key).and_then(Value::as_array_mut) else { continue };
            let length = items.len();
            if *kept < length {
                items.truncate(*kept);
                holder[format!("{key}_omitted")] = json!(length - kept);
            }
        }
        value.to_string()
    }
}
