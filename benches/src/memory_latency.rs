//! The memory benchmark: a generated repository of N commits (written with `git
//! fast-import`) and M entries pinned to some of them; `context` latency once warm, the cold
//! index build, and the time from a new pinned commit to `context` showing it.

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{bail, Context};
use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::json;

const MODULES: usize = 200;
const FUNCTIONS_PER_MODULE: usize = 5;

pub fn run(
    commits: usize,
    entries: usize,
    queries: usize,
    keep: Option<&Path>,
    traces: Option<usize>,
    tree: Option<usize>,
) -> anyhow::Result<()> {
    let scratch = tempfile::tempdir()?;
    let root = match keep {
        Some(folder) => folder.to_path_buf(),
        None => scratch.path().join("repo"),
    };
    std::fs::create_dir_all(&root)?;
    git(&root, &["init", "-q", "-b", "main"])?;
    let started = Instant::now();
    let marks = scratch.path().join("marks");
    fast_import(&root, commits, &marks)?;
    let shas: Vec<String> = std::fs::read_to_string(&marks)?
        .lines()
        .filter_map(|line| line.split_once(' ').map(|(_, sha)| sha.to_string()))
        .collect();
    git(&root, &["checkout", "-q", "-f", "main"])?;
    if let Some(tree) = tree {
        return crate::research_tree_latency::run(&root, tree, queries);
    }
    // Entries pinned to evenly spread commits, each naming the module that commit changed.
    let step = (commits / entries.max(1)).max(1);
    for entry in 0..entries {
        let commit_index = (entry * step).min(commits - 1);
        let module = commit_index % MODULES;
        let kind = ["decision", "experiment", "checkpoint", "note"][entry % 4];
        let folder = format!("{kind}s");
        let path = root.join(".memory").join(&folder).join(format!("entry-{entry}.md"));
        std::fs::create_dir_all(path.parent().expect("a folder"))?;
        let depends = if entry > 0 && entry % 7 == 0 {
            format!("depends_on: [entry-{}]\n", entry - 1)
        } else {
            String::new()
        };
        let supersedes = if entry > 1 && entry % 11 == 0 {
            format!("supersedes: [entry-{}]\n", entry - 2)
        } else {
            String::new()
        };
        std::fs::write(
            &path,
            format!("---\nid: entry-{entry}\ntype: {kind}\ntitle: Why module {module} works this way ({entry})\nstatus: active\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\ntags: [module{module}]\npins:\n  - commit: {}\n    files: [app/m{module}.py]\n{depends}{supersedes}---\nBody of entry {entry}.\n", shas[commit_index]),
        )?;
    }
    commit_all(&root, "entries")?;
    println!("repository    {commits} commits, {entries} entries, {MODULES} modules (generated in {:.1} s)", started.elapsed().as_secs_f64());

    if let Some(traces) = traces {
        return crate::trace_latency::run(&root, traces, queries);
    }
    let paths = DaemonPaths::new(&root, &root.join(".git/tether/graph.lbug"));
    paths.prepare()?;
    let started = Instant::now();
    let state = DaemonState::new(paths.clone(), tether_store::StoreConfig::default());
    state.load_or_build()?;
    println!(
        "first index   {:.2} s (the code graph, every pin mapped, the database written)",
        started.elapsed().as_secs_f64()
    );
    let snapshot = state.snapshot().context("snapshot")?;
    let targets: Vec<String> = snapshot
        .symbols()
        .iter()
        .filter(|symbol| symbol.kind == tether_model::SymbolKind::Function)
        .map(|symbol| symbol.id.to_string())
        .collect();
    let started = Instant::now();
    let first =
        crate::daemon_client::handle_json(&state, "context", &json!({ "symbol": targets[0] }))
            .map_err(|error| anyhow::anyhow!(error.message))?;
    println!("first context (loads entries, tethers every pin, reads the history): {:.0} ms; {} entries on that function", started.elapsed().as_secs_f64() * 1000.0, first["chain"].as_array().map_or(0, Vec::len));
    // Warm the staleness caches of the queried symbols once, then measure.
    for target in targets.iter().take(queries) {
        crate::daemon_client::handle_json(&state, "context", &json!({ "symbol": target }))
            .map_err(|error| anyhow::anyhow!(error.message))?;
    }
    let mut timings = Vec::new();
    let mut tethered = 0;
    for target in targets.iter().cycle().take(queries) {
        let started = Instant::now();
        let answer =
            crate::daemon_client::handle_json(&state, "context", &json!({ "symbol": target }))
                .map_err(|error| anyhow::anyhow!(error.message))?;
        timings.push(started.elapsed());
        tethered += usize::from(answer["chain"].as_array().is_some_and(|chain| !chain.is_empty()));
    }
    timings.sort();
    let percentile = |share: f64| {
        timings[((timings.len() as f64 - 1.0) * share) as usize].as_secs_f64() * 1000.0
    };
    println!(
        "context       p50 {:.3} ms  p99 {:.3} ms  ({} queries, {tethered} with entries)",
        percentile(0.5),
        percentile(0.99),
        timings.len()
    );

    // A restart: a new daemon on the same database, which matches HEAD (nothing is rebuilt or
    // written). Its first context maps every pin: from the persisted file, or from git when
    // the file is gone.
    for (label, forget) in
        [("after a restart", false), ("after a restart, pins not persisted", true)]
    {
        if forget {
            std::fs::remove_file(paths.folder.join("pin-tethers.tsv"))
                .context("the persisted pins")?;
        }
        let restarted = DaemonState::new(paths.clone(), tether_store::StoreConfig::default());
        restarted.load_or_build()?;
        let started = Instant::now();
        crate::daemon_client::handle_json(&restarted, "context", &json!({ "symbol": targets[0] }))
            .map_err(|error| anyhow::anyhow!(error.message))?;
        println!("first context {label}: {:.0} ms", started.elapsed().as_secs_f64() * 1000.0);
    }

    // A new pin: edit a module, record a decision with it, ask for context.
    let module_path = root.join("app/m3.py");
    let mut text = std::fs::read_to_string(&module_path)?;
    text = text.replacen("return value + 0", "return value + 1000", 1);
    std::fs::write(&module_path, text)?;
    let started = Instant::now();
    let recorded = crate::daemon_client::handle_json(
        &state,
        "record",
        &json!({ "type": "decision", "title": "A new decision", "files": ["app/m3.py"] }),
    )
    .map_err(|error| anyhow::anyhow!(error.message))?;
    let recorded_at = started.elapsed();
    let answer =
        crate::daemon_client::handle_json(&state, "context", &json!({ "path": "app/m3.py" }))
            .map_err(|error| anyhow::anyhow!(error.message))?;
    let shown =
        answer["chain"].as_array().into_iter().flatten().any(|entry| entry["id"] == recorded["id"]);
    if !shown {
        bail!("the new entry is not tethered: {answer}");
    }
    println!(
        "new pin       record (two commits) {:.0} ms; then HEAD moved to context showing it: {:.0} ms",
        recorded_at.as_secs_f64() * 1000.0,
        (started.elapsed() - recorded_at).as_secs_f64() * 1000.0
    );
    Ok(())
}

/// Writes `commits` commits: the first adds every module, each later one edits one function
/// of one module.
fn fast_import(root: &Path, commits: usize, marks: &Path) -> anyhow::Result<()> {
    let mut child = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["fast-import", "--quiet", &format!("--export-marks={}", marks.display())])
        .stdin(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().context("stdin")?;
    let mut versions = vec![0usize; MODULES];
    for commit in 0..commits {
        let mut stream = String::new();
        let time = 1_700_000_000 + commit as i64 * 60;
        let author = ["Ada", "Bea", "Cy", "Dee"][commit % 4];
        let _ = writeln!(stream, "commit refs/heads/main\nmark :{}\nauthor {author} <{}@example.com> {time} +0000\ncommitter {author} <{}@example.com> {time} +0000", commit + 1, author.to_lowercase(), author.to_lowercase());
        let message = format!("change {commit}");
        let _ = writeln!(stream, "data {}\n{message}", message.len());
        if commit > 0 {
            let _ = writeln!(stream, "from :{commit}");
        }
        let touched: Vec<usize> =
            if commit == 0 { (0..MODULES).collect() } else { vec![commit % MODULES] };
        for module in touched {
            if commit > 0 {
                versions[module] += 1;
            }
            let text = module_text(module, versions[module]);
            let _ = writeln!(stream, "M 644 inline app/m{module}.py\ndata {}\n{text}", text.len());
        }
        if commit == 0 {
            let _ = writeln!(stream, "M 644 inline app/__init__.py\ndata 0\n");
        }
        stdin.write_all(stream.as_bytes())?;
    }
    drop(stdin);
    if !child.wait()?.success() {
        bail!("git fast-import failed");
    }
    Ok(())
}

fn module_text(module: usize, version: usize) -> String {
    let mut text = String::new();
    for function in 0..FUNCTIONS_PER_MODULE {
        // Each version edits one function's body.
        let offset = if function == version % FUNCTIONS_PER_MODULE { version } else { 0 };
        let _ = writeln!(text, "def function_{function}(value):\n    helper = value * {module}\n    return value + {offset}\n");
    }
    text
}

/// Stages everything and commits it as the benchmark's author.
pub(crate) fn commit_all(directory: &Path, message: &str) -> anyhow::Result<()> {
    git(directory, &["add", "-A"])?;
    let author = ["-c", "user.name=bench", "-c", "user.email=bench@example.com"];
    git(directory, &[&author[..], &["commit", "-q", "-m", message]].concat())
}

fn git(directory: &Path, arguments: &[&str]) -> anyhow::Result<()> {
    let status = Command::new("git")
        .arg("-C")
        .arg(directory)
        .args(arguments)
        .stdout(Stdio::null())
        .status()?;
    if !status.success() {
        bail!("git {arguments:?} failed");
    }
    Ok(())
}
