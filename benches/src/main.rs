//! `tether-bench`: measures cold indexing (files/s, MB/s, peak RSS, ratio to parse-only time)
//! and generates synthetic corpora of any size so that it runs anywhere.

mod blast_all;
mod cold_index;
mod daemon_client;
mod daemon_latency;
mod exactness;
mod folder_snapshot;
mod health_sections;
mod memory_latency;
mod research_tree_latency;
mod soak;
mod synthetic_corpus;
mod trace_latency;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "tether-bench", about = "tether's benchmarks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write a synthetic Python + Rust corpus of about N source lines.
    Generate {
        /// The folder to write (created; must be empty or absent).
        #[arg(long)]
        out: PathBuf,
        /// About how many source lines to write in all.
        #[arg(long, default_value_t = 200_000)]
        lines: usize,
        /// A seed for the deterministic generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Serve a clone of a git repository from a daemon; measure query latency over the socket,
    /// the time from HEAD moving to the new graph answering, and RSS at rest.
    Daemon {
        /// A git repository (it is cloned into a temporary folder; the original is not touched).
        repository: PathBuf,
        /// Queries of each kind.
        #[arg(long, default_value_t = 1000)]
        queries: usize,
    },
    /// Generate a repository of N commits and M memory entries; measure `context`.
    Memory {
        #[arg(long, default_value_t = 10_000)]
        commits: usize,
        #[arg(long, default_value_t = 1_000)]
        entries: usize,
        #[arg(long, default_value_t = 1_000)]
        queries: usize,
        /// Write the generated repository here (an empty or missing folder) and keep it.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Instead of `context`: record this many traces over 200 subjects (one
        /// `record_trace` call and commit each) and measure `recall`.
        #[arg(long)]
        traces: Option<usize>,
        /// Instead of `context`: write this many entries as a research tree (a project, 10
        /// subprojects of 5 phases) and measure `tree`, `open_phases` and `brief`.
        #[arg(long, conflicts_with = "traces")]
        tree: Option<usize>,
    },
    /// Build a folder's graph, then blast every symbol of one kind under a deadline: the
    /// slowest blast, p50, p99, how many ran past the deadline, peak RSS.
    BlastAll {
        /// The folder to index.
        path: PathBuf,
        /// The symbol kind to blast (impl, function, method, class, …).
        #[arg(long, default_value = "impl")]
        kind: String,
        #[arg(long, default_value_t = 3)]
        depth: u32,
        /// Each blast's deadline, in seconds.
        #[arg(long, default_value_t = 10)]
        deadline_seconds: u64,
    },
    /// Serve a clone of a git repository and soak the daemon: many clients querying while HEAD
    /// flips between two branches and a file is saved, a few clients sending garbage; report
    /// errors, mixed answers and RSS over time.
    Soak {
        /// A git repository (cloned into a temporary folder; the original is not touched).
        repository: PathBuf,
        #[arg(long, default_value_t = 100)]
        clients: usize,
        #[arg(long, default_value_t = 4)]
        garbage_clients: usize,
        #[arg(long, default_value_t = 600)]
        seconds: u64,
    },
    /// Build a folder's graph and count how many `callers` answers (over every project
    /// function, method and class) are exact, and which causes make the rest lower bounds.
    Exactness {
        /// The folder to index.
        path: PathBuf,
    },
    /// Build a folder's graph, then time each `health` section (median of `runs`); churn
    /// cold (history read from git), from its file (a restarted daemon) and cached.
    Health {
        /// The folder to index.
        path: PathBuf,
        #[arg(long, default_value_t = 5)]
        runs: usize,
        /// The commits churn reads.
        #[arg(long, default_value_t = 500)]
        commits: usize,
    },
    /// Cold-index a folder into a temporary database, then parse the same files only; print both.
    ColdIndex {
        /// The folder to index.
        path: PathBuf,
        /// Runs of each measurement; the median is reported.
        #[arg(long, default_value_t = 3)]
        runs: usize,
        /// The buffer pool cap in MiB for the load.
        #[arg(long, default_value_t = 256)]
        buffer_pool_mib: u64,
    },
}

fn main() -> anyhow::Result<()> {
    if std::env::var_os("TETHER_BENCH_VERBOSE").is_some() {
        let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).try_init();
    }
    match Cli::parse().command {
        Command::Generate { out, lines, seed } => {
            let written = synthetic_corpus::generate(&out, lines, seed)?;
            println!(
                "wrote {} files, {} lines, {:.1} MB to {}",
                written.files,
                written.lines,
                written.bytes as f64 / 1e6,
                out.display()
            );
        }
        Command::Soak { repository, clients, garbage_clients, seconds } => {
            soak::run(&repository, clients, garbage_clients, seconds)?
        }
        Command::Exactness { path } => exactness::run(&path)?,
        Command::Health { path, runs, commits } => {
            health_sections::run(&path, runs.max(1), commits.max(1))?
        }
        Command::BlastAll { path, kind, depth, deadline_seconds } => {
            blast_all::run(&path, &kind, depth, deadline_seconds)?
        }
        Command::ColdIndex { path, runs, buffer_pool_mib } => {
            cold_index::run(&path, runs.max(1), buffer_pool_mib)?
        }
        Command::Daemon { repository, queries } => {
            daemon_latency::run(&repository, queries.max(10))?
        }
        Command::Memory { commits, entries, queries, keep, traces, tree } => memory_latency::run(
            commits.max(2),
            entries,
            queries.max(10),
            keep.as_deref(),
            traces,
            tree,
        )?,
    }
    Ok(())
}
