//! `coverage_import`: a coverage report with per-test contexts, as runtime evidence.

use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[parameter(
    "file",
    ParameterKind::Text,
    "The report: a coverage.py JSON report (`coverage json --show-contexts`) or an LCOV tracefile with `TN:` test names.",
)];

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let file = params.required_text("file", "missing \"file\": a coverage.py JSON report (`coverage json --show-contexts`) or an LCOV tracefile with `TN:` test names")?;
    Ok(Request::CoverageImport { file })
}
