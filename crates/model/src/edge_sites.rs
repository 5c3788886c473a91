//! Where an edge's site may be: every dependency edge names a line of its source's own file,
//! so an answer that prints the source's path with the edge's line points at the site. A
//! pure check over a built graph, run by tests and, in debug builds, on every snapshot.

use std::collections::HashMap;

use crate::{Edge, EdgeKind, Graph, SymbolId, SymbolKind};

/// An edge whose line is not a line of its source's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MisplacedSite {
    pub kind: EdgeKind,
    /// The source's qualified name and file.
    pub source: String,
    pub path: String,
    /// The edge's line, and how many lines the source's file has.
    pub line: u32,
    pub file_lines: u32,
}

impl std::fmt::Display for MisplacedSite {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            formatter,
            "{:?} edge of {} names {}:{} (the file has {} lines)",
            self.kind, self.source, self.path, self.line, self.file_lines
        )
    }
}

/// The edges (other than CONTAINS, whose line is the child's) whose line lies past the end of
/// their source's file. Edges from symbols outside the project, or with no line (0), are not
/// sites and are skipped.
pub fn misplaced_edge_sites(graph: &Graph) -> Vec<MisplacedSite> {
    let file_lines: HashMap<&str, u32> = graph
        .symbols
        .iter()
        .filter(|symbol| symbol.kind == SymbolKind::Module && symbol.parent.is_none())
        .map(|module| (module.path.as_str(), module.span.end_line))
        .collect();
    let by_id: HashMap<SymbolId, usize> =
        graph.symbols.iter().enumerate().map(|(index, symbol)| (symbol.id, index)).collect();
    let misplaced = |edge: &Edge| {
        if edge.kind == EdgeKind::Contains || edge.line == 0 {
            return None;
        }
        let source = &graph.symbols[*by_id.get(&edge.source)?];
        let lines = *file_lines.get(source.path.as_str())?;
        (edge.line > lines).then(|| MisplacedSite {
            kind: edge.kind,
            source: source.qualified_name.clone(),
            path: source.path.clone(),
            line: edge.line,
            file_lines: lines,
        })
    };
    graph.edges.iter().filter_map(misplaced).collect()
}
