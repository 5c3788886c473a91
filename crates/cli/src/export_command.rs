//! `tether export` and `tether cypher`: reading the indexed graph back out of the database.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use tether_store::GraphStore;

use crate::RepositoryArgs;

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Json,
}

#[derive(Args)]
pub struct ExportArgs {
    #[command(flatten)]
    pub repository: RepositoryArgs,
    /// The output format.
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormat,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Args)]
pub struct CypherArgs {
    /// The Cypher statement, e.g. "MATCH (s:Symbol) RETURN s.kind, count(*)".
    pub statement: String,
    #[command(flatten)]
    pub repository: RepositoryArgs,
}

/// Only one process opens the database: refuse while the daemon owns it.
fn lock_database(repository: &RepositoryArgs) -> anyhow::Result<tether_daemon::DaemonLock> {
    let paths = repository.daemon_paths();
    tether_daemon::DaemonLock::acquire(&paths.lock)
        .map_err(|error| anyhow::anyhow!("{error}; run `tether stop` first, then retry"))
}

pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    let _lock = lock_database(&args.repository)?;
    let database = args.repository.database_path();
    let store = GraphStore::open(&database, args.repository.store_config())?;
    let graph = store.read_graph().context("reading the graph")?;
    let meta = store.meta().context("reading the index metadata")?;
    let ExportFormat::Json = args.format;
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            let mut out = BufWriter::new(file);
            tether_protocol::write_export_json(&graph, &meta, &mut out)?;
            out.flush()?;
        }
        None => {
            let stdout = std::io::stdout();
            let mut out = BufWriter::new(stdout.lock());
            tether_protocol::write_export_json(&graph, &meta, &mut out)?;
            out.flush()?;
        }
    }
    Ok(())
}

pub fn run_cypher(args: CypherArgs) -> anyhow::Result<()> {
    if args.statement.trim().is_empty() {
        bail!("the Cypher statement is empty");
    }
    let _lock = lock_database(&args.repository)?;
    let database = args.repository.database_path();
    let store = GraphStore::open(&database, args.repository.store_config())?;
    let (columns, rows) = store.query_as_text(&args.statement)?;
    println!("{}", columns.join("\t"));
    for row in rows {
        println!("{}", row.join("\t"));
    }
    Ok(())
}
