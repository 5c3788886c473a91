//! Bulk loading a whole graph: one CSV file per table, then one `COPY … FROM` each.
//!
//! Row-by-row `CREATE` costs a full statement per row (about 3k rows/s); `COPY` from CSV
//! loads hundreds of thousands of rows per second (see ARCHITECTURE.md, "Store").

use std::path::Path;
use std::time::Instant;

use tether_model::{EdgeKind, Graph, IndexMeta, MemoryGraph};

use crate::csv_writer::{CsvWriter, Field};
use crate::read::meta_pairs;
use crate::{GraphStore, StoreError};

/// What a load wrote, and how long it took.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    pub rows_by_table: Vec<(String, u64)>,
    pub csv_seconds: f64,
    pub copy_seconds: f64,
    pub copy_seconds_by_table: Vec<(String, f64)>,
}

impl GraphStore {
    /// Loads a graph into this (empty) database, with its metadata.
    pub fn load_graph(&self, graph: &Graph, meta: &IndexMeta) -> Result<LoadStats, StoreError> {
        self.load_graph_and_memory(graph, &MemoryGraph::default(), meta)
    }

    /// Loads a graph and the memory graph beside it into this (empty) database.
    pub fn load_graph_and_memory(&self, graph: &Graph, memory: &MemoryGraph, meta: &IndexMeta) -> Result<LoadStats, StoreError> {
        let scratch_parent = self.path().and_then(Path::parent).map(Path::to_path_buf).unwrap_or_else(std::env::temp_dir);
        let scratch = tempfile::Builder::new()
            .prefix("tether-load-")
            .tempdir_in(&scratch_parent)
            .map_err(|source| StoreError::Io { path: scratch_parent.clone(), source })?;
        let started = Instant::now();
        let mut files = write_tables(graph, scratch.path())?;
        files.extend(write_memory_tables(graph, memory, scratch.path())?);
        let csv_seconds = started.elapsed().as_secs_f64();

        let started = Instant::now();
        let connection = self.connection()?;
        let mut stats = LoadStats { csv_seconds, ..LoadStats::default() };
        for (table, path, rows) in files {
            stats.rows_by_table.push((table.clone(), rows));
            if rows == 0 {
                continue;
            }
            // Only tables whose fields are numbers and fixed words may be parsed in parallel:
            // quoted text round-trips commas, quotes and newlines only with `parallel=false`.
            let parallel = EdgeKind::parse(&table).is_some() && table != "TETHER";
            let statement = format!("COPY {table} FROM '{}' (header=true, parallel={parallel})", cypher_string(&path.to_string_lossy()));
            let copy_started = Instant::now();
            connection.query(&statement).map_err(|error| StoreError::query(&statement, error))?;
            stats.copy_seconds_by_table.push((table.clone(), copy_started.elapsed().as_secs_f64()));
        }
        self.write_meta(&connection, meta)?;
        stats.copy_seconds = started.elapsed().as_secs_f64();
        Ok(stats)
    }

    fn write_meta(&self, connection: &lbug::Connection<'_>, meta: &IndexMeta) -> Result<(), StoreError> {
        let statement = "CREATE (:Meta {key: $key, value: $value})";
        let mut prepared = connection.prepare(statement).map_err(|error| StoreError::query(statement, error))?;
        for (key, value) in meta_pairs(meta) {
            connection
                .execute(&mut prepared, vec![("key", lbug::Value::String(key.to_string())), ("value", lbug::Value::String(value))])
                .map_err(|error| StoreError::query(statement, error))?;
        }
        Ok(())
    }
}

/// Escapes a value for a single-quoted Cypher string literal.
fn cypher_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}

type TableFile = (String, std::path::PathBuf, u64);

fn write_tables(graph: &Graph, directory: &Path) -> Result<Vec<TableFile>, StoreError> {
    let mut files = Vec::new();

    let mut writer = CsvWriter::create(&directory.join("files.csv"), &["path", "language", "size_bytes", "content_hash", "status"])?;
    for file in &graph.files {
        writer.row(&[
            Field::Text(&file.path),
            Field::Text(file.language.as_str()),
            Field::Integer(file.size_bytes as i64),
            Field::Integer(file.content_hash as i64),
            Field::Text(file.status.as_str()),
        ])?;
    }
    push_table(&mut files, "File", writer)?;

    let mut writer = CsvWriter::create(
        &directory.join("symbols.csv"),
        &["id", "kind", "name", "qualified_name", "path", "language", "start_line", "end_line", "start_byte", "end_byte", "parent", "is_test"],
    )?;
    for symbol in &graph.symbols {
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
        ])?;
    }
    push_table(&mut files, "Symbol", writer)?;

    let mut writer = CsvWriter::create(&directory.join("unresolved.csv"), &["id", "caller", "callee_text", "callee_name", "path", "line", "reason"])?;
    for (index, call) in graph.unresolved.iter().enumerate() {
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
    push_table(&mut files, "UnresolvedCall", writer)?;

    let mut writer = CsvWriter::create(&directory.join("diagnostics.csv"), &["id", "path", "line", "kind", "message"])?;
    for (index, diagnostic) in graph.diagnostics.iter().enumerate() {
        writer.row(&[
            Field::Integer(index as i64),
            Field::Text(&diagnostic.path),
            diagnostic.line.map_or(Field::Null, |line| Field::Integer(i64::from(line))),
            Field::Text(diagnostic.kind.as_str()),
            Field::Text(&diagnostic.message),
        ])?;
    }
    push_table(&mut files, "Diagnostic", writer)?;

    for kind in EdgeKind::ALL {
        let file_name = format!("edges-{}.csv", kind.as_str().to_lowercase());
        let mut writer = CsvWriter::create(&directory.join(file_name), &["from", "to", "line", "confidence", "rule"])?;
        for edge in graph.edges.iter().filter(|edge| edge.kind == kind) {
            writer.row(&[
                Field::Integer(edge.source.as_i64()),
                Field::Integer(edge.target.as_i64()),
                Field::Integer(i64::from(edge.line)),
                Field::Float(edge.confidence),
                Field::Text(edge.rule.as_str()),
            ])?;
        }
        push_table(&mut files, kind.as_str(), writer)?;
    }
    Ok(files)
}

fn push_table(files: &mut Vec<TableFile>, table: &str, writer: CsvWriter) -> Result<(), StoreError> {
    let (path, rows) = writer.finish()?;
    files.push((table.to_string(), path, rows));
    Ok(())
}

/// The memory graph's tables. Links and tethers whose ends are not in the graph are left out
/// (a dangling reference is reported when entries load, not stored).
fn write_memory_tables(graph: &Graph, memory: &MemoryGraph, directory: &Path) -> Result<Vec<TableFile>, StoreError> {
    let mut files = Vec::new();
    let ids: std::collections::HashSet<&str> = memory.entries.iter().map(|entry| entry.id.as_str()).collect();
    let mut writer = CsvWriter::create(&directory.join("entries.csv"), &["id", "type", "title", "status", "created_at", "path"])?;
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
    push_table(&mut files, "Entry", writer)?;
    for kind in ["PARENT", "SUPERSEDES", "DEPENDS_ON", "RELATED"] {
        let mut writer = CsvWriter::create(&directory.join(format!("memory-{}.csv", kind.to_lowercase())), &["from", "to"])?;
        for (_, from, to) in memory.links.iter().filter(|(link, from, to)| *link == kind && ids.contains(from.as_str()) && ids.contains(to.as_str())) {
            writer.row(&[Field::Text(from), Field::Text(to)])?;
        }
        push_table(&mut files, kind, writer)?;
    }
    let symbols: std::collections::HashSet<tether_model::SymbolId> = graph.symbols.iter().map(|symbol| symbol.id).collect();
    let mut writer = CsvWriter::create(&directory.join("memory-tether.csv"), &["from", "to", "kind", "pin"])?;
    for tether in memory.tethers.iter().filter(|tether| ids.contains(tether.entry_id.as_str()) && symbols.contains(&tether.symbol)) {
        writer.row(&[Field::Text(&tether.entry_id), Field::Integer(tether.symbol.as_i64()), Field::Text(tether.kind), Field::Text(&tether.pin)])?;
    }
    push_table(&mut files, "TETHER", writer)?;
    Ok(files)
}
