//! `context`: the memory entries tethered to a symbol or a file, and whether they still hold.

use super::parameters::{ParamsReader, PATH, SYMBOL};
use super::{Parameter, Request, Subject};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[SYMBOL, PATH];

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Context { subject: Subject::read_required(params)? })
}
