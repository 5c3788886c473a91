//! Fitting a rendering into `budget_tokens` (approximated as characters / 4). Every list is
//! cut to fit, each cut said with a count: the main list (paged by cursor) keeps at least one
//! item and says the one cursor that continues at the first item not shown; the other lists
//! (tests affected, completeness causes, changed symbols, freshness's files), which no cursor
//! pages, get up to half of the room first. Fixed lines (what was asked, the completeness
//! verdict, freshness) are never cut.

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

impl ListContinuation {
    /// The cursor of the first item not shown, when `shown` of the page's items are.
    pub fn cursor_after(&self, shown: usize) -> String {
        format!("o:{}", self.page_offset.saturating_add(shown as u64))
    }
}

/// A list no cursor pages: its elements are cut from the end, and the cut is counted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CuttableList {
    /// The line before the elements (`tests affected (12):`); shown whenever `total` > 0.
    pub title: Option<String>,
    /// The elements the answer carries (already at most what the text would show).
    pub elements: Vec<String>,
    /// How many there are in all (more than `elements` when the answer itself cut them).
    pub total: usize,
    /// What they are called in the count of those left out ("tests", "causes").
    pub noun: &'static str,
}

/// One part of a text rendering, in the order shown.
#[derive(Clone, Debug, PartialEq)]
pub enum TextPart {
    /// A line that is always kept.
    Line(String),
    /// Where the main list's items (and the note on how to continue) go.
    Items,
    /// A list cut to fit.
    List(CuttableList),
}

/// A text rendering: its parts, the main list's items, and the suggested next call (dropped
/// when the items are cut, since its cursor would skip the items not shown).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TextSections {
    pub parts: Vec<TextPart>,
    pub items: Vec<String>,
    pub next: Option<String>,
    /// Which parts say the answer's completeness and freshness (the same on every page).
    pub context_parts: Vec<usize>,
}

/// What a later page says instead of completeness and freshness the first page said already.
pub const CONTEXT_AS_ON_THE_FIRST_PAGE: &str =
    "completeness and freshness: as on the first page (unchanged since)";

impl TextSections {
    pub fn line(&mut self, line: String) {
        self.parts.push(TextPart::Line(line));
    }

    pub fn list(&mut self, list: CuttableList) {
        self.parts.push(TextPart::List(list));
    }

    /// A line of the answer's completeness or freshness.
    pub fn context_line(&mut self, line: String) {
        self.context_parts.push(self.parts.len());
        self.line(line);
    }

    /// A list of the answer's completeness or freshness (its causes).
    pub fn context_list(&mut self, list: CuttableList) {
        self.context_parts.push(self.parts.len());
        self.list(list);
    }

    /// Completeness and freshness said in one line, for a later page of an answer whose
    /// first page said them and which have not changed since.
    pub fn fold_context(&mut self) {
        let Some(first) = self.context_parts.first().copied() else { return };
        let mut position = 0;
        let context = std::mem::take(&mut self.context_parts);
        self.parts.retain(|_| {
            position += 1;
            !context.contains(&(position - 1))
        });
        self.parts.insert(first, TextPart::Line(CONTEXT_AS_ON_THE_FIRST_PAGE.to_string()));
    }

    fn cuttable_lists(&self) -> impl Iterator<Item = &CuttableList> {
        self.parts.iter().filter_map(|part| match part {
            TextPart::List(list) => Some(list),
            _ => None,
        })
    }
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
            let cursor = continuation.cursor_after(shown);
            return Some(format!(
                "… {remaining} more {noun}; call again with the same arguments and cursor \"{cursor}\""
            ));
        }
        return Some(format!("… {} more {noun} cut to fit budget_tokens; call again with a larger budget_tokens to see them", listed - shown));
    }
    let cursor = continuation.daemon_next_cursor.as_ref()?;
    let remaining = remaining_after(continuation.page_offset.saturating_add(shown_u64));
    // A daemon without a usable total still has a next page: say so without a count.
    let count = if remaining == 0 { String::new() } else { format!("{remaining} ") };
    Some(format!(
        "… {count}more {noun}; call again with the same arguments and cursor \"{cursor}\""
    ))
}

/// How much of each list a rendering shows.
#[derive(Clone, Debug, PartialEq)]
struct TextCut {
    shown_items: usize,
    /// Elements kept per cuttable list, in the order of the parts.
    kept: Vec<usize>,
}

fn render_text(
    sections: &TextSections,
    continuation: Option<&ListContinuation>,
    cut: &TextCut,
) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut lists_seen = 0;
    let items_cut = cut.shown_items < sections.items.len();
    for part in &sections.parts {
        match part {
            TextPart::Line(line) => lines.push(line.clone()),
            TextPart::Items => {
                lines.extend(sections.items[..cut.shown_items].iter().cloned());
                let note = continuation.and_then(|continuation| {
                    continuation_note(continuation, sections.items.len(), cut.shown_items)
                });
                lines.extend(note);
            }
            TextPart::List(list) => {
                let kept = cut.kept[lists_seen];
                lists_seen += 1;
                if list.total == 0 {
                    continue;
                }
                lines.extend(list.title.clone());
                lines.extend(list.elements[..kept].iter().cloned());
                if list.total > kept {
                    lines.push(format!(
                        "  … {} more {} (a larger budget_tokens lists them)",
                        list.total - kept,
                        list.noun
                    ));
                }
            }
        }
    }
    let paged = continuation.is_some_and(|continuation| continuation.paged_by_cursor);
    if let Some(next) = sections.next.as_ref().filter(|_| !(items_cut && paged)) {
        lines.push(format!("next: {next}"));
    }
    lines.join("\n")
}

/// Joins the sections, cutting lists until the whole fits `budget_tokens`: from the least page
/// (one item, no other element), the lists no cursor pages are filled up to half of the room
/// left, then the items, then the lists again with what the items left. Only when even the
/// least page does not fit is the budget exceeded. Returns the text and how many items it
/// shows; `most_items` caps them (so that two renderings of one answer show the same items
/// and name the same cursor).
pub fn fit_text_to_budget(
    sections: &TextSections,
    continuation: Option<&ListContinuation>,
    budget_tokens: u64,
    most_items: usize,
) -> (String, usize) {
    let budget_characters = budget_tokens.saturating_mul(CHARACTERS_PER_TOKEN);
    let lengths: Vec<usize> = sections.cuttable_lists().map(|list| list.elements.len()).collect();
    let items = sections.items.len().min(most_items.max(1));
    let whole = TextCut { shown_items: items, kept: lengths.clone() };
    let fits = |cut: &TextCut| {
        render_text(sections, continuation, cut).chars().count() as u64 <= budget_characters
    };
    if fits(&whole) {
        return (render_text(sections, continuation, &whole), items);
    }
    let least = TextCut { shown_items: items.min(1), kept: vec![0; lengths.len()] };
    let characters =
        |cut: &TextCut| render_text(sections, continuation, cut).chars().count() as u64;
    // The lists no cursor pages get up to half of what the least page leaves, the items
    // the rest, and the lists then what the items left.
    let share = characters(&least) + budget_characters.saturating_sub(characters(&least)) / 2;
    let mut cut = least;
    for limit in [share, budget_characters] {
        for (list, length) in lengths.iter().enumerate() {
            cut.kept[list] = largest_that_fits(cut.kept[list], *length, |kept| {
                let mut larger = cut.clone();
                larger.kept[list] = kept;
                characters(&larger) <= limit
            });
        }
        if limit == share {
            cut.shown_items = largest_that_fits(cut.shown_items, items, |shown| {
                fits(&TextCut { shown_items: shown, ..cut.clone() })
            });
        }
    }
    (render_text(sections, continuation, &cut), cut.shown_items)
}

/// The largest count in `least..=most` for which `fits` holds, `least` when none does (the
/// renderings grow with the count, so a binary search finds it).
fn largest_that_fits(least: usize, most: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut fitting, mut too_large) = (least, most + 1);
    while too_large - fitting > 1 {
        let middle = fitting + (too_large - fitting) / 2;
        if fits(middle) {
            fitting = middle;
        } else {
            too_large = middle;
        }
    }
    fitting
}

/// Serialises `answer` compactly, cutting its lists until it fits: the main list keeps at
/// least one item, the secondary lists (tests affected, changed symbols, completeness causes)
/// are filled first. A cut main list adds `truncated` and sets `next_cursor` and `next` to the
/// one cursor that continues at the first item not shown; a cut secondary list adds
/// `<key>_omitted`.
/// Returns the JSON and how many items it shows; `most_items` caps them as for the text.
pub fn fit_json_to_budget(
    answer: &Answer,
    continuation: Option<&ListContinuation>,
    budget_tokens: u64,
    most_items: usize,
) -> (String, usize) {
    let budget_characters = budget_tokens.saturating_mul(CHARACTERS_PER_TOKEN);
    let fits =
        |cut: &JsonCut| answer.cut_json_text(cut).chars().count() as u64 <= budget_characters;
    let listed = answer.main_list().map(|(_, length)| length).unwrap_or(0);
    let whole = answer.to_json_text();
    if listed <= most_items && whole.chars().count() as u64 <= budget_characters {
        return (whole, listed);
    }
    let cut_at = |shown: usize, secondary_kept: Vec<(&'static str, usize)>| {
        let paged = continuation.filter(|continuation| continuation.paged_by_cursor);
        let cursor = paged.filter(|_| shown < listed).map(|paged| paged.cursor_after(shown));
        JsonCut {
            shown: Some(shown),
            next: cursor.as_ref().map(|cursor| format!("the same call with cursor {cursor:?}")),
            // With a cursor, `next` says how to continue; without, the note says why not.
            note: continuation
                .filter(|_| cursor.is_none())
                .and_then(|continuation| continuation_note(continuation, listed, shown)),
            cursor,
            secondary_kept,
        }
    };
    let secondary = answer.secondary_lists();
    let least = listed.min(1);
    let most = listed.min(most_items.max(1));
    let characters = |cut: &JsonCut| answer.cut_json_text(cut).chars().count() as u64;
    let mut cut = cut_at(least, secondary.iter().map(|(key, _)| (*key, 0)).collect());
    // As for the text: the secondary lists up to half of what the least page leaves, the
    // items the rest, the secondary lists then what the items left.
    let share = characters(&cut) + budget_characters.saturating_sub(characters(&cut)) / 2;
    let mut shown = least;
    for limit in [share, budget_characters] {
        for (position, (_, length)) in secondary.iter().enumerate() {
            let kept = largest_that_fits(cut.secondary_kept[position].1, *length, |kept| {
                let mut larger = cut.clone();
                larger.secondary_kept[position].1 = kept;
                characters(&larger) <= limit
            });
            cut.secondary_kept[position].1 = kept;
        }
        if limit == share {
            shown = largest_that_fits(least, most, |shown| {
                fits(&cut_at(shown, cut.secondary_kept.clone()))
            });
            cut = cut_at(shown, cut.secondary_kept.clone());
        }
    }
    (answer.cut_json_text(&cut), shown)
}
