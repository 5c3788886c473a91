//! [`tip`]: the one entry worth showing next to a symbol or file, out of those tethered
//! to it.

use crate::entry::Entry;
use crate::timestamp::recency_key;

/// How an entry is tethered to what the user is looking at.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TetherKind {
    /// The entry's pinned commit changed the symbol or file.
    Changed,
    /// The entry only mentions it.
    Referenced,
}

/// The newest (by `created_at`, then id) active high-signal entry (decision, experiment,
/// checkpoint), taken from the [`TetherKind::Changed`] ones when there are any, else
/// from the [`TetherKind::Referenced`] ones. `None` when no entry qualifies.
pub fn tip<'a>(entries_with_tether_kind: &[(&'a Entry, TetherKind)]) -> Option<&'a Entry> {
    let newest_of_kind = |wanted_kind: TetherKind| {
        entries_with_tether_kind
            .iter()
            .filter(|(entry, kind)| {
                *kind == wanted_kind && entry.is_active() && entry.entry_type.is_high_signal()
            })
            .map(|(entry, _)| *entry)
            .max_by(|left, right| recency_key(left).cmp(&recency_key(right)))
    };
    newest_of_kind(TetherKind::Changed).or_else(|| newest_of_kind(TetherKind::Referenced))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{EntryStatus, EntryType};
    use crate::test_support::sample_entry;

    fn dated(id: &str, entry_type: EntryType, created_at: &str) -> Entry {
        let mut entry = sample_entry(id, entry_type);
        entry.created_at = Some(created_at.to_string());
        entry
    }

    fn tip_id(candidates: &[(&Entry, TetherKind)]) -> Option<String> {
        tip(candidates).map(|entry| entry.id.clone())
    }

    #[test]
    fn prefers_changed_then_newest_active_high_signal() {
        let old_decision = dated("old-decision", EntryType::Decision, "2025-01-01T00:00:00Z");
        let new_experiment = dated("new-experiment", EntryType::Experiment, "2026-06-01T00:00:00Z");
        let newest_note = dated("newest-note", EntryType::Note, "2027-01-01T00:00:00Z");
        let mut discarded_checkpoint =
            dated("discarded", EntryType::Checkpoint, "2027-01-01T00:00:00Z");
        discarded_checkpoint.status = EntryStatus::Discarded;
        let referenced_checkpoint =
            dated("referenced", EntryType::Checkpoint, "2028-01-01T00:00:00Z");

        let candidates = [
            (&old_decision, TetherKind::Changed),
            (&new_experiment, TetherKind::Changed),
            (&newest_note, TetherKind::Changed),
            (&discarded_checkpoint, TetherKind::Changed),
            (&referenced_checkpoint, TetherKind::Referenced),
        ];
        assert_eq!(tip_id(&candidates), Some("new-experiment".to_string()));
        assert_eq!(tip_id(&candidates[2..]), Some("referenced".to_string()));
        assert_eq!(tip_id(&candidates[2..4]), None);
        assert_eq!(tip_id(&[]), None);
    }

    #[test]
    fn orders_by_instant_across_offsets_then_id() {
        let utc_later = dated("b-utc", EntryType::Decision, "2026-01-01T10:00:00Z");
        let offset_earlier = dated("a-offset", EntryType::Decision, "2026-01-01T11:00:00+02:00");
        assert_eq!(
            tip_id(&[(&utc_later, TetherKind::Changed), (&offset_earlier, TetherKind::Changed)]),
            Some("b-utc".to_string())
        );
        let same_time = dated("c-same", EntryType::Decision, "2026-01-01T10:00:00Z");
        assert_eq!(
            tip_id(&[(&same_time, TetherKind::Referenced), (&utc_later, TetherKind::Referenced)]),
            Some("c-same".to_string())
        );
    }
}
