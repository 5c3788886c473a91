//! [`parse_entry`]: one entry file's text to an [`Entry`], with every problem pointing at
//! the file line it is about.

use std::collections::HashMap;

use crate::entry::{Entry, EntryStatus, EntryType, Pin};
use crate::front_matter::{split_front_matter, RawField, RawItemValue, RawValue};
use crate::problem::EntryProblem;
use crate::record::validate_id;
use crate::timestamp::parse_timestamp;

/// Reads one entry file. `path` is the file's repository-relative path (kept in
/// [`Entry::path`] and in problems); lines in problems are 1-based lines of `text`.
///
/// The file starts with a `---` line, then `key: value` lines, then a closing `---` line;
/// everything after it is the body, verbatim. Values are plain or quoted scalars, inline
/// lists `[a, b]`, or block lists of `- a` lines; `pins` is a block list of maps
/// (`- commit: <sha>` with `files:` below). `#` starts a comment line.
///
/// Returns the entry and its warnings (unknown keys, odd timestamps), or the first error:
/// missing or unterminated front matter, a missing required field (`id`, `type`, `title`),
/// a bad id, an unknown type or status, a bad commit, a malformed list, or a pinned path
/// that is absolute or contains `..`.
pub fn parse_entry(path: &str, text: &str) -> Result<(Entry, Vec<EntryProblem>), EntryProblem> {
    parse_entry_with_lines(path, text).map(|parsed| (parsed.entry, parsed.warnings))
}

/// An entry with the lines that later checks (duplicates, dangling references) point at.
pub(crate) struct ParsedEntry {
    pub(crate) entry: Entry,
    pub(crate) warnings: Vec<EntryProblem>,
    pub(crate) id_line: u32,
    /// `(field, referenced id, line)` for `parent`, `supersedes`, `depends_on`, `related`.
    pub(crate) reference_lines: Vec<(&'static str, String, u32)>,
}

pub(crate) fn parse_entry_with_lines(path: &str, text: &str) -> Result<ParsedEntry, EntryProblem> {
    let front_matter = split_front_matter(text)
        .map_err(|error| EntryProblem::error(path, error.line, error.message))?;
    let reader = FieldReader { path };
    let mut fields = EntryFields::default();
    let mut first_line_of_key: HashMap<&str, u32> = HashMap::new();
    for field in &front_matter.fields {
        if let Some(first_line) = first_line_of_key.insert(field.key.as_str(), field.line) {
            return Err(reader.error(
                field.line,
                format!("duplicate key `{}` (first on line {first_line})", field.key),
            ));
        }
        fields.read(&reader, field)?;
    }
    fields.into_parsed_entry(&reader, front_matter.body)
}

/// The fields of an entry as its front matter is read, with the lines later checks need.
#[derive(Default)]
struct EntryFields {
    id: Option<(String, u32)>,
    entry_type: Option<EntryType>,
    title: Option<String>,
    status: EntryStatus,
    parent: Option<String>,
    created_at: Option<String>,
    updated_at: Option<String>,
    tags: Vec<String>,
    pins: Vec<Pin>,
    supersedes: Vec<String>,
    depends_on: Vec<String>,
    related: Vec<String>,
    reference_lines: Vec<(&'static str, String, u32)>,
    warnings: Vec<EntryProblem>,
}

impl EntryFields {
    /// Reads one front-matter field: a value of the wrong shape is an error at its line, an
    /// unknown key or an odd timestamp a warning.
    fn read(&mut self, reader: &FieldReader<'_>, field: &RawField) -> Result<(), EntryProblem> {
        match field.key.as_str() {
            "id" => {
                let value = reader.required_scalar(field)?;
                validate_id(&value)
                    .map_err(|invalid| reader.error(field.line, format!("bad {invalid}")))?;
                self.id = Some((value, field.line));
            }
            "type" => {
                let value = reader.required_scalar(field)?;
                let names: Vec<&str> =
                    EntryType::ALL.iter().map(|entry_type| entry_type.as_str()).collect();
                self.entry_type = Some(EntryType::parse(&value).ok_or_else(|| {
                    reader.error(
                        field.line,
                        format!("unknown type `{value}` (expected one of {})", names.join(", ")),
                    )
                })?);
            }
            "title" => {
                let value = reader.required_scalar(field)?;
                if value.trim().is_empty() {
                    return Err(reader.error(field.line, "`title` must not be empty"));
                }
                self.title = Some(value);
            }
            "status" => {
                if let Some(value) = reader.optional_scalar(field)? {
                    self.status = EntryStatus::parse(&value).ok_or_else(|| {
                        reader.error(
                            field.line,
                            format!("unknown status `{value}` (expected active or discarded)"),
                        )
                    })?;
                }
            }
            "parent" => {
                self.parent = reader.optional_scalar(field)?;
                if let Some(parent_id) = &self.parent {
                    validate_id(parent_id).map_err(|invalid| {
                        reader.error(field.line, format!("bad `parent` {invalid}"))
                    })?;
                    self.reference_lines.push(("parent", parent_id.clone(), field.line));
                }
            }
            "created_at" | "updated_at" => {
                let value = reader.optional_scalar(field)?;
                if let Some(timestamp) = &value {
                    if parse_timestamp(timestamp).is_none() {
                        self.warnings.push(EntryProblem::warning(
                            reader.path,
                            field.line,
                            format!("`{}` is not an RFC 3339 timestamp like 2026-11-30T05:00:00Z: `{timestamp}`", field.key),
                        ));
                    }
                }
                if field.key == "created_at" {
                    self.created_at = value;
                } else {
                    self.updated_at = value;
                }
            }
            "tags" => {
                for (tag, line) in reader.scalar_list(field)? {
                    if tag.trim().is_empty() {
                        return Err(reader.error(line, "empty tag"));
                    }
                    self.tags.push(tag);
                }
            }
            "pins" => self.pins = reader.pins(field, &mut self.warnings)?,
            "supersedes" | "depends_on" | "related" => {
                let field_name: &'static str = match field.key.as_str() {
                    "supersedes" => "supersedes",
                    "depends_on" => "depends_on",
                    _ => "related",
                };
                let mut ids = Vec::new();
                for (referenced_id, line) in reader.scalar_list(field)? {
                    validate_id(&referenced_id).map_err(|invalid| {
                        reader.error(line, format!("bad `{field_name}` {invalid}"))
                    })?;
                    self.reference_lines.push((field_name, referenced_id.clone(), line));
                    ids.push(referenced_id);
                }
                match field_name {
                    "supersedes" => self.supersedes = ids,
                    "depends_on" => self.depends_on = ids,
                    _ => self.related = ids,
                }
            }
            unknown => {
                self.warnings.push(EntryProblem::warning(
                    reader.path,
                    field.line,
                    format!("unknown key `{unknown}` is ignored"),
                ));
            }
        }
        Ok(())
    }

    /// The entry, once every required field was given.
    fn into_parsed_entry(
        self,
        reader: &FieldReader<'_>,
        body: String,
    ) -> Result<ParsedEntry, EntryProblem> {
        let missing = |name: &str| reader.error(1, format!("missing required field `{name}`"));
        let (id, id_line) = self.id.ok_or_else(|| missing("id"))?;
        let entry_type = self.entry_type.ok_or_else(|| missing("type"))?;
        let title = self.title.ok_or_else(|| missing("title"))?;
        let entry = Entry {
            id,
            entry_type,
            title,
            status: self.status,
            parent: self.parent,
            created_at: self.created_at,
            updated_at: self.updated_at,
            tags: self.tags,
            pins: self.pins,
            supersedes: self.supersedes,
            depends_on: self.depends_on,
            related: self.related,
            body,
            path: reader.path.to_string(),
        };
        Ok(ParsedEntry {
            entry,
            warnings: self.warnings,
            id_line,
            reference_lines: self.reference_lines,
        })
    }
}

/// Turns raw front-matter values into typed ones, with errors at the right lines.
pub(crate) struct FieldReader<'a> {
    pub(crate) path: &'a str,
}

impl FieldReader<'_> {
    pub(crate) fn error(&self, line: u32, message: impl Into<String>) -> EntryProblem {
        EntryProblem::error(self.path, line, message)
    }

    pub(crate) fn optional_scalar(&self, field: &RawField) -> Result<Option<String>, EntryProblem> {
        match &field.value {
            RawValue::Null => Ok(None),
            RawValue::Scalar(value) => Ok(Some(value.clone())),
            RawValue::List(_) => Err(self
                .error(field.line, format!("`{}` must be a single value, not a list", field.key))),
        }
    }

    pub(crate) fn required_scalar(&self, field: &RawField) -> Result<String, EntryProblem> {
        self.optional_scalar(field)?.ok_or_else(|| {
            self.error(field.line, format!("missing value for required field `{}`", field.key))
        })
    }

    /// A list of plain values with the line of each (the key's line for inline lists).
    pub(crate) fn scalar_list(&self, field: &RawField) -> Result<Vec<(String, u32)>, EntryProblem> {
        let items = match &field.value {
            RawValue::Null => return Ok(Vec::new()),
            RawValue::Scalar(_) => {
                return Err(self.error(
                    field.line,
                    format!(
                        "malformed list: `{}` must be a list (`[a, b]` or `- a` lines)",
                        field.key
                    ),
                ))
            }
            RawValue::List(items) => items,
        };
        items
            .iter()
            .map(|item| match &item.value {
                RawItemValue::Scalar(value) => Ok((value.clone(), item.line)),
                RawItemValue::Null => {
                    Err(self
                        .error(item.line, format!("malformed list: empty item in `{}`", field.key)))
                }
                RawItemValue::Map(_) => Err(self.error(
                    item.line,
                    format!("malformed list: `{}` items must be plain values, not maps", field.key),
                )),
            })
            .collect()
    }

    fn pins(
        &self,
        field: &RawField,
        warnings: &mut Vec<EntryProblem>,
    ) -> Result<Vec<Pin>, EntryProblem> {
        let items = match &field.value {
            RawValue::Null => return Ok(Vec::new()),
            RawValue::Scalar(_) => {
                return Err(self.error(
                    field.line,
                    "malformed list: `pins` must be a list of `- commit: …` maps",
                ))
            }
            RawValue::List(items) => items,
        };
        let mut pins = Vec::new();
        for item in items {
            let RawItemValue::Map(pin_fields) = &item.value else {
                return Err(
                    self.error(item.line, "each pin must be a map with `commit` and `files`")
                );
            };
            let mut commit: Option<String> = None;
            let mut files: Option<Vec<String>> = None;
            for pin_field in pin_fields {
                match pin_field.key.as_str() {
                    "commit" if commit.is_some() => {
                        return Err(self.error(pin_field.line, "duplicate key `commit` in a pin"))
                    }
                    "files" if files.is_some() => {
                        return Err(self.error(pin_field.line, "duplicate key `files` in a pin"))
                    }
                    "commit" => {
                        let value = self.required_scalar(pin_field)?;
                        let is_hex = value.chars().all(|character| character.is_ascii_hexdigit());
                        if !is_hex || !(value.len() == 40 || value.len() == 64) {
                            return Err(self.error(
                                pin_field.line,
                                format!(
                                    "bad commit `{value}`: expected 40 or 64 hexadecimal digits"
                                ),
                            ));
                        }
                        commit = Some(value);
                    }
                    "files" => {
                        let mut paths = Vec::new();
                        for (file, line) in self.scalar_list(pin_field)? {
                            if let Some(reason) = repo_relative_path_problem(&file) {
                                return Err(
                                    self.error(line, format!("bad pinned path `{file}`: {reason}"))
                                );
                            }
                            paths.push(file);
                        }
                        files = Some(paths);
                    }
                    unknown => warnings.push(EntryProblem::warning(
                        self.path,
                        pin_field.line,
                        format!("unknown pin key `{unknown}` is ignored"),
                    )),
                }
            }
            let commit = commit.ok_or_else(|| self.error(item.line, "pin is missing `commit`"))?;
            pins.push(Pin { commit, files: files.unwrap_or_default() });
        }
        Ok(pins)
    }
}

/// Why `path` is not a clean repository-relative path, if it is not.
fn repo_relative_path_problem(path: &str) -> Option<&'static str> {
    let bytes = path.as_bytes();
    let has_drive_letter = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    if path.trim().is_empty() {
        Some("empty path")
    } else if path.starts_with(['/', '\\']) || has_drive_letter {
        Some("must be relative to the repository, not absolute")
    } else if path.split(['/', '\\']).any(|component| component == "..") {
        Some("must not contain `..`")
    } else {
        None
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
