//! The editor's open documents, and the conversions between editor coordinates (`file:`
//! URIs, zero-based lines, UTF-16 columns) and tether's (repository paths, one-based lines).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, CONTROLS};

/// Bytes a `file:` URI's path spells with a percent sign: everything but unreserved
/// characters and `/` (what VS Code and Neovim write too).
const PATH_ESCAPES: &AsciiSet = &CONTROLS
    .add(b' ')
    .add(b'"')
    .add(b'#')
    .add(b'%')
    .add(b'<')
    .add(b'>')
    .add(b'?')
    .add(b'[')
    .add(b'\\')
    .add(b']')
    .add(b'^')
    .add(b'`')
    .add(b'{')
    .add(b'|')
    .add(b'}')
    .add(b':')
    .add(b';')
    .add(b'=')
    .add(b'@')
    .add(b'&')
    .add(b'+')
    .add(b',')
    .add(b'$')
    .add(b'!')
    .add(b'\'')
    .add(b'(')
    .add(b')')
    .add(b'*');

/// One document the editor has open.
#[derive(Clone, Debug)]
pub struct OpenDocument {
    pub path: PathBuf,
    pub text: String,
    pub version: i32,
}

/// The open documents by URI text.
#[derive(Default, Debug)]
pub struct OpenDocuments {
    by_uri: BTreeMap<String, OpenDocument>,
}

impl OpenDocuments {
    pub fn open(&mut self, uri: &Uri, document: OpenDocument) {
        self.by_uri.insert(uri.as_str().to_string(), document);
    }

    pub fn close(&mut self, uri: &Uri) -> Option<OpenDocument> {
        self.by_uri.remove(uri.as_str())
    }

    pub fn get(&self, uri: &Uri) -> Option<&OpenDocument> {
        self.by_uri.get(uri.as_str())
    }

    pub fn get_mut(&mut self, uri: &Uri) -> Option<&mut OpenDocument> {
        self.by_uri.get_mut(uri.as_str())
    }

    /// The open document of a file, by path.
    pub fn by_path(&self, path: &Path) -> Option<&OpenDocument> {
        self.by_uri.values().find(|document| document.path == path)
    }

    pub fn iter(&self) -> impl Iterator<Item = &OpenDocument> {
        self.by_uri.values()
    }
}

/// The file a `file:` URI names; `None` for any other scheme.
pub fn path_of_uri(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path`: only the local host is a file here.
    let path = match rest.strip_prefix("localhost") {
        Some(after_host) => after_host,
        None => rest,
    };
    if !path.starts_with('/') {
        return None;
    }
    let decoded = percent_decode_str(path).decode_utf8().ok()?;
    Some(PathBuf::from(decoded.as_ref()))
}

/// The `file:` URI of an absolute path.
pub fn uri_of_path(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    if !text.starts_with('/') {
        return None;
    }
    Uri::from_str(&format!("file://{}", utf8_percent_encode(text, PATH_ESCAPES))).ok()
}

/// The byte offset in `line` of a UTF-16 column (the line's end when past it).
pub fn byte_offset_of_column(line: &str, column: u32) -> usize {
    let mut units = 0u32;
    for (offset, character) in line.char_indices() {
        if units >= column {
            return offset;
        }
        units += character.len_utf16() as u32;
    }
    line.len()
}

/// The UTF-16 column of a byte offset in `line`.
pub fn column_of_byte_offset(line: &str, offset: usize) -> u32 {
    line[..offset.min(line.len())].chars().map(|character| character.len_utf16() as u32).sum()
}

/// The identifier under (or just before) the cursor, if any.
pub fn word_at(text: &str, position: Position) -> Option<&str> {
    let line = text.lines().nth(position.line as usize)?;
    let cursor = byte_offset_of_column(line, position.character);
    let is_word = |character: char| character == '_' || character.is_alphanumeric();
    let start = line[..cursor]
        .char_indices()
        .rev()
        .take_while(|(_, character)| is_word(*character))
        .last()
        .map_or(cursor, |(offset, _)| offset);
    let end = line[cursor..]
        .char_indices()
        .find(|(_, character)| !is_word(*character))
        .map_or(line.len(), |(offset, _)| cursor + offset);
    (start < end).then(|| &line[start..end])
}

/// The range of `name` on one-based `line` of `text` (its first occurrence as a whole
/// word), else the line's start.
pub fn range_of_name(text: Option<&str>, line: u32, name: &str) -> Range {
    let zero_based = line.saturating_sub(1);
    let at_start = Range::new(Position::new(zero_based, 0), Position::new(zero_based, 0));
    let Some(line_text) = text.and_then(|text| text.lines().nth(zero_based as usize)) else {
        return at_start;
    };
    let is_word = |character: char| character == '_' || character.is_alphanumeric();
    let found = line_text.match_indices(name).find(|(offset, _)| {
        let before = line_text[..*offset].chars().next_back();
        let after = line_text[offset + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    });
    match found {
        Some((offset, _)) if !name.is_empty() => Range::new(
            Position::new(zero_based, column_of_byte_offset(line_text, offset)),
            Position::new(zero_based, column_of_byte_offset(line_text, offset + name.len())),
        ),
        _ => at_start,
    }
}

/// The lines `line..=end_line` (one-based) as a range ending at the last line's end.
pub fn range_of_lines(text: Option<&str>, line: u32, end_line: u32) -> Range {
    let first = line.saturating_sub(1);
    let last = end_line.max(line).saturating_sub(1);
    let last_length = text
        .and_then(|text| text.lines().nth(last as usize))
        .map_or(0, |line_text| column_of_byte_offset(line_text, line_text.len()));
    Range::new(Position::new(first, 0), Position::new(last, last_length))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_uris_convert_both_ways_with_escapes() {
        let path = Path::new("/tmp/a b/ü#x.py");
        let uri = uri_of_path(path).unwrap();
        assert_eq!(uri.as_str(), "file:///tmp/a%20b/%C3%BC%23x.py");
        assert_eq!(path_of_uri(&uri).unwrap(), path);
        let vscode_style = Uri::from_str("file:///c%3A/x.py").unwrap();
        assert_eq!(path_of_uri(&vscode_style).unwrap(), Path::new("/c:/x.py"));
        assert!(path_of_uri(&Uri::from_str("untitled:Untitled-1").unwrap()).is_none());
    }

    #[test]
    fn columns_count_utf16_units() {
        let line = "x = \"😀\"; run()";
        let run = line.find("run").unwrap();
        assert_eq!(column_of_byte_offset(line, run), 10);
        assert_eq!(byte_offset_of_column(line, 10), run);
        assert_eq!(word_at(line, Position::new(0, 11)), Some("run"));
        assert_eq!(word_at(line, Position::new(0, 13)), Some("run"));
        assert_eq!(word_at(line, Position::new(0, 3)), None);
    }

    #[test]
    fn a_name_is_found_as_a_whole_word() {
        let text = "def prepare(): pass\n    unprepare(); prepare()\n";
        let range = range_of_name(Some(text), 2, "prepare");
        assert_eq!((range.start.character, range.end.character), (17, 24));
        assert_eq!(range_of_name(None, 2, "prepare").start, Position::new(1, 0));
    }
}
