//! `tether index`: build the graph, publish it to the database, print the census.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tether_index::{build_graph, index_meta, IndexOptions};

use crate::census_text::render_census;
use crate::RepositoryArgs;

#[derive(Args)]
pub struct IndexArgs {
    #[command(flatten)]
    pub repository: RepositoryArgs,
    /// Skip files larger than this many bytes (reported as diagnostics).
    #[arg(long, default_value_t = tether_extract::DEFAULT_MAX_FILE_BYTES)]
    pub max_file_bytes: u64,
    /// Also report call-site outcomes by language, the top unresolved callee names and every diagnostic.
    #[arg(long)]
    pub report: bool,
    /// Print the census as JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: IndexArgs) -> anyhow::Result<()> {
    let paths = args.repository.daemon_paths();
    if tether_daemon::DaemonLock::is_held(&paths.lock) {
        // The daemon owns the database: ask it to rebuild instead of writing beside it.
        let mut client = crate::daemon_client::DaemonClient::connect(&paths.socket).context("connecting to the running daemon")?;
        let status = client.call("reindex", tether_protocol::json!({}))?.map_err(|error| anyhow::anyhow!(error.message))?;
        println!("the running daemon rebuilt the graph in {:.1} s", status["last_rebuild_seconds"].as_f64().unwrap_or(0.0));
        print!("{}", crate::answer_text::status_text(&status));
        return Ok(());
    }
    let _lock = tether_daemon::DaemonLock::acquire(&paths.lock)?;
    let started = Instant::now();
    let root = &args.repository.path;
    let options = IndexOptions { root: root.clone(), max_file_bytes: args.max_file_bytes };
    let bar = progress_bar();
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let meta = index_meta(root);
    let mut built = build_graph(&options, &progress)?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let database = args.repository.database_path();
    let store_started = Instant::now();
    // The memory graph's tethers resolve against the code graph just built.
    let memory = if args.repository.root().join(".memory").is_dir() {
        let snapshot = tether_query::Snapshot::new(built.graph.clone(), meta.clone());
        tether_daemon::memory_graph_for(paths.clone(), &snapshot)
    } else {
        tether_model::MemoryGraph::default()
    };
    tether_store::write_fresh_database_with_memory(&database, &built.graph, &memory, &meta, args.repository.store_config())
        .with_context(|| format!("writing the graph database at {}", database.display()))?;
    built.timings.store_seconds = store_started.elapsed().as_secs_f64();
    let seconds = started.elapsed().as_secs_f64();
    if args.json {
        println!("{}", tether_protocol::census_json(&built.graph.census(), Some(&built.graph), &meta));
    } else {
        print!("{}", render_census(&built, &meta, &database, seconds, args.report));
    }
    Ok(())
}

fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(0);
    bar.set_style(ProgressStyle::with_template("{spinner} parsing {pos}/{len} files {wide_bar} {eta}").ok()?);
    Some(bar)
}
