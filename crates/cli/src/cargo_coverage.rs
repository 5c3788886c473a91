//! `tether coverage cargo`: per-test runtime evidence for Rust. Builds the test targets with
//! `-C instrument-coverage` into a target folder of their own, runs each test alone (as
//! `cargo test` would, in its package's folder), turns its profile into line coverage with
//! the LLVM tools (`llvm-profdata merge`, `llvm-cov export -format=lcov`), and hands the
//! daemon one LCOV tracefile with a `TN:` section per test (`ROOT_FILE::libtest::path`).
//!
//! It deliberately does not cover doctests (rustdoc builds them apart) and does not judge
//! whether a test passed: a failing test still executed what it executed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tether_model::IgnoringPoison;

use anyhow::{bail, Context};
use clap::Args;
use tether_evidence::BuiltExecutable;
use tether_protocol::Request;

use crate::query_commands::{run_query, QueryOptions};

#[derive(Args)]
pub struct CargoCoverageArgs {
    /// Test only these packages (cargo's `-p`); default: cargo's default members.
    #[arg(long, short = 'p')]
    pub package: Vec<String>,
    /// Tests run at once (default: the machine's cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Seconds one test may run before it is stopped; a stopped test records nothing.
    #[arg(long, default_value_t = 300)]
    pub test_timeout: u64,
    /// The folder holding `llvm-profdata` and `llvm-cov` (default: rustup's `llvm-tools`
    /// component, then PATH, versioned names such as `llvm-cov-19` first).
    #[arg(long)]
    pub llvm_tools: Option<PathBuf>,
    /// Record only these tests (libtest's paths, as `blast --tests` prints them) and merge
    /// what they executed into the evidence kept: the other tests' evidence stays.
    #[arg(long, num_args = 1..)]
    pub only: Vec<String>,
    /// More arguments for `cargo test --no-run` (`--features x`, `--workspace`).
    #[arg(last = true)]
    pub cargo_args: Vec<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

/// The LLVM tools that read rustc's profiles.
struct LlvmTools {
    profdata: PathBuf,
    cov: PathBuf,
}

/// One test to run alone: its harness and libtest's name for it.
struct TestRun<'a> {
    harness: &'a BuiltExecutable,
    name: String,
}

pub fn run_cargo_coverage(args: CargoCoverageArgs) -> anyhow::Result<()> {
    let root = args
        .options
        .repo
        .canonicalize()
        .with_context(|| format!("cannot open {}", args.options.repo.display()))?;
    let tools = find_llvm_tools(args.llvm_tools.as_deref())?;
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"))
        .join("tether-coverage");
    let built = build_instrumented_tests(&root, &target, &args)?;
    let harnesses: Vec<&BuiltExecutable> =
        built.iter().filter(|built| built.is_test_harness).collect();
    let binaries: Vec<&str> = built
        .iter()
        .filter(|built| !built.is_test_harness)
        .map(|built| built.executable.as_str())
        .collect();
    let mut runs = Vec::new();
    for harness in &harnesses {
        runs.extend(
            list_tests(harness)?
                .into_iter()
                .filter(|name| args.only.is_empty() || args.only.contains(name))
                .map(|name| TestRun { harness, name }),
        );
    }
    eprintln!(
        "tether: recording coverage of {} tests in {} test executables",
        runs.len(),
        harnesses.len()
    );
    let report_path = root.join(".coverage.tether.lcov");
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
        .max(1);
    let timeout = Duration::from_secs(args.test_timeout);
    let setup = RecordingSetup { tools: &tools, binaries: &binaries, root: &root, timeout };
    let outcome = record_every_test(&runs, &setup, &target.join("profiles"), jobs, &report_path)?;
    eprintln!(
        "tether: {} tests recorded in {:.1} s{}{}",
        outcome.recorded,
        outcome.seconds,
        match outcome.stopped {
            0 => String::new(),
            count => format!(", {count} stopped after {} s or wrote no profile", args.test_timeout),
        },
        if outcome.unreadable.is_empty() {
            String::new()
        } else {
            format!(", {} unreadable profiles", outcome.unreadable.len())
        }
    );
    if let Some(first) = outcome.unreadable.first() {
        if outcome.recorded == 0 {
            let _ = std::fs::remove_file(&report_path);
            bail!("no test's profile could be read: {first}");
        }
        eprintln!("tether: first unreadable profile: {first}");
    }
    let imported = run_query(
        Request::CoverageImport {
            file: report_path.to_string_lossy().into_owned(),
            merge: !args.only.is_empty(),
        },
        &args.options,
    );
    let _ = std::fs::remove_file(&report_path);
    imported
}

/// What recording every test gave.
struct RecordingOutcome {
    recorded: usize,
    /// Stopped at the timeout, or wrote no profile.
    stopped: usize,
    /// Tests whose profile the LLVM tools could not read, with why.
    unreadable: Vec<String>,
    seconds: f64,
}

/// What every test's recording shares: the LLVM tools, the binaries a test may spawn (their
/// profiles are read with them), the repository, the time one test may take.
struct RecordingSetup<'a> {
    tools: &'a LlvmTools,
    binaries: &'a [&'a str],
    root: &'a Path,
    timeout: Duration,
}

/// Runs every test alone, `jobs` at once, and writes each one's section of the tracefile.
fn record_every_test(
    runs: &[TestRun],
    setup: &RecordingSetup,
    scratch: &Path,
    jobs: usize,
    report_path: &Path,
) -> anyhow::Result<RecordingOutcome> {
    let _ = std::fs::remove_dir_all(scratch);
    std::fs::create_dir_all(scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let file = std::fs::File::create(report_path)
        .with_context(|| format!("cannot write {}", report_path.display()))?;
    let report = Mutex::new(std::io::BufWriter::new(file));
    let next = AtomicUsize::new(0);
    let (recorded, stopped, unreadable) =
        (AtomicUsize::new(0), AtomicUsize::new(0), Mutex::new(Vec::new()));
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(run) = runs.get(index) else { break };
                let folder = scratch.join(index.to_string());
                match record_one_test(run, &folder, setup) {
                    Ok(Some(section)) => {
                        recorded.fetch_add(1, Ordering::Relaxed);
                        let mut report = report.lock().ignoring_poison();
                        let _ = report.write_all(section.as_bytes());
                    }
                    Ok(None) => {
                        stopped.fetch_add(1, Ordering::Relaxed);
                    }
                    Err(error) => {
                        unreadable.lock().ignoring_poison().push(format!("{}: {error:#}", run.name))
                    }
                }
                let _ = std::fs::remove_dir_all(&folder);
            });
        }
    });
    report.into_inner().ignoring_poison().flush().context("cannot write the tracefile")?;
    Ok(RecordingOutcome {
        recorded: recorded.into_inner(),
        stopped: stopped.into_inner(),
        unreadable: unreadable.into_inner().ignoring_poison(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// `cargo test --no-run` with coverage instrumentation, and what it built.
fn build_instrumented_tests(
    root: &Path,
    target: &Path,
    args: &CargoCoverageArgs,
) -> anyhow::Result<Vec<BuiltExecutable>> {
    let rustflags = match std::env::var("RUSTFLAGS") {
        Ok(flags) if !flags.trim().is_empty() => format!("{flags} -C instrument-coverage"),
        _ => "-C instrument-coverage".to_string(),
    };
    let mut cargo = Command::new("cargo");
    cargo
        .args(["test", "--no-run", "--message-format=json-render-diagnostics"])
        .current_dir(root)
        .env("RUSTFLAGS", rustflags)
        .env("CARGO_TARGET_DIR", target)
        .stderr(Stdio::inherit());
    for package in &args.package {
        cargo.args(["-p", package]);
    }
    cargo.args(&args.cargo_args);
    let output = cargo.output().context("cannot run cargo")?;
    if !output.status.success() {
        bail!("`cargo test --no-run` with -C instrument-coverage failed ({})", output.status);
    }
    let built = tether_evidence::built_executables(&String::from_utf8_lossy(&output.stdout));
    if !built.iter().any(|built| built.is_test_harness) {
        bail!("cargo built no test executable");
    }
    Ok(built)
}

/// libtest's names of a harness's tests (`--list --format terse`: `name: test`).
fn list_tests(harness: &BuiltExecutable) -> anyhow::Result<Vec<String>> {
    let output = Command::new(&harness.executable)
        .args(["--list", "--format", "terse"])
        .current_dir(package_folder(harness))
        .env("LLVM_PROFILE_FILE", "/dev/null")
        .stderr(Stdio::null())
        .output()
        .with_context(|| format!("cannot run {}", harness.executable))?;
    if !output.status.success() {
        bail!("{} --list failed ({})", harness.executable, output.status);
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(": test"))
        .map(str::to_string)
        .collect())
}

fn package_folder(harness: &BuiltExecutable) -> &Path {
    Path::new(&harness.manifest_path).parent().unwrap_or(Path::new("."))
}

/// Runs one test alone and returns its tracefile section (`TN:` then the repository's files
/// with their executed lines), or `None` when it was stopped or wrote no profile.
fn record_one_test(
    run: &TestRun,
    folder: &Path,
    setup: &RecordingSetup,
) -> anyhow::Result<Option<String>> {
    let RecordingSetup { tools, binaries, root, timeout } = *setup;
    std::fs::create_dir_all(folder)?;
    // %p: a process the test spawns (the crate's own binary) writes a profile of its own.
    let mut child = Command::new(&run.harness.executable)
        .args(["--exact", &run.name, "--test-threads", "1", "-q"])
        .current_dir(package_folder(run.harness))
        .env("LLVM_PROFILE_FILE", folder.join("%p-%m.profraw"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .with_context(|| format!("cannot run {}", run.harness.executable))?;
    let started = Instant::now();
    while child.try_wait()?.is_none() {
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let profiles: Vec<PathBuf> = std::fs::read_dir(folder)?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "profraw"))
        .collect();
    if profiles.is_empty() {
        return Ok(None);
    }
    let merged = folder.join("merged.profdata");
    let merge = Command::new(&tools.profdata)
        .args(["merge", "-sparse"])
        .args(&profiles)
        .arg("-o")
        .arg(&merged)
        .stdout(Stdio::null())
        .output()?;
    if !merge.status.success() {
        let message = String::from_utf8_lossy(&merge.stderr).trim().to_string();
        let hint = if message.contains("unsupported") {
            " (this llvm-profdata is older than rustc's LLVM, `rustc -vV`: use rustup's `llvm-tools` component or a newer LLVM with --llvm-tools)"
        } else {
            ""
        };
        bail!("{} merge: {message}{hint}", tools.profdata.display());
    }
    let mut export = Command::new(&tools.cov);
    export
        .args(["export", "-format=lcov", "-instr-profile"])
        .arg(&merged)
        .arg(&run.harness.executable);
    for binary in binaries {
        export.args(["-object", binary]);
    }
    let exported = export.output()?;
    if !exported.status.success() {
        bail!(
            "{} export: {}",
            tools.cov.display(),
            String::from_utf8_lossy(&exported.stderr).trim()
        );
    }
    let crate_root = Path::new(&run.harness.crate_root);
    let crate_root = crate_root.strip_prefix(root).unwrap_or(crate_root);
    Ok(Some(tracefile_section(
        &format!("{}::{}", crate_root.display(), run.name),
        &String::from_utf8_lossy(&exported.stdout),
        root,
    )))
}

/// One test's section of the tracefile: its `TN:` line, then llvm-cov's records of files
/// under the repository, keeping only their executed lines.
fn tracefile_section(test_name: &str, lcov: &str, root: &Path) -> String {
    let mut section = format!("TN:{test_name}\n");
    let mut inside = false;
    for line in lcov.lines() {
        if let Some(path) = line.strip_prefix("SF:") {
            inside = Path::new(path).starts_with(root);
            if inside {
                section.push_str(line);
                section.push('\n');
            }
        } else if !inside {
            continue;
        } else if line == "end_of_record" {
            section.push_str("end_of_record\n");
        } else if let Some(data) = line.strip_prefix("DA:") {
            if data.split(',').nth(1).is_some_and(|count| count != "0") {
                section.push_str(line);
                section.push('\n');
            }
        }
    }
    section
}

/// `llvm-profdata` and `llvm-cov`: from `--llvm-tools`, rustup's `llvm-tools` component of
/// the toolchain in use, or PATH (versioned names, newest first, then the plain name).
fn find_llvm_tools(folder: Option<&Path>) -> anyhow::Result<LlvmTools> {
    let find = |name: &str| -> Option<PathBuf> {
        if let Some(folder) = folder {
            return Some(folder.join(name)).filter(|path| path.is_file());
        }
        if let Some(sysroot_tool) = rustup_llvm_tool(name) {
            return Some(sysroot_tool);
        }
        let path = std::env::var_os("PATH")?;
        // Newest versioned names first: a distribution's plain name is often an older LLVM
        // than rustc's, whose profiles it cannot read.
        let candidates: Vec<String> = (11..=40)
            .rev()
            .map(|version| format!("{name}-{version}"))
            .chain(std::iter::once(name.to_string()))
            .collect();
        candidates.iter().find_map(|candidate| {
            std::env::split_paths(&path)
                .map(|folder| folder.join(candidate))
                .find(|path| path.is_file())
        })
    };
    match (find("llvm-profdata"), find("llvm-cov")) {
        (Some(profdata), Some(cov)) => Ok(LlvmTools { profdata, cov }),
        _ => bail!("llvm-profdata and llvm-cov were not found{}: install rustup's component (`rustup component add llvm-tools`) or Debian's llvm package (`apt install llvm-19`), or pass --llvm-tools DIR", folder.map(|folder| format!(" in {}", folder.display())).unwrap_or_default()),
    }
}

/// A tool of rustup's `llvm-tools` component: `SYSROOT/lib/rustlib/HOST/bin/NAME`.
fn rustup_llvm_tool(name: &str) -> Option<PathBuf> {
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().ok()?;
    let version = Command::new("rustc").arg("-vV").output().ok()?;
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    let host = version.lines().find_map(|line| line.strip_prefix("host: "))?;
    let tool = PathBuf::from(String::from_utf8_lossy(&sysroot.stdout).trim())
        .join("lib/rustlib")
        .join(host)
        .join("bin")
        .join(name);
    tool.is_file().then_some(tool)
}
