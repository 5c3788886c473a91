//! `record`: a memory entry written under `.memory/` and committed, tethered to its code.

use super::parameters::{parameter, ParameterKind, ParamsReader, ParamsWriter, ENTRY_TYPES};
use super::{Parameter, Request};
use crate::rpc::RpcError;

pub(super) const PARAMETERS: &[Parameter] = &[
    parameter("type", ParameterKind::OneOf(ENTRY_TYPES), "The kind of entry."),
    parameter("title", ParameterKind::Text, "A one-line title."),
    parameter(
        "body",
        ParameterKind::Text,
        "Markdown body: the why, alternatives rejected, caveats.",
    ),
    parameter(
        "parent",
        ParameterKind::Text,
        "The id of the entry this one belongs under (a checkpoint's plan).",
    ),
    parameter(
        "files",
        ParameterKind::TextList,
        "Repository-relative files to commit together with the entry (not with commit).",
    ),
    parameter(
        "commit",
        ParameterKind::Text,
        "An existing commit to pin the entry to (not with files).",
    ),
    parameter("tags", ParameterKind::TextList, "Free-form tags."),
    parameter("supersedes", ParameterKind::TextList, "Ids of entries this one replaces."),
    parameter("depends_on", ParameterKind::TextList, "Ids of entries this one depends on."),
    parameter("related", ParameterKind::TextList, "Ids of entries this one relates to."),
    parameter(
        "id",
        ParameterKind::Text,
        "The entry's id, instead of one made from its title and time.",
    ),
    parameter(
        "dry_run",
        ParameterKind::Boolean,
        "Check the entry and say what would be committed and on which branch, writing nothing (default false).",
    ),
];

/// `record`'s fields as sent: text fields trimmed, empty ones absent. Their meaning (a known
/// type, a one-line title, existing ids) is checked by the memory feature.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RecordParams {
    pub entry_type: Option<String>,
    pub title: Option<String>,
    pub body: String,
    pub files: Vec<String>,
    pub commit: Option<String>,
    pub tags: Vec<String>,
    pub parent: Option<String>,
    pub id: Option<String>,
    pub supersedes: Vec<String>,
    pub depends_on: Vec<String>,
    pub related: Vec<String>,
    /// Check the entry and say what would be committed, writing nothing.
    pub dry_run: bool,
}

pub(super) fn read(params: &ParamsReader) -> Result<Request, RpcError> {
    Ok(Request::Record(RecordParams {
        entry_type: params.trimmed_text("type")?,
        title: params.trimmed_text("title")?,
        body: params.text("body")?.unwrap_or("").to_string(),
        files: params.texts("files")?,
        commit: params.trimmed_text("commit")?,
        tags: params.texts("tags")?,
        parent: params.trimmed_text("parent")?,
        id: params.trimmed_text("id")?,
        supersedes: params.texts("supersedes")?,
        depends_on: params.texts("depends_on")?,
        related: params.texts("related")?,
        dry_run: params.flag("dry_run")?.unwrap_or(false),
    }))
}

pub(super) fn write(record: &RecordParams, params: &mut ParamsWriter) {
    params.put_text("type", &record.entry_type);
    params.put_text("title", &record.title);
    params.put("body", record.body.as_str());
    params.put_texts("files", &record.files);
    params.put_text("commit", &record.commit);
    params.put_texts("tags", &record.tags);
    params.put_text("parent", &record.parent);
    params.put_text("id", &record.id);
    params.put_texts("supersedes", &record.supersedes);
    params.put_texts("depends_on", &record.depends_on);
    params.put_texts("related", &record.related);
    params.put("dry_run", record.dry_run);
}
