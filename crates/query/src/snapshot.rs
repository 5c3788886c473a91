//! The immutable snapshot: symbols in a vector, edges in CSR form both ways, and the lookup
//! tables that addressing and completeness need.

use rustc_hash::FxHashMap as HashMap;

use tether_model::{
    Edge, EdgeKind, FileStatus, Graph, IndexMeta, Symbol, SymbolId, UnresolvedCall,
};

/// A symbol's position in [`Snapshot::symbols`].
pub type SymbolIndex = u32;

/// Adjacency in compressed sparse row form: the edges of node `n` are
/// `edges[offsets[n]..offsets[n + 1]]`, each an index into [`Snapshot::edges`].
#[derive(Clone)]
struct Adjacency {
    offsets: Vec<u32>,
    edges: Vec<u32>,
}

impl Adjacency {
    fn build(
        node_count: usize,
        pairs: impl Iterator<Item = (SymbolIndex, u32)> + Clone,
    ) -> Adjacency {
        let mut offsets = vec![0u32; node_count + 1];
        for (node, _) in pairs.clone() {
            offsets[node as usize + 1] += 1;
        }
        for index in 0..node_count {
            offsets[index + 1] += offsets[index];
        }
        let mut cursor = offsets.clone();
        let mut edges = vec![0u32; offsets[node_count] as usize];
        for (node, edge) in pairs {
            edges[cursor[node as usize] as usize] = edge;
            cursor[node as usize] += 1;
        }
        Adjacency { offsets, edges }
    }

    fn of(&self, node: SymbolIndex) -> &[u32] {
        let start = self.offsets[node as usize] as usize;
        let end = self.offsets[node as usize + 1] as usize;
        &self.edges[start..end]
    }
}

/// An edge with both ends as symbol indexes.
#[derive(Clone, Copy, Debug)]
pub struct IndexedEdge<'a> {
    pub edge: &'a Edge,
    pub source: SymbolIndex,
    pub target: SymbolIndex,
}

/// The graph, ready for queries.
#[derive(Clone)]
pub struct Snapshot {
    pub meta: IndexMeta,
    /// The whole graph, as built (the daemon persists it from here after publishing).
    pub graph: Graph,
    /// Both ends of each edge of `graph.edges` whose ends are known symbols.
    edge_ends: Vec<Option<(SymbolIndex, SymbolIndex)>>,
    by_id: HashMap<SymbolId, SymbolIndex>,
    pub(crate) by_qualified_name: HashMap<String, Vec<SymbolIndex>>,
    /// Symbols of each file, sorted by start line.
    pub(crate) by_path: HashMap<String, Vec<SymbolIndex>>,
    /// Unresolved call sites by the name they call.
    pub(crate) unresolved_by_name: HashMap<String, Vec<u32>>,
    /// Names used as values whose target is not visible (`value_reference` records), by name.
    pub(crate) unbound_values_by_name: HashMap<String, Vec<u32>>,
    /// Names mentioned in code the extraction does not analyse (`unanalysed_code` records).
    pub(crate) unanalysed_by_name: HashMap<String, Vec<u32>>,
    /// Unresolved calls through values (`callback()`), by language: any symbol used as a
    /// value may be their target.
    pub(crate) value_calls: HashMap<tether_model::Language, Vec<u32>>,
    outgoing: Adjacency,
    incoming: Adjacency,
    /// Each symbol's name and qualified name in lower case, for lookups.
    pub(crate) lowercase_names: Vec<(String, String)>,
    /// Files that parsed with errors or were skipped: callers may hide there.
    pub files_with_problems: Vec<String>,
    /// Files that were not parsed at all.
    pub(crate) skipped_files: rustc_hash::FxHashSet<String>,
    pub census: tether_model::Census,
    /// Each runtime-evidence context's test in this graph, for the evidence last asked about
    /// (`runtime_evidence.rs`): built once per graph and evidence, not per answer.
    pub(crate) evidence_tests: crate::runtime_evidence::EvidenceTestsMemo,
    /// The base methods test classes collect as their own tests (`inherited_tests.rs`),
    /// found once per graph on first use.
    pub(crate) inherited_tests: crate::inherited_tests::InheritedTestsMemo,
}

impl Snapshot {
    /// The same graph under other metadata (HEAD moved to a commit of what the graph holds):
    /// a copy, without building the tables again.
    pub fn with_meta(&self, meta: IndexMeta) -> Snapshot {
        Snapshot { meta, ..self.clone() }
    }

    pub fn new(graph: Graph, meta: IndexMeta) -> Snapshot {
        debug_assert!(
            tether_model::misplaced_edge_sites(&graph).is_empty(),
            "edges whose site is not a line of their source's file: {:?}",
            tether_model::misplaced_edge_sites(&graph).first()
        );
        let census = graph.census();
        let by_id: HashMap<SymbolId, SymbolIndex> = graph
            .symbols
            .iter()
            .enumerate()
            .map(|(index, symbol)| (symbol.id, index as SymbolIndex))
            .collect();
        let edge_ends: Vec<Option<(SymbolIndex, SymbolIndex)>> = graph
            .edges
            .iter()
            .map(|edge| Some((*by_id.get(&edge.source)?, *by_id.get(&edge.target)?)))
            .collect();
        let node_count = graph.symbols.len();
        let known = || {
            edge_ends
                .iter()
                .enumerate()
                .filter_map(|(index, ends)| ends.map(|ends| (index as u32, ends)))
        };
        let outgoing =
            Adjacency::build(node_count, known().map(|(index, (source, _))| (source, index)));
        let incoming =
            Adjacency::build(node_count, known().map(|(index, (_, target))| (target, index)));
        let (by_qualified_name, by_path) = names_and_paths(&graph);
        let lowercase_names = graph
            .symbols
            .iter()
            .map(|symbol| (symbol.name.to_lowercase(), symbol.qualified_name.to_lowercase()))
            .collect();
        let UnresolvedSites {
            unresolved_by_name,
            unbound_values_by_name,
            unanalysed_by_name,
            value_calls,
        } = unresolved_sites(&graph);
        let skipped_files = skipped_source_files(&graph);
        let files_with_problems = graph
            .files
            .iter()
            .filter(|file| file.status != FileStatus::Parsed)
            .map(|file| file.path.clone())
            .collect();
        Snapshot {
            meta,
            graph,
            edge_ends,
            by_id,
            by_qualified_name,
            by_path,
            unresolved_by_name,
            unbound_values_by_name,
            unanalysed_by_name,
            value_calls,
            outgoing,
            incoming,
            lowercase_names,
            files_with_problems,
            skipped_files,
            census,
            evidence_tests: Default::default(),
            inherited_tests: Default::default(),
        }
    }

    pub fn symbol(&self, index: SymbolIndex) -> &Symbol {
        &self.graph.symbols[index as usize]
    }

    pub fn symbols(&self) -> &[Symbol] {
        &self.graph.symbols
    }

    pub fn unresolved(&self) -> &[UnresolvedCall] {
        &self.graph.unresolved
    }

    fn indexed_edge(&self, index: u32) -> IndexedEdge<'_> {
        let (source, target) =
            self.edge_ends[index as usize].expect("adjacency holds only edges with known ends");
        IndexedEdge { edge: &self.graph.edges[index as usize], source, target }
    }

    /// The edge at a position of `graph.edges`, when both its ends are known symbols.
    pub(crate) fn known_edge(&self, index: u32) -> Option<IndexedEdge<'_>> {
        let (source, target) = self.edge_ends[index as usize]?;
        Some(IndexedEdge { edge: &self.graph.edges[index as usize], source, target })
    }

    pub fn index_of(&self, id: SymbolId) -> Option<SymbolIndex> {
        self.by_id.get(&id).copied()
    }

    /// Edges leaving a symbol, of the given kinds.
    pub fn outgoing<'a>(
        &'a self,
        node: SymbolIndex,
        kinds: &'a [EdgeKind],
    ) -> impl Iterator<Item = IndexedEdge<'a>> + 'a {
        self.outgoing
            .of(node)
            .iter()
            .map(|edge| self.indexed_edge(*edge))
            .filter(move |edge| kinds.contains(&edge.edge.kind))
    }

    /// Edges arriving at a symbol, of the given kinds.
    pub fn incoming<'a>(
        &'a self,
        node: SymbolIndex,
        kinds: &'a [EdgeKind],
    ) -> impl Iterator<Item = IndexedEdge<'a>> + 'a {
        self.incoming
            .of(node)
            .iter()
            .map(|edge| self.indexed_edge(*edge))
            .filter(move |edge| kinds.contains(&edge.edge.kind))
    }

    /// The symbols a symbol syntactically contains (methods of a class, items of a module).
    pub fn children(&self, node: SymbolIndex) -> impl Iterator<Item = SymbolIndex> + '_ {
        self.outgoing(node, &[EdgeKind::Contains]).map(|edge| edge.target)
    }

    /// The symbols of a file, by start line (empty for a file not indexed).
    pub fn symbols_in_file(&self, path: &str) -> &[SymbolIndex] {
        self.by_path.get(path).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Symbols with exactly this qualified name.
    pub fn symbols_named(&self, qualified_name: &str) -> &[SymbolIndex] {
        self.by_qualified_name.get(qualified_name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Unresolved call sites that call this name.
    pub fn unresolved_calling(&self, name: &str) -> &[u32] {
        self.unresolved_by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Values of unknown target that carry this name (`view_func=self.send_static_file`).
    pub fn unbound_values_named(&self, name: &str) -> &[u32] {
        self.unbound_values_by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Mentions of this name in code the extraction does not analyse (a macro's tokens).
    pub fn unanalysed_mentions_of(&self, name: &str) -> &[u32] {
        self.unanalysed_by_name.get(name).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// Symbols by qualified name, and by file (in line order).
fn names_and_paths(
    graph: &Graph,
) -> (HashMap<String, Vec<SymbolIndex>>, HashMap<String, Vec<SymbolIndex>>) {
    let mut by_qualified_name: HashMap<String, Vec<SymbolIndex>> = HashMap::default();
    let mut by_path: HashMap<String, Vec<SymbolIndex>> = HashMap::default();
    for (index, symbol) in graph.symbols.iter().enumerate() {
        by_qualified_name
            .entry(symbol.qualified_name.clone())
            .or_default()
            .push(index as SymbolIndex);
        if !symbol.path.is_empty() {
            by_path.entry(symbol.path.clone()).or_default().push(index as SymbolIndex);
        }
    }
    for symbols in by_path.values_mut() {
        symbols.sort_by_key(|index| graph.symbols[*index as usize].span.start_line);
    }
    (by_qualified_name, by_path)
}

/// The unresolved call sites by callee name, the value references by name, the mentions in
/// unanalysed code by name, and the calls through values by language (positions in
/// `graph.unresolved`).
struct UnresolvedSites {
    unresolved_by_name: HashMap<String, Vec<u32>>,
    unbound_values_by_name: HashMap<String, Vec<u32>>,
    unanalysed_by_name: HashMap<String, Vec<u32>>,
    value_calls: HashMap<tether_model::Language, Vec<u32>>,
}

fn unresolved_sites(graph: &Graph) -> UnresolvedSites {
    let mut unresolved_by_name: HashMap<String, Vec<u32>> = HashMap::default();
    let mut unbound_values_by_name: HashMap<String, Vec<u32>> = HashMap::default();
    let mut unanalysed_by_name: HashMap<String, Vec<u32>> = HashMap::default();
    let mut value_calls: HashMap<tether_model::Language, Vec<u32>> = HashMap::default();
    for (index, call) in graph.unresolved.iter().enumerate() {
        if call.reason == tether_model::UnresolvedReason::ValueReference {
            unbound_values_by_name.entry(call.callee_name.clone()).or_default().push(index as u32);
            continue;
        }
        if call.reason == tether_model::UnresolvedReason::UnanalysedCode {
            unanalysed_by_name.entry(call.callee_name.clone()).or_default().push(index as u32);
            continue;
        }
        if crate::hidden_callers::is_value_call(call.reason) {
            if let Some(language) = tether_model::Language::from_path(&call.path) {
                value_calls.entry(language).or_default().push(index as u32);
            }
            continue;
        }
        unresolved_by_name.entry(call.callee_name.clone()).or_default().push(index as u32);
    }
    UnresolvedSites { unresolved_by_name, unbound_values_by_name, unanalysed_by_name, value_calls }
}

/// Files not parsed that may hide callers: all skipped ones but those that cannot be source
/// code at all.
fn skipped_source_files(graph: &Graph) -> rustc_hash::FxHashSet<String> {
    // A skipped file may hide callers, unless it cannot be source code at all: a binary
    // file (a fuzz corpus, an image named `.rs`), or a Rust file that is not UTF-8, which
    // rustc would not compile either.
    let cannot_be_source: rustc_hash::FxHashSet<&str> = graph
        .diagnostics
        .iter()
        .filter(|diagnostic| {
            diagnostic.kind == tether_model::DiagnosticKind::Binary
                || (diagnostic.kind == tether_model::DiagnosticKind::NotUtf8
                    && diagnostic.path.ends_with(".rs"))
        })
        .map(|diagnostic| diagnostic.path.as_str())
        .collect();
    graph
        .files
        .iter()
        .filter(|file| {
            file.status == FileStatus::Skipped && !cannot_be_source.contains(file.path.as_str())
        })
        .map(|file| file.path.clone())
        .collect()
}
