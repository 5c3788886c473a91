//! Splits an entry file into its front matter and body, and reads the front matter into
//! raw keyed values with their line numbers. The accepted format is a small subset of
//! YAML: `key: scalar`, `key: [inline, list]`, block lists (`- item`), and block lists of
//! maps (`- commit: …` followed by more keys), which is all that entries use.

use crate::scalar::{parse_inline_list, parse_scalar};

/// The front matter's keys in file order, and the body after the closing `---`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct FrontMatter {
    pub(crate) fields: Vec<RawField>,
    pub(crate) body: String,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RawField {
    pub(crate) key: String,
    /// 1-based file line of `key:`.
    pub(crate) line: u32,
    pub(crate) value: RawValue,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum RawValue {
    /// Nothing after `key:` and no block below, or `~` / `null`.
    Null,
    Scalar(String),
    List(Vec<RawItem>),
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct RawItem {
    pub(crate) line: u32,
    pub(crate) value: RawItemValue,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum RawItemValue {
    Null,
    Scalar(String),
    Map(Vec<RawField>),
}

/// A problem that stops the front matter from being read at all.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct FrontMatterError {
    pub(crate) line: u32,
    pub(crate) message: String,
}

/// Splits `text` at the `---` delimiters and reads the front matter between them.
pub(crate) fn split_front_matter(text: &str) -> Result<FrontMatter, FrontMatterError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut raw_lines = text.split_inclusive('\n');
    let opening = raw_lines.next().unwrap_or("");
    if opening.trim_end() != "---" {
        return Err(FrontMatterError {
            line: 1,
            message: "missing front matter: the file must start with a `---` line".to_string(),
        });
    }
    let mut byte_offset = opening.len();
    let mut front_matter_lines: Vec<(u32, &str)> = Vec::new();
    let mut body_start: Option<usize> = None;
    for (index, raw_line) in raw_lines.enumerate() {
        let line_number = index as u32 + 2;
        byte_offset += raw_line.len();
        if raw_line.trim_end() == "---" {
            body_start = Some(byte_offset);
            break;
        }
        front_matter_lines.push((line_number, raw_line.trim_end_matches(['\n', '\r'])));
    }
    let Some(body_start) = body_start else {
        return Err(FrontMatterError {
            line: 1,
            message: "unterminated front matter: no closing `---` line".to_string(),
        });
    };

    let mut parser = BlockParser { lines: significant_lines(&front_matter_lines)?, position: 0 };
    let fields = parser.parse_mapping(0)?;
    if let Some(leftover) = parser.lines.get(parser.position) {
        let message = if is_dash_item(&leftover.content) {
            "a list item must belong to a key (`key:` on the line above)"
        } else {
            "unexpected indentation"
        };
        return Err(FrontMatterError { line: leftover.number, message: message.to_string() });
    }
    Ok(FrontMatter { fields, body: text[body_start..].to_string() })
}

/// A non-blank, non-comment front-matter line.
#[derive(Clone, PartialEq, Eq, Debug)]
struct SignificantLine {
    number: u32,
    indent: usize,
    content: String,
}

fn significant_lines(lines: &[(u32, &str)]) -> Result<Vec<SignificantLine>, FrontMatterError> {
    let mut significant = Vec::new();
    for &(number, line) in lines {
        let content = line.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let leading = &line[..line.len() - line.trim_start().len()];
        if leading.contains('\t') {
            return Err(FrontMatterError {
                line: number,
                message: "tabs are not allowed for indentation".to_string(),
            });
        }
        significant.push(SignificantLine {
            number,
            indent: leading.len(),
            content: content.to_string(),
        });
    }
    Ok(significant)
}

struct BlockParser {
    lines: Vec<SignificantLine>,
    position: usize,
}

impl BlockParser {
    /// Reads `key: value` lines at exactly `indent` until a shallower line or a list item.
    fn parse_mapping(&mut self, indent: usize) -> Result<Vec<RawField>, FrontMatterError> {
        let mut fields = Vec::new();
        while let Some(line) = self.lines.get(self.position) {
            if line.indent < indent || (line.indent == indent && is_dash_item(&line.content)) {
                break;
            }
            let line_number = line.number;
            if line.indent > indent {
                return Err(FrontMatterError {
                    line: line_number,
                    message: "unexpected indentation".to_string(),
                });
            }
            let Some((key, rest)) = split_key(&line.content) else {
                return Err(FrontMatterError {
                    line: line_number,
                    message: format!("expected `key: value`, found `{}`", line.content),
                });
            };
            let (key, rest) = (key.to_string(), rest.to_string());
            self.position += 1;
            let value = self.parse_value(indent, &rest, line_number)?;
            fields.push(RawField { key, line: line_number, value });
        }
        Ok(fields)
    }

    /// Reads what follows `key:`: an inline value, a block list below, or nothing.
    fn parse_value(
        &mut self,
        key_indent: usize,
        rest: &str,
        key_line: u32,
    ) -> Result<RawValue, FrontMatterError> {
        let rest = rest.trim();
        let at_key_line = |message: String| FrontMatterError { line: key_line, message };
        if rest.starts_with('[') {
            let items = parse_inline_list(rest).map_err(at_key_line)?;
            let items = items
                .into_iter()
                .map(|item| RawItem { line: key_line, value: RawItemValue::Scalar(item) })
                .collect();
            return Ok(RawValue::List(items));
        }
        if !rest.is_empty() && !rest.starts_with('#') {
            return Ok(match parse_scalar(rest).map_err(at_key_line)? {
                Some(scalar) => RawValue::Scalar(scalar),
                None => RawValue::Null,
            });
        }
        match self.lines.get(self.position) {
            Some(next) if next.indent >= key_indent && is_dash_item(&next.content) => {
                let list_indent = next.indent;
                Ok(RawValue::List(self.parse_sequence(list_indent)?))
            }
            Some(next) if next.indent > key_indent => Err(FrontMatterError {
                line: next.number,
                message: "nested maps are only supported as list items (`- key: value`)"
                    .to_string(),
            }),
            _ => Ok(RawValue::Null),
        }
    }

    /// Reads `- item` lines at exactly `indent`.
    fn parse_sequence(&mut self, indent: usize) -> Result<Vec<RawItem>, FrontMatterError> {
        let mut items = Vec::new();
        while let Some(line) = self.lines.get(self.position) {
            if line.indent < indent || (line.indent == indent && !is_dash_item(&line.content)) {
                break;
            }
            let line_number = line.number;
            if line.indent > indent {
                return Err(FrontMatterError {
                    line: line_number,
                    message: "unexpected indentation".to_string(),
                });
            }
            let after_dash = &line.content[1..];
            let item_text = after_dash.trim_start().to_string();
            let item_column = indent + 1 + (after_dash.len() - item_text.len());
            if item_text.is_empty() {
                return Err(FrontMatterError {
                    line: line_number,
                    message: "empty list item".to_string(),
                });
            }
            if item_text.starts_with('[') || is_dash_item(&item_text) {
                return Err(FrontMatterError {
                    line: line_number,
                    message: "nested lists are not supported".to_string(),
                });
            }
            if split_key(&item_text).is_some() {
                // Re-read the item's first key as if it stood alone at the item's column.
                self.lines[self.position] = SignificantLine {
                    number: line_number,
                    indent: item_column,
                    content: item_text,
                };
                let fields = self.parse_mapping(item_column)?;
                items.push(RawItem { line: line_number, value: RawItemValue::Map(fields) });
                continue;
            }
            self.position += 1;
            let value = match parse_scalar(&item_text) {
                Ok(Some(scalar)) => RawItemValue::Scalar(scalar),
                Ok(None) => RawItemValue::Null,
                Err(message) => return Err(FrontMatterError { line: line_number, message }),
            };
            items.push(RawItem { line: line_number, value });
        }
        Ok(items)
    }
}

fn is_dash_item(content: &str) -> bool {
    content == "-" || content.starts_with("- ")
}

/// Splits `key: rest` where the key is `[A-Za-z_][A-Za-z0-9_-]*` and `:` ends the line or
/// is followed by whitespace.
fn split_key(content: &str) -> Option<(&str, &str)> {
    let colon = content.find(':')?;
    let (key, after_colon) = (&content[..colon], &content[colon + 1..]);
    let mut key_characters = key.chars();
    let first_ok =
        key_characters.next().is_some_and(|first| first.is_ascii_alphabetic() || first == '_');
    let rest_ok = key_characters
        .all(|character| character.is_ascii_alphanumeric() || matches!(character, '_' | '-'));
    let separated = after_colon.is_empty() || after_colon.starts_with([' ', '\t']);
    (first_ok && rest_ok && separated).then_some((key, after_colon))
}

#[cfg(test)]
#[path = "front_matter_tests.rs"]
mod tests;
