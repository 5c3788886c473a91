//! The human-readable census that `tether index` ends with, read from the index report
//! (`tether_protocol::IndexReportAnswer`) whoever built the graph: this process, or the
//! running daemon that owns the database.

use std::fmt::Write;
use std::path::Path;

use tether_index::PhaseTimings;
use tether_protocol::{IndexReportAnswer, IndexReportSections};

/// Who built the graph the report is of, and what that run measured.
pub enum IndexRun<'a> {
    /// This process indexed into a fresh database.
    Here { seconds: f64, bytes_read: u64, timings: &'a PhaseTimings },
    /// The running daemon rebuilt its graph (it owns the database).
    Daemon { rebuild_seconds: Option<f64> },
}

/// The census; the database's size when `database` is given.
pub fn render_census(
    answer: &IndexReportAnswer,
    run: &IndexRun,
    database: Option<&Path>,
) -> String {
    let census = &answer.census;
    let meta = &answer.meta;
    let mut out = String::new();
    let head = match (&meta.head_commit, &meta.head_branch) {
        (Some(commit), Some(branch)) => {
            format!(" at {} ({branch})", &commit[..commit.len().min(12)])
        }
        (Some(commit), None) => format!(" at {} (detached)", &commit[..commit.len().min(12)]),
        (None, Some(branch)) => format!(" on {branch} (no commits yet)"),
        (None, None) => " (not a git repository)".to_string(),
    };
    let _ = match run {
        IndexRun::Here { seconds, .. } => {
            writeln!(out, "Indexed {}{head} in {seconds:.1} s", meta.root)
        }
        IndexRun::Daemon { rebuild_seconds: Some(seconds) } => {
            writeln!(out, "The running daemon reindexed {}{head} in {seconds:.1} s", meta.root)
        }
        IndexRun::Daemon { rebuild_seconds: None } => {
            writeln!(out, "The running daemon's graph of {}{head}", meta.root)
        }
    };
    let read = match run {
        IndexRun::Here { bytes_read, .. } => {
            format!(", {:.1} MB read", *bytes_read as f64 / 1e6)
        }
        IndexRun::Daemon { .. } => String::new(),
    };
    let _ = writeln!(
        out,
        "  files        {:>9}  ({} skipped{read})",
        census.files, census.files_skipped
    );
    let total_symbols: u64 = census.symbols_by_kind.values().sum();
    let _ = writeln!(
        out,
        "  symbols      {:>9}  {}",
        total_symbols,
        join_counts(&census.symbols_by_kind)
    );
    let total_edges: u64 = census.edges_by_kind.values().sum();
    let _ =
        writeln!(out, "  edges        {:>9}  {}", total_edges, join_counts(&census.edges_by_kind));
    let total_calls: u64 = census.call_outcomes.values().sum();
    // In the outcomes' documented order, as shares of every call site.
    let shares = tether_model::CallOutcome::ALL
        .iter()
        .filter_map(|outcome| {
            let count = *census.call_outcomes.get(outcome.as_str())?;
            Some(format!(
                "{} {:.1}%",
                outcome.as_str(),
                100.0 * count as f64 / total_calls.max(1) as f64
            ))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    if census.call_outcomes.is_empty() && census.unresolved_calls > 0 {
        // A graph read back from the database: outcomes are counted only when one is built.
        let _ = writeln!(
            out,
            "  call sites   {:>9}  (counted when a graph is built; `tether index` builds one)",
            "?"
        );
    } else {
        let _ = writeln!(out, "  call sites   {total_calls:>9}  {shares}");
    }
    let _ = writeln!(
        out,
        "  unresolved   {:>9}  {}",
        census.unresolved_calls,
        join_counts(&census.unresolved_reasons)
    );
    let _ = writeln!(
        out,
        "  diagnostics  {:>9}  {}",
        census.diagnostics,
        join_counts(&census.diagnostics_by_kind)
    );
    if let Some(database) = database {
        let size = std::fs::metadata(database).map(|metadata| metadata.len()).unwrap_or(0);
        let _ = writeln!(
            out,
            "  database     {} ({:.1} MiB)",
            database.display(),
            size as f64 / (1024.0 * 1024.0)
        );
    }
    if let IndexRun::Here { timings, .. } = run {
        let _ = writeln!(
            out,
            "  seconds      walk {:.2} · parse {:.2} · resolve {:.2} · store {:.2} after resolve (+{:.2} overlapped)",
            timings.walk_seconds, timings.parse_seconds, timings.resolve_seconds, timings.store_seconds, timings.store_overlapped_seconds
        );
    }
    if let Some(report) = &answer.report {
        out.push_str(&render_report(report));
    }
    out
}

/// `--report`'s sections: the unresolved callee names by reason, then the diagnostics.
pub fn render_report(report: &IndexReportSections) -> String {
    let mut out = String::new();
    if !report.unresolved_names.is_empty() {
        let _ = writeln!(out, "\nTop unresolved callee names, by reason:");
    }
    for reason in &report.unresolved_names {
        let names = reason
            .names
            .iter()
            .map(|name| format!("{} {}", name.name, name.count))
            .collect::<Vec<_>>()
            .join(" · ");
        let _ = writeln!(out, "  {:<26} {names}", reason.reason);
    }
    if !report.diagnostics.is_empty() {
        let _ = writeln!(out, "\nDiagnostics:");
        for diagnostic in &report.diagnostics {
            let _ = writeln!(out, "  {diagnostic}");
        }
        if report.diagnostics_omitted > 0 {
            let _ = writeln!(
                out,
                "  … and {} more (tether export lists them all)",
                report.diagnostics_omitted
            );
        }
    }
    out
}

fn join_counts(counts: &std::collections::BTreeMap<String, u64>) -> String {
    counts.iter().map(|(name, count)| format!("{name} {count}")).collect::<Vec<_>>().join(" · ")
}
