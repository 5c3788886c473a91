//! The human-readable census that `tether index` ends with.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

use tether_index::BuiltGraph;
use tether_model::{CallOutcome, IndexMeta, UnresolvedReason};

pub fn render_census(
    built: &BuiltGraph,
    meta: &IndexMeta,
    database: &Path,
    seconds: f64,
    report: bool,
) -> String {
    let graph = &built.graph;
    let census = graph.census();
    let mut out = String::new();
    let head = match (&meta.head_commit, &meta.head_branch) {
        (Some(commit), Some(branch)) => {
            format!(" at {} ({branch})", &commit[..commit.len().min(12)])
        }
        (Some(commit), None) => format!(" at {} (detached)", &commit[..commit.len().min(12)]),
        (None, Some(branch)) => format!(" on {branch} (no commits yet)"),
        (None, None) => " (not a git repository)".to_string(),
    };
    let _ = writeln!(out, "Indexed {}{head} in {seconds:.1} s", meta.root);
    let _ = writeln!(
        out,
        "  files        {:>9}  ({} skipped, {:.1} MB read)",
        census.files,
        census.files_skipped,
        built.bytes_read as f64 / 1e6
    );
    let total_symbols: u64 = census.symbols_by_kind.values().sum();
    let _ = writeln!(
        out,
        "  symbols      {:>9}  {}",
        total_symbols,
        join_counts(census.symbols_by_kind.iter().map(|(kind, count)| (kind.as_str(), *count)))
    );
    let total_edges: u64 = census.edges_by_kind.values().sum();
    let _ = writeln!(
        out,
        "  edges        {:>9}  {}",
        total_edges,
        join_counts(census.edges_by_kind.iter().map(|(kind, count)| (kind.as_str(), *count)))
    );
    let total_calls: u64 = graph.call_outcomes.values().sum();
    let shares = CallOutcome::ALL
        .iter()
        .filter_map(|outcome| {
            let count = *graph.call_outcomes.get(outcome)?;
            Some(format!(
                "{} {:.1}%",
                outcome.as_str(),
                100.0 * count as f64 / total_calls.max(1) as f64
            ))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let _ = writeln!(out, "  call sites   {total_calls:>9}  {shares}");
    let _ = writeln!(
        out,
        "  unresolved   {:>9}  {}",
        census.unresolved_calls,
        join_counts(
            graph.unresolved_reasons.iter().map(|(reason, count)| (reason.as_str(), *count))
        )
    );
    let mut diagnostic_kinds: BTreeMap<&str, u64> = BTreeMap::new();
    for diagnostic in &graph.diagnostics {
        *diagnostic_kinds.entry(diagnostic.kind.as_str()).or_default() += 1;
    }
    let _ = writeln!(
        out,
        "  diagnostics  {:>9}  {}",
        census.diagnostics,
        join_counts(diagnostic_kinds.into_iter())
    );
    let size = std::fs::metadata(database).map(|metadata| metadata.len()).unwrap_or(0);
    let _ = writeln!(
        out,
        "  database     {} ({:.1} MiB)",
        database.display(),
        size as f64 / (1024.0 * 1024.0)
    );
    let timings = &built.timings;
    let _ = writeln!(
        out,
        "  seconds      walk {:.2} · parse {:.2} · resolve {:.2} · store {:.2} after resolve (+{:.2} overlapped)",
        timings.walk_seconds, timings.parse_seconds, timings.resolve_seconds, timings.store_seconds, timings.store_overlapped_seconds
    );
    if report {
        out.push_str(&render_report(built));
    }
    out
}

fn render_report(built: &BuiltGraph) -> String {
    let graph = &built.graph;
    let mut out = String::new();
    let _ = writeln!(out, "\nTop unresolved callee names, by reason:");
    for reason in UnresolvedReason::ALL {
        let mut names: BTreeMap<&str, u64> = BTreeMap::new();
        for call in graph.unresolved.iter().filter(|call| call.reason == reason) {
            *names.entry(reported_name(call)).or_default() += 1;
        }
        if names.is_empty() {
            continue;
        }
        let mut ranked: Vec<(&str, u64)> = names.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        ranked.truncate(10);
        let _ = writeln!(out, "  {:<26} {}", reason.as_str(), join_counts(ranked.into_iter()));
    }
    if !graph.diagnostics.is_empty() {
        let _ = writeln!(out, "\nDiagnostics:");
        for diagnostic in graph.diagnostics.iter().take(50) {
            let _ = writeln!(out, "  {diagnostic}");
        }
        if graph.diagnostics.len() > 50 {
            let _ = writeln!(
                out,
                "  … and {} more (tether export lists them all)",
                graph.diagnostics.len() - 50
            );
        }
    }
    out
}

/// How the report names an unresolved callee: by its name, or, when it has none
/// (`(self.f)(x)`, `thunk()()`), by its expression, never by an empty string.
fn reported_name(call: &tether_model::UnresolvedCall) -> &str {
    match call.callee_name.as_str() {
        "" => call.callee_text.as_str(),
        name => name,
    }
}

fn join_counts<'a>(counts: impl Iterator<Item = (&'a str, u64)>) -> String {
    counts.map(|(name, count)| format!("{name} {count}")).collect::<Vec<_>>().join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unnamed_callee_is_reported_by_its_expression() {
        let call = |name: &str, text: &str| tether_model::UnresolvedCall {
            caller: tether_model::SymbolId::from_i64(1),
            callee_text: text.to_string(),
            callee_name: name.to_string(),
            path: "app.py".to_string(),
            line: 3,
            reason: UnresolvedReason::ComplexCallee,
        };
        assert_eq!(reported_name(&call("", "(self.f)(x)")), "(self.f)(x)");
        assert_eq!(reported_name(&call("get", "requests.get")), "get");
    }
}
