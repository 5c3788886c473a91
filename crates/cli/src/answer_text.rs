//! Human-readable renderings of the daemon's typed answers (`protocol::wire`): one line per
//! item with file:line, then completeness, freshness and the suggested next command (built
//! by `next_command_hints`, not the daemon's JSON-RPC-flavoured `next`).

use std::fmt::Write;

use tether_protocol::wire::{
    Answer, BlastAnswer, CensusCounts, ChangedSymbol, ChangesAnswer, Completeness,
    CompletenessCause, ContextAnswer, CoverageImportAnswer, Freshness, LookupAnswer,
    NeighboursAnswer, OwnershipAnswer, Recheck, RecordAnswer, SearchMemoryAnswer, StatusAnswer,
    SymbolOrFile,
};
use tether_protocol::Method;

use crate::terminal_style::{bold, dim};

/// The text of `method`'s answer, ending with `next` as its hint line.
/// `why` spells out every completeness cause (see `Footer::write_completeness`).
pub fn answer_text(method: Method, answer: &Answer, next: Option<&str>, why: bool) -> String {
    let method = method.as_str();
    let mut out = String::new();
    let footer = match answer {
        Answer::Blast(blast) => {
            blast_text(&mut out, blast);
            Footer::of_blast(blast)
        }
        Answer::Changes(ChangesAnswer::Diff { changed, files_changed, blast }) => {
            changes_text(&mut out, changed, *files_changed, blast)
        }
        Answer::Changes(ChangesAnswer::NotARepository { note, freshness, .. }) => {
            let _ = writeln!(out, "note: {note}");
            Footer { freshness: Some(freshness), ..Footer::default() }
        }
        Answer::Ownership(ownership) => ownership_text(&mut out, ownership),
        Answer::Context(context) => {
            context_text(&mut out, context);
            Footer { freshness: Some(&context.freshness), ..Footer::default() }
        }
        Answer::SearchMemory(search) => search_memory_text(&mut out, search),
        Answer::CoverageImport(imported) => coverage_import_text(&mut out, imported),
        Answer::Record(record) => record_text(&mut out, record),
        Answer::RecordTrace(recorded) => {
            out.push_str(&recorded.text());
            Footer::default()
        }
        Answer::Recall(recall) => {
            out.push_str(&recall.text());
            Footer::default()
        }
        Answer::Tree(tree) => {
            crate::research_tree_commands::tree_text(&mut out, tree);
            Footer { next_cursor: tree.next_cursor.as_deref(), ..Footer::default() }
        }
        Answer::OpenPhases(open) => {
            crate::research_tree_commands::open_phases_text(&mut out, open);
            Footer { next_cursor: open.next_cursor.as_deref(), ..Footer::default() }
        }
        Answer::Brief(brief) => {
            crate::research_tree_commands::brief_text(&mut out, brief);
            Footer::default()
        }
        Answer::Neighbours(neighbours) => neighbours_text(&mut out, method, neighbours),
        Answer::Census(census) => {
            let _ = writeln!(out, "{}", census_line(&census.census));
            Footer { freshness: Some(&census.freshness), ..Footer::default() }
        }
        Answer::Lookup(lookup) => lookup_text(&mut out, lookup),
        Answer::Status(status) => {
            out.push_str(&status_text(status));
            Footer::default()
        }
        Answer::Stopping(_) => {
            out.push_str("the daemon is stopping\n");
            Footer::default()
        }
        Answer::Subscribed(_) => {
            out.push_str("subscribed to published graphs\n");
            Footer::default()
        }
        Answer::Export(export) => {
            out.push_str(&export.document);
            Footer::default()
        }
        Answer::IndexReport(report) => {
            let run = crate::census_text::IndexRun::Daemon { rebuild_seconds: None };
            out.push_str(&crate::census_text::render_census(report, &run, None));
            Footer::default()
        }
        Answer::Cypher(cypher) => {
            out.push_str(&crate::export_command::cypher_text(cypher));
            Footer::default()
        }
        Answer::Health(health) => {
            crate::health_command::health_text(&mut out, health, why);
            Footer { freshness: Some(&health.freshness), ..Footer::default() }
        }
        Answer::Outline(outline) => {
            for item in &outline.items {
                let _ = writeln!(
                    out,
                    "{}:{}  {} {}",
                    item.path, item.line, item.kind, item.qualified_name
                );
            }
            if outline.items.is_empty() {
                let _ = writeln!(out, "no symbols in {}", outline.path);
            }
            Footer { freshness: Some(&outline.freshness), ..Footer::default() }
        }
        Answer::Buffers(buffers) => {
            let _ = writeln!(out, "{} unsaved buffers open", buffers.buffers.len());
            Footer::default()
        }
    };
    Footer { next, why, ..footer }.write_to(&mut out);
    match out.split_once('\n') {
        Some((header, rest)) => format!("{}\n{rest}", bold(header)),
        None => out,
    }
}

/// `1 entry`, `3 entries`: a count with its noun in the number it takes.
fn counted(count: usize, one: &str, many: &str) -> String {
    match count {
        1 => format!("1 {one}"),
        _ => format!("{count} {many}"),
    }
}

fn changes_text<'answer>(
    out: &mut String,
    changed: &'answer [ChangedSymbol],
    files_changed: usize,
    blast: &'answer BlastAnswer,
) -> Footer<'answer> {
    let _ = writeln!(
        out,
        "{}; changed symbols:",
        counted(files_changed, "file changed", "files changed")
    );
    // Grouped by file (the answer lists them by path, then line).
    let mut current_path: Option<&str> = None;
    for symbol in changed {
        if current_path != Some(symbol.path.as_str()) {
            current_path = Some(symbol.path.as_str());
            let renamed = symbol
                .renamed_from
                .as_ref()
                .map(|from| format!(" (renamed from {from})"))
                .unwrap_or_default();
            let _ = writeln!(out, "  {}{renamed}", symbol.path);
        }
        // Comments changed at module level belong to no symbol the reader could ask about.
        if symbol.change == "comments" && symbol.kind == "module" {
            let _ = writeln!(out, "    comments (outside any symbol)");
            continue;
        }
        let _ = writeln!(
            out,
            "    {:<8} {}  line {}",
            symbol.change, symbol.qualified_name, symbol.line
        );
    }
    let _ = writeln!(out, "impact: {} dependents, {} break", blast.total, blast.breaks);
    for item in &blast.items {
        let _ = writeln!(
            out,
            "  {:<6} d{} {:.2}  {}  {}",
            item.severity, item.distance, item.confidence, item.symbol.qualified_name, item.site
        );
    }
    crate::tests_to_run::tests_affected_text(out, blast);
    Footer::of_blast(blast)
}

fn ownership_text<'answer>(
    out: &mut String,
    ownership: &'answer OwnershipAnswer,
) -> Footer<'answer> {
    let blame = match ownership.blame_options.is_empty() {
        true => String::new(),
        false => format!(", blame {}", ownership.blame_options.join(" ")),
    };
    let _ =
        writeln!(out, "ownership of {} ({} lines{blame})", ownership.range, ownership.total_lines);
    for owner in &ownership.owners {
        let commit = &owner.latest.commit[..owner.latest.commit.len().min(10)];
        let _ = writeln!(
            out,
            "  {:<24} {:>5} lines {:>5.1}%  {} commits  latest {commit} {}",
            format!("{} <{}>", owner.author, owner.email),
            owner.lines,
            owner.share * 100.0,
            owner.commits,
            owner.latest.summary
        );
    }
    if ownership.excluded_bot_lines > 0 {
        let _ = writeln!(
            out,
            "  ({} lines by bots left out: {})",
            ownership.excluded_bot_lines,
            names_list(&ownership.excluded_bots)
        );
    }
    if let Some(note) = &ownership.note {
        let _ = writeln!(out, "note: {note}");
    }
    Footer { freshness: Some(&ownership.freshness), ..Footer::default() }
}

fn search_memory_text<'answer>(
    out: &mut String,
    search: &'answer SearchMemoryAnswer,
) -> Footer<'answer> {
    let _ = writeln!(out, "{}", counted(search.total, "entry matches", "entries match"));
    for entry in &search.items {
        let _ = writeln!(
            out,
            "  {:.1}  {} {:<10} {}  {}",
            f64::from(entry.score),
            entry.created_at.as_deref().unwrap_or(""),
            entry.entry_type,
            entry.title,
            entry.file
        );
    }
    Footer {
        next_cursor: search.next_cursor.as_deref(),
        freshness: Some(&search.freshness),
        ..Footer::default()
    }
}

fn coverage_import_text<'answer>(
    out: &mut String,
    imported: &'answer CoverageImportAnswer,
) -> Footer<'answer> {
    let _ = writeln!(
        out,
        "runtime evidence: {} files, {} executed lines, {} test contexts, recorded at {}",
        imported.files,
        imported.lines,
        imported.contexts,
        imported.commit.as_deref().unwrap_or("no commit")
    );
    if imported.files_outside_the_repository > 0 {
        let _ = writeln!(
            out,
            "  {} measured files are not in this repository (left out)",
            imported.files_outside_the_repository
        );
    }
    if let Some(merged) = &imported.merged {
        let _ = writeln!(
            out,
            "  merged: {} tests recorded again, {} kept from before{}",
            merged.tests_replaced,
            merged.tests_kept,
            match merged.files_dropped {
                0 => String::new(),
                dropped => format!(
                    "; the kept evidence of {dropped} files was dropped (recorded from content other than now)"
                ),
            }
        );
    }
    Footer::default()
}

fn record_text<'answer>(out: &mut String, record: &'answer RecordAnswer) -> Footer<'answer> {
    let (verb, commit_verb) =
        if record.dry_run { ("would record", "would commit") } else { ("recorded", "committed") };
    let _ = writeln!(out, "{verb} {} in {}", record.id, record.file);
    let branch = match &record.branch {
        Some(branch) => format!("on branch {branch}"),
        None => "on a detached HEAD".to_string(),
    };
    for commit in &record.commits {
        let _ = writeln!(
            out,
            "  {commit_verb} {:?} {branch}: {}",
            commit.message,
            commit.files.join(", ")
        );
    }
    if let Some(commit) = &record.pinned_commit {
        let _ = writeln!(out, "  pinned to {commit} ({})", names_list(&record.pinned_files));
    }
    Footer::default()
}

fn neighbours_text<'answer>(
    out: &mut String,
    method: &'answer str,
    neighbours: &'answer NeighboursAnswer,
) -> Footer<'answer> {
    let subject = &neighbours.subject;
    let _ = writeln!(
        out,
        "{method} of {} ({}, {}:{}): {}",
        subject.qualified_name, subject.kind, subject.path, subject.line, neighbours.total
    );
    for item in &neighbours.items {
        let direction =
            if method == "imports" { format!(" ({})", item.direction) } else { String::new() };
        let _ = writeln!(
            out,
            "  {}  {}  {:.2} {}{direction}",
            item.symbol.qualified_name, item.site, item.confidence, item.rule
        );
    }
    Footer {
        next_cursor: neighbours.next_cursor.as_deref(),
        completeness: Some(&neighbours.completeness),
        freshness: Some(&neighbours.freshness),
        next: None,
        why: false,
    }
}

fn lookup_text<'answer>(out: &mut String, lookup: &'answer LookupAnswer) -> Footer<'answer> {
    let _ = writeln!(
        out,
        "{} {:?}",
        counted(lookup.total, "symbol matches", "symbols match"),
        lookup.query
    );
    for item in &lookup.items {
        let _ = writeln!(
            out,
            "  {}  {}  {}:{}  id {}",
            item.qualified_name, item.kind, item.path, item.line, item.id
        );
    }
    if !lookup.similar.is_empty() {
        let _ = writeln!(out, "similar names:");
        for item in &lookup.similar {
            let _ = writeln!(
                out,
                "  {}  {}  {}:{}",
                item.qualified_name, item.kind, item.path, item.line
            );
        }
    }
    Footer {
        next_cursor: lookup.next_cursor.as_deref(),
        freshness: Some(&lookup.freshness),
        ..Footer::default()
    }
}

/// What every answer ends with, when it has it.
#[derive(Default)]
struct Footer<'answer> {
    next_cursor: Option<&'answer str>,
    completeness: Option<&'answer Completeness>,
    freshness: Option<&'answer Freshness>,
    next: Option<&'answer str>,
    /// Spell out the causes only counted by default.
    why: bool,
}

impl<'answer> Footer<'answer> {
    fn of_blast(blast: &'answer BlastAnswer) -> Footer<'answer> {
        Footer {
            next_cursor: blast.next_cursor.as_deref(),
            completeness: Some(&blast.completeness),
            freshness: Some(&blast.freshness),
            next: None,
            why: false,
        }
    }

    fn write_to(&self, out: &mut String) {
        if let Some(cursor) = self.next_cursor {
            let _ = writeln!(out, "more: --cursor {cursor}");
        }
        if let Some(completeness) = self.completeness {
            write_completeness(out, completeness, self.why);
        }
        if let Some(freshness) = self.freshness {
            let _ = writeln!(out, "{}", dim(&freshness_text(freshness)));
        }
        if let Some(next) = self.next {
            let _ = writeln!(out, "{}", dim(&format!("next: {next}")));
        }
    }
}

fn blast_text(out: &mut String, blast: &BlastAnswer) {
    let _ = writeln!(
        out,
        "blast radius of {} (depth {}): {} dependents, {} break",
        blast.subject, blast.depth, blast.total, blast.breaks
    );
    for item in &blast.items {
        let _ = writeln!(
            out,
            "  {:<6} d{} {:.2}  {}  {}  via {}",
            item.severity,
            item.distance,
            item.confidence,
            item.symbol.qualified_name,
            item.site,
            item.edge
        );
    }
    crate::tests_to_run::tests_affected_text(out, blast);
}

fn context_text(out: &mut String, context: &ContextAnswer) {
    let name = match &context.subject {
        SymbolOrFile::Symbol(symbol) => symbol.qualified_name.as_str(),
        SymbolOrFile::File { path } => path.as_str(),
    };
    let _ =
        writeln!(out, "context of {name}: {}", counted(context.chain.len(), "entry", "entries"));
    if let Some(note) = &context.note {
        let _ = writeln!(out, "note: {note}");
    }
    for entry in &context.chain {
        let tip = if context.tip.as_ref() == Some(&entry.id) { " [tip]" } else { "" };
        let _ = writeln!(
            out,
            "  {} {:<10} {}  ({}, {}){tip}",
            entry.created_at.as_deref().unwrap_or(""),
            entry.entry_type,
            entry.title,
            tether_text(&entry.tether),
            entry.file
        );
        let _ = writeln!(out, "      {}", entry.staleness.summary);
        match &entry.needs_recheck {
            Recheck::Fine => {}
            Recheck::NeedsRecheck { path } => {
                let _ = writeln!(out, "      needs recheck: {}", path.join(" → "));
            }
            Recheck::Unknown { reason } => {
                let _ = writeln!(out, "      needs recheck: unknown ({reason})");
            }
        }
    }
    for problem in context.memory_problems.iter().flatten() {
        let _ = writeln!(out, "  problem: {problem}");
    }
    if context.traces_total > 0 {
        let _ = writeln!(out, "{}:", counted(context.traces_total, "trace", "traces"));
        for trace in &context.traces {
            let _ = writeln!(out, "  {}", trace.line());
        }
        if context.traces_total > context.traces.len() {
            let _ = writeln!(
                out,
                "  … {} more: tether recall --anchor {}",
                context.traces_total - context.traces.len(),
                context.traces.first().map_or("PATH", |trace| trace.artifact.as_str())
            );
        }
    }
}

/// The daemon's status, a line per fact.
pub fn status_text(status: &StatusAnswer) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "tether daemon pid {} serving {}", status.pid, status.root);
    let _ = writeln!(out, "  socket    {}", status.socket);
    let _ = writeln!(out, "  database  {}", status.database);
    let _ = writeln!(
        out,
        "  ready     {} (rebuilding: {}, rebuilds: {})",
        status.ready, status.rebuilding, status.rebuilds
    );
    if let Some(error) = &status.last_error {
        let _ = writeln!(out, "  last error {error}");
    }
    if let Some(freshness) = &status.freshness {
        let _ = writeln!(out, "  {}", freshness_text(freshness));
    }
    out
}

fn census_line(census: &CensusCounts) -> String {
    let counts = |counts: &std::collections::BTreeMap<String, u64>| {
        let pairs: Vec<String> =
            counts.iter().map(|(kind, count)| format!("{kind} {count}")).collect();
        pairs.join(", ")
    };
    format!(
        "census: {} files · symbols: {} · edges: {} · {} unresolved call sites",
        census.files,
        counts(&census.symbols_by_kind),
        counts(&census.edges_by_kind),
        census.unresolved_calls
    )
}

fn freshness_text(freshness: &Freshness) -> String {
    let commit = freshness
        .indexed_commit
        .as_deref()
        .map(|commit| &commit[..commit.len().min(12)])
        .unwrap_or("(no commit)");
    let moved =
        if freshness.head_moved { ", HEAD has moved since: answers may be stale" } else { "" };
    let uncommitted = match freshness.uncommitted_files.as_ref().map(Vec::len) {
        Some(0) | None => String::new(),
        Some(count) => {
            format!(", {} with uncommitted changes", counted(count, "source file", "source files"))
        }
    };
    format!("indexed at {commit}{moved}{uncommitted}")
}

/// How an entry is tethered, as a reader of a context takes it: "changed" beside "the code has
/// not changed since this entry's pin" read as a contradiction.
fn tether_text(tether: &str) -> &str {
    match tether {
        "changed" => "recorded with a change to it",
        "referenced" => "names its file",
        other => other,
    }
}

/// `complete: exact`, or `complete: lower bound` and one line per cause. Outside code that
/// may call the subject (a decorator it is passed to, a base class outside the project) is
/// true of many symbols and rarely what a reader looks for: counted on one line, spelled out
/// with `--why`.
pub(crate) fn write_completeness(out: &mut String, completeness: &Completeness, why: bool) {
    let causes = match &completeness.causes {
        Some(causes) if completeness.status != "exact" => causes,
        _ => {
            let _ = writeln!(out, "complete: exact");
            return;
        }
    };
    let _ = writeln!(out, "complete: lower bound");
    let mut counted_only = 0;
    for cause in causes {
        match cause {
            CompletenessCause::CalledFromOutside { count, .. } if !why => counted_only += count,
            cause => {
                let _ = writeln!(out, "  - {}", cause_text(cause));
            }
        }
    }
    if counted_only > 0 {
        let ways = if counted_only == 1 { "way" } else { "ways" };
        let _ =
            writeln!(out, "  - outside code may call it ({counted_only} {ways}; --why lists them)");
    }
}

fn cause_text(cause: &CompletenessCause) -> String {
    let site_example = |examples: &[tether_protocol::wire::SiteExample]| {
        examples
            .first()
            .map(|example| format!(", e.g. {} {}", example.site, example.callee))
            .unwrap_or_default()
    };
    match cause {
        // A callees answer's cause: its own call sites no rule bound, whatever they name.
        CompletenessCause::UnresolvedCallSites { name, count, examples } if name.is_empty() => {
            format!("{count} of its call sites could not be bound{}", site_example(examples))
        }
        CompletenessCause::UnresolvedCallSites { name, count, examples } => {
            format!("{count} unresolved call sites could call {name:?}{}", site_example(examples))
        }
        CompletenessCause::UnanalysedCode { name, count, examples } => {
            format!("{count} places the graph cannot analyse (a macro's tokens) mention {name:?} and may call it{}", site_example(examples))
        }
        CompletenessCause::UnresolvedSites { count, examples } => {
            format!("{count} call sites of unknown target may hide edges{}", site_example(examples))
        }
        CompletenessCause::UncertainEdges { count } => format!("{count} edges are dynamic, ambiguous or guessed"),
        CompletenessCause::UnparsedFiles { count, .. } => format!("{count} files were not parsed"),
        CompletenessCause::EscapedValue { count, escapes, examples, .. } => {
            let escape = escapes.first().map(|escape| format!(" (e.g. at {})", escape.site)).unwrap_or_default();
            format!("used as a value{escape}: {count} unresolved calls through values could call it{}", site_example(examples))
        }
        CompletenessCause::ImplicitInvocation { count, examples } => {
            format!("called by the language without a call expression: {}", first_example(*count, examples))
        }
        CompletenessCause::CalledFromOutside { count, examples } => {
            format!("called from outside the project: {}", first_example(*count, examples))
        }
        CompletenessCause::Overrides { count, examples } => {
            format!("{count} calls of the base method it overrides may dispatch to it{}", site_example(examples))
        }
        CompletenessCause::DepthLimit { depth, count } => format!("{count} symbols at depth {depth} have more dependents (raise --depth; tests affected count them already)"),
        CompletenessCause::DirtyFiles { count, examples } => {
            format!("{} changed on disk since the graph was built, e.g. {}", counted(*count, "source file", "source files"), first_example(*count, examples))
        }
        CompletenessCause::PartialHistory { read, asked } => format!("only the newest {read} of {asked} commits were read in time; the rest is being read (ask again)"),
    }
}

/// A cause's first example, with how many more there are.
fn first_example(count: usize, examples: &[String]) -> String {
    let first = examples.first().map(String::as_str).unwrap_or("");
    if count > 1 {
        format!("{first} (and {} more)", count - 1)
    } else {
        first.to_string()
    }
}

/// A list of names for people: `a, b`.
fn names_list(names: &[String]) -> String {
    names.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A callees answer's unbound sites name no callee: the text never says `could call ""`.
    #[test]
    fn unbound_sites_of_a_callees_answer_are_said_without_an_empty_name() {
        let example = tether_protocol::wire::SiteExample {
            site: "src/lib.rs:16".to_string(),
            callee: "from_text".to_string(),
        };
        let cause = |name: &str| CompletenessCause::UnresolvedCallSites {
            name: name.to_string(),
            count: 2,
            examples: vec![example.clone()],
        };
        assert_eq!(
            cause_text(&cause("")),
            "2 of its call sites could not be bound, e.g. src/lib.rs:16 from_text"
        );
        assert_eq!(
            cause_text(&cause("from_text")),
            "2 unresolved call sites could call \"from_text\", e.g. src/lib.rs:16 from_text"
        );
    }

    /// One line per cause; outside callers counted on one line unless `--why` asks.
    #[test]
    fn completeness_is_a_short_list_with_outside_callers_counted_unless_asked() {
        let completeness = Completeness {
            status: "lower_bound".to_string(),
            causes: Some(vec![
                CompletenessCause::UncertainEdges { count: 3 },
                CompletenessCause::CalledFromOutside {
                    count: 2,
                    examples: vec![
                        "passed to the outside pytest.mark.parametrize".to_string(),
                        "extends abc.ABC, outside the project".to_string(),
                    ],
                },
            ]),
        };
        let text = |why: bool| {
            let mut out = String::new();
            write_completeness(&mut out, &completeness, why);
            out
        };
        assert_eq!(
            text(false),
            "complete: lower bound\n  - 3 edges are dynamic, ambiguous or guessed\n  - outside code may call it (2 ways; --why lists them)\n"
        );
        assert_eq!(
            text(true),
            "complete: lower bound\n  - 3 edges are dynamic, ambiguous or guessed\n  - called from outside the project: passed to the outside pytest.mark.parametrize (and 1 more)\n"
        );
    }

    /// An entry tethered by its change to the subject is not said "changed" beside "the code
    /// has not changed since this entry's pin".
    #[test]
    fn a_context_entry_says_how_it_is_tethered_without_contradicting_its_staleness() {
        let entry = tether_protocol::wire::ContextEntry {
            id: "split-3f2a".into(),
            entry_type: "decision".into(),
            title: "Split on commas".into(),
            status: "active".into(),
            created_at: Some("2026-12-01".into()),
            file: ".memory/decisions/split-3f2a.md".into(),
            tether: "changed".into(),
            pin: "abc".into(),
            staleness: tether_protocol::wire::EntryStaleness {
                changed_since_pin: false,
                commits_since: 0,
                authors: Vec::new(),
                summary: "the code has not changed since this entry's pin".into(),
            },
            needs_recheck: Recheck::Fine,
        };
        let context = ContextAnswer {
            subject: tether_protocol::wire::SymbolOrFile::File { path: "lib.py".into() },
            chain: vec![entry],
            tip: Some("split-3f2a".into()),
            note: None,
            memory_problems: None,
            traces: Vec::new(),
            traces_total: 0,
            freshness: tether_protocol::wire::Freshness {
                indexed_commit: Some("abc".into()),
                head_commit: Some("abc".into()),
                head_branch: Some("main".into()),
                head_moved: false,
                uncommitted_files: Some(Vec::new()),
                files_not_in_graph: Some(Vec::new()),
                stale: false,
                buffers: Vec::new(),
            },
            next: None,
        };
        let mut out = String::new();
        context_text(&mut out, &context);
        let first_entry = out.lines().nth(1).unwrap_or_default();
        assert_eq!(
            first_entry,
            "  2026-12-01 decision   Split on commas  (recorded with a change to it, \
             .memory/decisions/split-3f2a.md) [tip]"
        );
    }
}
