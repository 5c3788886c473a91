//! `tether coverage`: runtime evidence. `import` hands a report with per-test contexts to the
//! daemon (coverage.py's JSON, or LCOV with `TN:` test names); `run` runs a Python test
//! command (with `coverage_hooks`, so processes a test starts are measured under that test),
//! writes the report with coverage.py (`coverage json --show-contexts`) and imports it;
//! `cargo` records Rust tests one by one (`cargo_coverage`). The coverage tools do the
//! recording; tether reads their reports.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use tether_protocol::Request;

use crate::exit_codes::usage;
use crate::query_commands::{run_query, QueryOptions};

#[derive(Subcommand)]
pub enum CoverageCommand {
    /// Read a coverage.py JSON report with per-test contexts (record with `pytest
    /// --cov=PACKAGE --cov-context=test`, write with `coverage json --show-contexts`), or an
    /// LCOV tracefile with a `TN:` test name per section; it replaces the evidence imported
    /// before.
    #[command(after_help = crate::help_texts::COVERAGE_IMPORT_EXAMPLES)]
    Import(CoverageImportArgs),
    /// Run a test command that records coverage with per-test contexts (`-- pytest
    /// --cov=src --cov-context=test`), then write its report and import it.
    #[command(after_help = crate::help_texts::COVERAGE_RUN_EXAMPLES)]
    Run(CoverageRunArgs),
    /// Record every Rust test alone with `-C instrument-coverage` and the LLVM tools, then
    /// import what each executed (`tether coverage cargo -p PACKAGE`).
    #[command(after_help = crate::help_texts::COVERAGE_CARGO_EXAMPLES)]
    Cargo(crate::cargo_coverage::CargoCoverageArgs),
}

#[derive(Args)]
pub struct CoverageImportArgs {
    /// The report (`coverage.json`), inside the repository (from the current folder, or
    /// absolute).
    pub file: PathBuf,
    /// The report re-recorded some tests: replace their evidence and keep the other tests'
    /// (by default the report replaces all the evidence).
    #[arg(long)]
    pub merge: bool,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct CoverageRunArgs {
    /// The Python whose coverage.py writes the report (the suite's own).
    #[arg(long, default_value = "python3")]
    pub python: String,
    /// Run only these tests (pytest node ids, as `blast --tests` prints them: appended to the
    /// command) and merge what they executed into the evidence kept.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// The test command, run in the repository's folder.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

pub fn run_coverage(command: CoverageCommand) -> anyhow::Result<()> {
    match command {
        CoverageCommand::Import(args) => {
            let file = args
                .file
                .canonicalize()
                .map_err(|error| usage(format!("cannot read {}: {error}", args.file.display())))?;
            run_query(
                Request::CoverageImport {
                    file: file.to_string_lossy().into_owned(),
                    merge: args.merge,
                },
                &args.options,
            )
        }
        CoverageCommand::Run(args) => {
            let root = args
                .options
                .repo
                .canonicalize()
                .with_context(|| format!("cannot open {}", args.options.repo.display()))?;
            let (program, arguments) = args.command.split_first().expect("clap requires a command");
            let hooks = crate::coverage_hooks::ChildProcessHooks::write(&root)?;
            // A failing suite still recorded what ran: its report is imported all the same.
            let status = Command::new(program)
                .args(arguments)
                .args(&args.only)
                .current_dir(&root)
                .envs(hooks.environment())
                .status()
                .with_context(|| format!("cannot run {program}"))?;
            if !status.success() {
                eprintln!(
                    "tether: the test command exited with {status}; importing what it recorded"
                );
            }
            // What processes the tests started wrote beside the suite's data, if the run did
            // not combine it already ("no data to combine" is then the expected failure).
            let _ = Command::new(&args.python)
                .args(["-m", "coverage", "combine", "--append", "--quiet"])
                .current_dir(&root)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status();
            drop(hooks);
            let report = root.join(".coverage.tether.json");
            let written = Command::new(&args.python)
                .args(["-m", "coverage", "json", "--show-contexts", "-o"])
                .arg(&report)
                // A source gone since (a temporary file a test ran) does not stop the report.
                .arg("--ignore-errors")
                .current_dir(&root)
                .status()
                .with_context(|| format!("cannot run {} -m coverage", args.python))?;
            if !written.success() {
                bail!("`{} -m coverage json --show-contexts` failed: did the command record coverage (pytest-cov's --cov, or coverage run)?", args.python);
            }
            let imported = run_query(
                Request::CoverageImport {
                    file: report.to_string_lossy().into_owned(),
                    merge: !args.only.is_empty(),
                },
                &args.options,
            );
            let _ = std::fs::remove_file(&report);
            imported
        }
        CoverageCommand::Cargo(args) => crate::cargo_coverage::run_cargo_coverage(args),
    }
}
