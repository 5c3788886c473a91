//! `tether index`: build the graph straight into a fresh database (the load overlapped with
//! extraction and resolution, see `tether_daemon::index_into_fresh_database`), print the
//! census.

use std::io::IsTerminal;
use std::time::Instant;

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use tether_index::{index_meta, IndexOptions};

use crate::census_text::{render_census, IndexRun};
use crate::exit_codes::daemon_failure;
use crate::stdout_text::{print_line, print_text};
use crate::RepositoryArgs;

#[derive(Args)]
pub struct IndexArgs {
    #[command(flatten)]
    pub repository: RepositoryArgs,
    /// Skip files larger than this many bytes (reported as diagnostics; default 2 MiB, or the
    /// configuration's `index.max_file_bytes`).
    #[arg(long)]
    pub max_file_bytes: Option<u64>,
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
        let mut client =
            crate::daemon_client::DaemonClient::connect_to(&paths).map_err(|error| {
                daemon_failure(format!("connecting to the running daemon: {error}"))
            })?;
        let status = client.status(&tether_protocol::Request::Reindex)?;
        let request = tether_protocol::Request::IndexReport { report: args.report };
        let answer = match client.call_when_ready(&request)? {
            Ok(tether_protocol::wire::Answer::IndexReport(answer)) => answer,
            Ok(_) => {
                return Err(daemon_failure("the daemon answered index_report with another answer"))
            }
            Err(error) => {
                return Err(daemon_failure(format!(
                    "the daemon could not report its graph: {}",
                    error.message
                )))
            }
        };
        if args.json {
            return print_line(&answer.to_json_line());
        }
        let run = IndexRun::Daemon { rebuild_seconds: status.last_rebuild_seconds };
        return print_text(&render_census(&answer, &run, Some(&args.repository.database_path())));
    }
    paths.prepare().with_context(|| format!("preparing {}", paths.folder.display()))?;
    let _lock = tether_daemon::DaemonLock::acquire(&paths.lock)?;
    let started = Instant::now();
    let root = &args.repository.root();
    let configured =
        IndexOptions::configured(root.clone(), crate::configured_defaults::configuration())
            .map_err(|error| crate::exit_codes::usage(error.to_string()))?;
    let options = IndexOptions {
        max_file_bytes: args.max_file_bytes.unwrap_or(configured.max_file_bytes),
        ..configured
    };
    let bar = progress_bar();
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let meta = index_meta(root);
    let database = args.repository.database_path();
    let has_memory = args.repository.root().join(".memory").is_dir();
    // The memory graph's tethers resolve against the code graph just built.
    let memory_for = |graph: &tether_model::Graph| {
        if has_memory {
            let snapshot = tether_query::Snapshot::new(graph.clone(), meta.clone());
            tether_daemon::memory_graph_for(paths.clone(), &snapshot)
        } else {
            tether_model::MemoryGraph::default()
        }
    };
    let outcome = tether_daemon::index_into_fresh_database(
        &options,
        &database,
        args.repository.store_config(),
        &meta,
        memory_for,
        &progress,
    )
    .with_context(|| {
        format!("indexing {} into the graph database at {}", root.display(), database.display())
    })?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let built = outcome.built;
    let seconds = started.elapsed().as_secs_f64();
    let answer = tether_protocol::index_report_answer(&built.graph, &meta, args.report);
    if args.json {
        print_line(&answer.to_json_line())
    } else {
        let run = IndexRun::Here { seconds, bytes_read: built.bytes_read, timings: &built.timings };
        print_text(&render_census(&answer, &run, Some(&database)))
    }
}

fn progress_bar() -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{spinner} parsing {pos}/{len} files {wide_bar} {eta}")
            .ok()?,
    );
    Some(bar)
}
