//! Writing CSV files for `COPY … FROM`: every string quoted (quotes doubled), `None` as an
//! unquoted empty field (which LadybugDB reads as NULL).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::StoreError;

/// One CSV field.
pub(crate) enum Field<'a> {
    Text(&'a str),
    Integer(i64),
    Float(f32),
    Boolean(bool),
    Null,
}

pub(crate) struct CsvWriter {
    path: PathBuf,
    out: BufWriter<File>,
    rows: u64,
    /// The row being written, reused between rows.
    line: Vec<u8>,
}

impl CsvWriter {
    pub(crate) fn create(path: &Path, header: &[&str]) -> Result<CsvWriter, StoreError> {
        let file = File::create(path)
            .map_err(|source| StoreError::Io { path: path.to_path_buf(), source })?;
        let mut writer = CsvWriter {
            path: path.to_path_buf(),
            out: BufWriter::with_capacity(1 << 20, file),
            rows: 0,
            line: Vec::with_capacity(256),
        };
        let header_line = header.join(",");
        writer.write_raw(header_line.as_bytes())?;
        writer.write_raw(b"\n")?;
        Ok(writer)
    }

    pub(crate) fn row(&mut self, fields: &[Field<'_>]) -> Result<(), StoreError> {
        self.line.clear();
        for (index, field) in fields.iter().enumerate() {
            if index > 0 {
                self.line.push(b',');
            }
            match field {
                Field::Text(text) => push_quoted(&mut self.line, text),
                Field::Integer(value) => push_integer(&mut self.line, *value),
                // Writing into a Vec cannot fail.
                Field::Float(value) => {
                    let _ = write!(self.line, "{value}");
                }
                Field::Boolean(value) => {
                    self.line.extend_from_slice(if *value { b"true" } else { b"false" })
                }
                Field::Null => {}
            }
        }
        self.line.push(b'\n');
        self.rows += 1;
        self.out
            .write_all(&self.line)
            .map_err(|source| StoreError::Io { path: self.path.clone(), source })
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        self.out
            .write_all(bytes)
            .map_err(|source| StoreError::Io { path: self.path.clone(), source })
    }

    /// Flushes and returns the file's path and row count.
    pub(crate) fn finish(mut self) -> Result<(PathBuf, u64), StoreError> {
        self.out.flush().map_err(|source| StoreError::Io { path: self.path.clone(), source })?;
        Ok((self.path, self.rows))
    }
}

/// A string field in quotes, its quotes doubled.
fn push_quoted(line: &mut Vec<u8>, text: &str) {
    line.push(b'"');
    let bytes = text.as_bytes();
    if bytes.contains(&b'"') {
        for &byte in bytes {
            if byte == b'"' {
                line.push(b'"');
            }
            line.push(byte);
        }
    } else {
        line.extend_from_slice(bytes);
    }
    line.push(b'"');
}

/// A decimal integer, without allocating.
fn push_integer(line: &mut Vec<u8>, value: i64) {
    let mut digits = [0u8; 20];
    let mut position = digits.len();
    let mut rest = value.unsigned_abs();
    loop {
        position -= 1;
        digits[position] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if value < 0 {
        line.push(b'-');
    }
    line.extend_from_slice(&digits[position..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_are_written_as_rust_formats_them() {
        for value in
            [0, 7, -7, 10, 1_234_567_890, i64::MAX, i64::MIN, -1, 9_223_372_036_854_775_807]
        {
            let mut line = Vec::new();
            push_integer(&mut line, value);
            assert_eq!(String::from_utf8(line).unwrap(), value.to_string());
        }
    }

    #[test]
    fn text_is_quoted_with_its_quotes_doubled() {
        let mut line = Vec::new();
        push_quoted(&mut line, "a \"b\", c\nd");
        assert_eq!(String::from_utf8(line).unwrap(), "\"a \"\"b\"\", c\nd\"");
        let mut line = Vec::new();
        push_quoted(&mut line, "plain");
        assert_eq!(String::from_utf8(line).unwrap(), "\"plain\"");
    }
}
