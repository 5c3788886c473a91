//! One CSV file per table for `COPY … FROM`: the column order of each table in the schema,
//! written from the model's types.

use std::path::{Path, PathBuf};

use tether_model::{
    Diagnostic, Edge, EdgeKind, FileRecord, Graph, MemoryGraph, Symbol, UnresolvedCall,
};

use crate::csv_writer::{CsvWriter, Field};
use crate::StoreError;

/// A table's rows written to a CSV file, ready to COPY.
pub(crate) struct TableCsv {
    /// The table COPY loads into.
    pub table: &'static str,
    /// What the load statistics call this file (the table, or the table and which part of it).
    pub label: String,
    pub path: PathBuf,
    pub rows: u64,
}

impl TableCsv {
    pub(crate) fn finish(
        table: &'static str,
        label: &str,
        writer: CsvWriter,
    ) -> Result<TableCsv, StoreError> {
        let (path, rows) = writer.finish()?;
        Ok(TableCsv { table, label: label.to_string(), path, rows })
    }
}

pub(crate) fn write_files_csv(
    files: &[FileRecord],
    directory: &Path,
) -> Result<TableCsv, StoreError> {
    let mut writer = CsvWriter::create(
        &directory.join("files.csv"),
        &["path", "language", "size_bytes", "content_hash", "status"],
    )?;
    for file in files {
        writer.row(&[
            Field::Text(&file.path),
            Field::Text(file.language.as_str()),
            Field::Integer(file.size_bytes as i64),
            Field::Integer(file.content_hash as i64),
            Field::Text(file.status.as_str()),
        ])?;
    }
    TableCsv::finish("File", "File", writer)
}

/// `label` tells apart the Symbol table's parts when it is loaded in two COPYs; `file_name`
/// must differ between them.
pub(crate) fn write_symbols_csv(
    symbols: &[Symbol],
    directory: &Path,
    file_name: &str,
    label: &str,
) -> Result<TableCsv, StoreError> {
    let mut writer = CsvWriter::create(
        &directory.join(file_name),
        &[
            "id",
            "kind",
            "name",
            "qualified_name",
            "path",
            "language",
            "start_line",
            "end_line",
            "start_byte",
            "end_byte",
            "parent",
            "is_test",
            "runs_as_test",
            "content_hash",
            "body_start_line",
            "is_overload_stub",
            "visibility",
        ],
    )?;
    for symbol in symbols {
        writer.row(&[
            Field::Integer(symbol.id.as_i64()),
            Field::Text(symbol.kind.as_str()),
            Field::Text(&symbol.name),
            Field::Text(&symbol.qualified_name),
            Field::Text(&symbol.path),
            Field::Text(symbol.language.as_str()),
            Field::Integer(i64::from(symbol.span.start_line)),
            Field::Integer(i64::from(symbol.span.end_line)),
            Field::Integer(i64::from(symbol.span.start_byte)),
            Field::Integer(i64::from(symbol.span.end_byte)),
            symbol.parent.map_or(Field::Null, |parent| Field::Integer(parent.as_i64())),
            Field::Boolean(symbol.is_test),
            Field::Boolean(symbol.runs_as_test),
            Field::Integer(symbol.content_hash as i64),
            Field::Integer(i64::from(symbol.body_start_line)),
            Field::Boolean(symbol.is_overload_stub),
            Field::Text(symbol.visibility.as_str()),
        ])?;
    }
    TableCsv::finish("Symbol", label, writer)
}

pub(crate) fn write_unresolved_csv(
    unresolved: &[UnresolvedCall],
    directory: &Path,
) -> Result<TableCsv, StoreError> {
    let mut writer = CsvWriter::create(
        &directory.join("unresolved.csv"),
        &["id", "caller", "callee_text", "callee_name", "path", "line", "reason"],
    )?;
    for (index, call) in unresolved.iter().enumerate() {
        writer.row(&[
            Field::Integer(index as i64),
            Field::Integer(call.caller.as_i64()),
            Field::Text(&call.callee_text),
            Field::Text(&call.callee_name),
            Field::Text(&call.path),
            Field::Integer(i64::from(call.line)),
            Field::Text(call.reason.as_str()),
        ])?;
    }
    TableCsv::finish("UnresolvedCall", "UnresolvedCall", writer)
}

/// Diagnostics numbered from `first_id` (a second stage appends after the first one's).
pub(crate) fn write_diagnostics_csv(
    diagnostics: &[Diagnostic],
    first_id: usize,
    directory: &Path,
    file_name: &str,
    label: &str,
) -> Result<TableCsv, StoreError> {
    let mut writer =
        CsvWriter::create(&directory.join(file_name), &["id", "path", "line", "kind", "message"])?;
    for (index, diagnostic) in diagnostics.iter().enumerate() {
        writer.row(&[
            Field::Integer((first_id + index) as i64),
            Field::Text(&diagnostic.path),
            diagnostic.line.map_or(Field::Null, |line| Field::Integer(i64::from(line))),
            Field::Text(diagnostic.kind.as_str()),
            Field::Text(&diagnostic.message),
        ])?;
    }
    TableCsv::finish("Diagnostic", label, writer)
}

/// The edges of one kind, into the rel table of the same name.
pub(crate) fn write_edges_csv<'a>(
    edges: impl Iterator<Item = &'a Edge>,
    kind: EdgeKind,
    directory: &Path,
) -> Result<TableCsv, StoreError> {
    let file_name = format!("edges-{}.csv", kind.as_str().to_lowercase());
    let mut writer = CsvWriter::create(
        &directory.join(file_name),
        &["from", "to", "line", "confidence", "rule"],
    )?;
    for edge in edges.filter(|edge| edge.kind == kind) {
        writer.row(&[
            Field::Integer(edge.source.as_i64()),
            Field::Integer(edge.target.as_i64()),
            Field::Integer(i64::from(edge.line)),
            Field::Float(edge.confidence),
            Field::Text(edge.rule.as_str()),
        ])?;
    }
    TableCsv::finish(kind.as_str(), kind.as_str(), writer)
}

/// The memory graph's tables. Links and tethers whose ends are not in the graph are left out
/// (a dangling reference is reported when entries load, not stored).
pub(crate) fn write_memory_csvs(
    graph: &Graph,
    memory: &MemoryGraph,
    directory: &Path,
) -> Result<Vec<TableCsv>, StoreError> {
    let mut files = Vec::new();
    let ids: std::collections::HashSet<&str> =
        memory.entries.iter().map(|entry| entry.id.as_str()).collect();
    let mut writer = CsvWriter::create(
        &directory.join("entries.csv"),
        &["id", "type", "title", "status", "created_at", "path"],
    )?;
    for entry in &memory.entries {
        writer.row(&[
            Field::Text(&entry.id),
            Field::Text(&entry.entry_type),
            Field::Text(&entry.title),
            Field::Text(&entry.status),
            Field::Text(&entry.created_at),
            Field::Text(&entry.path),
        ])?;
    }
    files.push(TableCsv::finish("Entry", "Entry", writer)?);
    for kind in ["PARENT", "SUPERSEDES", "DEPENDS_ON", "RELATED"] {
        let mut writer = CsvWriter::create(
            &directory.join(format!("memory-{}.csv", kind.to_lowercase())),
            &["from", "to"],
        )?;
        for (_, from, to) in memory.links.iter().filter(|(link, from, to)| {
            *link == kind && ids.contains(from.as_str()) && ids.contains(to.as_str())
        }) {
            writer.row(&[Field::Text(from), Field::Text(to)])?;
        }
        files.push(TableCsv::finish(kind, kind, writer)?);
    }
    let symbols: std::collections::HashSet<tether_model::SymbolId> =
        graph.symbols.iter().map(|symbol| symbol.id).collect();
    let mut writer =
        CsvWriter::create(&directory.join("memory-tether.csv"), &["from", "to", "kind", "pin"])?;
    for tether in memory
        .tethers
        .iter()
        .filter(|tether| ids.contains(tether.entry_id.as_str()) && symbols.contains(&tether.symbol))
    {
        writer.row(&[
            Field::Text(&tether.entry_id),
            Field::Integer(tether.symbol.as_i64()),
            Field::Text(tether.kind),
            Field::Text(&tether.pin),
        ])?;
    }
    files.push(TableCsv::finish("TETHER", "TETHER", writer)?);
    Ok(files)
}
