//! `buffer_update` and `buffer_close`: a connection's unsaved editor buffers, which its
//! answers are built from until they are closed.

use super::outline::{read_path, FILE_PATH};
use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{BufferRequest, Parameter};
use crate::rpc::RpcError;

pub(super) const UPDATE_PARAMETERS: &[Parameter] = &[
    FILE_PATH,
    parameter("text", ParameterKind::Text, "The buffer's whole text."),
    parameter(
        "version",
        ParameterKind::Integer { minimum: 0, maximum: i64::MAX },
        "The editor's version of the buffer (default 0).",
    ),
];

pub(super) const CLOSE_PARAMETERS: &[Parameter] = &[FILE_PATH];

pub(super) fn read_update(params: &ParamsReader) -> Result<BufferRequest, RpcError> {
    Ok(BufferRequest::Update {
        path: read_path(params)?,
        text: params.required_text("text", "missing \"text\": the buffer's whole text")?,
        version: params.version("version")?.unwrap_or(0),
    })
}

pub(super) fn read_close(params: &ParamsReader) -> Result<BufferRequest, RpcError> {
    Ok(BufferRequest::Close { path: read_path(params)? })
}
