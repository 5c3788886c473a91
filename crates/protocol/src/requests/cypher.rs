//! `cypher`: one read-only Cypher statement against the daemon's database.

use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] =
    &[parameter("statement", ParameterKind::Text, "One read-only Cypher statement.")];

/// A statement is trimmed; an empty one is refused.
pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    match params.text("statement")?.map(str::trim) {
        Some(statement) if !statement.is_empty() => {
            Ok(Request::Cypher { statement: statement.to_string() })
        }
        _ => Err(RpcError::invalid_params("missing \"statement\" (one Cypher statement)")),
    }
}
