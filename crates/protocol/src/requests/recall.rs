//! `recall`: the traces that bear on a question, found by words or anchors, expanded
//! through their links, ranked, and cut to a node limit and a token budget.

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter};
use super::{Parameter, Request};
use crate::rpc::RpcError;

/// The most traces one answer holds.
pub const MAX_RECALL_NODES: usize = 1_000;
/// The deepest a recall follows links.
pub const MAX_RECALL_DEPTH: usize = 10;
/// The largest token budget of a recall.
pub const MAX_RECALL_TOKENS: usize = 100_000;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter(
        "query",
        ParameterKind::Text,
        "Words every seed trace holds (subject, steps, artifacts, ids).",
    ),
    parameter(
        "anchors",
        ParameterKind::TextList,
        "Trace ids, subjects, paths, symbols or run ids to start from.",
    ),
    parameter(
        "max_nodes",
        ParameterKind::Integer { minimum: 1, maximum: MAX_RECALL_NODES as i64 },
        "At most this many traces (default 20).",
    ),
    parameter(
        "max_depth",
        ParameterKind::Integer { minimum: 0, maximum: MAX_RECALL_DEPTH as i64 },
        "Links followed from a seed (default 2).",
    ),
    parameter(
        "token_budget",
        ParameterKind::Integer { minimum: 1, maximum: MAX_RECALL_TOKENS as i64 },
        "At most about this many tokens of traces (default 4000).",
    ),
];

/// `recall`'s parameters, in bounds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecallParams {
    pub query: Option<String>,
    pub anchors: Vec<String>,
    pub max_nodes: usize,
    pub max_depth: usize,
    pub token_budget: usize,
}

impl Default for RecallParams {
    fn default() -> RecallParams {
        RecallParams {
            query: None,
            anchors: Vec::new(),
            max_nodes: 20,
            max_depth: 2,
            token_budget: 4_000,
        }
    }
}

/// A count in `minimum..=maximum`, or a refusal naming the parameter.
fn bounded(
    params: &ParamsReader,
    name: &str,
    minimum: usize,
    maximum: usize,
    default: usize,
) -> Result<usize, RpcError> {
    match params.count(name)? {
        None => Ok(default),
        Some(value) if (minimum..=maximum).contains(&value) => Ok(value),
        Some(value) => Err(RpcError::invalid_params(format!(
            "\"{name}\" must be from {minimum} to {maximum}; {value} is out of range"
        ))),
    }
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let defaults = RecallParams::default();
    let recall = RecallParams {
        query: params.trimmed_text("query")?,
        anchors: params
            .texts("anchors")?
            .into_iter()
            .map(|anchor| anchor.trim().to_string())
            .filter(|anchor| !anchor.is_empty())
            .collect(),
        max_nodes: bounded(params, "max_nodes", 1, MAX_RECALL_NODES, defaults.max_nodes)?,
        max_depth: bounded(params, "max_depth", 0, MAX_RECALL_DEPTH, defaults.max_depth)?,
        token_budget: bounded(params, "token_budget", 1, MAX_RECALL_TOKENS, defaults.token_budget)?,
    };
    if recall.query.is_none() && recall.anchors.is_empty() {
        return Err(RpcError::invalid_params(
            "give a \"query\" (words) or \"anchors\" (trace ids, subjects, paths, run ids)",
        ));
    }
    Ok(Request::Recall(recall))
}

pub(super) fn write(recall: &RecallParams, params: &mut ParamsWriter) {
    params.put_text("query", &recall.query);
    params.put_texts("anchors", &recall.anchors);
    params.put("max_nodes", recall.max_nodes);
    params.put("max_depth", recall.max_depth);
    params.put("token_budget", recall.token_budget);
}
