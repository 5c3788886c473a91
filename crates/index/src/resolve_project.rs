//! The second half of a build: resolve an extracted project into edges, unresolved call
//! sites and outside symbols, and complete its graph with them.

use std::sync::Arc;
use std::time::Instant;

use crate::extract_project::ExtractedProject;
use crate::{BuiltGraph, FactsCache};

/// What resolution adds to an extracted project's graph.
pub struct ResolvedProject {
    resolution: tether_resolve::Resolution,
    resolve_seconds: f64,
}

impl ResolvedProject {
    pub fn resolve_seconds(&self) -> f64 {
        self.resolve_seconds
    }
}

impl ExtractedProject {
    /// Resolves the project, re-resolving only what `cache` cannot answer, and leaves the
    /// cache holding this build's facts and call sites. Reads the project only, so its
    /// [`extracted_graph`](ExtractedProject::extracted_graph) can be stored meanwhile.
    pub fn resolve(&self, cache: &mut FactsCache) -> ResolvedProject {
        cache.files =
            self.files.iter().map(|(path, cached, _)| (path.clone(), Arc::clone(cached))).collect();
        let versioned: Vec<tether_resolve::VersionedFacts<'_>> = self
            .files
            .iter()
            .map(|(_, cached, _)| tether_resolve::VersionedFacts {
                facts: &cached.facts,
                version: cached.version,
                interface_hash: cached.interface_hash,
            })
            .collect();
        let started = Instant::now();
        let resolution = crate::on_worker_pool(|| {
            tether_resolve::resolve_cached(&versioned, &mut cache.resolution)
        });
        ResolvedProject { resolution, resolve_seconds: started.elapsed().as_secs_f64() }
    }

    /// The whole graph: the extracted graph, then resolution's outside symbols, edges and
    /// unresolved call sites.
    pub fn into_built_graph(self, resolved: ResolvedProject) -> BuiltGraph {
        let files_extracted = self.files.iter().filter(|(_, _, extracted)| *extracted).count();
        let mut timings = self.timings;
        timings.resolve_seconds = resolved.resolve_seconds;
        let mut graph = self.graph;
        let resolution = resolved.resolution;
        graph.symbols.extend(resolution.outside_symbols);
        graph.edges = resolution.edges;
        graph.unresolved = resolution.unresolved;
        graph.call_outcomes = resolution.call_outcomes;
        graph.unresolved_reasons = resolution.unresolved_reasons;
        break_contains_cycles(&mut graph);
        BuiltGraph { graph, timings, bytes_read: self.bytes_read, files_extracted }
    }
}

/// CONTAINS is a forest by construction (`tether_resolve`); checked here, where every graph
/// is completed. An edge closing a cycle would make every walk down from its symbols endless:
/// it is dropped and reported as an internal diagnostic instead of served.
fn break_contains_cycles(graph: &mut tether_model::Graph) {
    let closing = graph.contains_cycle_edges();
    if closing.is_empty() {
        return;
    }
    let path_of: std::collections::HashMap<tether_model::SymbolId, (&str, &str, u32)> = graph
        .symbols
        .iter()
        .map(|symbol| {
            (
                symbol.id,
                (symbol.path.as_str(), symbol.qualified_name.as_str(), symbol.span.start_line),
            )
        })
        .collect();
    let mut diagnostics = Vec::new();
    for position in &closing {
        let edge = &graph.edges[*position];
        let (path, name, line) = path_of.get(&edge.target).copied().unwrap_or(("", "?", 0));
        diagnostics.push(tether_model::Diagnostic {
            path: path.to_string(),
            line: Some(line),
            kind: tether_model::DiagnosticKind::Internal,
            message: format!("{name} was recorded as containing itself; that CONTAINS edge was dropped (a bug in tether)"),
        });
    }
    let mut position = 0;
    graph.edges.retain(|_| {
        let keep = closing.binary_search(&position).is_err();
        position += 1;
        keep
    });
    graph.diagnostics.extend(diagnostics);
}
