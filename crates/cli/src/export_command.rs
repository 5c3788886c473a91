//! `tether export` and `tether cypher`: reading the indexed graph back out of the database;
//! when a daemon runs (it owns the database), both ask it instead.

use std::io::{BufWriter, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use tether_store::{GraphStore, StoreError};

use crate::exit_codes::{daemon_failure, usage};
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

/// Only one process opens the database: without a daemon, this one, under the daemon's lock.
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
    let ExportFormat::Json = args.format;
    let paths = args.repository.daemon_paths();
    if tether_daemon::DaemonLock::is_held(&paths.lock) {
        return export_through_the_daemon(&args, &paths);
    }
    let _lock = lock_database(&args.repository)?;
    let store = open_store(&args.repository)?;
    let graph = store.read_graph().context("reading the graph")?;
    let meta = store.meta().context("reading the index metadata")?;
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

/// A connection to the daemon that holds the database's lock.
fn connect_to_the_owning_daemon(
    paths: &tether_daemon::DaemonPaths,
) -> anyhow::Result<crate::daemon_client::DaemonClient> {
    crate::daemon_client::DaemonClient::connect_to(paths).map_err(|error| {
        daemon_failure(format!("cannot reach the daemon that owns the database: {error}"))
    })
}

/// The daemon's published graph, written as the database's export would be.
fn export_through_the_daemon(
    args: &ExportArgs,
    paths: &tether_daemon::DaemonPaths,
) -> anyhow::Result<()> {
    let mut client = connect_to_the_owning_daemon(paths)?;
    let answer = client.call_when_ready(&tether_protocol::Request::Export)?.map_err(|error| {
        daemon_failure(format!("the daemon could not export: {}", error.message))
    })?;
    let tether_protocol::wire::Answer::Export(export) = answer else {
        return Err(daemon_failure("the daemon answered export with another answer"));
    };
    match &args.output {
        Some(path) => std::fs::write(path, export.document.as_bytes())
            .map_err(|error| usage(format!("cannot write {}: {error}", path.display()))),
        None => write_through(|out| out.write_all(export.document.as_bytes())),
    }
}

/// The most rows `tether cypher` prints when no daemon owns the database (as many as the
/// daemon answers).
const MAX_DIRECT_CYPHER_ROWS: usize = 100_000;

pub fn run_cypher(args: CypherArgs) -> anyhow::Result<()> {
    if args.statement.trim().is_empty() {
        return Err(usage("the Cypher statement is empty"));
    }
    let paths = args.repository.daemon_paths();
    if tether_daemon::DaemonLock::is_held(&paths.lock) {
        return cypher_through_the_daemon(&args, &paths);
    }
    let _lock = lock_database(&args.repository)?;
    let store = open_store(&args.repository)?;
    // The daemon's time bound holds here too: a runaway statement (a cross product, whose
    // omitted rows are counted) would otherwise run until killed.
    let timeout = Some(tether_daemon::MAX_AD_HOC_STATEMENT_TIME);
    let answer = match store.query_ad_hoc(&args.statement, timeout, MAX_DIRECT_CYPHER_ROWS) {
        Ok(rows) => rows,
        // Refused, or the engine refused the statement: the person's to fix.
        Err(
            error @ (StoreError::Query { .. }
            | StoreError::Refused { .. }
            | StoreError::Stopped { .. }),
        ) => return Err(usage(error.to_string())),
        Err(error) => return Err(error.into()),
    };
    print_text(&cypher_text(&tether_protocol::wire::CypherAnswer {
        columns: answer.columns,
        rows: answer.rows,
        rows_omitted: answer.omitted,
    }))
}

/// A read-only statement asked of the daemon that owns the database.
fn cypher_through_the_daemon(
    args: &CypherArgs,
    paths: &tether_daemon::DaemonPaths,
) -> anyhow::Result<()> {
    let mut client = connect_to_the_owning_daemon(paths)?;
    let request = tether_protocol::Request::Cypher { statement: args.statement.clone() };
    let answer = match client.call_when_ready(&request)? {
        Ok(answer) => answer,
        // A statement the engine refuses (a write, a syntax error) is the person's to fix.
        Err(error) if error.code == tether_protocol::rpc::RpcError::INVALID_PARAMS => {
            return Err(usage(error.message))
        }
        Err(error) => return Err(daemon_failure(error.message)),
    };
    let tether_protocol::wire::Answer::Cypher(cypher) = &answer else {
        return Err(daemon_failure("the daemon answered cypher with another answer"));
    };
    print_text(&cypher_text(cypher))
}

/// A cypher answer's rows, then how many it left out.
pub(crate) fn cypher_text(cypher: &tether_protocol::wire::CypherAnswer) -> String {
    let mut text = rows_text(&cypher.columns, &cypher.rows);
    if cypher.rows_omitted > 0 {
        text.push_str(&format!("… {} more rows (add a LIMIT)\n", cypher.rows_omitted));
    }
    text
}

/// Columns and rows, tab-separated, one line each.
fn rows_text(columns: &[String], rows: &[Vec<String>]) -> String {
    let mut text = columns.join("\t");
    text.push('\n');
    for row in rows {
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    text
}
