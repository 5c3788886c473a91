//! Bulk loading with one `COPY … FROM` CSV file per table, in one go or in two stages: the
//! nodes extraction decides (files, project symbols, diagnostics) first, then the rest.
//!
//! Row-by-row `CREATE` costs a full statement per row (about 3k rows/s); `COPY` from CSV
//! loads hundreds of thousands of rows per second (see ARCHITECTURE.md, "Store"). Each
//! table's CSV is written on a helper thread while the table before it is COPYed.

use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::sync::mpsc;
use std::time::Instant;

use tether_model::{Edge, EdgeKind, Graph, IndexMeta, MemoryGraph, Symbol};

use crate::read::meta_pairs;
use crate::table_csv::{self, TableCsv};
use crate::{GraphStore, StoreError};

/// What a load wrote, and how long it took.
#[derive(Clone, Debug, Default)]
pub struct LoadStats {
    /// Rows per COPY, by label (the Symbol table loaded in two stages has two entries).
    pub rows_by_table: Vec<(String, u64)>,
    /// Opening the new database and creating its schema.
    pub create_seconds: f64,
    /// Writing the CSV files, on a helper thread, overlapped with the COPYs.
    pub csv_seconds: f64,
    /// Running the COPY statements and writing the metadata.
    pub copy_seconds: f64,
    pub copy_seconds_by_table: Vec<(String, f64)>,
    /// Closing the database, which checkpoints everything loaded (0 for a load into a
    /// database that stays open).
    pub close_seconds: f64,
}

/// What the first stage of a two-stage load put into the database, to check that the second
/// stage's graph extends it.
#[derive(Clone, Debug)]
pub(crate) struct LoadedNodes {
    files: usize,
    symbols: usize,
    diagnostics: usize,
    symbol_fingerprint: u64,
    /// The edges loaded with the nodes (the CONTAINS edges extraction decides), which the
    /// whole graph must hold too.
    edges: HashSet<EdgeKey>,
}

/// An edge as the database tells edges apart.
type EdgeKey = (EdgeKind, i64, i64, u32);

fn edge_key(edge: &Edge) -> EdgeKey {
    (edge.kind, edge.source.as_i64(), edge.target.as_i64(), edge.line)
}

/// Writes one or more tables' CSV files into the scratch folder.
type CsvJob<'a> = Box<dyn FnOnce(&Path) -> Result<Vec<TableCsv>, StoreError> + Send + 'a>;

fn job<'a>(write: impl FnOnce(&Path) -> Result<TableCsv, StoreError> + Send + 'a) -> CsvJob<'a> {
    Box::new(move |directory| write(directory).map(|table| vec![table]))
}

fn symbol_fingerprint(symbols: &[Symbol]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for symbol in symbols {
        symbol.id.as_i64().hash(&mut hasher);
    }
    hasher.finish()
}

impl GraphStore {
    /// Loads a graph into this (empty) database, with its metadata.
    pub fn load_graph(&self, graph: &Graph, meta: &IndexMeta) -> Result<LoadStats, StoreError> {
        self.load_graph_and_memory(graph, &MemoryGraph::default(), meta)
    }

    /// Loads a graph and the memory graph beside it into this (empty) database.
    pub fn load_graph_and_memory(
        &self,
        graph: &Graph,
        memory: &MemoryGraph,
        meta: &IndexMeta,
    ) -> Result<LoadStats, StoreError> {
        let scratch = self.scratch_folder()?;
        let mut stats = LoadStats::default();
        self.load_rest(graph, memory, meta, None, scratch.path(), &mut stats)?;
        Ok(stats)
    }

    /// A temporary folder for the CSV files, beside the database (or in the system's
    /// temporary folder for an in-memory database).
    pub(crate) fn scratch_folder(&self) -> Result<tempfile::TempDir, StoreError> {
        let parent = self
            .path()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_else(std::env::temp_dir);
        tempfile::Builder::new()
            .prefix("tether-load-")
            .tempdir_in(&parent)
            .map_err(|source| StoreError::Io { path: parent.clone(), source })
    }

    /// The first stage: the nodes that extraction alone decides (every file record, the
    /// project's symbols, every diagnostic) from a graph that has no resolution yet.
    pub(crate) fn load_extracted_nodes(
        &self,
        extracted: &Graph,
        scratch: &Path,
        stats: &mut LoadStats,
    ) -> Result<LoadedNodes, StoreError> {
        let mut jobs: Vec<CsvJob<'_>> = vec![
            job(|directory| table_csv::write_files_csv(&extracted.files, directory)),
            job(|directory| {
                table_csv::write_symbols_csv(&extracted.symbols, directory, "symbols.csv", "Symbol")
            }),
            job(|directory| {
                table_csv::write_diagnostics_csv(
                    &extracted.diagnostics,
                    0,
                    directory,
                    "diagnostics.csv",
                    "Diagnostic",
                )
            }),
        ];
        for kind in EdgeKind::ALL {
            if extracted.edges.iter().any(|edge| edge.kind == kind) {
                jobs.push(job(move |directory| {
                    table_csv::write_edges_csv(extracted.edges.iter(), kind, directory)
                }));
            }
        }
        self.copy_tables(scratch, jobs, stats)?;
        Ok(LoadedNodes {
            files: extracted.files.len(),
            symbols: extracted.symbols.len(),
            diagnostics: extracted.diagnostics.len(),
            symbol_fingerprint: symbol_fingerprint(&extracted.symbols),
            edges: extracted.edges.iter().map(edge_key).collect(),
        })
    }

    /// Everything `loaded` (the first stage, if it ran) did not load, then the metadata.
    /// With a first stage, `graph` must extend what it loaded: the same files, diagnostics
    /// starting with the ones loaded, and its symbols start with the ones loaded (resolution appends the outside symbols).
    pub(crate) fn load_rest(
        &self,
        graph: &Graph,
        memory: &MemoryGraph,
        meta: &IndexMeta,
        loaded: Option<&LoadedNodes>,
        scratch: &Path,
        stats: &mut LoadStats,
    ) -> Result<(), StoreError> {
        let mut jobs: Vec<CsvJob<'_>> = Vec::new();
        match loaded {
            None => {
                jobs.push(job(|directory| table_csv::write_files_csv(&graph.files, directory)));
                jobs.push(job(|directory| {
                    table_csv::write_symbols_csv(&graph.symbols, directory, "symbols.csv", "Symbol")
                }));
            }
            Some(loaded) => {
                let extends = graph.files.len() == loaded.files
                    && graph.diagnostics.len() >= loaded.diagnostics
                    && graph.symbols.len() >= loaded.symbols
                    && symbol_fingerprint(&graph.symbols[..loaded.symbols])
                        == loaded.symbol_fingerprint;
                if !extends {
                    return Err(StoreError::StagedLoadMismatch {
                        message: format!(
                            "{} files, {} diagnostics, {} symbols loaded first; the whole graph has {} files, {} diagnostics, {} symbols",
                            loaded.files,
                            loaded.diagnostics,
                            loaded.symbols,
                            graph.files.len(),
                            graph.diagnostics.len(),
                            graph.symbols.len()
                        ),
                    });
                }
                let outside = &graph.symbols[loaded.symbols..];
                jobs.push(job(move |directory| {
                    table_csv::write_symbols_csv(
                        outside,
                        directory,
                        "symbols-outside.csv",
                        "Symbol (outside)",
                    )
                }));
            }
        }
        jobs.push(job(|directory| table_csv::write_unresolved_csv(&graph.unresolved, directory)));
        // Diagnostics the first stage did not load (all of them without one; with one, those
        // completing the graph added, such as a repaired CONTAINS cycle).
        let first_late_diagnostic = loaded.map_or(0, |loaded| loaded.diagnostics);
        if graph.diagnostics.len() > first_late_diagnostic || loaded.is_none() {
            let late = &graph.diagnostics[first_late_diagnostic..];
            let (file_name, label) = if loaded.is_none() {
                ("diagnostics.csv", "Diagnostic")
            } else {
                ("diagnostics-late.csv", "Diagnostic (late)")
            };
            jobs.push(job(move |directory| {
                table_csv::write_diagnostics_csv(
                    late,
                    first_late_diagnostic,
                    directory,
                    file_name,
                    label,
                )
            }));
        }
        let loaded_edges = loaded.map(|loaded| &loaded.edges);
        if let Some(loaded_edges) = loaded_edges {
            let held =
                graph.edges.iter().filter(|edge| loaded_edges.contains(&edge_key(edge))).count();
            if held != loaded_edges.len() {
                return Err(StoreError::StagedLoadMismatch {
                    message: format!(
                        "{} edges were loaded with the nodes; the whole graph holds {held} of them",
                        loaded_edges.len()
                    ),
                });
            }
        }
        for kind in EdgeKind::ALL {
            let not_loaded = graph.edges.iter().filter(move |edge| {
                edge.kind == kind
                    && loaded_edges
                        .is_none_or(|loaded_edges| !loaded_edges.contains(&edge_key(edge)))
            });
            jobs.push(job(move |directory| {
                table_csv::write_edges_csv(not_loaded, kind, directory)
            }));
        }
        jobs.push(Box::new(|directory| table_csv::write_memory_csvs(graph, memory, directory)));
        jobs.push(Box::new(|directory| {
            crate::trace_csv::write_trace_csvs(graph, memory, directory)
        }));
        self.copy_tables(scratch, jobs, stats)?;
        let started = Instant::now();
        self.write_meta(meta)?;
        stats.copy_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Writes the jobs' CSV files on a helper thread, in order, and COPYs each table as soon
    /// as its file is complete. An empty table is not COPYed.
    fn copy_tables(
        &self,
        scratch: &Path,
        jobs: Vec<CsvJob<'_>>,
        stats: &mut LoadStats,
    ) -> Result<(), StoreError> {
        let connection = self.connection()?;
        std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::channel::<Result<Vec<TableCsv>, StoreError>>();
            let writer = scope.spawn(move || {
                let mut seconds = 0.0;
                for job in jobs {
                    let started = Instant::now();
                    let written = job(scratch);
                    seconds += started.elapsed().as_secs_f64();
                    let failed = written.is_err();
                    // A closed channel means a COPY failed: stop writing.
                    if sender.send(written).is_err() || failed {
                        break;
                    }
                }
                seconds
            });
            let mut outcome = Ok(());
            for written in receiver.iter() {
                let copied = written.and_then(|tables| {
                    tables.into_iter().try_for_each(|table| copy_table(&connection, table, stats))
                });
                if let Err(error) = copied {
                    outcome = Err(error);
                    break;
                }
            }
            drop(receiver);
            stats.csv_seconds +=
                writer.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            outcome
        })
    }

    fn write_meta(&self, meta: &IndexMeta) -> Result<(), StoreError> {
        let connection = self.connection()?;
        let statement = "CREATE (:Meta {key: $key, value: $value})";
        let mut prepared =
            connection.prepare(statement).map_err(|error| StoreError::query(statement, error))?;
        for (key, value) in meta_pairs(meta) {
            connection
                .execute(
                    &mut prepared,
                    vec![
                        ("key", lbug::Value::String(key.to_string())),
                        ("value", lbug::Value::String(value)),
                    ],
                )
                .map_err(|error| StoreError::query(statement, error))?;
        }
        Ok(())
    }
}

fn copy_table(
    connection: &lbug::Connection<'_>,
    table: TableCsv,
    stats: &mut LoadStats,
) -> Result<(), StoreError> {
    stats.rows_by_table.push((table.label.clone(), table.rows));
    if table.rows == 0 {
        return Ok(());
    }
    // Only tables whose fields are numbers and fixed words may be parsed in parallel: quoted
    // text round-trips commas, quotes and newlines only with `parallel=false`.
    let parallel = EdgeKind::parse(table.table).is_some();
    // The dialect is the one `CsvWriter` writes (`,`, `"` doubled); sniffing it costs more than
    // loading a small table.
    let statement = format!(
        "COPY {} FROM '{}' (header=true, parallel={parallel}, auto_detect=false)",
        table.table,
        cypher_string(&table.path.to_string_lossy())
    );
    let started = Instant::now();
    connection.query(&statement).map_err(|error| StoreError::query(&statement, error))?;
    let seconds = started.elapsed().as_secs_f64();
    stats.copy_seconds += seconds;
    stats.copy_seconds_by_table.push((table.label, seconds));
    Ok(())
}

/// Escapes a value for a single-quoted Cypher string literal.
fn cypher_string(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\'', "\\'")
}
