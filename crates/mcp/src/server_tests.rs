//! Tests of the server: daemon errors and malformed arguments become tool errors, only the
//! daemon's params are forwarded, resources are read, and an rmcp client drives the server
//! over an in-process duplex pipe.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ReadResourceRequestParams, ResourceContents,
};
use rmcp::ServiceExt;
use tether_protocol::rpc::RpcError;
use tether_protocol::{json, Value};

use crate::test_support::{
    request_of, sample_ambiguous_error, sample_blast_answer, sample_freshness, CannedDaemonCaller,
};
use crate::{serve_transport, TetherMcpServer, GRAPH_SCHEMA_MARKDOWN};

fn result_text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text())
        .map(|text| text.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

fn server_with(caller: CannedDaemonCaller) -> (TetherMcpServer, Arc<CannedDaemonCaller>) {
    let caller = Arc::new(caller);
    (TetherMcpServer::new(caller.clone()), caller)
}

#[tokio::test]
async fn an_ambiguous_symbol_is_a_tool_error_listing_the_candidates() {
    let (server, _) = server_with(
        CannedDaemonCaller::default().answering("blast", Err(sample_ambiguous_error())),
    );
    let result = server
        .call_tool_by_name("blast", Some(json!({ "symbol": "compute" })))
        .await
        .expect("a tool result, not a protocol error");
    assert_eq!(result.is_error, Some(true));
    let text = result_text(&result);
    assert!(
        text.contains("- app.core.compute (function) app/core.py:1 · id aaaaaaaaaaaaaaaa"),
        "{text}"
    );
    assert!(
        text.contains("- app.legacy.compute (function) app/legacy.py:9 · id bbbbbbbbbbbbbbbb"),
        "{text}"
    );
    assert!(text.contains("call again with one of these ids"), "{text}");
}

#[tokio::test]
async fn a_missing_symbol_is_a_tool_error_listing_similar_names() {
    let error = RpcError::new(RpcError::SYMBOL_NOT_FOUND, "no symbol matches \"compte\"").with_data(json!({
        "kind": "not_found", "address": "compte",
        "similar": [{ "id": "aaaaaaaaaaaaaaaa", "qualified_name": "app.core.compute", "kind": "function", "path": "app/core.py", "line": 1 }],
    }));
    let (server, _) = server_with(CannedDaemonCaller::default().answering("callers", Err(error)));
    let result = server
        .call_tool_by_name("callers", Some(json!({ "symbol": "compte" })))
        .await
        .expect("a tool result");
    assert_eq!(result.is_error, Some(true));
    let text = result_text(&result);
    assert!(
        text.contains(
            "Similar symbols:\n- app.core.compute (function) app/core.py:1 · id aaaaaaaaaaaaaaaa"
        ),
        "{text}"
    );
}

#[tokio::test]
async fn a_daemon_that_is_not_ready_says_to_retry() {
    let (server, _) = server_with(CannedDaemonCaller::default().answering(
        "lookup",
        Err(RpcError::new(RpcError::NOT_READY, "the first index is running")),
    ));
    let result = server
        .call_tool_by_name("lookup", Some(json!({ "query": "compute" })))
        .await
        .expect("a tool result");
    assert_eq!(result.is_error, Some(true));
    assert!(result_text(&result).contains("wait a few seconds and call again"));
}

#[tokio::test]
async fn malformed_arguments_are_tool_errors_and_never_reach_the_daemon() {
    let (server, caller) = server_with(
        CannedDaemonCaller::default().answering("blast", Ok(sample_blast_answer(1, 1, None))),
    );
    let cases = [
        (json!(["compute"]), "must be a JSON object"),
        (json!({ "symbol": 42 }), "\"symbol\" must be a string, not an integer"),
        (json!({ "symbol": "compute", "depth": 9 }), "\"depth\" must be from 1 to 8"),
        (json!({ "symbol": "compute", "limit": "ten" }), "\"limit\" must be an integer"),
        (
            json!({ "symbol": "compute", "format": "yaml" }),
            "\"format\" must be one of \"text\", \"json\"",
        ),
        (json!({ "symbol": "compute", "deepth": 2 }), "unknown argument \"deepth\""),
        (json!({ "depth": 2 }), "pass one of \"symbol\", \"file\""),
    ];
    for (arguments, expected) in cases {
        let result = server
            .call_tool_by_name("blast", Some(arguments.clone()))
            .await
            .expect("a tool result, not a protocol error");
        assert_eq!(result.is_error, Some(true), "{arguments}");
        let text = result_text(&result);
        assert!(text.contains(expected), "{arguments}: {text}");
    }
    let result = server.call_tool_by_name("callers", None).await.expect("a tool result");
    assert!(result_text(&result).contains("missing \"symbol\""));
    assert!(caller.calls().is_empty(), "no malformed call reaches the daemon");
    // The server still serves a good call afterwards.
    let result = server
        .call_tool_by_name("blast", Some(json!({ "symbol": "compute" })))
        .await
        .expect("a tool result");
    assert_eq!(result.is_error, Some(false));
}

#[tokio::test]
async fn presentation_arguments_are_not_forwarded_to_the_daemon() {
    let (server, caller) = server_with(
        CannedDaemonCaller::default().answering("blast", Ok(sample_blast_answer(1, 1, None))),
    );
    let arguments = json!({ "symbol": "compute", "depth": 2, "cursor": "o:20", "format": "json", "budget_tokens": 3000, "limit": null });
    let result = server.call_tool_by_name("blast", Some(arguments)).await.expect("a tool result");
    assert_eq!(result.is_error, Some(false));
    assert_eq!(
        caller.calls(),
        vec![request_of("blast", json!({ "symbol": "compute", "depth": 2, "cursor": "o:20" }))]
    );
    let parsed: Value =
        serde_json::from_str(&result_text(&result)).expect("format json answers JSON");
    assert_eq!(parsed["subject"], json!("app.core.compute"));
}

#[tokio::test]
async fn an_unknown_tool_is_a_protocol_error() {
    let (server, _) = server_with(CannedDaemonCaller::default());
    let error = server
        .call_tool_by_name("explode", None)
        .await
        .expect_err("unknown tools are protocol errors");
    assert!(error.message.contains("the tools are blast, callers"), "{}", error.message);
    // A long name is not echoed in full.
    let error = server
        .call_tool_by_name(&"x".repeat(100_000), None)
        .await
        .expect_err("unknown tools are protocol errors");
    assert!(error.message.len() < 400, "{}", error.message.len());
    assert!(error.message.contains("… (99920 more characters)"), "{}", error.message);
}

#[tokio::test]
async fn resources_read_the_schema_and_the_daemons_freshness() {
    let status = json!({
        "root": "/repo", "database": "/repo/.git/tether/graph.lbug", "socket": "/run/tether.sock",
        "pid": 7, "uptime_seconds": 3, "ready": true, "rebuilding": false, "rebuilds": 1,
        "last_rebuild_seconds": 0.5, "last_publish_seconds": 0.1, "last_error": null,
        "indexed_commit": "0123456789abcdef0123456789abcdef01234567",
        "freshness": sample_freshness(), "census": null,
    });
    let (server, caller) =
        server_with(CannedDaemonCaller::default().answering("status", Ok(status)));
    let schema = server.read_resource_by_uri("tether://schema").await.expect("the schema");
    assert!(
        matches!(&schema.contents[0], ResourceContents::TextResourceContents { text, .. } if text.starts_with(GRAPH_SCHEMA_MARKDOWN) && text.contains("`dirty_files`"))
    );
    let freshness = server.read_resource_by_uri("tether://freshness").await.expect("the freshness");
    let ResourceContents::TextResourceContents { text, .. } = &freshness.contents[0] else {
        panic!("text contents expected")
    };
    let document: Value = serde_json::from_str(text).expect("JSON");
    assert_eq!(document["head_branch"], json!("main"));
    assert_eq!(document["stale"], json!(true));
    assert_eq!(document["ready"], json!(true));
    assert_eq!(caller.calls(), vec![tether_protocol::Request::Status]);
    assert!(server.read_resource_by_uri("tether://nothing").await.is_err());
}

#[tokio::test]
async fn an_rmcp_client_lists_tools_calls_one_and_reads_a_resource_over_a_duplex_pipe() {
    let census = json!({
        "census": {
            "files": 3, "files_skipped": 0, "symbols_by_kind": { "function": 12 },
            "edges_by_kind": { "CALLS": 20 }, "unresolved_calls": 2, "diagnostics": 0,
        },
        "freshness": sample_freshness(),
        "next": "lookup {\"query\": NAME} to find a symbol",
    });
    let caller = Arc::new(
        CannedDaemonCaller::default()
            .answering("blast", Ok(sample_blast_answer(2, 2, None)))
            .answering("lookup", Ok(census)),
    );
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(serve_transport(caller, tokio::io::split(server_side)));
    let client = ().serve(client_side).await.expect("the client initializes");

    let server_info = client.peer_info().expect("the server answered initialize");
    assert_eq!(server_info.server_info.as_ref().map(|info| info.name.as_str()), Some("tether"));
    assert!(server_info
        .instructions
        .as_deref()
        .is_some_and(|instructions| instructions.contains("blast")));

    let tools = client.list_tools(None).await.expect("tools/list");
    // The whole list is read into an agent's context: compact, and with no format a
    // validator rejects (schemars' `uint`).
    let listed = serde_json::to_string(&tools).expect("tools/list serializes");
    // 13 tools, 29.4 KB on 2026-12-07 (docs/mcp.md has the sizes by tool): the cap went from
    // 25 to 30 KB when the traces' two tools came, so that a third is a decision again.
    assert!(listed.len() < 30_000, "tools/list is {} bytes", listed.len());
    assert!(!listed.contains("\"format\":\"uint") && !listed.contains("\"format\":\"int"));
    let names: Vec<&str> = tools.tools.iter().map(|tool| tool.name.as_ref()).collect();
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
    let blast = &tools.tools[0];
    assert!(blast
        .description
        .as_deref()
        .is_some_and(|description| description.contains("lower_bound")));
    assert!(blast
        .input_schema
        .get("properties")
        .and_then(|properties| properties.get("budget_tokens"))
        .is_some());

    let arguments =
        json!({ "symbol": "app.core.compute" }).as_object().cloned().unwrap_or_default();
    let result = client
        .call_tool(CallToolRequestParams::new("blast").with_arguments(arguments))
        .await
        .expect("tools/call");
    assert_eq!(result.is_error, Some(false));
    assert!(result_text(&result).starts_with("blast of app.core.compute"));

    let bad = json!({ "symbol": 7 }).as_object().cloned().unwrap_or_default();
    let result = client
        .call_tool(CallToolRequestParams::new("blast").with_arguments(bad))
        .await
        .expect("tools/call with bad arguments");
    assert_eq!(result.is_error, Some(true));

    let census = client
        .read_resource(ReadResourceRequestParams::new("tether://census"))
        .await
        .expect("resources/read");
    assert!(
        matches!(&census.contents[0], ResourceContents::TextResourceContents { text, .. } if text.contains("\"function\": 12"))
    );

    client.cancel().await.expect("the client closes");
    let served = server_task.await.expect("the server task joins");
    assert!(served.is_ok(), "{served:?}");
}

/// Every argument a tool offers is a parameter its daemon method takes (its kind, bounds and
/// description come from the method's table), and every required one is offered.
#[test]
fn every_tool_offers_only_parameters_its_daemon_method_takes() {
    for tool in crate::tools::tool_catalogue() {
        for name in tool.parameters.iter().chain(tool.required).chain(tool.requires_one_of) {
            assert!(
                tool.daemon_method.parameter(name).is_some() && tool.parameters.contains(name),
                "{}: {name} is not a parameter of {} it offers",
                tool.name,
                tool.daemon_method.as_str()
            );
        }
        assert_eq!(tool.arguments().parameters.len(), tool.parameters.len(), "{}", tool.name);
    }
}

/// Raw JSON-RPC lines, as a client that does not use rmcp sends them.
#[tokio::test]
async fn params_of_the_wrong_json_type_are_invalid_params_not_an_unknown_method() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let caller = Arc::new(CannedDaemonCaller::default());
    let (server_side, client_side) = tokio::io::duplex(64 * 1024);
    let server_task = tokio::spawn(serve_transport(caller, tokio::io::split(server_side)));
    let (client_reader, mut client_writer) = tokio::io::split(client_side);
    let mut lines = BufReader::new(client_reader).lines();
    let initialize = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } });
    let messages = [
        initialize,
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": { "name": "blast", "arguments": "app.core.compute" } }),
        json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": { "name": 7 } }),
        json!({ "jsonrpc": "2.0", "id": 4, "method": "tools/frobnicate", "params": {} }),
    ];
    for message in messages {
        client_writer.write_all(format!("{message}\n").as_bytes()).await.unwrap();
    }
    let mut errors = std::collections::BTreeMap::new();
    while errors.len() < 3 {
        let line = lines.next_line().await.unwrap().expect("the server answers");
        let answer: Value = serde_json::from_str(&line).unwrap();
        if let Some(id) = answer["id"].as_i64().filter(|id| *id > 1) {
            errors
                .insert(id, (answer["error"]["code"].clone(), answer["error"]["message"].clone()));
        }
    }
    assert_eq!(errors[&2].0, json!(-32602), "{errors:?}");
    assert!(errors[&2].1.as_str().unwrap().contains("\"arguments\" an object"), "{errors:?}");
    assert_eq!(errors[&3].0, json!(-32602), "{errors:?}");
    assert_eq!(errors[&4].0, json!(-32601), "{errors:?}");
    drop(client_writer);
    drop(lines);
    let _ = server_task.await;
}

/// Paging at a small budget: a later page of the same call says completeness and freshness
/// in one line when the first page said them and they have not changed; a page of another
/// call, never seen, says them in full (issue 42).
#[tokio::test]
async fn later_pages_do_not_repeat_completeness_and_freshness() {
    let (server, _) = server_with(
        CannedDaemonCaller::default()
            .answering("blast", Ok(sample_blast_answer(20, 60, Some("o:20")))),
    );
    let page = |arguments: Value| {
        let server = &server;
        async move { result_text(&server.call_tool_by_name("blast", Some(arguments)).await.unwrap()) }
    };
    let first = page(json!({ "symbol": "compute" })).await;
    assert!(first.contains("completeness: lower_bound"), "{first}");
    assert!(!first.contains(crate::budget::CONTEXT_AS_ON_THE_FIRST_PAGE), "{first}");
    let second = page(json!({ "symbol": "compute", "cursor": "o:20" })).await;
    assert!(second.contains(crate::budget::CONTEXT_AS_ON_THE_FIRST_PAGE), "{second}");
    assert!(!second.contains("completeness: lower_bound"), "{second}");
    assert!(!second.contains("unresolved"), "{second}");
    assert!(second.len() < first.len(), "{} >= {}", second.len(), first.len());
    let unseen = page(json!({ "symbol": "report", "cursor": "o:20" })).await;
    assert!(unseen.contains("completeness: lower_bound"), "{unseen}");
}
