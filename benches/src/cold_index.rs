//! The cold-index benchmark: the full pipeline (walk, parse, extract, resolve, COPY into
//! LadybugDB) against parse-only time over the same files, which is this design's floor.

use std::path::Path;
use std::time::Instant;

use rayon::prelude::*;
use tether_index::{build_graph, index_meta, walk_tree, IndexOptions};

pub fn run(root: &Path, runs: usize, buffer_pool_mib: u64) -> anyhow::Result<()> {
    let threads = rayon::current_num_threads();
    let mut index_seconds = Vec::new();
    let mut phases = Vec::new();
    let mut files = 0usize;
    let mut bytes = 0u64;
    let mut census_line = String::new();
    for _ in 0..runs {
        let scratch = tempfile::tempdir()?;
        let database = scratch.path().join("graph.lbug");
        let started = Instant::now();
        let meta = index_meta(root);
        let mut built = build_graph(&IndexOptions::new(root), &|_, _| {})?;
        let store_started = Instant::now();
        let config = tether_store::StoreConfig { buffer_pool_bytes: buffer_pool_mib * 1024 * 1024, max_threads: 0 };
        let load = tether_store::write_fresh_database(&database, &built.graph, &meta, config)?;
        if std::env::var_os("TETHER_BENCH_VERBOSE").is_some() {
            eprintln!("store: csv {:.2} s, copy {:.2} s, rows {:?}, copy seconds {:?}", load.csv_seconds, load.copy_seconds, load.rows_by_table, load.copy_seconds_by_table);
        }
        built.timings.store_seconds = store_started.elapsed().as_secs_f64();
        index_seconds.push(started.elapsed().as_secs_f64());
        phases.push(built.timings);
        files = built.graph.files.len();
        bytes = built.bytes_read;
        let census = built.graph.census();
        census_line = format!(
            "{} symbols, {} edges, {} unresolved call sites",
            census.symbols_by_kind.values().sum::<u64>(),
            census.edges_by_kind.values().sum::<u64>(),
            census.unresolved_calls
        );
    }
    let peak_rss_mib = peak_rss_mib();

    let tree = walk_tree(root);
    let mut parse_seconds = Vec::new();
    for _ in 0..runs {
        let started = Instant::now();
        let parsed: usize = tree
            .sources
            .par_iter()
            .map(|(path, language)| {
                let Ok(bytes) = std::fs::read(root.join(path)) else { return 0 };
                let Ok(text) = std::str::from_utf8(&bytes) else { return 0 };
                if bytes.len() as u64 > tether_extract::DEFAULT_MAX_FILE_BYTES {
                    return 0;
                }
                tether_extract::parse_only(*language, text).unwrap_or(0)
            })
            .sum();
        std::hint::black_box(parsed);
        parse_seconds.push(started.elapsed().as_secs_f64());
    }
    let index = median(&mut index_seconds);
    let parse = median(&mut parse_seconds);
    let megabytes = bytes as f64 / 1e6;
    let phase = phases[phases.len() / 2];
    println!("corpus        {} ({files} files, {megabytes:.1} MB; {census_line})", root.display());
    println!("threads       {threads}");
    println!("cold index    {index:.2} s  ({:.0} files/s, {:.1} MB/s)  [median of {runs}]", files as f64 / index, megabytes / index);
    println!(
        "  phases      walk {:.2} · parse+extract {:.2} · resolve {:.2} · store {:.2}",
        phase.walk_seconds, phase.parse_seconds, phase.resolve_seconds, phase.store_seconds
    );
    println!("parse only    {parse:.2} s  ({:.1} MB/s)", megabytes / parse);
    println!("ratio         {:.2}x parse-only", index / parse);
    println!("peak RSS      {peak_rss_mib:.0} MiB");
    Ok(())
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(|a, b| a.total_cmp(b));
    values[values.len() / 2]
}

/// The process's peak resident set (VmHWM), in MiB; 0 where /proc is not available.
fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kilobytes| kilobytes / 1024.0)
        .unwrap_or(0.0)
}
