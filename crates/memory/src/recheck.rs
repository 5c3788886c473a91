//! [`needs_recheck`]: whether something an entry builds on (through `depends_on`, directly
//! or transitively) has since been superseded, so the entry should be looked at again.

use std::collections::{HashMap, HashSet};

use crate::entry::Entry;
use crate::timestamp::recency_key;

/// The answer of [`needs_recheck`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecheckVerdict {
    /// Nothing the entry depends on has been superseded.
    Fine,
    /// Ids from the entry, through its dependencies, to the newest entry superseding the
    /// dependency: e.g. `[entry, dependency, newer, newest]`.
    NeedsRecheck { path: Vec<String> },
    /// The answer cannot be known: a dependency is missing or the links form a cycle.
    Unknown { reason: String },
}

/// Decides whether entry `id` needs a recheck: some entry it depends on (directly or
/// through a chain of `depends_on`) is listed in the `supersedes` of an active entry.
/// The superseding chain is followed to its newest active end (when several active
/// entries supersede the same one, the newest by `created_at`, then id, is followed).
///
/// Dependencies are searched depth first in listed order and the first superseded one
/// wins. A definite [`RecheckVerdict::NeedsRecheck`] beats an [`RecheckVerdict::Unknown`]
/// found on another branch; otherwise a missing id or a `depends_on`/`supersedes` cycle
/// makes the verdict `Unknown`. When several entries share an id, the first one counts.
pub fn needs_recheck(entries: &[Entry], id: &str) -> RecheckVerdict {
    let mut entry_by_id: HashMap<&str, &Entry> = HashMap::new();
    let mut superseders_of: HashMap<&str, Vec<&Entry>> = HashMap::new();
    for entry in entries {
        entry_by_id.entry(entry.id.as_str()).or_insert(entry);
        if entry.is_active() {
            for superseded_id in &entry.supersedes {
                superseders_of.entry(superseded_id.as_str()).or_default().push(entry);
            }
        }
    }
    let Some(start) = entry_by_id.get(id).copied() else {
        return RecheckVerdict::Unknown { reason: format!("no entry has id `{id}`") };
    };
    let mut search = DependencySearch {
        entry_by_id,
        superseders_of,
        fully_checked: HashSet::new(),
        first_unknown: None,
    };
    let mut path = vec![start.id.clone()];
    match search.visit(start, &mut path) {
        Some(path) => RecheckVerdict::NeedsRecheck { path },
        None => match search.first_unknown {
            Some(reason) => RecheckVerdict::Unknown { reason },
            None => RecheckVerdict::Fine,
        },
    }
}

struct DependencySearch<'a> {
    entry_by_id: HashMap<&'a str, &'a Entry>,
    superseders_of: HashMap<&'a str, Vec<&'a Entry>>,
    /// Dependencies whose whole subtree was searched without finding a superseded entry.
    fully_checked: HashSet<&'a str>,
    first_unknown: Option<String>,
}

impl<'a> DependencySearch<'a> {
    /// Searches `entry`'s dependencies; `path` holds the ids from the start to `entry`.
    fn visit(&mut self, entry: &'a Entry, path: &mut Vec<String>) -> Option<Vec<String>> {
        for dependency_id in &entry.depends_on {
            if path.contains(dependency_id) {
                self.note_unknown(format!(
                    "depends_on cycle: {} -> {dependency_id}",
                    path.join(" -> ")
                ));
                continue;
            }
            if self.fully_checked.contains(dependency_id.as_str()) {
                continue;
            }
            let Some(dependency) = self.entry_by_id.get(dependency_id.as_str()).copied() else {
                self.note_unknown(format!(
                    "`{}` depends on `{dependency_id}`, which does not exist",
                    entry.id
                ));
                continue;
            };
            path.push(dependency_id.clone());
            match self.superseding_chain(dependency_id) {
                Ok(chain) if !chain.is_empty() => {
                    path.extend(chain);
                    return Some(path.clone());
                }
                Ok(_) => {}
                Err(reason) => self.note_unknown(reason),
            }
            if let Some(found) = self.visit(dependency, path) {
                return Some(found);
            }
            path.pop();
            self.fully_checked.insert(dependency.id.as_str());
        }
        None
    }

    /// The ids superseding `superseded_id`, each newer step superseding the previous one;
    /// empty when nothing active supersedes it.
    fn superseding_chain(&self, superseded_id: &str) -> Result<Vec<String>, String> {
        let mut chain: Vec<String> = Vec::new();
        let mut current = superseded_id;
        while let Some(superseders) = self.superseders_of.get(current) {
            let Some(newest) =
                superseders.iter().max_by(|left, right| recency_key(left).cmp(&recency_key(right)))
            else {
                break;
            };
            if newest.id == superseded_id || chain.contains(&newest.id) {
                let mut cycle: Vec<&str> = vec![superseded_id];
                cycle.extend(chain.iter().map(String::as_str));
                cycle.push(&newest.id);
                return Err(format!("supersedes cycle: {}", cycle.join(" -> ")));
            }
            chain.push(newest.id.clone());
            current = newest.id.as_str();
        }
        Ok(chain)
    }

    fn note_unknown(&mut self, reason: String) {
        self.first_unknown.get_or_insert(reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{EntryStatus, EntryType};
    use crate::test_support::{sample_entry, with_links};

    fn entry(id: &str, supersedes: &[&str], depends_on: &[&str]) -> Entry {
        with_links(sample_entry(id, EntryType::Decision), supersedes, depends_on)
    }

    fn path(ids: &[&str]) -> RecheckVerdict {
        RecheckVerdict::NeedsRecheck { path: ids.iter().map(|id| id.to_string()).collect() }
    }

    #[test]
    fn fine_when_nothing_is_superseded() {
        let entries = [
            entry("a", &[], &["b"]),
            entry("b", &[], &["c"]),
            entry("c", &[], &[]),
            entry("d", &["a"], &[]),
        ];
        assert_eq!(needs_recheck(&entries, "a"), RecheckVerdict::Fine);
        assert_eq!(needs_recheck(&entries, "c"), RecheckVerdict::Fine);
    }

    #[test]
    fn follows_a_direct_dependency_to_the_newest_superseder() {
        let entries = [
            entry("a", &[], &["dep"]),
            entry("dep", &[], &[]),
            entry("newer", &["dep"], &[]),
            entry("newest", &["newer"], &[]),
        ];
        assert_eq!(needs_recheck(&entries, "a"), path(&["a", "dep", "newer", "newest"]));
    }

    #[test]
    fn follows_a_two_step_depends_on_chain() {
        let entries = [
            entry("a", &[], &["b"]),
            entry("b", &[], &["c"]),
            entry("c", &[], &[]),
            entry("c2", &["c"], &[]),
        ];
        assert_eq!(needs_recheck(&entries, "a"), path(&["a", "b", "c", "c2"]));
        assert_eq!(needs_recheck(&entries, "b"), path(&["b", "c", "c2"]));
    }

    #[test]
    fn ignores_discarded_superseders_and_picks_the_newest_of_several() {
        let mut discarded = entry("discarded", &["dep"], &[]);
        discarded.status = EntryStatus::Discarded;
        let entries = [entry("a", &[], &["dep"]), entry("dep", &[], &[]), discarded];
        assert_eq!(needs_recheck(&entries, "a"), RecheckVerdict::Fine);

        let mut later = entry("later", &["dep"], &[]);
        later.created_at = Some("2027-01-01T00:00:00Z".to_string());
        let entries = [
            entry("a", &[], &["dep"]),
            entry("dep", &[], &[]),
            later,
            entry("earlier", &["dep"], &[]),
        ];
        assert_eq!(needs_recheck(&entries, "a"), path(&["a", "dep", "later"]));
    }

    #[test]
    fn unknown_for_missing_ids_and_cycles() {
        let entries = [entry("a", &[], &["b"]), entry("b", &[], &["a"])];
        assert_eq!(
            needs_recheck(&entries, "a"),
            RecheckVerdict::Unknown { reason: "depends_on cycle: a -> b -> a".to_string() }
        );
        assert_eq!(
            needs_recheck(&[entry("a", &[], &["ghost"])], "a"),
            RecheckVerdict::Unknown {
                reason: "`a` depends on `ghost`, which does not exist".to_string()
            }
        );
        assert_eq!(
            needs_recheck(&[], "a"),
            RecheckVerdict::Unknown { reason: "no entry has id `a`".to_string() }
        );
        let entries = [entry("a", &[], &["x"]), entry("x", &["y"], &[]), entry("y", &["x"], &[])];
        assert_eq!(
            needs_recheck(&entries, "a"),
            RecheckVerdict::Unknown { reason: "supersedes cycle: x -> y -> x".to_string() }
        );
    }

    #[test]
    fn a_definite_answer_beats_an_unknown_branch() {
        let entries = [
            entry("a", &[], &["ghost", "b", "c"]),
            entry("b", &[], &["c"]),
            entry("c", &[], &[]),
            entry("d", &["c"], &[]),
        ];
        assert_eq!(needs_recheck(&entries, "a"), path(&["a", "b", "c", "d"]));
    }
}
