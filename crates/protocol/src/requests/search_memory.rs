//! `search_memory`: memory entries by words, type, status and what they are tethered to.

use tether_query::PageRequest;

use super::parameters::{
    parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, ENTRY_TYPES, LIMIT,
};
use super::{Parameter, Request, Subject};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter("query", ParameterKind::Text, "Words to search for."),
    parameter("type", ParameterKind::OneOf(ENTRY_TYPES), "Only entries of this type."),
    parameter(
        "status",
        ParameterKind::OneOf(&["active", "discarded"]),
        "Only active or only discarded entries.",
    ),
    parameter(
        "symbol",
        ParameterKind::Text,
        "Only entries tethered to this symbol (same addressing as the other tools).",
    ),
    parameter("path", ParameterKind::Text, "Only entries tethered to this file."),
    LIMIT,
    CURSOR,
];

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchMemoryParams {
    pub query: String,
    pub entry_type: Option<String>,
    pub status: Option<String>,
    /// Only entries tethered to this symbol or file.
    pub tethered_to: Option<Subject>,
    pub page: PageRequest,
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::SearchMemory(SearchMemoryParams {
        page: params.page()?,
        query: params.text("query")?.unwrap_or("").to_string(),
        entry_type: params.owned_text("type")?,
        status: params.owned_text("status")?,
        tethered_to: Subject::read(params)?,
    }))
}

pub(super) fn write(search: &SearchMemoryParams, params: &mut ParamsWriter) {
    params.put("query", search.query.as_str());
    params.put_text("type", &search.entry_type);
    params.put_text("status", &search.status);
    if let Some(tethered_to) = &search.tethered_to {
        tethered_to.write("path", params);
    }
    params.put_page(&search.page);
}
