//! Rendering a daemon answer for a model: compact text (one line per item, then completeness,
//! freshness and the suggested next call) or JSON, both fitted to `budget_tokens`. Both read
//! the typed answers (`protocol::wire`).

use tether_protocol::wire::{
    AffectedTest, Answer, BlastAnswer, ChangedSymbol, ChangesAnswer, Completeness, ContextAnswer,
    OwnershipAnswer, SymbolOrFile,
};

use crate::budget::{
    fit_json_to_budget, fit_text_to_budget, CuttableList, ListContinuation, TextPart, TextSections,
};
use crate::render_lines::{
    blast_item_line, cause_line, completeness_verdict_line, context_entry_line, freshness_line,
    memory_hit_line, neighbour_line, owner_line, symbol_line_with_id,
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
    /// A later page whose completeness and freshness the first page of the same call said
    /// already, unchanged: the text says so in one line instead of repeating them (the JSON
    /// keeps them, as its schema requires).
    pub context_unchanged: bool,
}

/// The most tests listed before "… N more tests" (the JSON lists all the daemon gives).
const TESTS_LISTED_LIMIT: usize = 10;
/// The most changed symbols listed before "… N more changed symbols".
const CHANGED_SYMBOLS_LIMIT: usize = 30;

/// What the items of an answer's main list are called.
fn item_noun(answer: &Answer) -> &'static str {
    match answer {
        Answer::Ownership(_) => "owners",
        Answer::Context(_) => "entries",
        Answer::Health(_) => "findings",
        Answer::Recall(_) => "traces",
        _ => "items",
    }
}

/// Renders the daemon's answer to one tool call.
pub fn render_answer(request: &RenderRequest, answer: &Answer) -> String {
    render_answer_showing(request, answer, usize::MAX).0
}

/// Renders the answer with at most `most_items` of its items; returns how many it shows.
pub fn render_answer_showing(
    request: &RenderRequest,
    answer: &Answer,
    most_items: usize,
) -> (String, usize) {
    let continuation = answer.main_list().map(|_| ListContinuation {
        paged_by_cursor: request.paged_by_cursor,
        page_offset: request.cursor_offset,
        total: answer.list_total().map(|total| total as u64),
        daemon_next_cursor: answer.next_cursor().map(str::to_string),
        item_noun: item_noun(answer),
    });
    let budget = request.budget_tokens;
    match request.format {
        OutputFormat::Json => fit_json_to_budget(answer, continuation.as_ref(), budget, most_items),
        OutputFormat::Text => {
            let mut sections = text_sections(&request.tool_name, answer);
            if request.context_unchanged {
                sections.fold_context();
            }
            fit_text_to_budget(&sections, continuation.as_ref(), budget, most_items)
        }
    }
}

/// The answer in the request's format and as JSON (for `structuredContent`), both fitted to
/// the budget and showing the same items, so that both name the same cursor.
pub fn render_answer_twice(request: &RenderRequest, answer: &Answer) -> (String, String) {
    let as_json = RenderRequest { format: OutputFormat::Json, ..request.clone() };
    let (mut text, text_shown) = render_answer_showing(request, answer, usize::MAX);
    let (mut json, json_shown) = render_answer_showing(&as_json, answer, usize::MAX);
    if text_shown > json_shown {
        text = render_answer_showing(request, answer, json_shown).0;
    } else if json_shown > text_shown {
        json = render_answer_showing(&as_json, answer, text_shown).0;
    }
    (text, json)
}

/// The parts of an answer's text: what was asked and the totals, the lists, the items, the
/// notes, completeness and freshness, and the suggested next call.
fn text_sections(tool_name: &str, answer: &Answer) -> TextSections {
    let mut sections = TextSections::default();
    match answer {
        Answer::Blast(blast) => blast_sections(&mut sections, blast),
        Answer::Changes(ChangesAnswer::Diff { changed, files_changed, blast }) => {
            changed_symbols(&mut sections, changed, *files_changed);
            blast_sections(&mut sections, blast);
        }
        Answer::Changes(ChangesAnswer::NotARepository { changed, note, freshness }) => {
            changed_symbols(&mut sections, changed, 0);
            sections.line(format!("note: {note}"));
            sections.context_line(freshness_line(freshness));
        }
        Answer::Neighbours(neighbours) => {
            let subject = symbol_line_with_id(&neighbours.subject);
            sections.line(format!("{tool_name} of {subject}: {} total", neighbours.total));
            sections.items.extend(neighbours.items.iter().map(neighbour_line));
            sections.parts.push(TextPart::Items);
            completeness_parts(&mut sections, &neighbours.completeness);
            sections.context_line(freshness_line(&neighbours.freshness));
            sections.next = Some(neighbours.next.clone());
        }
        Answer::Lookup(lookup) => {
            sections.line(format!("lookup {:?}: {} matches", lookup.query, lookup.total));
            sections.items.extend(lookup.items.iter().map(symbol_line_with_id));
            sections.parts.push(TextPart::Items);
            if !lookup.similar.is_empty() {
                let names: Vec<String> = lookup.similar.iter().map(symbol_line_with_id).collect();
                sections.line(format!("similar names:\n{}", names.join("\n")));
            }
            sections.context_line(freshness_line(&lookup.freshness));
            sections.next = Some(lookup.next.clone());
        }
        Answer::SearchMemory(search) => {
            sections.line(format!(
                "memory entries matching {:?}: {} total",
                search.query, search.total
            ));
            sections.items.extend(search.items.iter().map(memory_hit_line));
            sections.parts.push(TextPart::Items);
            sections.context_line(freshness_line(&search.freshness));
            sections.next = Some(search.next.clone());
        }
        Answer::Ownership(ownership) => ownership_sections(&mut sections, ownership),
        Answer::Context(context) => context_sections(&mut sections, context),
        Answer::Health(health) => crate::render_health::health_sections(&mut sections, health),
        Answer::Census(census) => {
            let counts = &census.census;
            sections.line(format!(
                "census: {} files ({} skipped), {} unresolved call sites, {} diagnostics",
                counts.files, counts.files_skipped, counts.unresolved_calls, counts.diagnostics
            ));
            let by_kind = |counts: &std::collections::BTreeMap<String, u64>| {
                let pairs: Vec<String> =
                    counts.iter().map(|(kind, count)| format!("{kind} {count}")).collect();
                pairs.join(", ")
            };
            sections.line(format!("symbols: {}", by_kind(&counts.symbols_by_kind)));
            sections.line(format!("edges: {}", by_kind(&counts.edges_by_kind)));
            sections.context_line(freshness_line(&census.freshness));
            sections.next = Some(census.next.clone());
        }
        Answer::Record(record) => {
            sections.line(format!("id: {}", record.id));
            sections.line(format!("file: {}", record.file));
            if record.dry_run {
                sections.line("dry run: nothing was written".to_string());
            }
            if let Some(entry_commit) = &record.entry_commit {
                sections.line(format!("entry_commit: {entry_commit}"));
            }
            let branch = record.branch.as_deref().unwrap_or("(detached HEAD)");
            for commit in &record.commits {
                let files = commit.files.join(", ");
                sections.line(format!("commit on {branch}: {:?} with {files}", commit.message));
            }
            if let Some(pinned) = &record.pinned_commit {
                sections.line(format!("pinned_commit: {pinned}"));
            }
            if !record.pinned_files.is_empty() {
                sections.line(format!("pinned_files: {}", record.pinned_files.join(", ")));
            }
            sections.next = Some(record.next.clone());
        }
        Answer::RecordTrace(recorded) => {
            sections.line(recorded.text().trim_end().to_string());
            sections.next = Some(recorded.next.clone());
        }
        Answer::Recall(recall) => {
            sections.line(recall.heading());
            sections
                .items
                .extend(recall.traces.iter().map(|trace| trace.text().trim_end().to_string()));
            sections.parts.push(TextPart::Items);
            for line in recall.closing_lines() {
                sections.line(line);
            }
            sections.next = Some(recall.next.clone());
        }
        // Not tools' answers (yet); shown whole.
        Answer::Tree(_)
        | Answer::OpenPhases(_)
        | Answer::Brief(_)
        | Answer::Status(_)
        | Answer::CoverageImport(_)
        | Answer::Subscribed(_)
        | Answer::Outline(_)
        | Answer::Buffers(_)
        | Answer::Export(_)
        | Answer::Cypher(_)
        | Answer::IndexReport(_)
        | Answer::Stopping(_) => {
            sections.line(answer.to_json_text());
        }
    }
    sections
}

/// `changes: N files, M symbols changed` and the changed symbols (the first ones).
fn changed_symbols(sections: &mut TextSections, changed: &[ChangedSymbol], files_changed: usize) {
    sections.line(format!("changes: {files_changed} files, {} symbols changed", changed.len()));
    let elements = changed.iter().take(CHANGED_SYMBOLS_LIMIT).map(|symbol| {
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
        line
    });
    sections.list(CuttableList {
        title: None,
        elements: elements.collect(),
        total: changed.len(),
        noun: "changed symbols",
    });
}

/// A blast: its totals, the tests affected, the items, completeness, freshness and next.
fn blast_sections(sections: &mut TextSections, blast: &BlastAnswer) {
    sections.line(format!(
        "blast of {} ({} seeds, depth {}): {} dependents, {} breaks",
        blast.subject, blast.seeds, blast.depth, blast.total, blast.breaks
    ));
    // A test only runtime evidence names says so (`executed`, `stale` evidence); in tiers,
    // each test says its tier.
    let mark = |test: &AffectedTest| match (
        test.tier.as_deref(),
        test.why.iter().any(|why| why == "static"),
        test.evidence.as_deref(),
    ) {
        (Some("ran"), _, _) => " [ran it]",
        (Some(_), _, _) => " [reachable only]",
        (None, false, Some("stale")) => " (executed, stale evidence)",
        (None, false, _) => " (executed)",
        _ => "",
    };
    let tests = blast.tests_affected.iter().take(TESTS_LISTED_LIMIT).map(|test| {
        let symbol = &test.symbol;
        format!("  {} {}:{}{}", symbol.qualified_name, symbol.path, symbol.line, mark(test))
    });
    let title = match (blast.tests_ran, blast.subject_evidence.as_deref()) {
        (Some(ran), _) => format!(
            "tests affected ({}: {ran} ran it by runtime evidence, break if the change breaks; {} reachable only, may break):",
            blast.tests_total,
            blast.tests_total - ran
        ),
        (None, Some("stale")) => format!(
            "tests affected ({}; runtime evidence for the subject is stale, not used to split them):",
            blast.tests_total
        ),
        _ => format!("tests affected ({}):", blast.tests_total),
    };
    sections.list(CuttableList {
        title: Some(title),
        elements: tests.collect(),
        total: blast.tests_total,
        noun: "tests",
    });
    sections.items.extend(blast.items.iter().map(blast_item_line));
    sections.parts.push(TextPart::Items);
    completeness_parts(sections, &blast.completeness);
    sections.context_line(freshness_line(&blast.freshness));
    sections.next = Some(blast.next.clone());
}

/// Completeness: its verdict, then its causes (a list cut to fit, counted).
fn completeness_parts(sections: &mut TextSections, completeness: &Completeness) {
    sections.context_line(completeness_verdict_line(completeness));
    let causes: Vec<String> = completeness.causes.iter().flatten().map(cause_line).collect();
    let total = causes.len();
    sections.context_list(CuttableList { title: None, elements: causes, total, noun: "causes" });
}

fn ownership_sections(sections: &mut TextSections, ownership: &OwnershipAnswer) {
    let blame = match ownership.blame_options.is_empty() {
        true => String::new(),
        false => format!(" (blame {})", ownership.blame_options.join(" ")),
    };
    sections
        .line(format!("ownership of {}: {} lines{blame}", ownership.range, ownership.total_lines));
    sections.items.extend(ownership.owners.iter().map(owner_line));
    sections.parts.push(TextPart::Items);
    if ownership.not_committed_yet > 0 {
        sections.line(format!("not committed yet: {} lines", ownership.not_committed_yet));
    }
    if !ownership.excluded_bots.is_empty() {
        sections.line(format!(
            "excluded bots: {} ({} lines)",
            ownership.excluded_bots.join(", "),
            ownership.excluded_bot_lines
        ));
    }
    if let Some(note) = &ownership.note {
        sections.line(format!("note: {note}"));
    }
    sections.context_line(freshness_line(&ownership.freshness));
    sections.next = Some(ownership.next.clone());
}

fn context_sections(sections: &mut TextSections, context: &ContextAnswer) {
    let subject = match &context.subject {
        SymbolOrFile::Symbol(symbol) => symbol_line_with_id(symbol),
        SymbolOrFile::File { path } => path.clone(),
    };
    sections.line(format!(
        "context of {subject}: {} memory entries, oldest first",
        context.chain.len()
    ));
    sections.items.extend(context.chain.iter().map(context_entry_line));
    sections.parts.push(TextPart::Items);
    sections.line(format!("tip: {}", context.tip.as_deref().unwrap_or("none")));
    let problems = context.memory_problems.iter().flatten();
    let problems: Vec<String> = problems.map(|problem| format!("  {problem}")).collect();
    sections.list(CuttableList {
        title: Some("memory problems:".to_string()),
        total: problems.len(),
        elements: problems,
        noun: "memory problems",
    });
    if let Some(note) = &context.note {
        sections.line(format!("note: {note}"));
    }
    if context.traces_total > 0 {
        let traces: Vec<String> =
            context.traces.iter().map(|trace| format!("  {}", trace.line())).collect();
        sections.list(CuttableList {
            title: Some(format!("traces ({}; recall gives them whole):", context.traces_total)),
            total: context.traces_total,
            elements: traces,
            noun: "traces",
        });
    }
    sections.context_line(freshness_line(&context.freshness));
    sections.next = context.next.clone();
}
