//! `tether export` and `tether cypher`: reading the indexed graph back out of the database.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use tether_store::{GraphStore, StoreError};

use crate::exit_codes::usage;
use crate::stdout_text::{print_text, write_through};
use crate::RepositoryArgs;

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    /// One JSON document (`format_version`, meta, census, files, symbols, edges…).
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
    #[arg(long, short, value_name = "FILE")]
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
        .map_err(|error| usage(format!("{error}; run `tether stop` first, then retry")))
}

/// Opens the database; a missing one is a usage error (index first).
fn open_store(repository: &RepositoryArgs) -> anyhow::Result<GraphStore> {
    match GraphStore::open(&repository.database_path(), repository.store_config()) {
        Ok(store) => Ok(store),
        Err(error @ StoreError::Missing { .. }) => Err(usage(error.to_string())),
        Err(error) => Err(error.into()),
    }
}

pub fn run_export(args: ExportArgs) -> anyhow::Result<()> {
    let _lock = lock_database(&args.repository)?;
    let store = open_store(&args.repository)?;
    let graph = store.read_graph().context("reading the graph")?;
    let meta = store.meta().context("reading the index metadata")?;
    let ExportFormat::Json = args.format;
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|error| usage(format!("cannot create {}: {error}", path.display())))?;
            let mut out = BufWriter::new(file);
            tether_protocol::write_export_json(&graph, &meta, &mut out)?;
            out.flush()?;
        }
        None => write_through(|out| tether_protocol::write_export_json(&graph, &meta, out))?,
    }
    Ok(())
}

pub fn run_cypher(args: CypherArgs) -> anyhow::Result<()> {
    if args.statement.trim().is_empty() {
        return Err(usage("the Cypher statement is empty"));
    }
    let _lock = lock_database(&args.repository)?;
    let store = open_store(&args.repository)?;
    let (columns, rows) = match store.query_as_text(&args.statement) {
        Ok(result) => result,
        // The engine refused the statement: the person's to fix.
        Err(error @ StoreError::Query { .. }) => return Err(usage(error.to_string())),
        Err(error) => return Err(error.into()),
    };
    let mut text = columns.join("\t");
    text.push('\n');
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    print_text(&text)
}
