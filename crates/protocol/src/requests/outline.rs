//! `outline`: the symbols of one file in line order (an editor's code lenses).

use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{Parameter, Request};
use crate::rpc::RpcError;

/// A file, for the methods about one file (`outline`, the buffers).
pub(super) const FILE_PATH: super::Parameter =
    parameter("path", ParameterKind::Text, "A file, relative to the repository root or absolute.");

pub(super) const PARAMETERS: &[Parameter] = &[FILE_PATH];

/// The required `path`.
pub(super) fn read_path(params: &ParamsReader) -> Result<String, RpcError> {
    params.required_text(
        "path",
        "missing \"path\": a file, relative to the repository root or absolute",
    )
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Outline { path: read_path(params)? })
}
