//! Each `health` section over a folder's graph: the median time of several runs (the graph
//! built once, then every section asked as the daemon asks it, the first page of 20), its
//! total findings and completeness, and peak RSS.

use std::path::Path;
use std::time::{Duration, Instant};

use tether_index::{build_graph, IndexOptions};
use tether_query::{HealthKind, HealthOptions, Snapshot};

pub fn run(path: &Path, runs: usize) -> anyhow::Result<()> {
    let started = Instant::now();
    let graph = build_graph(&IndexOptions::new(path), &|_, _| {})?.graph;
    let snapshot = Snapshot::new(graph, tether_index::index_meta(path));
    println!(
        "graph         {} symbols, {} edges ({:.1} s)",
        snapshot.symbols().len(),
        snapshot.graph.edges.len(),
        started.elapsed().as_secs_f64()
    );
    let options = HealthOptions::default();
    for kind in HealthKind::ALL {
        let mut timings: Vec<Duration> = Vec::with_capacity(runs);
        let mut last = None;
        for _ in 0..runs {
            let started = Instant::now();
            let sections = snapshot.health(Some(kind), &options);
            timings.push(started.elapsed());
            last = sections.into_iter().next();
        }
        timings.sort();
        let section = last.expect("one section per kind");
        println!(
            "{:<13} median {:>7.1} ms  slowest {:>7.1} ms  {} findings  {}",
            kind.as_str(),
            timings[timings.len() / 2].as_secs_f64() * 1e3,
            timings[timings.len() - 1].as_secs_f64() * 1e3,
            section.total,
            if section.completeness.is_exact() { "exact" } else { "lower_bound" }
        );
    }
    println!("peak RSS      {:.0} MiB", crate::cold_index::peak_rss_mib());
    Ok(())
}
