//! The traces' benchmark (issue 44): on a generated repository, N traces over 200 subjects
//! are recorded one `record_trace` call each (every call a commit), some superseding an
//! earlier finding of their subject and some resting on another trace; then `recall` is
//! asked warm (by anchor and by words) and once more by a daemon just started, whose first
//! call reads every trace file.

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context;
use tether_daemon::{DaemonPaths, DaemonState};
use tether_protocol::{json, Value};

const SUBJECTS: usize = 200;

fn call(state: &DaemonState, method: &str, params: Value) -> anyhow::Result<Value> {
    crate::daemon_client::handle_json(state, method, &params)
        .map_err(|error| anyhow::anyhow!("{method}: {}", error.message))
}

fn percentile(timings: &mut [Duration], share: f64) -> f64 {
    timings.sort();
    timings[((timings.len() as f64 - 1.0) * share) as usize].as_secs_f64() * 1000.0
}

fn subject(index: usize) -> String {
    format!("tests/test_m{}.py::test_value@linux", index % SUBJECTS)
}

/// Records `traces` traces into the repository at `root` (a git repository with a graph the
/// daemon can build), then measures recall with `queries` calls of each kind.
pub fn run(root: &Path, traces: usize, queries: usize) -> anyhow::Result<()> {
    let paths = DaemonPaths::new(root, &root.join(".git/tether/graph.lbug"));
    paths.prepare()?;
    let state = DaemonState::new(paths.clone(), tether_store::StoreConfig::default());
    state.load_or_build()?;
    let mut recorded: Vec<String> = Vec::with_capacity(traces);
    let mut latest_of_subject: Vec<Option<usize>> = vec![None; SUBJECTS];
    let mut timings = Vec::with_capacity(traces);
    let started = Instant::now();
    for index in 0..traces {
        let round = index / SUBJECTS;
        let mut trace = json!({
            "subject": subject(index),
            "situation": format!("test_value of module {} checked in round {round}", index % SUBJECTS),
            "rationale": "the nightly run reported it",
            "action": format!("ran pytest tests/test_m{}.py", index % SUBJECTS),
            "outcome": if round.is_multiple_of(2) { "red: an off-by-one" } else { "green after the fix" },
            "observed_at": format!("2026-12-07T{:02}:{:02}:00Z", round % 24, (index / 60) % 60),
            "artifacts": [format!("app/m{}.py", index % SUBJECTS)],
            "operation_id": format!("bench-{index}"),
        });
        // A newer observation supersedes the subject's latest finding, with evidence.
        if let Some(previous) = latest_of_subject[index % SUBJECTS].filter(|_| round % 2 == 1) {
            trace["supersedes"] = json!([recorded[previous]]);
            trace["evidence"] = json!(["pytest: 1 passed"]);
        }
        // Every seventh rests on the trace recorded just before it.
        if index % 7 == 6 {
            trace["depends_on"] = json!([recorded[index - 1]]);
        }
        let call_started = Instant::now();
        let answer = call(&state, "record_trace", json!({ "traces": [trace] }))?;
        timings.push(call_started.elapsed());
        let id = answer["traces"][0]["id"].as_str().context("an id")?.to_string();
        recorded.push(id);
        latest_of_subject[index % SUBJECTS] = Some(index);
    }
    println!(
        "record_trace  {traces} calls over {SUBJECTS} subjects in {:.1} s: median {:.1} ms, p99 {:.1} ms (each a commit)",
        started.elapsed().as_secs_f64(),
        percentile(&mut timings, 0.5),
        percentile(&mut timings, 0.99)
    );
    let asks: Vec<(&str, Value)> = (0..queries)
        .map(|index| match index % 3 {
            0 => ("anchor", json!({ "anchors": [subject(index * 7)] })),
            1 => ("trace id", json!({ "anchors": [recorded[(index * 13) % recorded.len()]] })),
            _ => ("words", json!({ "query": format!("module {} round", (index * 3) % SUBJECTS) })),
        })
        .collect();
    // Warm: the traces read once.
    call(&state, "recall", asks[0].1.clone())?;
    let mut warm = Vec::with_capacity(asks.len());
    let mut returned = 0;
    for (_, params) in &asks {
        let started = Instant::now();
        let answer = call(&state, "recall", params.clone())?;
        warm.push(started.elapsed());
        returned += answer["traces"].as_array().map_or(0, Vec::len);
    }
    println!(
        "recall warm   p50 {:.2} ms  p99 {:.2} ms  ({} calls: anchors, trace ids, words; {:.1} traces per answer)",
        percentile(&mut warm, 0.5),
        percentile(&mut warm, 0.99),
        asks.len(),
        returned as f64 / asks.len() as f64
    );
    drop(state);
    let restarted = DaemonState::new(paths, tether_store::StoreConfig::default());
    restarted.load_or_build()?;
    let started = Instant::now();
    let answer = call(&restarted, "recall", asks[1].1.clone())?;
    println!(
        "recall first  {:.0} ms after a restart (reads {traces} trace files; {} traces answered)",
        started.elapsed().as_secs_f64() * 1000.0,
        answer["traces"].as_array().map_or(0, Vec::len)
    );
    // A replay after the restart: the first id, nothing written.
    let replay = json!({ "traces": [{ "subject": subject(0), "situation": "x", "rationale": "r",
        "action": "a", "outcome": "o", "observed_at": "2026-12-07T00:00:00Z",
        "operation_id": "bench-0" }] });
    let refused = call(&restarted, "record_trace", replay).is_err();
    println!("operation id reused for another request after the restart: refused {refused}");
    Ok(())
}
