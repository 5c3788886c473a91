//! Fitting a rendering into `budget_tokens` (approximated as characters / 4): the item list
//! is cut from the end, never the header, completeness or freshness, and the cut is said with
//! the cursor that fetches the rest.

use tether_protocol::wire::{Answer, JsonCut};

/// Characters per approximate token.
pub const CHARACTERS_PER_TOKEN: u64 = 4;

/// What is needed to say how to continue a cut or paged list.
#[derive(Clone, Debug, PartialEq)]
pub struct ListContinuation {
    /// Whether the daemon pages this list with `cursor`.
    pub paged_by_cursor: bool,
    /// The offset the shown page starts at (from the request's `o:<n>` cursor).
    pub page_offset: u64,
    /// The daemon's `total`, when it gave one.
    pub total: Option<u64>,
    /// The daemon's `next_cursor`, when there is a next page.
    pub daemon_next_cursor: Option<String>,
    /// What the items are called in the note ("items", "owners", "entries").
    pub item_noun: &'static str,
}

/// A text rendering in three parts; only `items` may be cut.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextSections {
    pub head: Vec<String>,
    pub items: Vec<String>,
    pub tail: Vec<String>,
}

fn approximate_characters(lines: &[String]) -> u64 {
    lines.iter().map(|line| line.chars().count() as u64 + 1).sum()
}

/// The note after the shown items, when some are cut or another page exists.
pub fn continuation_note(
    continuation: &ListContinuation,
    listed: usize,
    shown: usize,
) -> Option<String> {
    let shown_u64 = shown as u64;
    let remaining_after = |next_offset: u64| match continuation.total {
        Some(total) => total.saturating_sub(next_offset),
        None => (listed - shown) as u64,
    };
    let noun = continuation.item_noun;
    if shown < listed {
        if continuation.paged_by_cursor {
            let next_offset = continuation.page_offset.saturating_add(shown_u64);
            let remaining = remaining_after(next_offset).max((listed - shown) as u64);
            return Some(format!(
                "… {remaining} more {noun}; call again with cursor \"o:{next_offset}\""
            ));
        }
        return Some(format!("… {} more {noun} cut to fit budget_tokens; call again with a larger budget_tokens to see them", listed - shown));
    }
    let cursor = continuation.daemon_next_cursor.as_ref()?;
    let remaining = remaining_after(continuation.page_offset.saturating_add(shown_u64));
    // A daemon without a usable total still has a next page: say so without a count.
    let count = if remaining == 0 { String::new() } else { format!("{remaining} ") };
    Some(format!("… {count}more {noun}; call again with cursor \"{cursor}\""))
}

/// Joins the sections, cutting items from the end until the whole fits `budget_tokens`.
/// Head and tail are always kept, even when they alone exceed the budget.
pub fn fit_text_to_budget(
    sections: &TextSections,
    continuation: Option<&ListContinuation>,
    budget_tokens: u64,
) -> String {
    let budget_characters = budget_tokens.saturating_mul(CHARACTERS_PER_TOKEN);
    let fixed = approximate_characters(&sections.head) + approximate_characters(&sections.tail);
    let note_for = |shown: usize| {
        continuation
            .and_then(|continuation| continuation_note(continuation, sections.items.len(), shown))
    };
    let fits = |shown: usize| {
        let note = note_for(shown).map(|note| note.chars().count() as u64 + 1).unwrap_or(0);
        fixed + approximate_characters(&sections.items[..shown]) + note <= budget_characters
    };
    // The largest prefix that fits; item sizes are positive, so `fits` is monotone except for
    // the note, which is checked for each candidate.
    let mut shown = sections.items.len();
    while shown > 0 && !fits(shown) {
        shown -= 1;
    }
    let mut lines: Vec<&str> = sections.head.iter().map(String::as_str).collect();
    lines.extend(sections.items[..shown].iter().map(String::as_str));
    let note = note_for(shown);
    if let Some(note) = &note {
        lines.push(note);
    }
    lines.extend(sections.tail.iter().map(String::as_str));
    lines.join("\n")
}

/// Serialises `answer` compactly, cutting its main list from the end (and then its
/// secondary lists, tests affected and changed symbols) until it fits; a cut adds
/// `truncated` with the cursor to continue.
pub fn fit_json_to_budget(
    answer: &Answer,
    continuation: Option<&ListContinuation>,
    budget_tokens: u64,
) -> String {
    let budget_characters = budget_tokens.saturating_mul(CHARACTERS_PER_TOKEN);
    let fits = |text: &str| text.chars().count() as u64 <= budget_characters;
    let whole = answer.to_json_text();
    if fits(&whole) {
        return whole;
    }
    let listed = answer.main_list().map(|(_, length)| length).unwrap_or(0);
    let cut_at = |shown: usize| JsonCut {
        shown: Some(shown),
        cursor: continuation.filter(|continuation| continuation.paged_by_cursor).map(
            |continuation| format!("o:{}", continuation.page_offset.saturating_add(shown as u64)),
        ),
        note: continuation.and_then(|continuation| continuation_note(continuation, listed, shown)),
        secondary_kept: Vec::new(),
    };
    let mut cut = JsonCut::default();
    let mut text = whole;
    for shown in (0..listed).rev() {
        cut = cut_at(shown);
        text = answer.cut_json_text(&cut);
        if fits(&text) {
            return text;
        }
    }
    // Even without items it is too large: halve the secondary lists too, keeping one element.
    for (key, length) in answer.secondary_lists() {
        let mut keep = length;
        while keep > 1 && !fits(&text) {
            keep = (keep / 2).max(1);
            cut.secondary_kept.retain(|(kept_key, _)| *kept_key != key);
            cut.secondary_kept.push((key, keep));
            text = answer.cut_json_text(&cut);
        }
    }
    text
}
