//! The soak: a clone of a repository served by a daemon in this process, many clients
//! querying it over the socket for minutes while HEAD flips between two branches and files are
//! saved, a few clients sending garbage. Reported: answers, errors, mixed answers (an answer
//! whose callers belong to the other branch than the commit it says it was built from), and
//! RSS over time. Loopback only (a Unix socket); bounded by `--seconds`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::daemon_client::{git, rss_mib, Client};
use anyhow::bail;
use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::json;

#[derive(Default)]
struct Counts {
    answers: AtomicU64,
    errors: AtomicU64,
    not_ready: AtomicU64,
    mixed: AtomicU64,
    garbage_answers: AtomicU64,
}

pub fn run(
    repository: &Path,
    clients: usize,
    garbage_clients: usize,
    seconds: u64,
) -> anyhow::Result<()> {
    let scratch = tempfile::tempdir()?;
    let root = scratch.path().join("repo");
    git(
        scratch.path(),
        &["clone", "-q", "--no-hardlinks", &repository.display().to_string(), "repo"],
    )?;
    // Two branches that differ in who calls `soak_target`: an answer built from one branch's
    // commit must list that branch's caller only.
    let commits = make_branches(&root)?;
    let paths = DaemonPaths::new(&root, &root.join(".git/tether/graph.lbug"));
    paths.prepare()?;
    let state = Arc::new(DaemonState::new(paths.clone(), tether_store::StoreConfig::default()));
    state.load_or_build()?;
    let stop = Arc::new(AtomicBool::new(false));
    tether_daemon::spawn_follower(Arc::clone(&state), Arc::clone(&stop));
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
    let counts = Arc::new(Counts::default());
    let started = Instant::now();
    let end = started + Duration::from_secs(seconds);
    let mut threads = Vec::new();
    for client in 0..clients {
        let (socket, counts, commits) =
            (paths.socket.clone(), Arc::clone(&counts), commits.clone());
        threads.push(std::thread::spawn(move || {
            querying_client(&socket, client as u64, end, &counts, &commits)
        }));
    }
    for client in 0..garbage_clients {
        let (socket, counts) = (paths.socket.clone(), Arc::clone(&counts));
        threads
            .push(std::thread::spawn(move || garbage_client(&socket, client as u64, end, &counts)));
    }
    let flipper_root = root.clone();
    threads.push(std::thread::spawn(move || flip_and_save(&flipper_root, end)));
    let samples: Arc<Mutex<Vec<(u64, f64)>>> = Arc::default();
    while Instant::now() < end {
        std::thread::sleep(
            Duration::from_secs(10).min(end.saturating_duration_since(Instant::now())),
        );
        samples.lock().unwrap().push((started.elapsed().as_secs(), rss_mib()));
    }
    for thread in threads {
        let _ = thread.join();
    }
    stop.store(true, Ordering::Relaxed);
    let samples = samples.lock().unwrap().clone();
    println!("soak          {seconds} s, {clients} clients querying, {garbage_clients} sending garbage, HEAD flipping every second, a file saved every 0.5 s");
    println!("answers       {}", counts.answers.load(Ordering::Relaxed));
    println!(
        "errors        {} (besides {} not-ready answers while the first graph was built)",
        counts.errors.load(Ordering::Relaxed),
        counts.not_ready.load(Ordering::Relaxed)
    );
    println!(
        "mixed         {} answers listing the other branch's caller",
        counts.mixed.load(Ordering::Relaxed)
    );
    println!(
        "garbage       {} error answers to garbage lines",
        counts.garbage_answers.load(Ordering::Relaxed)
    );
    println!("rebuilds      {}", state.rebuild_status().rebuilds);
    let series: Vec<String> = samples.iter().map(|(at, rss)| format!("{at}s {rss:.0}")).collect();
    println!("RSS MiB       {}", series.join(", "));
    if let (Some(warm), Some(last)) =
        (samples.iter().find(|(at, _)| *at >= 60).or(samples.first()), samples.last())
    {
        println!("RSS drift     {:+.0} MiB from {} s to the end", last.1 - warm.1, warm.0);
    }
    if counts.errors.load(Ordering::Relaxed) > 0 || counts.mixed.load(Ordering::Relaxed) > 0 {
        bail!("the soak saw errors or mixed answers");
    }
    Ok(())
}

/// The two branch tips: `soak-a` (soak_target called by soak_caller_a) and `soak-b`.
#[derive(Clone)]
struct BranchCommits {
    a: String,
    b: String,
}

fn make_branches(root: &Path) -> anyhow::Result<BranchCommits> {
    let identity = ["-c", "user.name=soak", "-c", "user.email=soak@example.com"];
    let mut tips = Vec::new();
    for branch in ["a", "b"] {
        git(root, &["checkout", "-q", "-B", &format!("soak-{branch}"), "HEAD"])?;
        std::fs::write(root.join("tether_soak.py"), format!("def soak_target():\n    return 1\n\ndef soak_caller_{branch}():\n    return soak_target()\n"))?;
        git(root, &["add", "tether_soak.py"])?;
        git(
            root,
            &[identity[0], identity[1], identity[2], identity[3], "commit", "-q", "-m", "soak"],
        )?;
        let output =
            Command::new("git").arg("-C").arg(root).args(["rev-parse", "HEAD"]).output()?;
        tips.push(String::from_utf8(output.stdout)?.trim().to_string());
        git(root, &["checkout", "-q", "HEAD~1"])?;
    }
    git(root, &["checkout", "-q", "soak-a"])?;
    Ok(BranchCommits { a: tips[0].clone(), b: tips[1].clone() })
}

fn flip_and_save(root: &Path, end: Instant) {
    let mut flips = 0u64;
    let saved = saved_file(root);
    while Instant::now() < end {
        for _ in 0..2 {
            std::thread::sleep(Duration::from_millis(500));
            if let Some(saved) = &saved {
                let _ = std::fs::OpenOptions::new()
                    .append(true)
                    .open(saved)
                    .and_then(|mut file| file.write_all(b"\n"));
            }
        }
        flips += 1;
        let branch = if flips.is_multiple_of(2) { "soak-a" } else { "soak-b" };
        // A save can make checkout refuse; stash nothing, just force the branch's files.
        let _ =
            Command::new("git").arg("-C").arg(root).args(["checkout", "-q", "-f", branch]).status();
    }
}

/// A tracked source file to append newlines to (a save the graph reports as uncommitted).
fn saved_file(root: &Path) -> Option<PathBuf> {
    let output = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "--", "*.py", "*.rs"])
        .output()
        .ok()?;
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .find(|path| !path.contains("tether_soak"))
        .map(|path| root.join(path))
}

fn querying_client(
    socket: &Path,
    seed: u64,
    end: Instant,
    counts: &Counts,
    commits: &BranchCommits,
) {
    let Ok(mut client) = Client::connect(socket) else {
        counts.errors.fetch_add(1, Ordering::Relaxed);
        return;
    };
    let mut random = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    while Instant::now() < end {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let (method, params) = match random % 4 {
            0 => ("callers", json!({ "symbol": "tether_soak.soak_target" })),
            1 => ("blast", json!({ "symbol": "tether_soak.soak_target", "depth": 2 })),
            2 => ("lookup", json!({ "query": "soak" })),
            _ => ("status", json!({})),
        };
        let answer = match client.call(method, params) {
            Ok(answer) => answer,
            Err(_) => {
                counts.errors.fetch_add(1, Ordering::Relaxed);
                let Ok(again) = Client::connect(socket) else { return };
                client = again;
                continue;
            }
        };
        counts.answers.fetch_add(1, Ordering::Relaxed);
        if let Some(code) = answer["error"]["code"].as_i64() {
            if code == -32003 {
                counts.not_ready.fetch_add(1, Ordering::Relaxed);
            } else {
                counts.errors.fetch_add(1, Ordering::Relaxed);
            }
            continue;
        }
        if method == "callers" {
            let indexed = answer["result"]["freshness"]["indexed_commit"].as_str().unwrap_or("");
            let callers: Vec<&str> = answer["result"]["items"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|item| item["qualified_name"].as_str())
                .collect();
            let expected = if indexed == commits.a {
                Some("tether_soak.soak_caller_a")
            } else if indexed == commits.b {
                Some("tether_soak.soak_caller_b")
            } else {
                None
            };
            if let Some(expected) = expected {
                if callers != [expected] {
                    counts.mixed.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
        std::thread::sleep(Duration::from_millis(5 + random % 20));
    }
}

fn garbage_client(socket: &Path, seed: u64, end: Instant, counts: &Counts) {
    let Ok(mut client) = Client::connect(socket) else { return };
    let mut random = seed.wrapping_mul(0xd1b5_4a32_d192_ed03) | 1;
    while Instant::now() < end {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        let length = (random % 300) as usize;
        let mut line: Vec<u8> = (0..length)
            .map(|index| (random.rotate_left(index as u32 % 64) % 255) as u8)
            .filter(|byte| *byte != b'\n')
            .collect();
        // Never blank (a blank line gets no answer) and never valid JSON.
        line.insert(0, b'#');
        line.push(b'\n');
        if client.send_raw(&line).is_ok_and(|answer| answer.get("error").is_some()) {
            counts.garbage_answers.fetch_add(1, Ordering::Relaxed);
        } else {
            let Ok(again) = Client::connect(socket) else { return };
            client = again;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
