//! The blast of every symbol of one kind (impls, say) in a repository's graph, each under a
//! deadline: the slowest, p50, p99, how many ran past the deadline, and peak RSS. A blast
//! that loops or explodes shows here as a cancelled one and a high peak.

use std::path::Path;
use std::time::{Duration, Instant};

use tether_model::{Deadline, SymbolKind};
use tether_query::BlastOptions;

pub fn run(path: &Path, kind: &str, depth: u32, deadline_seconds: u64) -> anyhow::Result<()> {
    let kind =
        SymbolKind::parse(kind).ok_or_else(|| anyhow::anyhow!("unknown symbol kind {kind:?}"))?;
    let snapshot = crate::folder_snapshot::snapshot_of_folder(path)?;
    let subjects: Vec<u32> = snapshot
        .symbols()
        .iter()
        .enumerate()
        .filter(|(_, symbol)| symbol.kind == kind)
        .map(|(index, _)| index as u32)
        .collect();
    let rss_before = crate::cold_index::peak_rss_mib();
    let mut timings: Vec<Duration> = Vec::with_capacity(subjects.len());
    let mut cancelled = Vec::new();
    let mut slowest = (Duration::ZERO, 0u32);
    let all = Instant::now();
    for subject in &subjects {
        let options = BlastOptions {
            depth,
            deadline: Deadline::after(Duration::from_secs(deadline_seconds)),
            ..BlastOptions::default()
        };
        let started = Instant::now();
        let answer = snapshot.blast_symbol(*subject, options);
        let elapsed = started.elapsed();
        if answer.is_err() {
            cancelled.push(snapshot.symbol(*subject).qualified_name.clone());
        }
        if elapsed > slowest.0 {
            slowest = (elapsed, *subject);
        }
        timings.push(elapsed);
    }
    timings.sort();
    let percentile = |share: f64| {
        timings
            .get(((timings.len() as f64 - 1.0) * share).round() as usize)
            .copied()
            .unwrap_or_default()
    };
    println!(
        "blasts        {} {}s at depth {depth} in {:.2} s",
        subjects.len(),
        kind.as_str(),
        all.elapsed().as_secs_f64()
    );
    println!(
        "per blast     p50 {:.3} ms, p99 {:.3} ms, max {:.1} ms ({})",
        ms(percentile(0.5)),
        ms(percentile(0.99)),
        ms(slowest.0),
        snapshot
            .symbols()
            .get(slowest.1 as usize)
            .map_or("", |symbol| symbol.qualified_name.as_str())
    );
    println!(
        "cancelled     {} past the {deadline_seconds} s deadline{}",
        cancelled.len(),
        cancelled.first().map(|name| format!(", e.g. {name}")).unwrap_or_default()
    );
    println!(
        "peak RSS      {:.0} MiB (after building the graph: {rss_before:.0} MiB)",
        crate::cold_index::peak_rss_mib()
    );
    Ok(())
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}
