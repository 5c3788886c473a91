//! `tether`'s command line: parses arguments and hands each command to its module. A library
//! so that the tests can build the same program as a binary of their own.

mod answer_text;
mod cargo_coverage;
mod census_text;
mod completions_and_manual;
mod configured_defaults;
mod coverage_command;
mod coverage_hooks;
mod current_folder_paths;
mod cypher_worker_command;
mod daemon_client;
mod daemon_commands;
mod exit_codes;
mod export_command;
mod health_command;
mod help_texts;
mod index_command;
mod lsp_command;
mod mcp_command;
mod next_command_hints;
mod query_answers;
mod query_commands;
mod research_tree_commands;
mod stdout_text;
mod terminal_style;
mod tests_to_run;
mod trace_commands;
mod unindexed_folder_guard;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::help_texts as help;

/// tether: a code graph of one repository (Python and Rust), for agents and editors.
#[derive(Parser)]
#[command(
    name = "tether",
    version,
    about = help::ABOUT,
    long_about = help::LONG_ABOUT,
    after_help = help::top_level_after_help(),
)]
struct Cli {
    /// Work on this folder, as git's -C does, before the command or after it (`tether -C DIR
    /// blast X`, `tether blast X -C DIR`).
    #[arg(short = 'C', long = "repo", global = true, value_name = "DIR")]
    // Each command declares its own `repo` too: clap hands this value to it, so it is read
    // there, never here.
    #[allow(dead_code)]
    repo: Option<PathBuf>,
    /// When to colour text answers (bold headers, dim freshness and hints).
    #[arg(long, value_enum, default_value = "auto", global = true, value_name = "WHEN")]
    color: terminal_style::ColorWhen,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Cold-index a folder (default: the current one) and print its census.
    #[command(after_help = help::INDEX_EXAMPLES)]
    Index(index_command::IndexArgs),
    /// Dump every symbol, edge and unresolved call site of the indexed graph.
    #[command(after_help = help::EXPORT_EXAMPLES)]
    Export(export_command::ExportArgs),
    /// Run one read-only Cypher statement against the graph database and print the rows.
    #[command(after_help = help::CYPHER_EXAMPLES)]
    Cypher(export_command::CypherArgs),
    /// Run one ad-hoc statement for the daemon, in a process it watches (internal).
    #[command(hide = true, after_help = help::CYPHER_WORKER_EXAMPLES)]
    CypherWorker(cypher_worker_command::CypherWorkerArgs),
    /// What breaks if this symbol (or --file) changes: the reverse walk with severity and tests.
    #[command(after_help = help::BLAST_EXAMPLES)]
    Blast(query_commands::BlastArgs),
    /// Who calls this symbol (one hop).
    #[command(after_help = help::CALLERS_EXAMPLES)]
    Callers(query_commands::SymbolQueryArgs),
    /// What this symbol calls (one hop).
    #[command(after_help = help::CALLEES_EXAMPLES)]
    Callees(query_commands::SymbolQueryArgs),
    /// What this module imports and who imports it.
    #[command(after_help = help::IMPORTS_EXAMPLES)]
    Imports(query_commands::SymbolQueryArgs),
    /// Where the code is unhealthy: god objects, coupling between files, import and call
    /// cycles, dead code; each finding at file:line, with how sure the answer is.
    #[command(after_help = help::HEALTH_EXAMPLES)]
    Health(health_command::HealthArgs),
    /// Find symbols by name; without a name, the census.
    #[command(after_help = help::LOOKUP_EXAMPLES)]
    Lookup(query_commands::LookupArgs),
    /// Who wrote this symbol or file, and whom to ask: blame aggregated by author.
    #[command(after_help = help::OWNERSHIP_EXAMPLES)]
    Ownership(query_commands::OwnershipArgs),
    /// The blast radius of a diff (default: staged and unstaged changes against HEAD).
    #[command(after_help = help::CHANGES_EXAMPLES)]
    Changes(query_commands::ChangesArgs),
    /// Why this symbol or file exists: the memory entries tethered to it, their tip,
    /// staleness and whether they need a recheck.
    #[command(after_help = help::CONTEXT_EXAMPLES)]
    Context(query_commands::ContextArgs),
    /// Search the memory entries (title above tags above body).
    #[command(after_help = help::SEARCH_MEMORY_EXAMPLES)]
    SearchMemory(query_commands::SearchMemoryArgs),
    /// Write a memory entry, commit it, and pin it (to --files committed now, or --commit).
    #[command(after_help = help::RECORD_EXAMPLES)]
    Record(query_commands::RecordArgs),
    /// Record a trace (what was seen, why, what was done, what came of it) with its
    /// evidence, committed under .memory/traces/; a batch from --json-file is one commit.
    #[command(after_help = help::RECORD_TRACE_EXAMPLES)]
    RecordTrace(trace_commands::RecordTraceArgs),
    /// The traces bearing on words or anchors, current findings first, with what
    /// superseded or settled them and whether a premise changed.
    #[command(after_help = help::RECALL_EXAMPLES)]
    Recall(trace_commands::RecallArgs),
    /// The research tree: the project, its subprojects and phases with their completeness,
    /// and the entries under them (the tree's problems named).
    #[command(after_help = help::TREE_EXAMPLES)]
    Tree(research_tree_commands::TreeArgs),
    /// The active phases not complete yet, least complete first.
    #[command(after_help = help::OPEN_PHASES_EXAMPLES)]
    OpenPhases(research_tree_commands::OpenPhasesArgs),
    /// A deterministic summary of an entry's subtree: children, concluding checkpoint, types
    /// below, open threads, last activity, completeness, the most linked entries.
    #[command(after_help = help::BRIEF_EXAMPLES)]
    Brief(research_tree_commands::BriefArgs),
    /// Runtime evidence: record or import per-test coverage (coverage.py, or Rust tests run
    /// one by one), so blast lists the tests seen executing a symbol.
    #[command(subcommand, after_help = help::COVERAGE_EXAMPLES)]
    Coverage(coverage_command::CoverageCommand),
    /// Serve MCP over stdio for an agent, forwarding every tool call to the daemon.
    #[command(after_help = help::MCP_EXAMPLES)]
    Mcp(mcp_command::McpArgs),
    /// Serve the Language Server Protocol over stdio for an editor: call hierarchy, code
    /// lenses, hovers and references from the daemon, with the unsaved buffers counted.
    #[command(after_help = help::LSP_EXAMPLES)]
    Lsp(mcp_command::StdioServerArgs),
    /// Run the daemon in the foreground.
    #[command(after_help = help::SERVE_EXAMPLES)]
    Serve(daemon_commands::DaemonArgs),
    /// Start the daemon in the background.
    #[command(after_help = help::START_EXAMPLES)]
    Start(daemon_commands::DaemonArgs),
    /// Stop the daemon.
    #[command(after_help = help::STOP_EXAMPLES)]
    Stop(daemon_commands::DaemonArgs),
    /// Show whether a daemon runs, and what it serves (exit code 3 when none runs).
    #[command(after_help = help::STATUS_EXAMPLES)]
    Status(daemon_commands::DaemonArgs),
    /// Print the effective configuration (`.tether.toml`, the user's file, the defaults) and
    /// where each value came from.
    #[command(after_help = help::CONFIG_EXAMPLES)]
    Config(configured_defaults::ConfigArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = help::COMPLETIONS_EXAMPLES)]
    Completions(completions_and_manual::CompletionsArgs),
    /// Print the manual page (roff) of tether, or of one command.
    #[command(after_help = help::MAN_EXAMPLES)]
    Man(completions_and_manual::ManArgs),
}

/// Where the repository and its database are; shared by every command that opens them.
#[derive(Args, Clone)]
pub struct RepositoryArgs {
    /// The folder to work on (default: the current one); the same as -C.
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    /// The folder to work on (default: the current one); inside git, its whole repository.
    #[arg(long = "repo", short = 'C', value_name = "DIR", conflicts_with = "path")]
    pub repo: Option<PathBuf>,
    /// The graph database (default: `<git dir>/tether/graph.lbug`, or `.tether/graph.lbug`
    /// outside git).
    #[arg(long, value_name = "FILE")]
    pub db: Option<PathBuf>,
    /// The database's buffer pool cap in MiB (LadybugDB would otherwise reserve 80 % of RAM).
    #[arg(long, default_value_t = 256, value_name = "MIB")]
    pub buffer_pool_mib: u64,
}

impl RepositoryArgs {
    /// The arguments of a command that names its folder with `-C` only.
    pub fn of_folder(folder: PathBuf, db: Option<PathBuf>) -> RepositoryArgs {
        RepositoryArgs { path: None, repo: Some(folder), db, buffer_pool_mib: 256 }
    }

    /// The folder as given (`-C DIR` or the positional path), else the current one.
    pub fn folder(&self) -> PathBuf {
        self.repo.clone().or_else(|| self.path.clone()).unwrap_or_else(|| PathBuf::from("."))
    }

    /// Fails with a usage error unless the folder exists (checked before anything is
    /// created beside it: the lock, the database, the socket).
    pub fn require_folder(&self) -> anyhow::Result<()> {
        // clap refuses both after the command; `tether -C A index B` gets here.
        if let (Some(repo), Some(path)) = (&self.repo, &self.path) {
            return Err(exit_codes::usage(format!(
                "two folders given ({} with -C, {} as PATH): give one",
                repo.display(),
                path.display()
            )));
        }
        let folder = self.folder();
        if !folder.exists() {
            return Err(exit_codes::usage(format!(
                "{} does not exist; pass the repository folder to work on",
                folder.display()
            )));
        }
        if !folder.is_dir() {
            return Err(exit_codes::usage(format!(
                "{} is not a folder; pass the repository folder to work on",
                folder.display()
            )));
        }
        Ok(())
    }

    /// The repository's folder, absolute: the top of the git working tree that holds the
    /// folder (as git and cargo find theirs from a subfolder: the database, socket and daemon
    /// belong to the whole repository, so a subfolder must not be served as a root of its
    /// own), else the folder itself.
    pub fn root(&self) -> PathBuf {
        let folder = self.folder();
        let folder = folder.canonicalize().unwrap_or(folder);
        match tether_git::discover(&folder) {
            Some(repository) => repository.work_tree.canonicalize().unwrap_or(repository.work_tree),
            None => folder,
        }
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

/// Runs the command line and returns the process's exit code (see `exit_codes`; clap's own
/// usage errors exit with 2 as well).
pub fn main_entry() -> ExitCode {
    let cli = Cli::parse();
    terminal_style::choose_color(cli.color);
    exit_codes::finish(run_command(cli.command))
}

/// The folder a command works on, checked before the command runs; `None` for the commands
/// that open no repository.
fn repository_of(command: &Command) -> Option<RepositoryArgs> {
    let repository = match command {
        Command::Index(args) => args.repository.clone(),
        Command::Export(args) => args.repository.clone(),
        Command::Cypher(args) => args.repository.clone(),
        Command::Serve(args)
        | Command::Start(args)
        | Command::Stop(args)
        | Command::Status(args) => args.repository.clone(),
        Command::Blast(args) => args.options.repository(),
        Command::Callers(args) | Command::Callees(args) | Command::Imports(args) => {
            args.options.repository()
        }
        Command::Lookup(args) => args.options.repository(),
        Command::Health(args) => args.options.repository(),
        Command::Ownership(args) => args.options.repository(),
        Command::Changes(args) => args.options.repository(),
        Command::Context(args) => args.options.repository(),
        Command::SearchMemory(args) => args.options.repository(),
        Command::Record(args) => args.options.repository(),
        Command::RecordTrace(args) => args.options.repository(),
        Command::Recall(args) => args.options.repository(),
        Command::Tree(args) => args.options.repository(),
        Command::OpenPhases(args) => args.options.repository(),
        Command::Brief(args) => args.options.repository(),
        Command::Coverage(coverage_command::CoverageCommand::Import(args)) => {
            args.options.repository()
        }
        Command::Coverage(coverage_command::CoverageCommand::Run(args)) => {
            args.options.repository()
        }
        Command::Coverage(coverage_command::CoverageCommand::Cargo(args)) => {
            args.options.repository()
        }
        Command::Mcp(args) => args.server.repository(),
        Command::Lsp(args) => args.repository(),
        Command::Config(args) => args.repository.clone(),
        Command::Completions(_) | Command::Man(_) | Command::CypherWorker(_) => return None,
    };
    Some(repository)
}

fn run_command(command: Command) -> anyhow::Result<()> {
    if let Some(repository) = repository_of(&command) {
        repository.require_folder()?;
        configured_defaults::load(&repository)?;
    }
    match command {
        Command::Index(args) => index_command::run(args),
        Command::Export(args) => export_command::run_export(args),
        Command::Cypher(args) => export_command::run_cypher(args),
        Command::CypherWorker(args) => cypher_worker_command::run_cypher_worker(args),
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
        Command::Health(args) => health_command::run_health(args),
        Command::Ownership(args) => query_commands::run_ownership(args),
        Command::Changes(args) => query_commands::run_changes(args),
        Command::Context(args) => query_commands::run_context(args),
        Command::SearchMemory(args) => query_commands::run_search_memory(args),
        Command::Record(args) => query_commands::run_record(args),
        Command::RecordTrace(args) => trace_commands::run_record_trace(args),
        Command::Recall(args) => trace_commands::run_recall(args),
        Command::Tree(args) => research_tree_commands::run_tree(args),
        Command::OpenPhases(args) => research_tree_commands::run_open_phases(args),
        Command::Brief(args) => research_tree_commands::run_brief(args),
        Command::Coverage(command) => coverage_command::run_coverage(command),
        Command::Mcp(args) => mcp_command::run(args),
        Command::Lsp(args) => lsp_command::run(args),
        Command::Serve(args) => daemon_commands::run_serve(args),
        Command::Start(args) => daemon_commands::run_start(args),
        Command::Stop(args) => daemon_commands::run_stop(args),
        Command::Status(args) => daemon_commands::run_status(args),
        Command::Config(args) => configured_defaults::run_config(args),
        Command::Completions(args) => completions_and_manual::run_completions(args),
        Command::Man(args) => completions_and_manual::run_man(args),
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// Every command, nested ones too, with its path (`tether coverage import`).
    fn every_command(
        command: &clap::Command,
        path: String,
        found: &mut Vec<(String, clap::Command)>,
    ) {
        for subcommand in command.get_subcommands() {
            let path = format!("{path} {}", subcommand.get_name());
            found.push((path.clone(), subcommand.clone()));
            every_command(subcommand, path, found);
        }
    }

    #[test]
    fn the_argument_definitions_are_consistent() {
        super::Cli::command().debug_assert();
    }

    #[test]
    fn every_command_has_examples_and_every_option_a_description() {
        let mut commands = Vec::new();
        every_command(&super::Cli::command(), "tether".into(), &mut commands);
        let mut problems = Vec::new();
        for (path, command) in &commands {
            let examples = command.get_after_help().map(|help| help.to_string());
            if !examples.is_some_and(|help| help.starts_with("Examples:\n  ")) {
                problems.push(format!("{path}: no Examples: section"));
            }
            if command.get_about().is_none() {
                problems.push(format!("{path}: no description"));
            }
            for argument in command.get_arguments() {
                let id = argument.get_id().as_str();
                if argument.get_help().is_none() && !matches!(id, "help" | "version") {
                    problems.push(format!("{path} {id}: no description"));
                }
            }
        }
        assert!(commands.len() > 20, "{}", commands.len());
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
