//! Tests of the rendering: the text of a blast answer, the daemon's cursor passed through,
//! and the budget cutting items (text and JSON) while keeping completeness and freshness.

use tether_protocol::{json, Value};

use crate::budget::CHARACTERS_PER_TOKEN;
use crate::render::{render_answer, OutputFormat, RenderRequest};
use crate::test_support::{sample_blast_answer, sample_freshness, typed_answer};

fn request_for(
    tool_name: &str,
    format: OutputFormat,
    budget_tokens: u64,
    cursor_offset: u64,
) -> RenderRequest {
    RenderRequest {
        tool_name: tool_name.to_string(),
        format,
        budget_tokens,
        cursor_offset,
        paged_by_cursor: tool_name != "ownership" && tool_name != "context",
    }
}

#[test]
fn blast_answer_renders_one_line_per_item_then_completeness_freshness_and_next() {
    let answer = sample_blast_answer(3, 3, None);
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 6000, 0),
        &typed_answer("blast", answer.clone()),
    );
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "blast of app.core.compute (1 seeds, depth 3): 3 dependents, 2 breaks");
    assert_eq!(lines[1], "tests affected (1): tests.test_core.test_compute tests/test_core.py:4");
    assert_eq!(lines[2], "breaks d1 app.module_0.handler_0 (function) app/module_0.py:10 · CALLS at app/module_0.py:12 · conf 0.95 · id 0000000000000000");
    assert_eq!(lines[4], "maybe d2 app.module_2.handler_2 (function) app/module_2.py:12 · CALLS at app/module_2.py:14 · conf 0.95 · via app.api.handle · id 0000000000000002");
    assert_eq!(lines[5], "completeness: lower_bound — the list may be missing items; the causes say why; do not conclude that nothing depends on the symbol");
    assert_eq!(lines[6], "  cause: 3 call sites of \"compute\" could not be bound and may be callers (e.g. app/dyn.py:7 calls obj.compute)");
    assert_eq!(lines[7], "  cause: 1 dynamic, ambiguous or name-only edges on the paths (their items are marked maybe)");
    assert_eq!(lines[8], "freshness: indexed 0123456789 · HEAD 0123456789 on main · head moved: no · uncommitted files: 2 — stale: the graph may not reflect the working tree");
    assert!(lines[9].starts_with("next: callers {\"symbol\": \"app.module_0.handler_0\"}"));
    assert_eq!(lines.len(), 10, "no continuation line when the whole list is shown:\n{text}");
}

#[test]
fn the_daemons_next_cursor_is_passed_through_when_nothing_is_cut() {
    let answer = sample_blast_answer(3, 30, Some("o:23"));
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 6000, 20),
        &typed_answer("blast", answer.clone()),
    );
    assert!(text.contains("… 7 more items; call again with cursor \"o:23\""), "{text}");
}

#[test]
fn an_oversized_text_answer_is_cut_with_a_cursor_and_keeps_completeness_and_freshness() {
    let answer = sample_blast_answer(200, 500, Some("o:240"));
    let budget_tokens = 800;
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, budget_tokens, 40),
        &typed_answer("blast", answer.clone()),
    );
    assert!(
        text.chars().count() as u64 <= budget_tokens * CHARACTERS_PER_TOKEN,
        "{} characters",
        text.chars().count()
    );
    let shown = text
        .lines()
        .filter(|line| line.starts_with("breaks d") || line.starts_with("maybe d"))
        .count();
    assert!(shown > 0 && shown < 200, "shown {shown}");
    let expected_note =
        format!("… {} more items; call again with cursor \"o:{}\"", 500 - 40 - shown, 40 + shown);
    assert!(text.contains(&expected_note), "missing {expected_note:?} in\n{text}");
    assert!(!text.contains("o:240"), "the daemon's cursor would skip the cut items");
    assert!(text.contains("completeness: lower_bound"));
    assert!(text.contains("freshness: indexed 0123456789"));
    assert!(text.contains("next: "));
}

#[test]
fn a_budget_too_small_for_any_item_still_keeps_completeness_and_freshness() {
    let answer = sample_blast_answer(50, 50, None);
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 10, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(text.contains("… 50 more items; call again with cursor \"o:0\""), "{text}");
    assert!(text.contains("completeness: lower_bound"));
    assert!(text.contains("freshness: "));
}

#[test]
fn an_oversized_json_answer_is_cut_with_a_cursor_and_keeps_completeness_and_freshness() {
    let answer = sample_blast_answer(200, 200, None);
    let budget_tokens = 1000;
    let rendered = render_answer(
        &request_for("blast", OutputFormat::Json, budget_tokens, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(rendered.chars().count() as u64 <= budget_tokens * CHARACTERS_PER_TOKEN);
    let parsed: Value = serde_json::from_str(&rendered).expect("the JSON rendering parses");
    let shown = parsed["items"].as_array().map(Vec::len).unwrap_or(0);
    assert!(shown > 0 && shown < 200);
    assert_eq!(parsed["truncated"]["shown"], json!(shown));
    assert_eq!(parsed["truncated"]["omitted"], json!(200 - shown));
    assert_eq!(parsed["next_cursor"], json!(format!("o:{shown}")));
    assert_eq!(parsed["completeness"]["status"], json!("lower_bound"));
    assert_eq!(parsed["freshness"], sample_freshness());
}

#[test]
fn a_json_answer_within_budget_is_the_daemons_answer() {
    let answer = sample_blast_answer(3, 3, None);
    let rendered = render_answer(
        &request_for("blast", OutputFormat::Json, 6000, 0),
        &typed_answer("blast", answer.clone()),
    );
    let parsed: Value = serde_json::from_str(&rendered).expect("the JSON rendering parses");
    assert_eq!(parsed, answer);
}

#[test]
fn owners_cut_by_the_budget_say_to_raise_it_since_ownership_has_no_cursor() {
    let owners: Vec<Value> = (0..100)
        .map(|number| json!({ "author": format!("Author {number}"), "email": format!("a{number}@example.com"), "lines": 10, "share": 0.01, "commits": 2, "latest": { "commit": "abcdef0123456789", "date_unix": 0, "summary": "a change" } }))
        .collect();
    let answer = json!({ "subject": { "path": "app/core.py" }, "range": "app/core.py:1-90", "total_lines": 90, "owners": owners, "not_committed_yet": 0, "excluded_bot_lines": 0, "excluded_bots": [], "note": null, "freshness": sample_freshness(), "next": "ask Author 0 first" });
    let text = render_answer(
        &request_for("ownership", OutputFormat::Text, 400, 0),
        &typed_answer("ownership", answer.clone()),
    );
    assert!(text.starts_with("ownership of app/core.py:1-90: 90 lines\nAuthor 0 <a0@example.com> · 10 lines (1%) · 2 commits · latest abcdef0123 a change"), "{text}");
    assert!(
        text.contains(
            "more owners cut to fit budget_tokens; call again with a larger budget_tokens"
        ),
        "{text}"
    );
    assert!(text.contains("freshness: "));
}

#[test]
fn exact_completeness_and_unknown_uncommitted_files_render_plainly() {
    let mut answer = sample_blast_answer(1, 1, None);
    answer["completeness"] = json!({ "status": "exact" });
    answer["freshness"]["uncommitted_files"] = Value::Null;
    answer["freshness"]["stale"] = json!(false);
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 6000, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(text.contains("\ncompleteness: exact\n"), "{text}");
    assert!(text.contains("uncommitted files: unknown\n"), "{text}");
    assert!(!text.contains("stale"), "{text}");
}

#[test]
fn an_answer_without_a_list_renders_its_fields() {
    let answer = json!({ "id": "decision-0007", "file": ".memory/decisions/0007.md", "pinned_commit": "abc", "pinned_files": [], "entry_commit": "def", "next": "context {\"symbol\": ...}" });
    let text = render_answer(
        &request_for("record", OutputFormat::Text, 6000, 0),
        &typed_answer("record", answer.clone()),
    );
    assert!(text.contains("id: decision-0007\n"), "{text}");
    assert!(text.contains("file: .memory/decisions/0007.md"), "{text}");
    assert!(text.ends_with("next: context {\"symbol\": ...}"), "{text}");
}
