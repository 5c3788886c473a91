//! `index_report`: the census of the published graph, with how call sites ended, and with
//! `report` the callee names most often left unresolved and the first diagnostics (what
//! `tether index --report` prints when a daemon holds the graph).

use super::parameters::{parameter, ParameterKind, ParamsReader};
use super::{Parameter, ParamsWriter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[parameter(
    "report",
    ParameterKind::Boolean,
    "Also the callee names most often left unresolved, by reason, and the first diagnostics.",
)];

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::IndexReport { report: params.flag("report")?.unwrap_or(false) })
}

pub(super) fn write(report: bool, params: &mut ParamsWriter) {
    if report {
        params.put("report", true);
    }
}
