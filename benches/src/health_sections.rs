//! Each `health` section over a folder's graph: the median time of several runs (the graph
//! built once, then every section asked as the daemon asks it, the first page of 20), its
//! total findings and completeness, and peak RSS. Churn is timed three ways: cold (its
//! history read from git), from the history file (a daemon restarted) and cached in memory.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tether_features::{read_history, ChurnHistoryCache, HistoryRead};
use tether_model::Deadline;
use tether_query::{ChurnHistory, HealthKind, HealthOptions, HealthSection, Snapshot};

pub fn run(path: &Path, runs: usize, commits: usize) -> anyhow::Result<()> {
    let snapshot = crate::folder_snapshot::snapshot_of_folder(path)?;
    let options = HealthOptions::default();
    let no_history = ChurnHistory::Unavailable { note: "timed separately" };
    for kind in HealthKind::ALL.into_iter().filter(|kind| *kind != HealthKind::Churn) {
        let mut timings: Vec<Duration> = Vec::with_capacity(runs);
        let mut last = None;
        for _ in 0..runs {
            let started = Instant::now();
            let sections = snapshot.health(Some(kind), &options, no_history);
            timings.push(started.elapsed());
            last = sections.into_iter().next();
        }
        report(kind.as_str(), &mut timings, &last.expect("one section per kind"));
    }
    churn(path, &snapshot, &options, runs, commits)?;
    println!("peak RSS      {:.0} MiB", crate::cold_index::peak_rss_mib());
    Ok(())
}

fn report(name: &str, timings: &mut [Duration], section: &HealthSection) {
    timings.sort();
    println!(
        "{:<13} median {:>7.1} ms  slowest {:>7.1} ms  {} findings  {}",
        name,
        timings[timings.len() / 2].as_secs_f64() * 1e3,
        timings[timings.len() - 1].as_secs_f64() * 1e3,
        section.total,
        if section.completeness.is_exact() { "exact" } else { "lower_bound" }
    );
}

/// Reads the history (as the daemon does, into a temporary folder) and answers churn.
fn churn_once(
    cache: &Arc<ChurnHistoryCache>,
    path: &Path,
    folder: &Path,
    snapshot: &Snapshot,
    options: &HealthOptions,
    commits: usize,
) -> HealthSection {
    let read =
        read_history(cache, path, folder, commits, &[], Deadline::after(Duration::from_secs(600)));
    let history = match &read {
        HistoryRead::Read { history, read, cut_short, note } => ChurnHistory::Read {
            history,
            read: *read,
            asked: commits,
            cut_short: *cut_short,
            note: note.as_deref(),
        },
        HistoryRead::Unavailable(note) => ChurnHistory::Unavailable { note },
    };
    snapshot.health(Some(HealthKind::Churn), options, history).remove(0)
}

fn churn(
    path: &Path,
    snapshot: &Snapshot,
    options: &HealthOptions,
    runs: usize,
    commits: usize,
) -> anyhow::Result<()> {
    let folder = tempfile::tempdir()?;
    let started = Instant::now();
    let cache = Arc::new(ChurnHistoryCache::default());
    let section = churn_once(&cache, path, folder.path(), snapshot, options, commits);
    report("churn cold", &mut [started.elapsed()], &section);
    let started = Instant::now();
    let restarted = Arc::new(ChurnHistoryCache::default());
    let section = churn_once(&restarted, path, folder.path(), snapshot, options, commits);
    report("churn file", &mut [started.elapsed()], &section);
    let mut timings = Vec::with_capacity(runs);
    let mut last = section;
    for _ in 0..runs {
        let started = Instant::now();
        last = churn_once(&restarted, path, folder.path(), snapshot, options, commits);
        timings.push(started.elapsed());
    }
    report("churn cached", &mut timings, &last);
    if let Some(note) = &last.note {
        println!("churn note    {note}");
    }
    Ok(())
}
