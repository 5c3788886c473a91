//! `tether mcp` end to end: the program runs as a child process, an rmcp client drives it over
//! stdio against a fixture repository, every tool is called, an oversized answer is paged, and
//! malformed arguments get tool errors while the server keeps serving.

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::ServiceExt;
use tether_protocol::{json, Value};
use tether_tests::{python_environment, FixtureRepository, StopDaemonOnDrop, APP_FIXTURE};

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .map(|text| text.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

fn arguments(value: Value) -> serde_json::Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

#[test]
fn an_agent_answers_what_breaks_who_owns_and_why_through_mcp() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    repository.write(
        "app/core.py",
        "def compute(x):\n    return x + 2\n\ndef report(x):\n    return compute(x) * 2\n",
    );
    repository.commit_all_as("Bea", "bea@example.com", "compute adds two");
    let many: String =
        (0..80).map(|index| format!("def caller_{index}(x):\n    return compute(x)\n\n")).collect();
    repository.write("app/many.py", &format!("from app.core import compute\n\n{many}"));
    repository.commit_all("many callers");
    let root = repository.root().to_path_buf();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(async {
        let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
            .args(["mcp", "-C"])
            .arg(&root)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("tether mcp starts");
        let stdout = child.stdout.take().unwrap();
        let stdin = child.stdin.take().unwrap();
        let client = ().serve((stdout, stdin)).await.expect("the MCP session initializes");

        let tools = client.list_tools(None).await.expect("tools/list");
        let names: Vec<String> = tools.tools.iter().map(|tool| tool.name.to_string()).collect();
        assert_eq!(
            names,
            [
                "blast",
                "callers",
                "callees",
                "imports",
                "lookup",
                "changes",
                "ownership",
                "context",
                "search_memory",
                "health",
                "record",
                "record_trace",
                "recall"
            ]
        );

        let call = |name: &'static str, value: Value| {
            let client = &client;
            async move {
                client
                    .call_tool(CallToolRequestParams::new(name).with_arguments(arguments(value)))
                    .await
                    .expect("tools/call")
            }
        };
        // What breaks if I change compute, and which tests cover it.
        let blast = call("blast", json!({ "symbol": "app.core.compute" })).await;
        assert_eq!(blast.is_error, Some(false), "{}", text_of(&blast));
        let blast_text = text_of(&blast);
        assert!(
            blast_text.contains("app.api.handle") && blast_text.contains("test_core.test_report"),
            "{blast_text}"
        );
        for (tool, value) in [
            ("callers", json!({ "symbol": "compute" })),
            ("callees", json!({ "symbol": "app.core.report" })),
            ("imports", json!({ "symbol": "app.api" })),
            ("lookup", json!({ "query": "report" })),
            ("changes", json!({ "scope": "all" })),
            ("search_memory", json!({ "query": "compute" })),
            ("health", json!({})),
            ("health", json!({ "kind": "cycles", "folder": "app" })),
        ] {
            let result = call(tool, value).await;
            assert_eq!(result.is_error, Some(false), "{tool}: {}", text_of(&result));
        }
        // Who owns it.
        let ownership = call("ownership", json!({ "symbol": "app.core.compute" })).await;
        assert!(text_of(&ownership).contains("Bea"), "{}", text_of(&ownership));
        // Why it exists: record a decision pinned to the last commit, then ask.
        let head = repository.git(&["rev-parse", "HEAD~1"]).trim().to_string();
        let recorded = call(
            "record",
            json!({ "type": "decision", "title": "Compute adds two", "commit": head }),
        )
        .await;
        assert_eq!(recorded.is_error, Some(false), "{}", text_of(&recorded));
        let context =
            call("context", json!({ "symbol": "app.core.compute", "format": "json" })).await;
        let context: Value = serde_json::from_str(&text_of(&context)).expect("json format");
        assert_eq!(context["chain"][0]["title"], "Compute adds two", "{context}");

        // An oversized answer is paged within its budget.
        let paged = call(
            "callers",
            json!({ "symbol": "app.core.compute", "limit": 200, "budget_tokens": 300 }),
        )
        .await;
        let paged_text = text_of(&paged);
        assert!(
            paged_text.chars().count() <= 300 * 4,
            "the answer stays within its budget ({} chars): {paged_text}",
            paged_text.len()
        );
        assert!(paged_text.contains("cursor"), "{paged_text}");
        assert!(paged_text.contains("complete"), "completeness survives the cut: {paged_text}");

        // Malformed arguments are tool errors; the server keeps serving.
        let bad = call("blast", json!({ "symbol": 7 })).await;
        assert_eq!(bad.is_error, Some(true));
        let ambiguous = call("callers", json!({ "symbol": "nothing_like_this" })).await;
        assert_eq!(ambiguous.is_error, Some(true));
        let again = call("callers", json!({ "symbol": "app.core.compute" })).await;
        assert_eq!(again.is_error, Some(false));

        client.cancel().await.expect("the client closes");
        let _ = child.kill().await;
    });
}

/// The official MCP Python SDK (pinned), installed once into a virtualenv in cargo's
/// temporary folder.
fn python_mcp_sdk() -> std::path::PathBuf {
    let folder = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("mcp-python-sdk-2.3.0");
    python_environment(&folder, &["mcp==2.3.0"])
}

/// Runs a script of `tests/mcp_clients` with the SDK against `tether mcp` on `root` (about
/// `app.core.compute`); its output, after checking that it succeeded.
fn run_python_client(script: &str, root: &std::path::Path) -> String {
    run_python_client_with(script, root, "app.core.compute")
}

/// As `run_python_client`, with another third argument.
fn run_python_client_with(script: &str, root: &std::path::Path, argument: &str) -> String {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mcp_clients").join(script);
    let output = std::process::Command::new(python_mcp_sdk())
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_tether-test-cli"))
        .arg(root)
        .arg(argument)
        .output()
        .unwrap();
    let printed = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{printed}");
    printed
}

/// Tools whose answers are typed declare an `outputSchema` and return `structuredContent`;
/// the official Python SDK validates every result against the schema (also a page cut to a
/// small budget), so a schema and an answer that drift apart fail here.
#[test]
fn a_real_mcp_client_validates_structured_content_against_output_schemas() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    let many: String =
        (0..40).map(|index| format!("def caller_{index}(x):\n    return compute(x)\n\n")).collect();
    repository.write("app/many.py", &format!("from app.core import compute\n\n{many}"));
    repository.commit_all("many callers");
    let root = repository.root().to_path_buf();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let printed = run_python_client("structured_content.py", &root);
    assert!(
        printed.contains(
            "output schemas: blast, callees, callers, changes, context, health, imports, lookup, ownership, search_memory"
        ),
        "{printed}"
    );
    for tool in ["changes", "context", "lookup", "ownership", "search_memory", "health"] {
        assert!(printed.contains(&format!("{tool}: valid structuredContent")), "{printed}");
    }
    // The 40 unused callers (public names of a package: possibly dead) cut to fit 300 tokens.
    let dead_code = printed
        .lines()
        .find(|line| line.starts_with("health dead_code: valid structuredContent"))
        .unwrap_or_else(|| panic!("{printed}"));
    assert!(dead_code.ends_with("dead_code, truncated"), "{dead_code}");
    assert!(
        printed.contains("blast: valid structuredContent") && printed.contains("truncated"),
        "{printed}"
    );
    assert!(printed.contains("callers: valid structuredContent, 20 items"), "{printed}");
}

/// An agent with the official Python SDK pages through a large blast answer by following the
/// cursor each page names: every item once, every page (text and structuredContent) within
/// its budget; every tool's answer fits the smallest budget too.
#[test]
fn a_real_mcp_client_pages_a_large_blast_within_its_budget_and_sees_every_item_once() {
    let mut repository = FixtureRepository::new(APP_FIXTURE);
    let many: String = (0..150)
        .map(|index| format!("def caller_{index}(x):\n    return compute(x)\n\n"))
        .collect();
    repository.write("app/many.py", &format!("from app.core import compute\n\n{many}"));
    let tests: String = (0..30)
        .map(|index| format!("def test_caller_{index}():\n    assert caller_{index}(1) == 2\n\n"))
        .collect();
    let imports: Vec<String> = (0..30).map(|index| format!("caller_{index}")).collect();
    repository.write(
        "tests/test_many.py",
        &format!("from app.many import {}\n\n{tests}", imports.join(", ")),
    );
    repository.commit_all("many callers and their tests");
    let root = repository.root().to_path_buf();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let printed = run_python_client("paging.py", &root);
    for budget in [300, 1000] {
        assert!(printed.contains(&format!("blast paged at {budget}: ")), "{printed}");
    }
    println!("{printed}");
    assert!(printed.contains("items of 187, each once"), "{printed}");
    // The lists no cursor pages (33 tests, the causes) take at most half of a page's room.
    let pages_at = |budget: u32| -> usize {
        let line =
            printed.lines().find(|line| line.starts_with(&format!("blast paged at {budget}:")));
        let pages = line.and_then(|line| line.split(": ").nth(1)?.split(' ').next()?.parse().ok());
        pages.unwrap_or_else(|| panic!("no page count at {budget}: {printed}"))
    };
    assert!(pages_at(1000) * 4 <= 187, "{printed}");
    assert!(pages_at(300) < 187, "{printed}");
    assert!(printed.contains("every tool fits budget_tokens 300"), "{printed}");
    assert!(printed.contains("every tool fits budget_tokens 500"), "{printed}");
}

/// An agent session bound to a subject (`tether mcp --subject`) records a trace, is refused
/// one about another subject, retries safely under its operation id, and recalls it, all
/// through the official Python SDK.
#[test]
fn a_real_mcp_client_records_and_recalls_traces_bound_to_its_subject() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let root = repository.root().to_path_buf();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let subject = "tests/test_core.py::test_report@linux";
    let printed = run_python_client_with("traces.py", &root, subject);
    for expected in [
        "record_trace read only: False",
        "recall read only: True",
        "recorded: tests-test-core-py-test-report-linux subject tests/test_core.py::test_report@linux",
        "other subject refused: True",
        "differs from the session's subject",
        "replayed: True tests-test-core-py-test-report-linux",
        "recall text: recall anchors tests/test_core.py::test_report@linux: 1 trace, complete",
        "recall json: 1 complete",
        "recall at 300 tokens: False True",
        "recall without query or anchors: True",
    ] {
        assert!(printed.contains(expected), "{expected:?} in:\n{printed}");
    }
    assert_eq!(repository.git(&["rev-list", "--count", "HEAD"]).trim(), "2", "one trace commit");
}
