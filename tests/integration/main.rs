//! tether's one integration test binary: fixture graphs, the store, and the CLI end to end.

mod closure_argument_cases;
mod cold_index_pipeline;
mod command_line_conventions;
mod completeness_cases;
mod configuration_files;
mod coverage_child_processes;
mod crash_recovery;
mod daemon;
mod daemon_hostile;
mod edge_sites;
mod extraction_never_panics;
mod generic_argument_cases;
mod git_queries;
mod health_churn;
mod health_sections;
mod hostile_inputs;
mod implicit_edge_cases;
mod inference_cases;
mod lsp_bridge;
mod mcp;
mod memory;
mod newcomer_session;
mod pin_cases;
mod protocol_fuzz;
mod python_calls;
mod python_values;
mod queries;
mod research_tree;
mod resolution_cases;
mod runnable_test_cases;
mod runtime_evidence;
mod runtime_evidence_tiers;
mod rust_calls;
mod rust_deref_display_cases;
mod rust_derived_impl_cases;
mod salsa_struct_cases;
mod store_round_trip;
mod tidy;
mod tidy_language_branches;
mod traces;
mod value_flow_corpus;
mod value_shape_cases;

/// A call given as JSON, answered by the daemon's handler in this process, as JSON.
pub fn handle_json(
    state: &tether_daemon::DaemonState,
    method: &str,
    params: &tether_protocol::Value,
) -> Result<tether_protocol::Value, tether_protocol::rpc::RpcError> {
    tether_protocol::rpc::apply_json(method, params, |request| {
        tether_daemon::handle(state, request)
    })
}
