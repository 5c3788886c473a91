//! Rendering a daemon answer for a model: compact text (one line per item, then completeness,
//! freshness and the suggested next call) or JSON, both fitted to `budget_tokens`.

use tether_protocol::Value;

use crate::budget::{fit_json_to_budget, fit_text_to_budget, ListContinuation, TextSections};

/// How a tool's answer is presented.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Text,
    Json,
}

/// Everything the rendering needs besides the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderRequest {
    pub tool_name: String,
    pub format: OutputFormat,
    pub budget_tokens: u64,
    /// The offset of the page the daemon answered (the request's `o:<n>` cursor, or 0).
    pub cursor_offset: u64,
    pub paged_by_cursor: bool,
}

/// The most tests or changed symbols listed in the text header before "and N more".
const HEADER_LIST_LIMIT: usize = 10;
const CHANGED_SYMBOLS_LIMIT: usize = 30;

/// Text of a string field, or "?" when absent.
fn text_of<'answer>(value: &'answer Value, key: &str) -> &'answer str {
    value.get(key).and_then(Value::as_str).unwrap_or("?")
}

fn number_of(value: &Value, key: &str) -> String {
    value
        .get(key)
        .filter(|field| field.is_number())
        .map(Value::to_string)
        .unwrap_or_else(|| "?".to_string())
}

/// `qualified_name (kind) path:line`: how every item names its symbol.
pub fn symbol_line(symbol: &Value) -> String {
    format!(
        "{} ({}) {}:{}",
        text_of(symbol, "qualified_name"),
        text_of(symbol, "kind"),
        text_of(symbol, "path"),
        number_of(symbol, "line")
    )
}

fn with_id(line: String, symbol: &Value) -> String {
    match symbol.get("id").and_then(Value::as_str) {
        Some(id) => format!("{line} · id {id}"),
        None => line,
    }
}

/// The key under which a tool's answer lists its items.
fn item_list_key(tool_name: &str, answer: &Value) -> Option<&'static str> {
    let key = match tool_name {
        "ownership" => "owners",
        "context" => "chain",
        _ => "items",
    };
    answer.get(key).and_then(Value::as_array).map(|_| key)
}

fn item_noun(tool_name: &str) -> &'static str {
    match tool_name {
        "ownership" => "owners",
        "context" => "entries",
        _ => "items",
    }
}

/// One line for one item of a tool's answer.
fn item_line(tool_name: &str, item: &Value) -> String {
    match tool_name {
        "blast" | "changes" => {
            let mut line = format!(
                "{} d{} {} · {} at {} · conf {}",
                text_of(item, "severity"),
                number_of(item, "distance"),
                symbol_line(item),
                text_of(item, "edge"),
                text_of(item, "site"),
                number_of(item, "confidence")
            );
            let via: Vec<&str> = item
                .get("via")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if via.len() > 2 {
                line.push_str(&format!(" · via {}", via[1..via.len() - 1].join(" → ")));
            }
            with_id(line, item)
        }
        "callers" | "callees" | "imports" => {
            let mut line = format!(
                "{} · at {} · conf {} {}",
                symbol_line(item),
                text_of(item, "site"),
                number_of(item, "confidence"),
                text_of(item, "rule")
            );
            if let Some(direction) = item.get("direction").and_then(Value::as_str) {
                line.push_str(&format!(" · {direction}"));
            }
            with_id(line, item)
        }
        "ownership" => {
            let share = item
                .get("share")
                .and_then(Value::as_f64)
                .map(|share| format!("{:.0}%", share * 100.0))
                .unwrap_or_else(|| "?".to_string());
            let latest = item.get("latest").cloned().unwrap_or(Value::Null);
            let commit: String = text_of(&latest, "commit").chars().take(10).collect();
            format!(
                "{} <{}> · {} lines ({share}) · {} commits · latest {commit} {}",
                text_of(item, "author"),
                text_of(item, "email"),
                number_of(item, "lines"),
                number_of(item, "commits"),
                text_of(&latest, "summary")
            )
        }
        "context" => {
            let staleness =
                item.get("staleness").map(|staleness| text_of(staleness, "summary")).unwrap_or("?");
            let recheck =
                item.get("needs_recheck").map(|recheck| text_of(recheck, "status")).unwrap_or("?");
            format!(
                "{} {} {:?} [{}] {} · {} tether · {staleness} · recheck {recheck}",
                text_of(item, "id"),
                text_of(item, "type"),
                text_of(item, "title"),
                text_of(item, "status"),
                text_of(item, "file"),
                text_of(item, "tether")
            )
        }
        "search_memory" => {
            let tags: Vec<&str> = item
                .get("tags")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            let mut line = format!(
                "{} {} {:?} [{}] {} · score {}",
                text_of(item, "id"),
                text_of(item, "type"),
                text_of(item, "title"),
                text_of(item, "status"),
                text_of(item, "file"),
                number_of(item, "score")
            );
            if !tags.is_empty() {
                line.push_str(&format!(" · tags {}", tags.join(", ")));
            }
            line
        }
        _ => with_id(symbol_line(item), item),
    }
}

/// The lines before the items: what was asked and the totals.
fn head_lines(tool_name: &str, answer: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    match tool_name {
        "blast" | "changes" => {
            if tool_name == "changes" {
                let changed: Vec<&Value> =
                    answer.get("changed").and_then(Value::as_array).into_iter().flatten().collect();
                lines.push(format!(
                    "changes: {} files, {} symbols changed",
                    number_of(answer, "files_changed"),
                    changed.len()
                ));
                for symbol in changed.iter().take(CHANGED_SYMBOLS_LIMIT) {
                    let mut line = format!(
                        "  {} {} · {} lines",
                        text_of(symbol, "change"),
                        symbol_line(symbol),
                        number_of(symbol, "lines_changed")
                    );
                    if let Some(renamed_from) = symbol.get("renamed_from").and_then(Value::as_str) {
                        line.push_str(&format!(" · renamed from {renamed_from}"));
                    }
                    lines.push(line);
                }
                if changed.len() > CHANGED_SYMBOLS_LIMIT {
                    lines.push(format!(
                        "  … and {} more changed symbols (format \"json\" lists them all)",
                        changed.len() - CHANGED_SYMBOLS_LIMIT
                    ));
                }
            }
            let subject = answer.get("subject").and_then(Value::as_str).unwrap_or("the subject");
            lines.push(format!(
                "blast of {subject} ({} seeds, depth {}): {} dependents, {} breaks",
                number_of(answer, "seeds"),
                number_of(answer, "depth"),
                number_of(answer, "total"),
                number_of(answer, "breaks")
            ));
            let tests: Vec<&Value> = answer
                .get("tests_affected")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .collect();
            if !tests.is_empty() {
                // A test only runtime evidence names says so (`executed`, `stale` evidence).
                let mark = |test: &Value| match (
                    test.get("why")
                        .and_then(Value::as_array)
                        .map(|why| why.iter().any(|why| why == "static")),
                    test.get("evidence").and_then(Value::as_str),
                ) {
                    (Some(false), Some("stale")) => " (executed, stale evidence)",
                    (Some(false), _) => " (executed)",
                    _ => "",
                };
                let names: Vec<String> = tests
                    .iter()
                    .take(HEADER_LIST_LIMIT)
                    .map(|test| {
                        format!(
                            "{} {}:{}{}",
                            text_of(test, "qualified_name"),
                            text_of(test, "path"),
                            number_of(test, "line"),
                            mark(test)
                        )
                    })
                    .collect();
                let total =
                    answer.get("tests_total").and_then(Value::as_u64).unwrap_or(tests.len() as u64)
                        as usize;
                let more = if total > HEADER_LIST_LIMIT.min(tests.len()) {
                    format!(", and {} more", total - HEADER_LIST_LIMIT.min(tests.len()))
                } else {
                    String::new()
                };
                lines.push(format!("tests affected ({total}): {}{more}", names.join(", ")));
            }
        }
        "callers" | "callees" | "imports" => {
            let subject = answer
                .get("subject")
                .map(|subject| with_id(symbol_line(subject), subject))
                .unwrap_or_else(|| "?".to_string());
            lines.push(format!("{tool_name} of {subject}: {} total", number_of(answer, "total")));
        }
        "lookup" => lines.push(format!(
            "lookup {:?}: {} matches",
            text_of(answer, "query"),
            number_of(answer, "total")
        )),
        "search_memory" => lines.push(format!(
            "memory entries matching {:?}: {} total",
            text_of(answer, "query"),
            number_of(answer, "total")
        )),
        "ownership" => {
            lines.push(format!(
                "ownership of {}: {} lines",
                text_of(answer, "range"),
                number_of(answer, "total_lines")
            ));
        }
        "context" => {
            let subject = answer
                .get("subject")
                .map(|subject| {
                    if subject.get("qualified_name").is_some() {
                        with_id(symbol_line(subject), subject)
                    } else {
                        text_of(subject, "path").to_string()
                    }
                })
                .unwrap_or_else(|| "?".to_string());
            let count = answer.get("chain").and_then(Value::as_array).map(Vec::len).unwrap_or(0);
            lines.push(format!("context of {subject}: {count} memory entries, oldest first"));
        }
        _ => {}
    }
    lines
}

/// Completeness: `exact`, or `lower_bound` with what it implies and each cause.
pub fn completeness_lines(completeness: &Value) -> Vec<String> {
    let status = text_of(completeness, "status");
    if status != "lower_bound" {
        return vec![format!("completeness: {status}")];
    }
    let mut lines = vec!["completeness: lower_bound — the list may be missing items; the causes say why; do not conclude that nothing depends on the symbol".to_string()];
    for cause in completeness.get("causes").and_then(Value::as_array).into_iter().flatten() {
        let examples: Vec<String> = cause
            .get("examples")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .take(3)
            .map(|example| match example {
                Value::String(text) => text.clone(),
                other => format!("{} calls {}", text_of(other, "site"), text_of(other, "callee")),
            })
            .collect();
        let examples = if examples.is_empty() {
            String::new()
        } else {
            format!(" (e.g. {})", examples.join("; "))
        };
        let line = match text_of(cause, "kind") {
            "unresolved_call_sites" => format!("  cause: {} call sites of {:?} could not be bound and may be callers{examples}", number_of(cause, "count"), text_of(cause, "name")),
            "uncertain_edges" => format!("  cause: {} dynamic, ambiguous or name-only edges on the paths (their items are marked maybe)", number_of(cause, "count")),
            "unparsed_files" => format!("  cause: {} files were not parsed{examples}", number_of(cause, "count")),
            "escaped_value" => {
                let escapes: Vec<String> = cause.get("escapes").and_then(Value::as_array).into_iter().flatten().take(3).map(|escape| format!("{} {}", text_of(escape, "site"), text_of(escape, "how"))).collect();
                format!("  cause: escaped_value — it is used as a value ({}); {} unresolved calls through values may call it{examples}", escapes.join("; "), number_of(cause, "count"))
            }
            "implicit_invocation" => format!("  cause: implicit_invocation — the language calls it without a call expression{examples}"),
            "called_from_outside" => format!("  cause: called_from_outside — code outside the project may call it{examples}"),
            "overrides" => format!("  cause: overrides — {} calls of the base method it overrides may dispatch to it{examples}", number_of(cause, "count")),
            "depth_limit" => format!("  cause: depth_limit — {} symbols at depth {} have more dependents; raise depth to list them (tests_affected already counts them)", number_of(cause, "count"), number_of(cause, "depth")),
            "dirty_files" => format!("  cause: dirty_files — {} source files changed on disk since the graph was built; callers may hide there{examples}", number_of(cause, "count")),
            other => format!("  cause: {other} {cause}"),
        };
        lines.push(line);
    }
    lines
}

/// Freshness: the indexed commit against HEAD, and uncommitted files.
pub fn freshness_line(freshness: &Value) -> String {
    let short = |key: &str| -> String {
        freshness
            .get(key)
            .and_then(Value::as_str)
            .map(|commit| commit.chars().take(10).collect())
            .unwrap_or_else(|| "none".to_string())
    };
    let branch = freshness
        .get("head_branch")
        .and_then(Value::as_str)
        .map(|branch| format!(" on {branch}"))
        .unwrap_or_default();
    let head_moved = freshness.get("head_moved").and_then(Value::as_bool).unwrap_or(false);
    let uncommitted = match freshness.get("uncommitted_files") {
        Some(Value::Array(files)) => files.len().to_string(),
        _ => "unknown".to_string(),
    };
    let stale = if freshness.get("stale").and_then(Value::as_bool).unwrap_or(false) {
        " — stale: the graph may not reflect the working tree"
    } else {
        ""
    };
    format!("freshness: indexed {} · HEAD {}{branch} · head moved: {} · uncommitted files: {uncommitted}{stale}", short("indexed_commit"), short("head_commit"), if head_moved { "yes" } else { "no" })
}

/// The lines after the items: notes, completeness, freshness and the next call.
fn tail_lines(tool_name: &str, answer: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    match tool_name {
        "ownership" => {
            if let Some(lines_uncommitted) = answer
                .get("not_committed_yet")
                .filter(|count| count.as_u64().is_some_and(|count| count > 0))
            {
                lines.push(format!("not committed yet: {lines_uncommitted} lines"));
            }
            if let Some(bots) = answer
                .get("excluded_bots")
                .and_then(Value::as_array)
                .filter(|bots| !bots.is_empty())
            {
                let names: Vec<&str> = bots.iter().filter_map(Value::as_str).collect();
                lines.push(format!(
                    "excluded bots: {} ({} lines)",
                    names.join(", "),
                    number_of(answer, "excluded_bot_lines")
                ));
            }
        }
        "context" => {
            lines.push(format!(
                "tip: {}",
                answer.get("tip").and_then(Value::as_str).unwrap_or("none")
            ));
            if let Some(problems) = answer
                .get("memory_problems")
                .and_then(Value::as_array)
                .filter(|problems| !problems.is_empty())
            {
                lines.push(format!(
                    "memory problems: {}",
                    problems
                        .iter()
                        .filter_map(Value::as_str)
                        .take(HEADER_LIST_LIMIT)
                        .collect::<Vec<_>>()
                        .join("; ")
                ));
            }
        }
        _ => {}
    }
    if let Some(note) = answer.get("note").and_then(Value::as_str) {
        lines.push(format!("note: {note}"));
    }
    if let Some(completeness) = answer.get("completeness") {
        lines.extend(completeness_lines(completeness));
    }
    if let Some(freshness) = answer.get("freshness").filter(|freshness| freshness.is_object()) {
        lines.push(freshness_line(freshness));
    }
    if let Some(next) = answer.get("next").and_then(Value::as_str) {
        lines.push(format!("next: {next}"));
    }
    lines
}

/// An answer without a known list (`record`, the census): its fields, one per line.
fn generic_sections(answer: &Value) -> TextSections {
    let mut sections = TextSections::default();
    match answer {
        Value::Object(object) => {
            for (key, value) in object {
                if matches!(key.as_str(), "freshness" | "completeness" | "next" | "note") {
                    continue;
                }
                let shown = match value {
                    Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                sections.head.push(format!("{key}: {shown}"));
            }
            sections.tail = tail_lines("", answer);
        }
        other => sections.head.push(other.to_string()),
    }
    sections
}

/// Renders the daemon's answer to one tool call.
pub fn render_answer(request: &RenderRequest, answer: &Value) -> String {
    let list_key = item_list_key(&request.tool_name, answer);
    let items: &[Value] = list_key
        .and_then(|key| answer.get(key))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let continuation = list_key.map(|_| ListContinuation {
        paged_by_cursor: request.paged_by_cursor,
        page_offset: request.cursor_offset,
        total: answer.get("total").and_then(Value::as_u64),
        daemon_next_cursor: answer.get("next_cursor").and_then(Value::as_str).map(str::to_string),
        item_noun: item_noun(&request.tool_name),
    });
    match request.format {
        OutputFormat::Json => fit_json_to_budget(
            answer,
            list_key,
            &["tests_affected", "changed"],
            continuation.as_ref(),
            request.budget_tokens,
        ),
        OutputFormat::Text => {
            let sections = match list_key {
                Some(_) => TextSections {
                    head: head_lines(&request.tool_name, answer),
                    items: items.iter().map(|item| item_line(&request.tool_name, item)).collect(),
                    tail: tail_lines(&request.tool_name, answer),
                },
                None => generic_sections(answer),
            };
            fit_text_to_budget(&sections, continuation.as_ref(), request.budget_tokens)
        }
    }
}
