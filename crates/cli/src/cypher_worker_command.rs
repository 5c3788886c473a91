//! `tether cypher-worker` (hidden): the process in which the daemon runs one ad-hoc `cypher`
//! statement, so that the daemon can watch its memory and kill it (see
//! `tether_daemon`'s `ad_hoc_cypher`). Reads the statement from standard input, opens the
//! database read-only, says so in one line, then writes the outcome as one JSON line.
//!
//! It deliberately does not retry, cache, or run more than one statement: each statement gets
//! a process of its own that ends with it.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use tether_protocol::{CypherWorkerOutcome, CYPHER_WORKER_OPENED_LINE};
use tether_store::{GraphStore, StoreConfig, StoreError, MAX_AD_HOC_STATEMENT_BYTES};

/// The engine's buffer pool for one ad-hoc statement.
const WORKER_BUFFER_POOL_BYTES: u64 = 64 << 20;

#[derive(Args)]
pub struct CypherWorkerArgs {
    /// The graph database to open read-only.
    #[arg(long, value_name = "FILE")]
    pub database: PathBuf,
    /// The engine stops the statement after this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub timeout_ms: u64,
    /// The most rows rendered; the rest are counted.
    #[arg(long, value_name = "N")]
    pub max_rows: usize,
}

pub fn run_cypher_worker(args: CypherWorkerArgs) -> anyhow::Result<()> {
    let mut statement = String::new();
    let read =
        std::io::stdin().take(MAX_AD_HOC_STATEMENT_BYTES as u64 + 1).read_to_string(&mut statement);
    let outcome = match read {
        Err(error) => {
            CypherWorkerOutcome::Failed { message: format!("cannot read the statement: {error}") }
        }
        Ok(_) => run_statement(&args, &statement),
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{}", outcome.to_line())?;
    stdout.flush()?;
    Ok(())
}

/// Opens the database (then writes the opened line) and runs the statement.
fn run_statement(args: &CypherWorkerArgs, statement: &str) -> CypherWorkerOutcome {
    let config = StoreConfig { buffer_pool_bytes: WORKER_BUFFER_POOL_BYTES, max_threads: 1 };
    let store = match GraphStore::open_read_only(&args.database, config) {
        Ok(store) => store,
        Err(error) => {
            return CypherWorkerOutcome::Failed {
                message: format!("cannot open the database: {error}"),
            }
        }
    };
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{CYPHER_WORKER_OPENED_LINE}").and_then(|()| stdout.flush()).is_err() {
        // The daemon is gone: nobody wants the rows.
        std::process::exit(0);
    }
    drop(stdout);
    // The daemon stops the worker when the time is up and says so; the worker's own bound
    // is a backstop a second later, so the two never race.
    let timeout = Duration::from_millis(args.timeout_ms) + Duration::from_secs(1);
    match store.query_ad_hoc(statement, Some(timeout), args.max_rows) {
        Ok(rows) => CypherWorkerOutcome::Rows {
            answer: tether_protocol::wire::CypherAnswer {
                columns: rows.columns,
                rows: rows.rows,
                rows_omitted: rows.omitted,
            },
        },
        Err(error @ (StoreError::Query { .. } | StoreError::Refused { .. })) => {
            CypherWorkerOutcome::Refused { message: error.to_string() }
        }
        Err(error) => CypherWorkerOutcome::Failed { message: error.to_string() },
    }
}
