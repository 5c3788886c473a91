//! Human-readable renderings of the daemon's JSON answers: one line per item with file:line,
//! then completeness, freshness and the suggested next call.

use std::fmt::Write;

use tether_protocol::Value;

/// Tests listed in text output; `--json` has them all.
const MAX_TESTS_SHOWN: usize = 10;

pub fn answer_text(method: &str, answer: &Value) -> String {
    let mut out = String::new();
    match method {
        "blast" => {
            let _ = writeln!(
                out,
                "blast radius of {} (depth {}): {} dependents, {} break",
                text(&answer["subject"]),
                answer["depth"],
                answer["total"],
                answer["breaks"]
            );
            for item in items(answer) {
                let _ = writeln!(
                    out,
                    "  {:<6} d{} {:.2}  {}  {}  via {}",
                    text(&item["severity"]),
                    item["distance"],
                    item["confidence"].as_f64().unwrap_or(0.0),
                    text(&item["qualified_name"]),
                    text(&item["site"]),
                    text(&item["edge"])
                );
            }
            let tests: Vec<String> =
                answer["tests_affected"].as_array().into_iter().flatten().map(test_line).collect();
            if tests.is_empty() {
                let _ = writeln!(out, "tests affected: none found");
            } else {
                let total = answer["tests_total"].as_u64().unwrap_or(tests.len() as u64);
                let listed = if total > tests.len() as u64 {
                    format!(" (the first {} are listed; --tests-limit lists more)", tests.len())
                } else {
                    String::new()
                };
                let _ = writeln!(out, "tests affected: {total}{listed}");
                for test in tests.iter().take(MAX_TESTS_SHOWN) {
                    let _ = writeln!(out, "  {test}");
                }
                if tests.len() > MAX_TESTS_SHOWN {
                    let _ = writeln!(
                        out,
                        "  … {} more (--json lists them all)",
                        tests.len() - MAX_TESTS_SHOWN
                    );
                }
            }
        }
        "ownership" => {
            let _ = writeln!(
                out,
                "ownership of {} ({} lines)",
                text(&answer["range"]),
                answer["total_lines"]
            );
            for owner in answer["owners"].as_array().into_iter().flatten() {
                let _ = writeln!(
                    out,
                    "  {:<24} {:>5} lines {:>5.1}%  {} commits  latest {} {}",
                    format!("{} <{}>", text(&owner["author"]), text(&owner["email"])),
                    owner["lines"],
                    owner["share"].as_f64().unwrap_or(0.0) * 100.0,
                    owner["commits"],
                    &text(&owner["latest"]["commit"])
                        [..text(&owner["latest"]["commit"]).len().min(10)],
                    text(&owner["latest"]["summary"])
                );
            }
            if answer["excluded_bot_lines"].as_u64().unwrap_or(0) > 0 {
                let _ = writeln!(
                    out,
                    "  ({} lines by bots left out: {})",
                    answer["excluded_bot_lines"], answer["excluded_bots"]
                );
            }
            if let Some(note) = answer["note"].as_str() {
                let _ = writeln!(out, "note: {note}");
            }
        }
        "changes" => {
            let _ = writeln!(out, "{} files changed; changed symbols:", answer["files_changed"]);
            for symbol in answer["changed"].as_array().into_iter().flatten() {
                let renamed = symbol["renamed_from"]
                    .as_str()
                    .map(|from| format!(" (file renamed from {from})"))
                    .unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  {:<8} {}  {}:{}{renamed}",
                    text(&symbol["change"]),
                    text(&symbol["qualified_name"]),
                    text(&symbol["path"]),
                    symbol["line"]
                );
            }
            let _ =
                writeln!(out, "impact: {} dependents, {} break", answer["total"], answer["breaks"]);
            for item in items(answer) {
                let _ = writeln!(
                    out,
                    "  {:<6} d{} {:.2}  {}  {}",
                    text(&item["severity"]),
                    item["distance"],
                    item["confidence"].as_f64().unwrap_or(0.0),
                    text(&item["qualified_name"]),
                    text(&item["site"])
                );
            }
            let tests: Vec<&str> = answer["tests_affected"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|test| text(&test["qualified_name"]))
                .collect();
            let _ = writeln!(
                out,
                "tests affected: {}",
                if tests.is_empty() { "none found".to_string() } else { tests.join(", ") }
            );
        }
        "context" => {
            let subject = &answer["subject"];
            let name =
                subject["qualified_name"].as_str().or(subject["path"].as_str()).unwrap_or("");
            let chain = answer["chain"].as_array().cloned().unwrap_or_default();
            let _ = writeln!(out, "context of {name}: {} entries", chain.len());
            for entry in &chain {
                let tip = if answer["tip"] == entry["id"] { " [tip]" } else { "" };
                let _ = writeln!(
                    out,
                    "  {} {:<10} {}  ({}, {}){tip}",
                    text(&entry["created_at"]),
                    text(&entry["type"]),
                    text(&entry["title"]),
                    text(&entry["tether"]),
                    text(&entry["file"])
                );
                let _ = writeln!(out, "      {}", text(&entry["staleness"]["summary"]));
                if entry["needs_recheck"]["status"] != "fine" {
                    let _ = writeln!(out, "      needs recheck: {}", entry["needs_recheck"]);
                }
            }
            for problem in answer["memory_problems"].as_array().into_iter().flatten() {
                let _ = writeln!(out, "  problem: {}", text(problem));
            }
        }
        "search_memory" => {
            let _ = writeln!(out, "{} entries match", answer["total"]);
            for entry in answer["items"].as_array().into_iter().flatten() {
                let _ = writeln!(
                    out,
                    "  {:.1}  {} {:<10} {}  {}",
                    entry["score"].as_f64().unwrap_or(0.0),
                    text(&entry["created_at"]),
                    text(&entry["type"]),
                    text(&entry["title"]),
                    text(&entry["file"])
                );
            }
        }
        "coverage_import" => {
            let _ = writeln!(
                out,
                "runtime evidence: {} files, {} executed lines, {} test contexts, recorded at {}",
                answer["files"],
                answer["lines"],
                answer["contexts"],
                answer["commit"].as_str().unwrap_or("no commit")
            );
            if answer["files_outside_the_repository"].as_u64().unwrap_or(0) > 0 {
                let _ = writeln!(
                    out,
                    "  {} measured files are not in this repository (left out)",
                    answer["files_outside_the_repository"]
                );
            }
        }
        "record" => {
            let _ = writeln!(out, "recorded {} in {}", text(&answer["id"]), text(&answer["file"]));
            if let Some(commit) = answer["pinned_commit"].as_str() {
                let _ = writeln!(out, "  pinned to {commit} ({})", answer["pinned_files"]);
            }
        }
        "callers" | "callees" | "imports" => {
            let subject = &answer["subject"];
            let _ = writeln!(
                out,
                "{method} of {} ({}, {}:{}): {}",
                text(&subject["qualified_name"]),
                text(&subject["kind"]),
                text(&subject["path"]),
                subject["line"],
                answer["total"]
            );
            for item in items(answer) {
                let _ = writeln!(
                    out,
                    "  {}  {}  {:.2} {}{}",
                    text(&item["qualified_name"]),
                    text(&item["site"]),
                    item["confidence"].as_f64().unwrap_or(0.0),
                    text(&item["rule"]),
                    if method == "imports" {
                        format!(" ({})", text(&item["direction"]))
                    } else {
                        String::new()
                    }
                );
            }
        }
        "lookup" => {
            if let Some(census) = answer.get("census") {
                let _ = writeln!(
                    out,
                    "census: {} files, symbols {}, edges {}, {} unresolved call sites",
                    census["files"],
                    census["symbols_by_kind"],
                    census["edges_by_kind"],
                    census["unresolved_calls"]
                );
            } else {
                let _ =
                    writeln!(out, "{} symbols match {:?}", answer["total"], text(&answer["query"]));
                for item in items(answer) {
                    let _ = writeln!(
                        out,
                        "  {}  {}  {}:{}  id {}",
                        text(&item["qualified_name"]),
                        text(&item["kind"]),
                        text(&item["path"]),
                        item["line"],
                        text(&item["id"])
                    );
                }
            }
        }
        _ => {
            let _ = writeln!(out, "{answer}");
        }
    }
    if let Some(cursor) = answer["next_cursor"].as_str() {
        let _ = writeln!(out, "more: --cursor {cursor}");
    }
    if let Some(completeness) = answer.get("completeness") {
        if completeness["status"] == "exact" {
            let _ = writeln!(out, "complete: exact");
        } else {
            let causes: Vec<String> =
                completeness["causes"].as_array().into_iter().flatten().map(cause_text).collect();
            let _ = writeln!(out, "complete: lower bound; {}", causes.join("; "));
        }
    }
    if let Some(freshness) = answer.get("freshness") {
        let _ = writeln!(out, "{}", freshness_text(freshness));
    }
    if let Some(next) = answer["next"].as_str() {
        let _ = writeln!(out, "next: {next}");
    }
    out
}

pub fn status_text(status: &Value) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "tether daemon pid {} serving {}", status["pid"], text(&status["root"]));
    let _ = writeln!(out, "  socket    {}", text(&status["socket"]));
    let _ = writeln!(out, "  database  {}", text(&status["database"]));
    let _ = writeln!(
        out,
        "  ready     {} (rebuilding: {}, rebuilds: {})",
        status["ready"], status["rebuilding"], status["rebuilds"]
    );
    if let Some(error) = status["last_error"].as_str() {
        let _ = writeln!(out, "  last error {error}");
    }
    if let Some(freshness) = status.get("freshness").filter(|freshness| !freshness.is_null()) {
        let _ = writeln!(out, "  {}", freshness_text(freshness));
    }
    out
}

fn freshness_text(freshness: &Value) -> String {
    let commit = freshness["indexed_commit"]
        .as_str()
        .map(|commit| &commit[..commit.len().min(12)])
        .unwrap_or("(no commit)");
    let moved = if freshness["head_moved"] == true {
        ", HEAD has moved since: answers may be stale"
    } else {
        ""
    };
    let uncommitted = freshness["uncommitted_files"].as_array().map(|files| files.len());
    let uncommitted = match uncommitted {
        Some(0) => String::new(),
        Some(count) => format!(", {count} source files with uncommitted changes"),
        None => String::new(),
    };
    format!("indexed at {commit}{moved}{uncommitted}")
}

fn cause_text(cause: &Value) -> String {
    match cause["kind"].as_str() {
        Some("unresolved_call_sites") => {
            let example = cause["examples"].as_array().and_then(|examples| examples.first()).map(|example| format!(", e.g. {} {}", text(&example["site"]), text(&example["callee"]))).unwrap_or_default();
            format!("{} unresolved call sites could call {:?}{example}", cause["count"], text(&cause["name"]))
        }
        Some("uncertain_edges") => format!("{} edges are dynamic, ambiguous or guessed", cause["count"]),
        Some("unparsed_files") => format!("{} files were not parsed", cause["count"]),
        Some("escaped_value") => {
            let escape = cause["escapes"].as_array().and_then(|escapes| escapes.first()).map(|escape| format!(" (e.g. at {})", text(&escape["site"]))).unwrap_or_default();
            let example = cause["examples"].as_array().and_then(|examples| examples.first()).map(|example| format!(", e.g. {} {}", text(&example["site"]), text(&example["callee"]))).unwrap_or_default();
            format!("used as a value{escape}: {} unresolved calls through values could call it{example}", cause["count"])
        }
        Some("implicit_invocation") => format!("called by the language without a call expression: {}", first_example(cause)),
        Some("called_from_outside") => format!("called from outside the project: {}", first_example(cause)),
        Some("overrides") => {
            let example = cause["examples"].as_array().and_then(|examples| examples.first()).map(|example| format!(", e.g. {} {}", text(&example["site"]), text(&example["callee"]))).unwrap_or_default();
            format!("{} calls of the base method it overrides may dispatch to it{example}", cause["count"])
        }
        Some("depth_limit") => format!("{} symbols at depth {} have more dependents (raise --depth; tests affected count them already)", cause["count"], cause["depth"]),
        Some("dirty_files") => format!("{} source files changed on disk since the graph was built, e.g. {}", cause["count"], first_example(cause)),
        _ => cause.to_string(),
    }
}

/// A cause's first example (a string), with how many more there are.
fn first_example(cause: &Value) -> String {
    let examples = cause["examples"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let first = examples.first().and_then(Value::as_str).unwrap_or("");
    let count = cause["count"].as_u64().unwrap_or(examples.len() as u64);
    if count > 1 {
        format!("{first} (and {} more)", count - 1)
    } else {
        first.to_string()
    }
}

fn items(answer: &Value) -> impl Iterator<Item = &Value> {
    answer["items"].as_array().into_iter().flatten()
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

/// A listed test, with why when runtime evidence had a part (`executed`, `stale` evidence).
fn test_line(test: &Value) -> String {
    let why: Vec<&str> =
        test["why"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let mark = match (why.as_slice(), test["evidence"].as_str()) {
        (["static"], _) | ([], _) => String::new(),
        (_, Some("stale")) => format!(" [{}, evidence stale]", why.join("+")),
        _ => format!(" [{}]", why.join("+")),
    };
    format!("{} ({}:{}){mark}", text(&test["qualified_name"]), text(&test["path"]), test["line"])
}
