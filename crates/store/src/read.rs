//! Reading the graph back: metadata, the census, and the whole graph for `tether export`.

use tether_model::{
    Census, Diagnostic, DiagnosticKind, Edge, EdgeKind, FileRecord, FileStatus, Graph, IndexMeta,
    Language, ResolutionRule, Span, Symbol, SymbolId, SymbolKind, UnresolvedCall, UnresolvedReason,
    Visibility,
};

use crate::{GraphStore, StoreError};

fn non_empty(value: Option<String>) -> Option<String> {
    value.filter(|value| !value.is_empty())
}

pub(crate) fn meta_pairs(meta: &IndexMeta) -> Vec<(&'static str, String)> {
    vec![
        ("root", meta.root.clone()),
        ("head_commit", meta.head_commit.clone().unwrap_or_default()),
        ("head_branch", meta.head_branch.clone().unwrap_or_default()),
        ("indexed_at_unix", meta.indexed_at_unix.to_string()),
        ("tether_version", meta.tether_version.clone()),
    ]
}

impl GraphStore {
    pub(crate) fn meta_value(&self, key: &str) -> Result<Option<String>, StoreError> {
        let connection = self.connection()?;
        let statement = "MATCH (m:Meta) WHERE m.key = $key RETURN m.value";
        let mut prepared =
            connection.prepare(statement).map_err(|error| StoreError::query(statement, error))?;
        let mut rows = connection
            .execute(&mut prepared, vec![("key", lbug::Value::String(key.to_string()))])
            .map_err(|error| StoreError::query(statement, error))?;
        Ok(rows.next().and_then(|row| row.into_iter().next()).and_then(as_string))
    }

    /// The metadata of the index in this database.
    pub fn meta(&self) -> Result<IndexMeta, StoreError> {
        Ok(IndexMeta {
            root: self.meta_value("root")?.unwrap_or_default(),
            head_commit: non_empty(self.meta_value("head_commit")?),
            head_branch: non_empty(self.meta_value("head_branch")?),
            indexed_at_unix: self
                .meta_value("indexed_at_unix")?
                .and_then(|value| value.parse().ok())
                .unwrap_or(0),
            tether_version: self.meta_value("tether_version")?.unwrap_or_default(),
        })
    }

    /// Counts of files, symbols by kind, edges by kind, unresolved calls and diagnostics.
    pub fn census(&self) -> Result<Census, StoreError> {
        let mut census = Census {
            files: self.count("MATCH (f:File) RETURN count(*)")?,
            files_skipped: self
                .count("MATCH (f:File) WHERE f.status = 'skipped' RETURN count(*)")?,
            unresolved_calls: self.count("MATCH (u:UnresolvedCall) RETURN count(*)")?,
            diagnostics: self.count("MATCH (d:Diagnostic) RETURN count(*)")?,
            ..Census::default()
        };
        for row in self.rows("MATCH (s:Symbol) RETURN s.kind, count(*)")? {
            let kind = text(&row, 0)
                .and_then(|kind| SymbolKind::parse(&kind))
                .ok_or_else(|| corrupt("symbol kind"))?;
            census.symbols_by_kind.insert(kind, integer(&row, 1).unwrap_or(0) as u64);
        }
        for kind in EdgeKind::ALL {
            let count =
                self.count(&format!("MATCH ()-[e:{}]->() RETURN count(*)", kind.as_str()))?;
            if count > 0 {
                census.edges_by_kind.insert(kind, count);
            }
        }
        Ok(census)
    }

    /// The whole graph, as loaded (call outcome counts are not stored and come back empty).
    pub fn read_graph(&self) -> Result<Graph, StoreError> {
        let mut graph = Graph::default();
        for row in self.rows("MATCH (f:File) RETURN f.path, f.language, f.size_bytes, f.content_hash, f.status ORDER BY f.path")? {
            graph.files.push(FileRecord {
                path: text(&row, 0).ok_or_else(|| corrupt("file path"))?,
                language: text(&row, 1).and_then(|value| Language::parse(&value)).ok_or_else(|| corrupt("file language"))?,
                size_bytes: integer(&row, 2).unwrap_or(0) as u64,
                content_hash: integer(&row, 3).unwrap_or(0) as u64,
                status: text(&row, 4).and_then(|value| FileStatus::parse(&value)).ok_or_else(|| corrupt("file status"))?,
            });
        }
        let symbol_statement = "MATCH (s:Symbol) RETURN s.id, s.kind, s.name, s.qualified_name, s.path, s.language, \
             s.start_line, s.end_line, s.start_byte, s.end_byte, s.parent, s.is_test, s.runs_as_test, s.content_hash, s.body_start_line, s.is_overload_stub, s.visibility ORDER BY s.path, s.start_byte, s.qualified_name";
        for row in self.rows(symbol_statement)? {
            graph.symbols.push(Symbol {
                id: SymbolId::from_i64(integer(&row, 0).ok_or_else(|| corrupt("symbol id"))?),
                kind: text(&row, 1)
                    .and_then(|value| SymbolKind::parse(&value))
                    .ok_or_else(|| corrupt("symbol kind"))?,
                name: text(&row, 2).unwrap_or_default(),
                qualified_name: text(&row, 3).unwrap_or_default(),
                path: text(&row, 4).unwrap_or_default(),
                language: text(&row, 5)
                    .and_then(|value| Language::parse(&value))
                    .ok_or_else(|| corrupt("symbol language"))?,
                span: Span {
                    start_line: integer(&row, 6).unwrap_or(0) as u32,
                    end_line: integer(&row, 7).unwrap_or(0) as u32,
                    start_byte: integer(&row, 8).unwrap_or(0) as u32,
                    end_byte: integer(&row, 9).unwrap_or(0) as u32,
                },
                parent: integer(&row, 10).map(SymbolId::from_i64),
                is_test: matches!(row.get(11), Some(lbug::Value::Bool(true))),
                runs_as_test: matches!(row.get(12), Some(lbug::Value::Bool(true))),
                content_hash: integer(&row, 13).unwrap_or(0) as u64,
                body_start_line: integer(&row, 14).unwrap_or(0) as u32,
                is_overload_stub: matches!(row.get(15), Some(lbug::Value::Bool(true))),
                // An empty field may be read back as NULL: both are `Undeclared`.
                visibility: Visibility::parse(&text(&row, 16).unwrap_or_default())
                    .ok_or_else(|| corrupt("symbol visibility"))?,
            });
        }
        for kind in EdgeKind::ALL {
            let statement = format!(
                "MATCH (a:Symbol)-[e:{}]->(b:Symbol) RETURN a.id, b.id, e.line, e.confidence, e.rule ORDER BY a.id, b.id, e.line",
                kind.as_str()
            );
            for row in self.rows(&statement)? {
                graph.edges.push(Edge {
                    kind,
                    source: SymbolId::from_i64(
                        integer(&row, 0).ok_or_else(|| corrupt("edge source"))?,
                    ),
                    target: SymbolId::from_i64(
                        integer(&row, 1).ok_or_else(|| corrupt("edge target"))?,
                    ),
                    line: integer(&row, 2).unwrap_or(0) as u32,
                    confidence: float(&row, 3).unwrap_or(0.0) as f32,
                    rule: text(&row, 4)
                        .and_then(|value| ResolutionRule::parse(&value))
                        .ok_or_else(|| corrupt("edge rule"))?,
                });
            }
        }
        let unresolved_statement =
            "MATCH (u:UnresolvedCall) RETURN u.caller, u.callee_text, u.callee_name, u.path, u.line, u.reason ORDER BY u.id";
        for row in self.rows(unresolved_statement)? {
            graph.unresolved.push(UnresolvedCall {
                caller: SymbolId::from_i64(
                    integer(&row, 0).ok_or_else(|| corrupt("unresolved caller"))?,
                ),
                callee_text: text(&row, 1).unwrap_or_default(),
                callee_name: text(&row, 2).unwrap_or_default(),
                path: text(&row, 3).unwrap_or_default(),
                line: integer(&row, 4).unwrap_or(0) as u32,
                reason: text(&row, 5)
                    .and_then(|value| UnresolvedReason::parse(&value))
                    .ok_or_else(|| corrupt("unresolved reason"))?,
            });
        }
        for row in self
            .rows("MATCH (d:Diagnostic) RETURN d.path, d.line, d.kind, d.message ORDER BY d.id")?
        {
            graph.diagnostics.push(Diagnostic {
                path: text(&row, 0).unwrap_or_default(),
                line: integer(&row, 1).map(|line| line as u32),
                kind: text(&row, 2)
                    .and_then(|value| DiagnosticKind::parse(&value))
                    .ok_or_else(|| corrupt("diagnostic kind"))?,
                message: text(&row, 3).unwrap_or_default(),
            });
        }
        Ok(graph)
    }

    fn rows(&self, statement: &str) -> Result<Vec<Vec<lbug::Value>>, StoreError> {
        let connection = self.connection()?;
        let result =
            connection.query(statement).map_err(|error| StoreError::query(statement, error))?;
        Ok(result.collect())
    }

    fn count(&self, statement: &str) -> Result<u64, StoreError> {
        let rows = self.rows(statement)?;
        Ok(rows.first().and_then(|row| integer(row, 0)).unwrap_or(0) as u64)
    }

    /// Runs one Cypher statement and returns its column names and rows as text, for ad-hoc
    /// inspection (`tether cypher`) and tests. Values are rendered by the engine.
    pub fn query_as_text(
        &self,
        statement: &str,
    ) -> Result<(Vec<String>, Vec<Vec<String>>), StoreError> {
        let connection = self.connection()?;
        let result =
            connection.query(statement).map_err(|error| StoreError::query(statement, error))?;
        let columns = result.get_column_names();
        let rows = result.map(|row| row.iter().map(|value| value.to_string()).collect()).collect();
        Ok((columns, rows))
    }

    /// An ad-hoc statement (`tether cypher`): refused unless it only reads the graph
    /// ([`check_ad_hoc_statement`](crate::check_ad_hoc_statement)), stopped by the engine
    /// after `timeout`, and at most `max_rows` rows rendered (the others counted).
    pub fn query_ad_hoc(
        &self,
        statement: &str,
        timeout: Option<std::time::Duration>,
        max_rows: usize,
    ) -> Result<AdHocRows, StoreError> {
        crate::check_ad_hoc_statement(statement)
            .map_err(|refused| StoreError::Refused { message: refused.reason })?;
        let connection = self.connection()?;
        if let Some(timeout) = timeout {
            connection.set_query_timeout(u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX));
        }
        let started = std::time::Instant::now();
        let result =
            connection.query(statement).map_err(|error| StoreError::query(statement, error))?;
        let columns = result.get_column_names();
        let mut rows = Vec::new();
        let mut omitted: usize = 0;
        for row in result {
            // The engine's timeout covers producing the result, not the rows read from it:
            // counting the omitted rows of a cross product would run on without this.
            if let Some(timeout) = timeout.filter(|_| (rows.len() + omitted).is_multiple_of(4096)) {
                if started.elapsed() > timeout {
                    return Err(StoreError::Stopped { seconds: timeout.as_secs() });
                }
            }
            if rows.len() < max_rows {
                rows.push(row.iter().map(|value| value.to_string()).collect());
            } else {
                omitted += 1;
            }
        }
        Ok(AdHocRows { columns, rows, omitted })
    }
}

/// What an ad-hoc statement gave: its columns, its first rows as text, and how many rows
/// were left out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdHocRows {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub omitted: usize,
}

fn corrupt(what: &str) -> StoreError {
    StoreError::Corrupt { message: format!("missing or unknown {what}") }
}

fn as_string(value: lbug::Value) -> Option<String> {
    match value {
        lbug::Value::String(text) => Some(text),
        _ => None,
    }
}

fn text(row: &[lbug::Value], index: usize) -> Option<String> {
    row.get(index).cloned().and_then(as_string)
}

fn integer(row: &[lbug::Value], index: usize) -> Option<i64> {
    match row.get(index)? {
        lbug::Value::Int64(value) => Some(*value),
        lbug::Value::Int32(value) => Some(i64::from(*value)),
        lbug::Value::UInt64(value) => Some(*value as i64),
        _ => None,
    }
}

fn float(row: &[lbug::Value], index: usize) -> Option<f64> {
    match row.get(index)? {
        lbug::Value::Double(value) => Some(*value),
        lbug::Value::Float(value) => Some(f64::from(*value)),
        _ => None,
    }
}
