//! `coverage_import`: a coverage report with per-test contexts, as runtime evidence.

use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter(
        "file",
        ParameterKind::Text,
        "The report: a coverage.py JSON report (`coverage json --show-contexts`) or an LCOV tracefile with `TN:` test names.",
    ),
    parameter(
        "merge",
        ParameterKind::Boolean,
        "The report re-recorded some tests: it replaces their evidence and keeps every other test's (default: it replaces all the evidence).",
    ),
];

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let file = params.required_text("file", "missing \"file\": a coverage.py JSON report (`coverage json --show-contexts`) or an LCOV tracefile with `TN:` test names")?;
    let merge = params.flag("merge")?.unwrap_or(false);
    Ok(Request::CoverageImport { file, merge })
}
