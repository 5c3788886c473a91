//! `tether`'s command line: parses arguments and hands each command to its module. A library
//! so that the tests can build the same program as a binary of their own.

mod answer_text;
mod cargo_coverage;
mod census_text;
mod coverage_command;
mod current_folder_paths;
mod daemon_client;
mod daemon_commands;
mod export_command;
mod index_command;
mod lsp_command;
mod mcp_command;
mod query_commands;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// tether: a code graph of one repository (Python and Rust), for agents and editors.
#[derive(Parser)]
#[command(name = "tether", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cold-index a folder (default: the current one) and print its census.
    Index(index_command::IndexArgs),
    /// Dump every symbol, edge and unresolved call site of the indexed graph.
    Export(export_command::ExportArgs),
    /// Run one Cypher statement against the graph database and print the rows.
    Cypher(export_command::CypherArgs),
    /// What breaks if this symbol (or --file) changes: the reverse walk with severity and tests.
    Blast(query_commands::BlastArgs),
    /// Who calls this symbol (one hop).
    Callers(query_commands::SymbolQueryArgs),
    /// What this symbol calls (one hop).
    Callees(query_commands::SymbolQueryArgs),
    /// What this module imports and who imports it.
    Imports(query_commands::SymbolQueryArgs),
    /// Find symbols by name; without a name, the census.
    Lookup(query_commands::LookupArgs),
    /// Who wrote this symbol or file, and whom to ask: blame aggregated by author.
    Ownership(query_commands::OwnershipArgs),
    /// The blast radius of a diff (default: staged and unstaged changes against HEAD).
    Changes(query_commands::ChangesArgs),
    /// Why this symbol or file exists: the memory entries tethered to it, their tip,
    /// staleness and whether they need a recheck.
    Context(query_commands::ContextArgs),
    /// Search the memory entries (title above tags above body).
    SearchMemory(query_commands::SearchMemoryArgs),
    /// Write a memory entry, commit it, and pin it (to --files committed now, or --commit).
    Record(query_commands::RecordArgs),
    /// Runtime evidence: record or import per-test coverage (coverage.py, or Rust tests run
    /// one by one), so blast lists the tests seen executing a symbol.
    #[command(subcommand)]
    Coverage(coverage_command::CoverageCommand),
    /// Serve MCP over stdio for an agent, forwarding every tool call to the daemon.
    Mcp(mcp_command::StdioServerArgs),
    /// Serve the Language Server Protocol over stdio for an editor: call hierarchy, code
    /// lenses, hovers and references from the daemon, with the unsaved buffers counted.
    Lsp(mcp_command::StdioServerArgs),
    /// Run the daemon in the foreground.
    Serve(daemon_commands::DaemonArgs),
    /// Start the daemon in the background.
    Start(daemon_commands::DaemonArgs),
    /// Stop the daemon.
    Stop(daemon_commands::DaemonArgs),
    /// Show whether a daemon runs, and what it serves.
    Status(daemon_commands::DaemonArgs),
}

/// Where the repository and its database are; shared by every command.
#[derive(Args, Clone)]
pub struct RepositoryArgs {
    /// The folder to work on.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The graph database (default: `<git dir>/tether/graph.lbug`, or `.tether/graph.lbug`
    /// outside git).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// The database's buffer pool cap in MiB (LadybugDB would otherwise reserve 80 % of RAM).
    #[arg(long, default_value_t = 256)]
    pub buffer_pool_mib: u64,
}

impl RepositoryArgs {
    /// Fails with a clear message unless the folder exists (checked before anything is
    /// created beside it: the lock, the database, the socket).
    pub fn require_folder(&self) -> anyhow::Result<()> {
        if !self.path.exists() {
            anyhow::bail!(
                "{} does not exist; pass the repository folder to work on",
                self.path.display()
            );
        }
        if !self.path.is_dir() {
            anyhow::bail!(
                "{} is not a folder; pass the repository folder to work on",
                self.path.display()
            );
        }
        Ok(())
    }

    /// The folder, absolute when it exists.
    pub fn root(&self) -> PathBuf {
        self.path.canonicalize().unwrap_or_else(|_| self.path.clone())
    }

    pub fn database_path(&self) -> PathBuf {
        self.db.clone().unwrap_or_else(|| tether_index::default_database_path(&self.root()))
    }

    pub fn store_config(&self) -> tether_store::StoreConfig {
        tether_store::StoreConfig {
            buffer_pool_bytes: self.buffer_pool_mib.max(64) * 1024 * 1024,
            max_threads: 0,
        }
    }
}

/// Runs the command line and returns the process's exit code.
pub fn main_entry() -> ExitCode {
    let cli = Cli::parse();
    let folder_check = match &cli.command {
        Command::Index(args) => args.repository.require_folder(),
        Command::Export(args) => args.repository.require_folder(),
        Command::Cypher(args) => args.repository.require_folder(),
        Command::Serve(args)
        | Command::Start(args)
        | Command::Stop(args)
        | Command::Status(args) => args.repository.require_folder(),
        Command::Blast(args) => args.options.require_folder(),
        Command::Callers(args) | Command::Callees(args) | Command::Imports(args) => {
            args.options.require_folder()
        }
        Command::Lookup(args) => args.options.require_folder(),
        Command::Ownership(args) => args.options.require_folder(),
        Command::Changes(args) => args.options.require_folder(),
        Command::Context(args) => args.options.require_folder(),
        Command::SearchMemory(args) => args.options.require_folder(),
        Command::Record(args) => args.options.require_folder(),
        Command::Coverage(coverage_command::CoverageCommand::Import(args)) => {
            args.options.require_folder()
        }
        Command::Coverage(coverage_command::CoverageCommand::Run(args)) => {
            args.options.require_folder()
        }
        Command::Coverage(coverage_command::CoverageCommand::Cargo(args)) => {
            args.options.require_folder()
        }
        Command::Mcp(args) | Command::Lsp(args) => args.repository().require_folder(),
    };
    if let Err(error) = folder_check {
        eprintln!("error: {error:#}");
        return ExitCode::FAILURE;
    }
    let result = match cli.command {
        Command::Index(args) => index_command::run(args),
        Command::Export(args) => export_command::run_export(args),
        Command::Cypher(args) => export_command::run_cypher(args),
        Command::Blast(args) => query_commands::run_blast(args),
        Command::Callers(args) => {
            query_commands::run_neighbours(tether_protocol::Method::Callers, args)
        }
        Command::Callees(args) => {
            query_commands::run_neighbours(tether_protocol::Method::Callees, args)
        }
        Command::Imports(args) => {
            query_commands::run_neighbours(tether_protocol::Method::Imports, args)
        }
        Command::Lookup(args) => query_commands::run_lookup(args),
        Command::Ownership(args) => query_commands::run_ownership(args),
        Command::Changes(args) => query_commands::run_changes(args),
        Command::Context(args) => query_commands::run_context(args),
        Command::SearchMemory(args) => query_commands::run_search_memory(args),
        Command::Record(args) => query_commands::run_record(args),
        Command::Coverage(command) => coverage_command::run_coverage(command),
        Command::Mcp(args) => mcp_command::run(args),
        Command::Lsp(args) => lsp_command::run(args),
        Command::Serve(args) => daemon_commands::run_serve(args),
        Command::Start(args) => daemon_commands::run_start(args),
        Command::Stop(args) => daemon_commands::run_stop(args),
        Command::Status(args) => daemon_commands::run_status(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
