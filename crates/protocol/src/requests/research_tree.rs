//! The research tree's methods (issue 45): `tree` (the whole tree, or its plans only),
//! `open_phases` (the active phases not complete) and `brief` (a subtree's summary).

use tether_query::PageRequest;

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, LIMIT};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const TREE_PARAMETERS: &[Parameter] = &[
    parameter("plans_only", ParameterKind::Boolean, "Only the plan nodes (default false)."),
    parameter(
        "include_discarded",
        ParameterKind::Boolean,
        "Discarded entries too (default false).",
    ),
    LIMIT,
    CURSOR,
];

pub(super) const OPEN_PHASES_PARAMETERS: &[Parameter] = &[LIMIT, CURSOR];

pub(super) const BRIEF_PARAMETERS: &[Parameter] =
    &[parameter("id", ParameterKind::Text, "The entry whose subtree to summarise.")];

/// What `tree` is asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TreeParams {
    pub plans_only: bool,
    pub include_discarded: bool,
    pub page: PageRequest,
}

pub(super) fn read_tree(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Tree(TreeParams {
        plans_only: params.flag("plans_only")?.unwrap_or(false),
        include_discarded: params.flag("include_discarded")?.unwrap_or(false),
        page: params.page()?,
    }))
}

pub(super) fn write_tree(tree: &TreeParams, params: &mut ParamsWriter) {
    params.put("plans_only", tree.plans_only);
    params.put("include_discarded", tree.include_discarded);
    params.put_page(&tree.page);
}

pub(super) fn read_open_phases(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::OpenPhases { page: params.page()? })
}

pub(super) fn read_brief(params: &ParamsReader) -> Result<Request, RpcError> {
    let id = params.trimmed_text("id")?.ok_or_else(|| {
        RpcError::invalid_params("missing \"id\": the entry whose subtree to summarise")
    })?;
    Ok(Request::Brief { id })
}
