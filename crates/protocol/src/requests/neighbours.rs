//! `callers`, `callees` and `imports`: a symbol's direct neighbours, one page at a time.

use super::parameters::{
    parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, LIMIT, SYMBOL,
};
use super::{Parameter, Request};
use crate::rpc::RpcError;
use tether_query::PageRequest;

/// `callers`' and `callees`' parameters.
pub(super) const PARAMETERS: &[Parameter] = &[SYMBOL, LIMIT, CURSOR];

/// `imports`' parameters: the symbol is a module.
pub(super) const IMPORTS_PARAMETERS: &[Parameter] = &[
    parameter(
        "symbol",
        ParameterKind::Text,
        "The module: a qualified module name, a unique suffix, path:line or an id.",
    ),
    LIMIT,
    CURSOR,
];

/// What a request without a `symbol` is told.
pub(super) const MISSING_SYMBOL: &str =
    "missing \"symbol\": a qualified name, a unique suffix, path:line, or an id";

/// The required `symbol`.
pub(super) fn read_symbol(params: &ParamsReader) -> Result<String, RpcError> {
    params.required_text("symbol", MISSING_SYMBOL)
}

pub(super) fn read_callers(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Callers { page: params.page()?, symbol: read_symbol(params)? })
}

pub(super) fn read_callees(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Callees { page: params.page()?, symbol: read_symbol(params)? })
}

pub(super) fn read_imports(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Imports { page: params.page()?, symbol: read_symbol(params)? })
}

pub(super) fn write(symbol: &str, page: &PageRequest, params: &mut ParamsWriter) {
    params.put("symbol", symbol);
    params.put_page(page);
}
