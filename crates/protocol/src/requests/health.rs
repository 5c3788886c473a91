//! `health`: where the code base is unhealthy: god objects, coupling between files, cycles,
//! churn hotspots, dead code.
//! One kind at a time pages through it; without a kind, every kind's worst few.

use tether_query::{HealthKind, PageRequest};

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, LIMIT};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter(
        "kind",
        ParameterKind::OneOf(&HealthKind::NAMES),
        "One section, paged (default: the worst few of each).",
    ),
    parameter(
        "folder",
        ParameterKind::Text,
        "Only findings in files under this repository-relative folder.",
    ),
    parameter(
        "commits",
        ParameterKind::Integer { minimum: 1, maximum: MAX_HEALTH_COMMITS as i64 },
        "Churn: how many of the newest commits to read (default 500).",
    ),
    LIMIT,
    CURSOR,
];

/// The commits churn reads when none are asked for.
pub const DEFAULT_HEALTH_COMMITS: usize = 500;
/// The most commits churn may be asked to read.
pub const MAX_HEALTH_COMMITS: usize = 100_000;

/// Findings per section when every section is asked for and no limit is given.
pub const HEALTH_SUMMARY_LIMIT: usize = 5;

/// What `health` is asked for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HealthParams {
    /// One section, or `None` for every section's first page.
    pub kind: Option<HealthKind>,
    pub folder: Option<String>,
    /// Churn: the newest commits to read.
    pub commits: usize,
    pub page: PageRequest,
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let kind = match params.text("kind")? {
        None => None,
        Some(text) => Some(HealthKind::parse(text).ok_or_else(|| {
            let kinds: Vec<&str> = HealthKind::ALL.iter().map(|kind| kind.as_str()).collect();
            RpcError::invalid_params(format!(
                "unknown health kind {:?}; kinds: {}",
                text.chars().take(40).collect::<String>(),
                kinds.join(", ")
            ))
        })?),
    };
    let mut page = params.page()?;
    if kind.is_none() {
        if page.offset != 0 {
            return Err(RpcError::invalid_params(
                "a cursor continues one kind: give the \"kind\" its answer named",
            ));
        }
        if params.count("limit")?.is_none() {
            page.limit = HEALTH_SUMMARY_LIMIT;
        }
    }
    let commits = match params.count("commits")? {
        None => DEFAULT_HEALTH_COMMITS,
        Some(commits) if (1..=MAX_HEALTH_COMMITS).contains(&commits) => commits,
        Some(commits) => {
            return Err(RpcError::invalid_params(format!(
                "\"commits\" must be from 1 to {MAX_HEALTH_COMMITS}; {commits} is out of range"
            )))
        }
    };
    Ok(Request::Health(HealthParams { kind, folder: params.owned_text("folder")?, commits, page }))
}

pub(super) fn write(health: &HealthParams, params: &mut ParamsWriter) {
    if let Some(kind) = health.kind {
        params.put("kind", kind.as_str());
    }
    params.put_text("folder", &health.folder);
    if health.commits != DEFAULT_HEALTH_COMMITS {
        params.put("commits", health.commits);
    }
    params.put_page(&health.page);
}
