//! tether's answers as the editor shows them: call hierarchy items, a code lens's title, a
//! hover's Markdown. Pure conversions; the session supplies the files' texts for columns.

use lsp_types::{CallHierarchyItem, SymbolKind, Uri};
use tether_protocol::wire::{
    BlastAnswer, Completeness, CompletenessCause, ContextAnswer, NeighboursAnswer, OwnershipAnswer,
    SymbolRef,
};

use crate::documents::{range_of_lines, range_of_name};

/// The last segment of a qualified name (`a.b.C.run` or `a::b::run`: `run`).
pub fn short_name(qualified_name: &str) -> &str {
    qualified_name.rsplit(['.', ':']).next().unwrap_or(qualified_name)
}

/// The editor's symbol kind of a tether kind.
pub fn symbol_kind(kind: &str) -> SymbolKind {
    match kind {
        "module" => SymbolKind::MODULE,
        "class" => SymbolKind::CLASS,
        "struct" => SymbolKind::STRUCT,
        "enum" => SymbolKind::ENUM,
        "trait" => SymbolKind::INTERFACE,
        "method" => SymbolKind::METHOD,
        "constant" | "const" | "static" => SymbolKind::CONSTANT,
        _ => SymbolKind::FUNCTION,
    }
}

/// A call hierarchy item of a symbol in the file at `uri` whose text is `text` (when known).
pub fn call_hierarchy_item(symbol: &SymbolRef, uri: Uri, text: Option<&str>) -> CallHierarchyItem {
    let name = short_name(&symbol.qualified_name);
    let item = CallHierarchyItem {
        name: name.to_string(),
        kind: symbol_kind(&symbol.kind),
        tags: None,
        detail: Some(symbol.qualified_name.clone()),
        uri,
        range: range_of_lines(text, symbol.line, symbol.end_line),
        selection_range: range_of_name(text, symbol.line, name),
        data: None,
    };
    crate::editor_messages::with_symbol_address(item, &symbol.id)
}

/// `≥` before a count that is a lower bound.
fn bound(completeness: &Completeness) -> &'static str {
    if completeness.status == "exact" {
        ""
    } else {
        "≥"
    }
}

fn plural(count: usize, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// A code lens's title: `3 call sites · blast 12 · 4 tests`, each count `≥` when it is a
/// lower bound. Call sites, not callers: a function calling twice is one item of the call
/// hierarchy with two ranges, and two sites here.
pub fn lens_title(callers: &NeighboursAnswer, blast: &BlastAnswer) -> String {
    let callers_bound = bound(&callers.completeness);
    let blast_bound = bound(&blast.completeness);
    format!(
        "{callers_bound}{} · blast {blast_bound}{} · {blast_bound}{}",
        plural(callers.total, "call site", "call sites"),
        blast.total,
        plural(blast.tests_total, "test", "tests"),
    )
}

/// What the blast command shows: the counts, the first tests, and whether it is exact.
pub fn blast_summary(blast: &BlastAnswer) -> String {
    let tests: Vec<&str> =
        blast.tests_affected.iter().map(|test| test.symbol.qualified_name.as_str()).collect();
    let more = blast.tests_total.saturating_sub(tests.len());
    let tests = match (tests.is_empty(), more) {
        (true, _) => String::new(),
        (false, 0) => format!(": {}", tests.join(", ")),
        (false, more) => format!(": {} and {more} more", tests.join(", ")),
    };
    let completeness = match causes_summary(&blast.completeness) {
        Some(causes) => format!("lower bound ({causes})"),
        None => "exact".to_string(),
    };
    // In tiers, how many tests runtime evidence saw run the subject.
    let ran = blast.tests_ran.map(|ran| format!(" ({ran} ran it)")).unwrap_or_default();
    format!(
        "blast of {}: {} ({} break) · {}{ran}{tests} · {completeness}",
        blast.subject,
        plural(blast.total, "dependent", "dependents"),
        blast.breaks,
        plural(blast.tests_total, "test", "tests"),
    )
}

/// Why a count is a lower bound, in a few words per cause.
pub fn causes_summary(completeness: &Completeness) -> Option<String> {
    let causes = completeness.causes.as_ref()?;
    let parts: Vec<String> = causes
        .iter()
        .map(|cause| match cause {
            CompletenessCause::UnresolvedCallSites { name, count, .. } if name.is_empty() => {
                format!("{} unresolved", plural(*count, "call site", "call sites"))
            }
            CompletenessCause::UnresolvedCallSites { name, count, .. } => {
                format!("{} of `{name}` unresolved", plural(*count, "call site", "call sites"))
            }
            CompletenessCause::UnresolvedSites { count, .. } => {
                format!("{} unresolved", plural(*count, "call site", "call sites"))
            }
            CompletenessCause::UncertainEdges { count } => {
                plural(*count, "uncertain edge", "uncertain edges")
            }
            CompletenessCause::UnparsedFiles { count, .. } => {
                plural(*count, "file not parsed", "files not parsed")
            }
            CompletenessCause::EscapedValue { count, .. } => {
                format!("used as a value ({} through values)", plural(*count, "call", "calls"))
            }
            CompletenessCause::ImplicitInvocation { .. } => {
                "called by the language implicitly".to_string()
            }
            CompletenessCause::CalledFromOutside { .. } => "called from outside".to_string(),
            CompletenessCause::UnanalysedCode { count, .. } => {
                plural(*count, "mention in unanalysed code", "mentions in unanalysed code")
            }
            CompletenessCause::Overrides { count, .. } => {
                format!("{} of the base method", plural(*count, "call", "calls"))
            }
            CompletenessCause::DepthLimit { depth, .. } => format!("depth limit {depth}"),
            CompletenessCause::DirtyFiles { count, .. } => {
                plural(*count, "file changed on disk", "files changed on disk")
            }
            CompletenessCause::PartialHistory { read, asked } => {
                format!("{read} of {asked} commits read")
            }
        })
        .collect();
    (!parts.is_empty()).then(|| parts.join("; "))
}

/// What a hover shows about a symbol.
pub struct HoverFacts<'a> {
    pub symbol: &'a SymbolRef,
    pub callers: &'a NeighboursAnswer,
    pub blast: &'a BlastAnswer,
    pub context: Option<&'a ContextAnswer>,
    pub ownership: Option<&'a OwnershipAnswer>,
}

/// The memory's tip as a person reads it: its type, title and date (the id is for tools).
fn tip_line(context: &ContextAnswer) -> Option<String> {
    let tip = context.tip.as_ref()?;
    let Some(entry) = context.chain.iter().find(|entry| &entry.id == tip) else {
        return Some(format!("why: {tip}"));
    };
    Some(format!(
        "why: {} \"{}\" ({})",
        entry.entry_type,
        entry.title,
        entry.created_at.as_deref().unwrap_or(&entry.pin)
    ))
}

/// A hover's Markdown: the symbol, its counts (and why they are lower bounds), the memory's
/// tip, the top owner, and whether the graph is behind the files.
pub fn hover_markdown(facts: &HoverFacts) -> String {
    let symbol = facts.symbol;
    let mut lines = vec![format!(
        "**`{}`** · {} · `{}:{}`",
        symbol.qualified_name, symbol.kind, symbol.path, symbol.line
    )];
    lines.push(lens_title(facts.callers, facts.blast));
    for completeness in [&facts.callers.completeness, &facts.blast.completeness] {
        if let Some(causes) = causes_summary(completeness) {
            lines.push(format!("lower bound: {causes}"));
            break;
        }
    }
    if let Some(line) = facts.context.and_then(tip_line) {
        lines.push(line);
    }
    if let Some(owner) = facts.ownership.and_then(|ownership| ownership.owners.first()) {
        lines.push(format!(
            "owner: {} ({:.0} % of the lines, {}), last: {}",
            owner.author,
            owner.share * 100.0,
            plural(owner.commits as usize, "commit", "commits"),
            owner.latest.summary
        ));
    }
    let freshness = &facts.callers.freshness;
    if freshness.stale {
        let behind = freshness.files_not_in_graph.as_ref().map_or(0, Vec::len);
        lines.push(if freshness.head_moved {
            "graph: HEAD moved; a rebuild is under way".to_string()
        } else {
            format!("graph: {} not in the graph yet", plural(behind, "file", "files"))
        });
    }
    lines.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_cut_both_languages_separators() {
        assert_eq!(short_name("pkg.mod.Class.run"), "run");
        assert_eq!(short_name("crate::a::Type::new"), "new");
        assert_eq!(short_name("main"), "main");
    }

    #[test]
    fn the_tip_is_read_by_its_title_not_its_id() {
        let entry = tether_protocol::wire::ContextEntry {
            id: "split-on-commas-3f2a".into(),
            entry_type: "decision".into(),
            title: "Split on commas".into(),
            status: "active".into(),
            created_at: Some("2026-12-01".into()),
            file: ".memory/decisions/split-on-commas-3f2a.md".into(),
            tether: "changed".into(),
            pin: "abc".into(),
            staleness: tether_protocol::wire::EntryStaleness {
                changed_since_pin: false,
                commits_since: 0,
                authors: Vec::new(),
                summary: String::new(),
            },
            needs_recheck: tether_protocol::wire::Recheck::Fine,
        };
        let subject = crate::test_support::symbol("1", "lib.parse", "function", "lib.py", (1, 2));
        let context = ContextAnswer {
            subject: tether_protocol::wire::SymbolOrFile::Symbol(subject),
            chain: vec![entry],
            tip: Some("split-on-commas-3f2a".into()),
            note: None,
            memory_problems: None,
            traces: Vec::new(),
            traces_total: 0,
            freshness: crate::test_support::fresh(),
            next: None,
        };
        assert_eq!(
            tip_line(&context).as_deref(),
            Some("why: decision \"Split on commas\" (2026-12-01)")
        );
    }
}
