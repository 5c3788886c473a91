//! [`search`]: lexical search over entries, title matches weighing most, then tags, then
//! the body, with filters by type, status and a set of allowed ids.

use std::cmp::Reverse;
use std::collections::HashSet;

use crate::entry::{Entry, EntryStatus, EntryType};
use crate::timestamp::recency_key;

/// Points a query token earns when it appears in the title.
const TITLE_WEIGHT: u32 = 3;
/// … in a tag.
const TAG_WEIGHT: u32 = 2;
/// … in the body.
const BODY_WEIGHT: u32 = 1;

/// Which entries [`search`] may return. Empty or `None` filters let everything through.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct SearchFilters {
    /// Only these types (empty: all types).
    pub entry_types: Vec<EntryType>,
    /// Only these statuses (empty: all statuses).
    pub statuses: Vec<EntryStatus>,
    /// Only these ids, e.g. the entries tethered to a symbol or path (`None`: all ids).
    pub allowed_ids: Option<HashSet<String>>,
}

impl SearchFilters {
    fn admits(&self, entry: &Entry) -> bool {
        (self.entry_types.is_empty() || self.entry_types.contains(&entry.entry_type))
            && (self.statuses.is_empty() || self.statuses.contains(&entry.status))
            && self.allowed_ids.as_ref().is_none_or(|allowed| allowed.contains(&entry.id))
    }
}

/// Scores each entry the filters admit: for every distinct query token (a run of letters
/// or digits, compared case-insensitively and whole), 3 points if the title has it, 2 if
/// a tag has it, 1 if the body has it. Entries scoring 0 are left out, unless the query
/// has no tokens, in which case every admitted entry is returned with score 0.
///
/// Ranked by score (highest first), then newest first (`created_at`, then id), then id.
/// There is no recency cutoff: an old entry that matches well beats a new one that
/// matches poorly.
pub fn search<'a>(
    entries: &'a [Entry],
    query: &str,
    filters: &SearchFilters,
) -> Vec<(u32, &'a Entry)> {
    let mut query_tokens = tokens(query);
    query_tokens.sort();
    query_tokens.dedup();
    let mut results: Vec<(u32, &Entry)> = entries
        .iter()
        .filter(|entry| filters.admits(entry))
        .map(|entry| (score(entry, &query_tokens), entry))
        .filter(|(score, _)| query_tokens.is_empty() || *score > 0)
        .collect();
    results.sort_by(|(left_score, left), (right_score, right)| {
        (Reverse(*left_score), Reverse(recency_key(left)), &left.id, &left.path).cmp(&(
            Reverse(*right_score),
            Reverse(recency_key(right)),
            &right.id,
            &right.path,
        ))
    });
    results
}

fn score(entry: &Entry, query_tokens: &[String]) -> u32 {
    let title_tokens: HashSet<String> = tokens(&entry.title).into_iter().collect();
    let tag_tokens: HashSet<String> = entry.tags.iter().flat_map(|tag| tokens(tag)).collect();
    let body_tokens: HashSet<String> = tokens(&entry.body).into_iter().collect();
    query_tokens
        .iter()
        .map(|token| {
            let mut points = 0;
            if title_tokens.contains(token) {
                points += TITLE_WEIGHT;
            }
            if tag_tokens.contains(token) {
                points += TAG_WEIGHT;
            }
            if body_tokens.contains(token) {
                points += BODY_WEIGHT;
            }
            points
        })
        .sum()
}

/// Lowercased runs of letters and digits.
fn tokens(text: &str) -> Vec<String> {
    text.split(|character: char| !character.is_alphanumeric())
        .filter(|token| !token.is_empty())
        .map(str::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::sample_entry;
    use expect_test::expect;

    fn entry(
        id: &str,
        entry_type: EntryType,
        created_at: &str,
        title: &str,
        tags: &[&str],
        body: &str,
    ) -> Entry {
        let mut entry = sample_entry(id, entry_type);
        entry.created_at = Some(created_at.to_string());
        entry.title = title.to_string();
        entry.tags = tags.iter().map(|tag| tag.to_string()).collect();
        entry.body = body.to_string();
        entry
    }

    fn corpus() -> Vec<Entry> {
        let mut discarded = entry(
            "graph-idea",
            EntryType::Note,
            "2026-05-01T00:00:00Z",
            "Graph store idea",
            &[],
            "",
        );
        discarded.status = EntryStatus::Discarded;
        vec![
            entry(
                "use-ladybug",
                EntryType::Decision,
                "2020-01-01T00:00:00Z",
                "Use LadybugDB for the graph",
                &["storage"],
                "Graph DB.",
            ),
            entry(
                "storage-note",
                EntryType::Note,
                "2026-01-01T00:00:00Z",
                "Notes",
                &["graph", "storage"],
                "",
            ),
            entry(
                "body-only",
                EntryType::Experiment,
                "2026-02-01T00:00:00Z",
                "Benchmarks",
                &[],
                "the GRAPH was slow",
            ),
            entry(
                "body-only-old",
                EntryType::Experiment,
                "2025-02-01T00:00:00Z",
                "Old benchmarks",
                &[],
                "graph",
            ),
            entry(
                "unrelated",
                EntryType::Todo,
                "2027-01-01T00:00:00Z",
                "Write docs",
                &["docs"],
                "graphs are plural",
            ),
            discarded,
        ]
    }

    fn describe(results: &[(u32, &Entry)]) -> String {
        results
            .iter()
            .map(|(score, entry)| format!("{score} {}", entry.id))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn ranks_by_weighted_matches_without_a_recency_cutoff() {
        let entries = corpus();
        expect![[r#"
            4 use-ladybug
            3 graph-idea
            2 storage-note
            1 body-only
            1 body-only-old"#]]
        .assert_eq(&describe(&search(&entries, "Graph", &SearchFilters::default())));
        expect![[r#"
            6 use-ladybug
            4 storage-note
            3 graph-idea
            1 body-only
            1 body-only-old"#]]
        .assert_eq(&describe(&search(&entries, "graph STORAGE graph", &SearchFilters::default())));
    }

    #[test]
    fn filters_by_type_status_and_allowed_ids() {
        let entries = corpus();
        let active_only =
            SearchFilters { statuses: vec![EntryStatus::Active], ..SearchFilters::default() };
        expect![[r#"
            4 use-ladybug
            2 storage-note
            1 body-only
            1 body-only-old"#]]
        .assert_eq(&describe(&search(&entries, "graph", &active_only)));
        let experiments =
            SearchFilters { entry_types: vec![EntryType::Experiment], ..SearchFilters::default() };
        expect![[r#"
            1 body-only
            1 body-only-old"#]]
        .assert_eq(&describe(&search(&entries, "graph", &experiments)));
        let tethered = SearchFilters {
            allowed_ids: Some(
                ["body-only-old", "unrelated"].iter().map(|id| id.to_string()).collect(),
            ),
            ..SearchFilters::default()
        };
        expect!["1 body-only-old"].assert_eq(&describe(&search(&entries, "graph", &tethered)));
        expect![[r#"
            0 unrelated
            0 body-only-old"#]]
        .assert_eq(&describe(&search(&entries, " -- ", &tethered)));
        assert!(search(&entries, "nothing-matches-this", &SearchFilters::default()).is_empty());
    }
}
