//! `ownership`: who wrote a symbol's lines or a file's, through git blame.

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter, PATH, SYMBOL};
use super::{Parameter, Request, Subject};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    SYMBOL,
    PATH,
    parameter(
        "exclude_authors",
        ParameterKind::TextList,
        "Author names or emails to leave out (bots, mass reformatters).",
    ),
    parameter(
        "follow_moves",
        ParameterKind::Boolean,
        "Credit moved and copied lines to who wrote them, not who moved them (git blame -w -M -C; default true).",
    ),
    parameter(
        "ignore_revs_file",
        ParameterKind::Boolean,
        "Skip the commits .git-blame-ignore-revs lists, when the file exists (default true).",
    ),
];

/// How `ownership` runs git blame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlameParams {
    /// Credit moved and copied lines to who wrote them, not who moved them (`-w -M -C`).
    pub follow_moves: bool,
    /// Skip the commits `.git-blame-ignore-revs` lists (mass reformats), when it exists.
    pub ignore_revs_file: bool,
}

impl Default for BlameParams {
    fn default() -> BlameParams {
        BlameParams { follow_moves: true, ignore_revs_file: true }
    }
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    let exclude_authors = params.texts("exclude_authors")?;
    let blame = BlameParams {
        follow_moves: params.flag("follow_moves")?.unwrap_or(true),
        ignore_revs_file: params.flag("ignore_revs_file")?.unwrap_or(true),
    };
    Ok(Request::Ownership { subject: Subject::read_required(params)?, exclude_authors, blame })
}

pub(super) fn write(
    subject: &Subject,
    exclude_authors: &[String],
    blame: &BlameParams,
    params: &mut ParamsWriter,
) {
    subject.write("path", params);
    params.put_texts("exclude_authors", exclude_authors);
    params.put("follow_moves", blame.follow_moves);
    params.put("ignore_revs_file", blame.ignore_revs_file);
}
