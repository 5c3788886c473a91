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
}

impl CsvWriter {
    pub(crate) fn create(path: &Path, header: &[&str]) -> Result<CsvWriter, StoreError> {
        let file = File::create(path).map_err(|source| StoreError::Io { path: path.to_path_buf(), source })?;
        let mut writer = CsvWriter { path: path.to_path_buf(), out: BufWriter::with_capacity(1 << 20, file), rows: 0 };
        let header_line = header.join(",");
        writer.write_raw(header_line.as_bytes())?;
        writer.write_raw(b"\n")?;
        Ok(writer)
    }

    pub(crate) fn row(&mut self, fields: &[Field<'_>]) -> Result<(), StoreError> {
        let mut line = String::with_capacity(128);
        for (index, field) in fields.iter().enumerate() {
            if index > 0 {
                line.push(',');
            }
            match field {
                Field::Text(text) => {
                    line.push('"');
                    for character in text.chars() {
                        if character == '"' {
                            line.push('"');
                        }
                        line.push(character);
                    }
                    line.push('"');
                }
                Field::Integer(value) => line.push_str(&value.to_string()),
                Field::Float(value) => line.push_str(&format!("{value}")),
                Field::Boolean(value) => line.push_str(if *value { "true" } else { "false" }),
                Field::Null => {}
            }
        }
        line.push('\n');
        self.rows += 1;
        self.write_raw(line.as_bytes())
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), StoreError> {
        self.out.write_all(bytes).map_err(|source| StoreError::Io { path: self.path.clone(), source })
    }

    /// Flushes and returns the file's path and row count.
    pub(crate) fn finish(mut self) -> Result<(PathBuf, u64), StoreError> {
        self.out.flush().map_err(|source| StoreError::Io { path: self.path.clone(), source })?;
        Ok((self.path, self.rows))
    }
}
