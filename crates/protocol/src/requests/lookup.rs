//! `lookup`: symbols by name, or without a query the census of the graph.

use tether_query::PageRequest;

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, LIMIT};
use super::Request;
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[super::Parameter] = &[
    parameter(
        "query",
        ParameterKind::Text,
        "A name or part of one (compute, Class.method, my_crate::module).",
    ),
    parameter("folder", ParameterKind::Text, "Only symbols under this repository-relative folder."),
    LIMIT,
    CURSOR,
];

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Lookup {
        page: params.page()?,
        query: params.owned_text("query")?,
        folder: params.owned_text("folder")?,
    })
}

pub(super) fn write(
    query: &Option<String>,
    folder: &Option<String>,
    page: &PageRequest,
    params: &mut ParamsWriter,
) {
    params.put_text("query", query);
    params.put_text("folder", folder);
    params.put_page(page);
}
