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
        context_unchanged: false,
    }
}

/// A blast answer with many tests affected and many causes, as on a large repository.
fn large_blast_answer(item_count: usize, total: usize, next_cursor: Option<&str>) -> Value {
    let mut answer = sample_blast_answer(item_count, total, next_cursor);
    let tests: Vec<Value> = (0..40)
        .map(|number| json!({
            "id": format!("{:016x}", 1000 + number), "qualified_name": format!("tests.test_module_{number}.test_case_{number}"),
            "kind": "function", "path": format!("tests/test_module_{number}.py"), "line": 4, "end_line": 6,
            "is_test": true, "why": ["static"],
        }))
        .collect();
    answer["tests_affected"] = json!(tests);
    answer["tests_total"] = json!(60);
    answer["tests_truncated"] = json!(true);
    let causes: Vec<Value> = (0..12)
        .map(|number| json!({ "kind": "unresolved_call_sites", "name": format!("name_{number}"), "count": 3, "examples": [{ "site": format!("app/dyn_{number}.py:7"), "callee": format!("obj.name_{number}") }] }))
        .collect();
    answer["completeness"]["causes"] = json!(causes);
    answer
}

fn characters(text: &str) -> u64 {
    text.chars().count() as u64
}

fn item_lines(text: &str) -> usize {
    text.lines().filter(|line| line.starts_with("breaks d") || line.starts_with("maybe d")).count()
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
    assert_eq!(lines[1], "tests affected (1):");
    assert_eq!(lines[2], "  tests.test_core.test_compute tests/test_core.py:4");
    assert_eq!(lines[3], "breaks d1 app.module_0.handler_0 (function) app/module_0.py:10 · CALLS at app/module_0.py:12 · conf 0.95 · id 0000000000000000");
    assert_eq!(lines[5], "maybe d2 app.module_2.handler_2 (function) app/module_2.py:12 · CALLS at app/module_2.py:14 · conf 0.95 · via app.api.handle · id 0000000000000002");
    assert_eq!(lines[6], "completeness: lower_bound — the list may be missing items; the causes say why; do not conclude that nothing depends on the symbol");
    assert_eq!(lines[7], "  cause: 3 call sites of \"compute\" could not be bound and may be callers (e.g. app/dyn.py:7 calls obj.compute)");
    assert_eq!(lines[8], "  cause: 1 dynamic, ambiguous or name-only edges on the paths (their items are marked maybe)");
    assert_eq!(lines[9], "freshness: indexed 0123456789 · HEAD 0123456789 on main · head moved: no · uncommitted files: 2 — stale: the graph may not reflect the working tree");
    assert!(lines[10].starts_with("next: callers {\"symbol\": \"app.module_0.handler_0\"}"));
    assert_eq!(lines.len(), 11, "no continuation line when the whole list is shown:\n{text}");
}

#[test]
fn the_daemons_next_cursor_is_passed_through_when_nothing_is_cut() {
    let answer = sample_blast_answer(3, 30, Some("o:23"));
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 6000, 20),
        &typed_answer("blast", answer.clone()),
    );
    assert!(
        text.contains("… 7 more items; call again with the same arguments and cursor \"o:23\""),
        "{text}"
    );
}

#[test]
fn an_oversized_text_answer_is_cut_with_one_cursor_and_keeps_completeness_and_freshness() {
    let answer = sample_blast_answer(200, 500, Some("o:240"));
    let budget_tokens = 800;
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, budget_tokens, 40),
        &typed_answer("blast", answer.clone()),
    );
    assert!(characters(&text) <= budget_tokens * CHARACTERS_PER_TOKEN, "{}", characters(&text));
    let shown = item_lines(&text);
    assert!(shown > 0 && shown < 200, "shown {shown}");
    let expected_note = format!(
        "… {} more items; call again with the same arguments and cursor \"o:{}\"",
        500 - 40 - shown,
        40 + shown
    );
    assert!(text.contains(&expected_note), "missing {expected_note:?} in\n{text}");
    assert!(!text.contains("o:240"), "the daemon's cursor would skip the cut items");
    assert_eq!(text.matches("cursor").count(), 1, "one cursor, said once:\n{text}");
    assert!(!text.contains("next: callers"), "the daemon's next would not page:\n{text}");
    assert!(text.contains("completeness: lower_bound"));
    assert!(text.contains("freshness: indexed 0123456789"));
}

#[test]
fn the_smallest_budget_shows_one_item_and_counts_the_tests_and_causes_it_cuts() {
    let answer = large_blast_answer(50, 50, None);
    let budget_tokens = crate::tools::MINIMUM_BUDGET_TOKENS;
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, budget_tokens, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(
        characters(&text) <= budget_tokens * CHARACTERS_PER_TOKEN,
        "{}:\n{text}",
        characters(&text)
    );
    assert!(item_lines(&text) >= 1, "a page always shows an item:\n{text}");
    let shown = item_lines(&text);
    assert!(text.contains(&format!("cursor \"o:{shown}\"")), "{text}");
    assert!(text.contains("tests affected (60):"), "{text}");
    assert!(text.contains("more tests (a larger budget_tokens lists them)"), "{text}");
    assert!(text.contains("more causes (a larger budget_tokens lists them)"), "{text}");
    assert!(text.contains("completeness: lower_bound"));
    assert!(text.contains("freshness: "));
}

#[test]
fn following_the_cursor_of_each_cut_page_shows_every_item_once() {
    let total = 120;
    let mut offset = 0;
    let mut seen = Vec::new();
    while offset < total {
        // The daemon answers a page of up to 50 items from the offset.
        let page: Vec<Value> = (offset..total.min(offset + 50))
            .map(|number| crate::test_support::sample_blast_item(number, 1))
            .collect();
        let mut answer = large_blast_answer(0, total, None);
        let next_cursor = (offset + 50 < total).then(|| format!("o:{}", offset + 50));
        answer["items"] = json!(page);
        answer["next_cursor"] = json!(next_cursor);
        let text = render_answer(
            &request_for("blast", OutputFormat::Text, 300, offset as u64),
            &typed_answer("blast", answer),
        );
        assert!(characters(&text) <= 300 * CHARACTERS_PER_TOKEN, "{text}");
        seen.extend(
            text.lines().filter_map(|line| line.split(" · id ").nth(1)).map(str::to_string),
        );
        let Some(cursor) = text.split("cursor \"o:").nth(1) else { break };
        offset = cursor.split('"').next().unwrap().parse().unwrap();
    }
    let expected: Vec<String> = (0..total).map(|number| format!("{number:016x}")).collect();
    assert_eq!(seen, expected);
}

#[test]
fn an_oversized_json_answer_is_cut_with_one_cursor_and_keeps_completeness_and_freshness() {
    let answer = sample_blast_answer(200, 200, None);
    let budget_tokens = 1000;
    let rendered = render_answer(
        &request_for("blast", OutputFormat::Json, budget_tokens, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(characters(&rendered) <= budget_tokens * CHARACTERS_PER_TOKEN);
    let parsed: Value = serde_json::from_str(&rendered).expect("the JSON rendering parses");
    let shown = parsed["items"].as_array().map(Vec::len).unwrap_or(0);
    assert!(shown > 0 && shown < 200);
    assert_eq!(parsed["truncated"]["shown"], json!(shown));
    assert_eq!(parsed["truncated"]["omitted"], json!(200 - shown));
    assert_eq!(parsed["next_cursor"], json!(format!("o:{shown}")));
    assert_eq!(parsed["truncated"]["cursor"], json!(format!("o:{shown}")));
    let next = parsed["next"].as_str().unwrap();
    assert!(next.contains(&format!("\"o:{shown}\"")), "next names the same cursor: {next}");
    assert_eq!(parsed["completeness"]["status"], json!("lower_bound"));
    assert_eq!(parsed["freshness"], sample_freshness());
}

#[test]
fn the_smallest_json_budget_shows_one_item_and_counts_the_lists_it_cuts() {
    let answer = large_blast_answer(50, 50, None);
    let budget_tokens = crate::tools::MINIMUM_BUDGET_TOKENS;
    let rendered = render_answer(
        &request_for("blast", OutputFormat::Json, budget_tokens, 0),
        &typed_answer("blast", answer.clone()),
    );
    assert!(characters(&rendered) <= budget_tokens * CHARACTERS_PER_TOKEN, "{rendered}");
    let parsed: Value = serde_json::from_str(&rendered).expect("the JSON rendering parses");
    assert!(!parsed["items"].as_array().unwrap().is_empty(), "{parsed}");
    let tests_kept = parsed["tests_affected"].as_array().unwrap().len();
    assert_eq!(parsed["tests_affected_omitted"], json!(40 - tests_kept), "{parsed}");
    let causes_kept = parsed["completeness"]["causes"].as_array().unwrap().len();
    assert_eq!(parsed["completeness"]["causes_omitted"], json!(12 - causes_kept), "{parsed}");
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

/// With fresh runtime evidence the tests come in tiers: the title counts both, each test says
/// its tier, the first tier first.
#[test]
fn tests_in_tiers_say_which_ran_the_subject() {
    let mut answer = sample_blast_answer(1, 1, None);
    answer["tests_affected"] = json!([
        { "id": "7ef08205a940bc9a", "qualified_name": "tests.test_core.test_compute", "kind": "function",
          "path": "tests/test_core.py", "line": 4, "end_line": 6, "is_test": true,
          "why": ["static", "executed"], "evidence": "fresh", "tier": "ran" },
        { "id": "7ef08205a940bc9b", "qualified_name": "tests.test_core.test_other", "kind": "function",
          "path": "tests/test_core.py", "line": 9, "end_line": 11, "is_test": true,
          "why": ["static"], "tier": "reachable" },
    ]);
    answer["tests_total"] = json!(2);
    answer["subject_evidence"] = json!("fresh");
    answer["tests_ran"] = json!(1);
    let text = render_answer(
        &request_for("blast", OutputFormat::Text, 6000, 0),
        &typed_answer("blast", answer),
    );
    assert!(
        text.contains("tests affected (2: 1 ran it by runtime evidence, break if the change breaks; 1 reachable only, may break):\n  tests.test_core.test_compute tests/test_core.py:4 [ran it]\n  tests.test_core.test_other tests/test_core.py:9 [reachable only]"),
        "{text}"
    );
}
