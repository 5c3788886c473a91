//! The lines of a text rendering, from the typed answers (`protocol::wire`): how each kind
//! of item names its symbol and its edge, and the completeness and freshness lines every
//! dependency answer ends with.

use tether_protocol::wire::{
    BlastItem, Completeness, CompletenessCause, ContextEntry, EscapeExample, Freshness, MemoryHit,
    NeighbourItem, Owner, Recheck, SiteExample, SymbolRef,
};

/// A number as the JSON answer writes it (`1.0`, `0.95`), so text and JSON agree.
pub fn decimal(value: f64) -> String {
    if value.is_finite() && value.fract() == 0.0 && value.abs() < 1e16 {
        format!("{value:.1}")
    } else {
        value.to_string()
    }
}

/// `qualified_name (kind) path:line`: how every item names its symbol.
pub fn symbol_line(symbol: &SymbolRef) -> String {
    format!("{} ({}) {}:{}", symbol.qualified_name, symbol.kind, symbol.path, symbol.line)
}

/// A symbol's line with its id, to pass back to another tool.
pub fn symbol_line_with_id(symbol: &SymbolRef) -> String {
    format!("{} · id {}", symbol_line(symbol), symbol.id)
}

/// `severity dN symbol · EDGE at site · conf C [· via …] · id`.
pub fn blast_item_line(item: &BlastItem) -> String {
    let mut line = format!(
        "{} d{} {} · {} at {} · conf {}",
        item.severity,
        item.distance,
        symbol_line(&item.symbol),
        item.edge,
        item.site,
        decimal(item.confidence)
    );
    if item.via.len() > 2 {
        line.push_str(&format!(" · via {}", item.via[1..item.via.len() - 1].join(" → ")));
    }
    format!("{line} · id {}", item.symbol.id)
}

/// `symbol · at site · conf C rule · direction · id`.
pub fn neighbour_line(item: &NeighbourItem) -> String {
    format!(
        "{} · at {} · conf {} {} · {} · id {}",
        symbol_line(&item.symbol),
        item.site,
        decimal(item.confidence),
        item.rule,
        item.direction,
        item.symbol.id
    )
}

/// `author <email> · N lines (S%) · C commits · latest <commit> <summary>`.
pub fn owner_line(owner: &Owner) -> String {
    let commit: String = owner.latest.commit.chars().take(10).collect();
    format!(
        "{} <{}> · {} lines ({:.0}%) · {} commits · latest {commit} {}",
        owner.author,
        owner.email,
        owner.lines,
        owner.share * 100.0,
        owner.commits,
        owner.latest.summary
    )
}

/// `id type "title" [status] file · tether · staleness · recheck`.
pub fn context_entry_line(entry: &ContextEntry) -> String {
    let recheck = match &entry.needs_recheck {
        Recheck::Fine => "fine",
        Recheck::NeedsRecheck { .. } => "needs_recheck",
        Recheck::Unknown { .. } => "unknown",
    };
    format!(
        "{} {} {:?} [{}] {} · {} tether · {} · recheck {recheck}",
        entry.id,
        entry.entry_type,
        entry.title,
        entry.status,
        entry.file,
        entry.tether,
        entry.staleness.summary
    )
}

/// `id type "title" [status] file · score N [· tags …]`.
pub fn memory_hit_line(hit: &MemoryHit) -> String {
    let mut line = format!(
        "{} {} {:?} [{}] {} · score {}",
        hit.id, hit.entry_type, hit.title, hit.status, hit.file, hit.score
    );
    if !hit.tags.is_empty() {
        line.push_str(&format!(" · tags {}", hit.tags.join(", ")));
    }
    line
}

/// `(e.g. a; b; c)` of a cause's first three examples, or nothing.
fn examples_text(examples: impl Iterator<Item = String>) -> String {
    let examples: Vec<String> = examples.take(3).collect();
    if examples.is_empty() {
        String::new()
    } else {
        format!(" (e.g. {})", examples.join("; "))
    }
}

fn site_examples(examples: &[SiteExample]) -> String {
    examples_text(
        examples.iter().map(|example| format!("{} calls {}", example.site, example.callee)),
    )
}

fn text_examples(examples: &[String]) -> String {
    examples_text(examples.iter().cloned())
}

fn escapes_text(escapes: &[EscapeExample]) -> String {
    let escapes: Vec<String> =
        escapes.iter().take(3).map(|escape| format!("{} {}", escape.site, escape.how)).collect();
    escapes.join("; ")
}

/// One cause, for a reader who must decide whether the list can be trusted.
pub fn cause_line(cause: &CompletenessCause) -> String {
    match cause {
        CompletenessCause::UnresolvedCallSites { name, count, examples } if name.is_empty() => format!("  cause: {count} of its call sites could not be bound{}", site_examples(examples)),
        CompletenessCause::UnresolvedCallSites { name, count, examples } => format!("  cause: {count} call sites of {name:?} could not be bound and may be callers{}", site_examples(examples)),
        CompletenessCause::UnanalysedCode { name, count, examples } => format!("  cause: unanalysed_code — {count} places the graph cannot analyse (a macro's tokens) mention {name:?} and may call it{}", site_examples(examples)),
        CompletenessCause::UnresolvedSites { count, examples } => format!("  cause: unresolved_sites — {count} call sites of unknown target may hide edges{}", site_examples(examples)),
        CompletenessCause::UncertainEdges { count } => format!("  cause: {count} dynamic, ambiguous or name-only edges on the paths (their items are marked maybe)"),
        CompletenessCause::UnparsedFiles { count, examples } => format!("  cause: {count} files were not parsed{}", text_examples(examples)),
        CompletenessCause::EscapedValue { count, escapes, examples, .. } => format!("  cause: escaped_value — it is used as a value ({}); {count} unresolved calls through values may call it{}", escapes_text(escapes), site_examples(examples)),
        CompletenessCause::ImplicitInvocation { examples, .. } => format!("  cause: implicit_invocation — the language calls it without a call expression{}", text_examples(examples)),
        CompletenessCause::CalledFromOutside { examples, .. } => format!("  cause: called_from_outside — code outside the project may call it{}", text_examples(examples)),
        CompletenessCause::Overrides { count, examples } => format!("  cause: overrides — {count} calls of the base method it overrides may dispatch to it{}", site_examples(examples)),
        CompletenessCause::DepthLimit { depth, count } => format!("  cause: depth_limit — {count} symbols at depth {depth} have more dependents; raise depth to list them (tests_affected already counts them)"),
        CompletenessCause::DirtyFiles { count, examples } => format!("  cause: dirty_files — {count} source files changed on disk since the graph was built; callers may hide there{}", text_examples(examples)),
        CompletenessCause::PartialHistory { read, asked } => format!("  cause: partial_history — only the newest {read} of {asked} commits were read in time; the rest is being read (call again)"),
    }
}

/// Completeness: `exact`, or `lower_bound` with what it implies (its causes follow it).
pub fn completeness_verdict_line(completeness: &Completeness) -> String {
    if completeness.status != "lower_bound" {
        return format!("completeness: {}", completeness.status);
    }
    "completeness: lower_bound — the list may be missing items; the causes say why; do not conclude that nothing depends on the symbol".to_string()
}

/// Freshness: the indexed commit against HEAD, and uncommitted files.
pub fn freshness_line(freshness: &Freshness) -> String {
    let short = |commit: &Option<String>| -> String {
        commit
            .as_deref()
            .map(|commit| commit.chars().take(10).collect())
            .unwrap_or_else(|| "none".to_string())
    };
    let branch =
        freshness.head_branch.as_ref().map(|branch| format!(" on {branch}")).unwrap_or_default();
    let uncommitted = match &freshness.uncommitted_files {
        Some(files) => files.len().to_string(),
        None => "unknown".to_string(),
    };
    let stale =
        if freshness.stale { " — stale: the graph may not reflect the working tree" } else { "" };
    format!(
        "freshness: indexed {} · HEAD {}{branch} · head moved: {} · uncommitted files: {uncommitted}{stale}",
        short(&freshness.indexed_commit),
        short(&freshness.head_commit),
        if freshness.head_moved { "yes" } else { "no" }
    )
}
