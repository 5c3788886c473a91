//! Rendering a daemon answer for a model: compact text (one line per item, then completeness,
//! freshness and the suggested next call) or JSON, both fitted to `budget_tokens`. Both read
//! the typed answers (`protocol::wire`).

use tether_protocol::wire::{
    AffectedTest, Answer, BlastAnswer, ChangedSymbol, ChangesAnswer, ContextAnswer,
    OwnershipAnswer, SymbolOrFile,
};

use crate::budget::{fit_json_to_budget, fit_text_to_budget, ListContinuation, TextSections};
use crate::render_lines::{
    blast_item_line, completeness_lines, context_entry_line, freshness_line, memory_hit_line,
    neighbour_line, owner_line, symbol_line_with_id,
};

/// How a tool's answer is presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Text,
    Json,
}

/// Everything the rendering needs besides the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderRequest {
    pub tool_name: String,
    pub format: OutputFormat,
    pub budget_tokens: u64,
    /// The offset of the page the daemon answered (the request's `o:<n>` cursor, or 0).
    pub cursor_offset: u64,
    pub paged_by_cursor: bool,
}

/// The most tests or changed symbols listed in the text header before "and N more".
const HEADER_LIST_LIMIT: usize = 10;
const CHANGED_SYMBOLS_LIMIT: usize = 30;

/// What the items of an answer's main list are called.
fn item_noun(answer: &Answer) -> &'static str {
    match answer {
        Answer::Ownership(_) => "owners",
        Answer::Context(_) => "entries",
        _ => "items",
    }
}

/// Renders the daemon's answer to one tool call.
pub fn render_answer(request: &RenderRequest, answer: &Answer) -> String {
    let continuation = answer.main_list().map(|_| ListContinuation {
        paged_by_cursor: request.paged_by_cursor,
        page_offset: request.cursor_offset,
        total: answer.list_total().map(|total| total as u64),
        daemon_next_cursor: answer.next_cursor().map(str::to_string),
        item_noun: item_noun(answer),
    });
    match request.format {
        OutputFormat::Json => {
            fit_json_to_budget(answer, continuation.as_ref(), request.budget_tokens)
        }
        OutputFormat::Text => {
            let sections = text_sections(&request.tool_name, answer);
            fit_text_to_budget(&sections, continuation.as_ref(), request.budget_tokens)
        }
    }
}

/// The head (what was asked, the totals), the items (which a budget may cut) and the tail
/// (notes, completeness, freshness, next) of an answer's text.
fn text_sections(tool_name: &str, answer: &Answer) -> TextSections {
    let mut sections = TextSections::default();
    let (head, items, tail) = (&mut sections.head, &mut sections.items, &mut sections.tail);
    match answer {
        Answer::Blast(blast) => {
            blast_head(head, blast);
            items.extend(blast.items.iter().map(blast_item_line));
            blast_tail(tail, blast);
        }
        Answer::Changes(ChangesAnswer::Diff { changed, files_changed, blast }) => {
            changed_head(head, changed, *files_changed);
            blast_head(head, blast);
            items.extend(blast.items.iter().map(blast_item_line));
            blast_tail(tail, blast);
        }
        Answer::Changes(ChangesAnswer::NotARepository { changed, note, freshness }) => {
            changed_head(head, changed, 0);
            tail.push(format!("note: {note}"));
            tail.push(freshness_line(freshness));
        }
        Answer::Neighbours(neighbours) => {
            let subject = symbol_line_with_id(&neighbours.subject);
            head.push(format!("{tool_name} of {subject}: {} total", neighbours.total));
            items.extend(neighbours.items.iter().map(neighbour_line));
            tail.extend(completeness_lines(&neighbours.completeness));
            tail.push(freshness_line(&neighbours.freshness));
            tail.push(format!("next: {}", neighbours.next));
        }
        Answer::Lookup(lookup) => {
            head.push(format!("lookup {:?}: {} matches", lookup.query, lookup.total));
            items.extend(lookup.items.iter().map(symbol_line_with_id));
            tail.push(freshness_line(&lookup.freshness));
            tail.push(format!("next: {}", lookup.next));
        }
        Answer::SearchMemory(search) => {
            head.push(format!(
                "memory entries matching {:?}: {} total",
                search.query, search.total
            ));
            items.extend(search.items.iter().map(memory_hit_line));
            tail.push(freshness_line(&search.freshness));
            tail.push(format!("next: {}", search.next));
        }
        Answer::Ownership(ownership) => ownership_sections(&mut sections, ownership),
        Answer::Context(context) => context_sections(&mut sections, context),
        Answer::Census(census) => {
            let counts = &census.census;
            head.push(format!(
                "census: {} files ({} skipped), {} unresolved call sites, {} diagnostics",
                counts.files, counts.files_skipped, counts.unresolved_calls, counts.diagnostics
            ));
            let by_kind = |counts: &std::collections::BTreeMap<String, u64>| {
                let pairs: Vec<String> =
                    counts.iter().map(|(kind, count)| format!("{kind} {count}")).collect();
                pairs.join(", ")
            };
            head.push(format!("symbols: {}", by_kind(&counts.symbols_by_kind)));
            head.push(format!("edges: {}", by_kind(&counts.edges_by_kind)));
            tail.push(freshness_line(&census.freshness));
            tail.push(format!("next: {}", census.next));
        }
        Answer::Record(record) => {
            head.push(format!("id: {}", record.id));
            head.push(format!("file: {}", record.file));
            head.push(format!("entry_commit: {}", record.entry_commit));
            if let Some(pinned) = &record.pinned_commit {
                head.push(format!("pinned_commit: {pinned}"));
            }
            if !record.pinned_files.is_empty() {
                head.push(format!("pinned_files: {}", record.pinned_files.join(", ")));
            }
            tail.push(format!("next: {}", record.next));
        }
        // Not tools' answers; shown whole.
        Answer::Status(_)
        | Answer::CoverageImport(_)
        | Answer::Subscribed(_)
        | Answer::Outline(_)
        | Answer::Buffers(_)
        | Answer::Stopping(_) => {
            head.push(answer.to_json_text());
        }
    }
    sections
}

/// `changes: N files, M symbols changed` and the first changed symbols.
fn changed_head(head: &mut Vec<String>, changed: &[ChangedSymbol], files_changed: usize) {
    head.push(format!("changes: {files_changed} files, {} symbols changed", changed.len()));
    for symbol in changed.iter().take(CHANGED_SYMBOLS_LIMIT) {
        let mut line = format!(
            "  {} {} ({}) {}:{} · {} lines",
            symbol.change,
            symbol.qualified_name,
            symbol.kind,
            symbol.path,
            symbol.line,
            symbol.lines_changed
        );
        if let Some(renamed_from) = &symbol.renamed_from {
            line.push_str(&format!(" · renamed from {renamed_from}"));
        }
        head.push(line);
    }
    if changed.len() > CHANGED_SYMBOLS_LIMIT {
        head.push(format!(
            "  … and {} more changed symbols (format \"json\" lists them all)",
            changed.len() - CHANGED_SYMBOLS_LIMIT
        ));
    }
}

/// The blast's totals and the first tests affected.
fn blast_head(head: &mut Vec<String>, blast: &BlastAnswer) {
    head.push(format!(
        "blast of {} ({} seeds, depth {}): {} dependents, {} breaks",
        blast.subject, blast.seeds, blast.depth, blast.total, blast.breaks
    ));
    let tests = &blast.tests_affected;
    if tests.is_empty() {
        return;
    }
    // A test only runtime evidence names says so (`executed`, `stale` evidence).
    let mark = |test: &AffectedTest| match (
        test.why.iter().any(|why| why == "static"),
        test.evidence.as_deref(),
    ) {
        (false, Some("stale")) => " (executed, stale evidence)",
        (false, _) => " (executed)",
        _ => "",
    };
    let names: Vec<String> = tests
        .iter()
        .take(HEADER_LIST_LIMIT)
        .map(|test| {
            let symbol = &test.symbol;
            format!("{} {}:{}{}", symbol.qualified_name, symbol.path, symbol.line, mark(test))
        })
        .collect();
    let total = blast.tests_total;
    let listed = HEADER_LIST_LIMIT.min(tests.len());
    let more =
        if total > listed { format!(", and {} more", total - listed) } else { String::new() };
    head.push(format!("tests affected ({total}): {}{more}", names.join(", ")));
}

fn blast_tail(tail: &mut Vec<String>, blast: &BlastAnswer) {
    tail.extend(completeness_lines(&blast.completeness));
    tail.push(freshness_line(&blast.freshness));
    tail.push(format!("next: {}", blast.next));
}

fn ownership_sections(sections: &mut TextSections, ownership: &OwnershipAnswer) {
    sections
        .head
        .push(format!("ownership of {}: {} lines", ownership.range, ownership.total_lines));
    sections.items.extend(ownership.owners.iter().map(owner_line));
    let tail = &mut sections.tail;
    if ownership.not_committed_yet > 0 {
        tail.push(format!("not committed yet: {} lines", ownership.not_committed_yet));
    }
    if !ownership.excluded_bots.is_empty() {
        tail.push(format!(
            "excluded bots: {} ({} lines)",
            ownership.excluded_bots.join(", "),
            ownership.excluded_bot_lines
        ));
    }
    if let Some(note) = &ownership.note {
        tail.push(format!("note: {note}"));
    }
    tail.push(freshness_line(&ownership.freshness));
    tail.push(format!("next: {}", ownership.next));
}

fn context_sections(sections: &mut TextSections, context: &ContextAnswer) {
    let subject = match &context.subject {
        SymbolOrFile::Symbol(symbol) => symbol_line_with_id(symbol),
        SymbolOrFile::File { path } => path.clone(),
    };
    sections.head.push(format!(
        "context of {subject}: {} memory entries, oldest first",
        context.chain.len()
    ));
    sections.items.extend(context.chain.iter().map(context_entry_line));
    let tail = &mut sections.tail;
    tail.push(format!("tip: {}", context.tip.as_deref().unwrap_or("none")));
    if let Some(problems) = context.memory_problems.as_ref().filter(|problems| !problems.is_empty())
    {
        let shown: Vec<&str> =
            problems.iter().take(HEADER_LIST_LIMIT).map(String::as_str).collect();
        tail.push(format!("memory problems: {}", shown.join("; ")));
    }
    if let Some(note) = &context.note {
        tail.push(format!("note: {note}"));
    }
    tail.push(freshness_line(&context.freshness));
    if let Some(next) = &context.next {
        tail.push(format!("next: {next}"));
    }
}
