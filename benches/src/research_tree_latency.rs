//! The research tree's benchmark (issue 45): on a generated repository, N entries in a tree
//! (a project, 10 subprojects of 5 phases each, the rest decisions, experiments,
//! checkpoints, todos and notes under the phases, some superseding others) are committed;
//! then `tree` (whole), `open_phases` and `brief` of the project (cold: the first call after
//! a change below; cached: the same again) are timed.

use std::path::Path;
use std::time::{Duration, Instant};

use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::{json, Value};

const SUBPROJECTS: usize = 10;
const PHASES_PER_SUBPROJECT: usize = 5;

fn call(state: &DaemonState, method: &str, params: Value) -> anyhow::Result<Value> {
    crate::daemon_client::handle_json(state, method, &params)
        .map_err(|error| anyhow::anyhow!("{method}: {}", error.message))
}

fn median_ms(mut timings: Vec<Duration>) -> f64 {
    timings.sort();
    timings[timings.len() / 2].as_secs_f64() * 1000.0
}

fn entry(id: &str, kind: &str, parent: Option<&str>, extra: &str, minute: usize) -> String {
    let parent = parent.map(|parent| format!("parent: {parent}\n")).unwrap_or_default();
    format!(
        "---\nid: {id}\ntype: {kind}\ntitle: Title of {id}\nstatus: active\n{parent}created_at: 2026-12-01T{:02}:{:02}:00Z\nupdated_at: 2026-12-01T{:02}:{:02}:00Z\ntags: [bench]\n{extra}---\nWhy {id} is so.\n",
        (minute / 60) % 24, minute % 60, (minute / 60) % 24, minute % 60
    )
}

/// Writes `entries` entries into `root`'s `.memory/`, commits them, and times the methods.
pub fn run(root: &Path, entries: usize, queries: usize) -> anyhow::Result<()> {
    let memory = root.join(".memory");
    let write = |folder: &str, id: &str, text: String| -> anyhow::Result<()> {
        let folder = memory.join(folder);
        std::fs::create_dir_all(&folder)?;
        std::fs::write(folder.join(format!("{id}.md")), text)?;
        Ok(())
    };
    write("plans", "project", entry("project", "plan", None, "", 0))?;
    let mut phases = Vec::new();
    for subproject in 0..SUBPROJECTS {
        let id = format!("sub-{subproject}");
        write("plans", &id, entry(&id, "plan", Some("project"), "", subproject))?;
        for phase in 0..PHASES_PER_SUBPROJECT {
            let phase_id = format!("phase-{subproject}-{phase}");
            write("plans", &phase_id, entry(&phase_id, "plan", Some(&id), "", phase))?;
            phases.push(phase_id);
        }
    }
    let plans = 1 + SUBPROJECTS + SUBPROJECTS * PHASES_PER_SUBPROJECT;
    let kinds = ["decision", "experiment", "checkpoint", "todo", "note"];
    for index in 0..entries.saturating_sub(plans) {
        let kind = kinds[index % kinds.len()];
        let id = format!("{kind}-{index}");
        let phase = &phases[index % phases.len()];
        // A decision supersedes the experiment written just before it, in its phase.
        let extra = if kind == "decision" && index >= kinds.len() {
            format!("supersedes: [experiment-{}]\n", index + 1 - kinds.len())
        } else {
            String::new()
        };
        write(&format!("{kind}s"), &id, entry(&id, kind, Some(phase), &extra, index))?;
    }
    crate::memory_latency::commit_all(root, "tree")?;
    let paths = DaemonPaths::new(root, &root.join(".git/tether/graph.lbug"));
    paths.prepare()?;
    let state = DaemonState::new(paths, tether_store::StoreConfig::default());
    state.load_or_build()?;
    let started = Instant::now();
    let first = call(&state, "tree", json!({ "limit": 200 }))?;
    println!(
        "tree first    {:.1} ms ({} entries in the tree, loads them)",
        started.elapsed().as_secs_f64() * 1000.0,
        first["total"]
    );
    let mut tree = Vec::new();
    let mut open = Vec::new();
    let mut cold = Vec::new();
    let mut cached = Vec::new();
    for round in 0..queries {
        let started = Instant::now();
        call(&state, "tree", json!({ "limit": 200 }))?;
        tree.push(started.elapsed());
        let started = Instant::now();
        call(&state, "open_phases", json!({}))?;
        open.push(started.elapsed());
        // A change below the project (a new note) makes the next brief cold.
        write("notes", "bench-touch", entry("bench-touch", "note", Some("phase-0-0"), "", round))?;
        let started = Instant::now();
        let answer = call(&state, "brief", json!({ "id": "project" }))?;
        cold.push(started.elapsed());
        anyhow::ensure!(answer["cached"] == false, "a changed subtree was answered from the cache");
        let started = Instant::now();
        let answer = call(&state, "brief", json!({ "id": "project" }))?;
        cached.push(started.elapsed());
        anyhow::ensure!(answer["cached"] == true, "an unchanged subtree was not cached");
    }
    println!(
        "tree          median {:.2} ms (the whole tree ranked and scored, first page of 200)",
        median_ms(tree)
    );
    println!("open_phases   median {:.2} ms", median_ms(open));
    println!(
        "brief         cold median {:.2} ms, cached median {:.3} ms (of the project: {entries} entries below)",
        median_ms(cold),
        median_ms(cached)
    );
    Ok(())
}
