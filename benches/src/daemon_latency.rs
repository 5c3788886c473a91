//! The daemon benchmark: a clone of a repository served by a daemon in this process; queries
//! go over the Unix socket exactly as a client's would.

use std::path::Path;
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::daemon_client::{git, rss_mib, Client};
use anyhow::{bail, Context};
use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::json;

pub fn run(repository: &Path, queries: usize) -> anyhow::Result<()> {
    let scratch = tempfile::tempdir()?;
    let root = scratch.path().join("repo");
    git(
        scratch.path(),
        &["clone", "-q", "--no-hardlinks", &repository.display().to_string(), "repo"],
    )?;
    let paths = DaemonPaths::new(&root, &root.join(".git/tether/graph.lbug"));
    let state = Arc::new(DaemonState::new(paths.clone(), tether_store::StoreConfig::default()));
    let started = Instant::now();
    state.load_or_build()?;
    let first_index = started.elapsed().as_secs_f64();
    tether_daemon::spawn_follower(Arc::clone(&state), Arc::new(AtomicBool::new(false)));
    let listener = std::os::unix::net::UnixListener::bind(&paths.socket)?;
    listener.set_nonblocking(true)?;
    let server_state = Arc::clone(&state);
    std::thread::spawn(move || {
        let runtime = tether_daemon::server_runtime(2).expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::UnixListener::from_std(listener).expect("listener");
            tether_daemon::serve(listener, server_state, std::future::pending()).await;
        });
    });
    let mut client = Client::connect(&paths.socket)?;
    let snapshot = state.snapshot().context("a published snapshot")?;
    println!(
        "repository    {} ({} symbols; first index {first_index:.2} s)",
        repository.display(),
        snapshot.symbols().len()
    );
    println!("RSS at rest   {:.0} MiB", rss_mib());

    // Deterministic sample of functions and methods.
    let targets: Vec<String> = snapshot
        .symbols()
        .iter()
        .filter(|symbol| {
            symbol.kind.is_callable() && symbol.kind != tether_model::SymbolKind::Lambda
        })
        .map(|symbol| symbol.id.to_string())
        .collect();
    let stride = (targets.len() / queries).max(1);
    let sample: Vec<&String> = targets.iter().step_by(stride).take(queries).collect();
    drop(snapshot);
    for (method, extra) in
        [("callers", json!({})), ("callees", json!({})), ("blast", json!({ "depth": 3 }))]
    {
        let mut timings = Vec::with_capacity(sample.len());
        for target in &sample {
            let mut params = extra.clone();
            params["symbol"] = json!(target);
            let started = Instant::now();
            let answer = client.call(method, params)?;
            timings.push(started.elapsed());
            if answer.get("error").is_some() {
                bail!("{method} failed: {answer}");
            }
        }
        report(method, &mut timings);
    }
    let mut timings = Vec::new();
    for name in ["new", "parse", "run", "get", "build", "main", "x"] {
        for _ in 0..20 {
            let started = Instant::now();
            client.call("lookup", json!({ "query": name }))?;
            timings.push(started.elapsed());
        }
    }
    report("lookup", &mut timings);

    git_queries(&state, &root)?;

    // Saves, then HEAD moves: a one-file edit that changes no interface (a comment: the file
    // is re-extracted and its calls re-resolved), one that adds a function (everything is
    // re-resolved), each saved and then committed; then a switch to a commit about 100 source
    // files away.
    let file = first_source_file(&root)?;
    let path = root.join(&file);
    let comment = if file.ends_with(".py") { "\n# tether bench\n" } else { "\n// tether bench\n" };
    let function = if file.ends_with(".py") {
        "\n\ndef tether_bench_added():\n    return 1\n"
    } else {
        "\n\npub fn tether_bench_added() -> u32 { 1 }\n"
    };
    for (label, addition) in [
        ("one-file commit, body or comment edit", comment),
        ("one-file commit adding a function", function),
    ] {
        let mut text = std::fs::read_to_string(&path)?;
        text.push_str(addition);
        // The save first: the working-tree follower publishes it before any commit.
        let saved = Instant::now();
        std::fs::write(&path, &text)?;
        let seconds = time_until_file_published(&state, &file, text.as_bytes(), saved)?;
        println!(
            "{label}, saved: published in {:.0} ms (the save to answers from the new graph)",
            seconds * 1000.0
        );
        wait_until_persisted(&state);
        git(&root, &["add", "-A"])?;
        let seconds = time_until_published(
            &state,
            &root,
            &[
                "-c",
                "user.name=bench",
                "-c",
                "user.email=bench@example.com",
                "commit",
                "-q",
                "-m",
                "bench",
            ],
        )?;
        println!(
            "{label}: published in {:.0} ms (HEAD moved to answers from the new graph)",
            seconds * 1000.0
        );
        wait_until_persisted(&state);
    }
    if let Some((commit, changed)) = commit_about_100_files_away(&root)? {
        let seconds = time_until_published(&state, &root, &["checkout", "-q", &commit])?;
        println!(
            "checkout touching {changed} source files published in {:.0} ms",
            seconds * 1000.0
        );
    }
    println!("RSS after updates {:.0} MiB", rss_mib());
    Ok(())
}

/// Ownership on the busiest files against `git blame -L` for the same lines, cold and cached;
/// then `changes` on a 20-file working-tree diff.
fn git_queries(state: &DaemonState, root: &Path) -> anyhow::Result<()> {
    let log = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["log", "--format=", "--name-only", "--", "*.rs", "*.py"])
        .output()?;
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for path in String::from_utf8_lossy(&log.stdout).lines().filter(|line| !line.is_empty()) {
        *counts.entry(path.to_string()).or_default() += 1;
    }
    let mut busiest: Vec<(String, usize)> =
        counts.into_iter().filter(|(path, _)| root.join(path).exists()).collect();
    busiest.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    let snapshot = state.snapshot().context("snapshot")?;
    let commits = String::from_utf8(
        Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["rev-list", "--count", "HEAD"])
            .output()?
            .stdout,
    )?;
    println!("ownership on the 5 busiest files ({} commits in the history): the largest function of each", commits.trim());
    for (path, touched) in busiest.iter().take(5) {
        let Some(symbol) = snapshot
            .symbols_in_file(path)
            .iter()
            .map(|index| snapshot.symbol(*index))
            .filter(|symbol| symbol.kind.is_callable())
            .max_by_key(|symbol| symbol.span.end_line - symbol.span.start_line)
        else {
            continue;
        };
        let range = format!("{},{}", symbol.span.start_line, symbol.span.end_line);
        // Plain blame, and what ownership runs by default (moves and copies followed).
        let blame = |flags: &[&str]| -> anyhow::Result<Option<f64>> {
            let started = Instant::now();
            let output = Command::new("git")
                .arg("-C")
                .arg(root)
                .args(["blame", "--porcelain"])
                .args(flags)
                .args(["-L", &range, "--", path])
                .output()?;
            Ok(output.status.success().then(|| started.elapsed().as_secs_f64()))
        };
        let Some(plain_seconds) = blame(&[])? else { continue };
        let ignore_revs = root.join(".git-blame-ignore-revs");
        let ignore_revs = format!("--ignore-revs-file={}", ignore_revs.display());
        let mut flags = vec!["-w", "-M", "-C"];
        if root.join(".git-blame-ignore-revs").is_file() {
            flags.push(&ignore_revs);
        }
        let Some(git_seconds) = blame(&flags)? else { continue };
        let params = json!({ "symbol": symbol.id.to_string() });
        let started = Instant::now();
        crate::daemon_client::handle_json(state, "ownership", &params)
            .map_err(|error| anyhow::anyhow!(error.message))?;
        let cold = started.elapsed().as_secs_f64();
        let started = Instant::now();
        crate::daemon_client::handle_json(state, "ownership", &params)
            .map_err(|error| anyhow::anyhow!(error.message))?;
        let cached = started.elapsed().as_secs_f64();
        println!(
            "  {path} ({touched} commits), {} lines: git blame -L {:.0} ms, with ownership's -w -M -C (and ignore-revs file) {:.0} ms, ownership cold {:.0} ms ({:.2}x the latter), cached {:.2} ms",
            symbol.span.end_line - symbol.span.start_line + 1,
            plain_seconds * 1000.0,
            git_seconds * 1000.0,
            cold * 1000.0,
            cold / git_seconds,
            cached * 1000.0
        );
    }
    // A 20-file diff in the working tree.
    let files: Vec<String> = snapshot
        .graph
        .files
        .iter()
        .filter(|file| file.status == tether_model::FileStatus::Parsed)
        .map(|file| file.path.clone())
        .step_by(7)
        .take(20)
        .collect();
    for path in &files {
        let full = root.join(path);
        let mut text = std::fs::read_to_string(&full)?;
        text.push_str(if path.ends_with(".py") {
            "\n\ndef tether_bench_changed():\n    return 2\n"
        } else {
            "\n\npub fn tether_bench_changed() -> u32 { 2 }\n"
        });
        std::fs::write(&full, text)?;
    }
    for attempt in ["first", "second"] {
        let started = Instant::now();
        let answer =
            crate::daemon_client::handle_json(state, "changes", &json!({ "scope": "unstaged" }))
                .map_err(|error| anyhow::anyhow!(error.message))?;
        println!(
            "changes on a {}-file diff ({attempt} call): {:.0} ms, {} changed symbols",
            files.len(),
            started.elapsed().as_secs_f64() * 1000.0,
            answer["changed"].as_array().map_or(0, Vec::len)
        );
    }
    git(root, &["checkout", "--", "."])?;
    // Re-extract the restored files now, so the HEAD measurements start from a settled cache.
    state.rebuild()?;
    wait_until_persisted(state);
    Ok(())
}

/// Lets the background database write finish, so the next measurement is not sharing the CPU.
fn wait_until_persisted(state: &DaemonState) {
    let started = Instant::now();
    while state.persisting() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
}

/// Runs a git command that moves HEAD, then waits until the daemon answers from the new commit.
fn time_until_published(
    state: &DaemonState,
    root: &Path,
    arguments: &[&str],
) -> anyhow::Result<f64> {
    git(root, arguments)?;
    let moved = Instant::now();
    let head = String::from_utf8(
        Command::new("git").arg("-C").arg(root).args(["rev-parse", "HEAD"]).output()?.stdout,
    )?
    .trim()
    .to_string();
    loop {
        if state.snapshot().and_then(|snapshot| snapshot.meta.head_commit.clone()).as_deref()
            == Some(head.as_str())
        {
            return Ok(moved.elapsed().as_secs_f64());
        }
        if moved.elapsed() > Duration::from_secs(120) {
            bail!("the daemon did not publish {head} within 120 s");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Seconds from `saved` until the published graph holds `content` for the file `path`.
fn time_until_file_published(
    state: &DaemonState,
    path: &str,
    content: &[u8],
    saved: Instant,
) -> anyhow::Result<f64> {
    let hash = tether_model::stable_hash(content);
    loop {
        let published = state.snapshot().is_some_and(|snapshot| {
            snapshot.graph.files.iter().any(|file| file.path == path && file.content_hash == hash)
        });
        if published {
            return Ok(saved.elapsed().as_secs_f64());
        }
        if saved.elapsed() > Duration::from_secs(120) {
            bail!("the daemon did not publish the saved {path} within 120 s");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn first_source_file(root: &Path) -> anyhow::Result<String> {
    let output =
        Command::new("git").arg("-C").arg(root).args(["ls-files", "*.rs", "*.py"]).output()?;
    String::from_utf8(output.stdout)?.lines().next().map(str::to_string).context("no source file")
}

/// An ancestor commit whose diff to HEAD touches between 80 and 200 source files.
fn commit_about_100_files_away(root: &Path) -> anyhow::Result<Option<(String, usize)>> {
    for distance in [5, 10, 20, 40, 80, 160, 320, 640] {
        let target = format!("HEAD~{distance}");
        let output = Command::new("git")
            .arg("-C")
            .arg(root)
            .args(["diff", "--name-only", &target, "HEAD", "--", "*.rs", "*.py"])
            .output()?;
        if !output.status.success() {
            return Ok(None);
        }
        let changed = String::from_utf8_lossy(&output.stdout).lines().count();
        if (80..=200).contains(&changed) || changed > 200 {
            let commit = String::from_utf8(
                Command::new("git")
                    .arg("-C")
                    .arg(root)
                    .args(["rev-parse", &target])
                    .output()?
                    .stdout,
            )?
            .trim()
            .to_string();
            return Ok(Some((commit, changed)));
        }
    }
    Ok(None)
}

fn report(method: &str, timings: &mut [Duration]) {
    timings.sort();
    let percentile = |share: f64| {
        timings[((timings.len() as f64 - 1.0) * share) as usize].as_secs_f64() * 1000.0
    };
    println!(
        "{method:<13} p50 {:.3} ms  p99 {:.3} ms  ({} queries over the socket)",
        percentile(0.5),
        percentile(0.99),
        timings.len()
    );
}
