//! `changes`: the symbols a diff touches and the blast of them all.

use super::blast::WalkParams;
use super::parameters::{
    parameter, ParameterKind, ParamsReader, ParamsWriter, CURSOR, DEPTH, LIMIT, TESTS_LIMIT,
};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter(
        "scope",
        ParameterKind::OneOf(&["unstaged", "staged", "all"]),
        "Which working-tree changes: unstaged, staged, or all (default).",
    ),
    parameter(
        "base",
        ParameterKind::Text,
        "A git ref: the changes since the merge base with it (instead of scope).",
    ),
    parameter("range", ParameterKind::Text, "A commit range A..B (instead of scope)."),
    parameter(
        "include_whitespace",
        ParameterKind::Boolean,
        "Count whitespace-only hunks as changes (default false).",
    ),
    DEPTH,
    TESTS_LIMIT,
    LIMIT,
    CURSOR,
];

/// Which diff, and the walk of its blast.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ChangesParams {
    pub scope: Option<String>,
    pub base: Option<String>,
    pub range: Option<String>,
    pub include_whitespace: bool,
    pub walk: WalkParams,
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Changes(ChangesParams {
        walk: WalkParams::read(params)?,
        include_whitespace: params.flag("include_whitespace")?.unwrap_or(false),
        scope: params.owned_text("scope")?,
        base: params.owned_text("base")?,
        range: params.owned_text("range")?,
    }))
}

pub(super) fn write(changes: &ChangesParams, params: &mut ParamsWriter) {
    params.put_text("scope", &changes.scope);
    params.put_text("base", &changes.base);
    params.put_text("range", &changes.range);
    params.put("include_whitespace", changes.include_whitespace);
    changes.walk.write(params);
}
