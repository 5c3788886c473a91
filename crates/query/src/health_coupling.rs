//! Coupling between files: for each file, its afferent coupling (Ca: the other files that
//! depend on it), its efferent coupling (Ce: the other files it depends on) and its
//! instability Ce / (Ca + Ce), with the files it is most tied to: edges each way, `mutual`
//! when they run both ways, and the first sites of the heaviest direction. Files are ranked
//! by Ca + Ce, then by the edges they share with their partners.

use std::collections::BTreeMap;

use crate::health::HealthOptions;
use crate::snapshot::{Snapshot, SymbolIndex};

/// A file another is tied to.
#[derive(Clone, PartialEq, Debug)]
pub struct CouplingPartner {
    pub path: String,
    /// Edges from the file to this partner.
    pub outgoing: usize,
    /// Edges from this partner to the file.
    pub incoming: usize,
    /// Edges run both ways.
    pub mutual: bool,
    /// The first sites of the edges (path, line), of the heavier direction first.
    pub sites: Vec<(String, u32)>,
}

#[derive(Clone, PartialEq, Debug)]
pub struct FileCoupling {
    pub path: String,
    /// The file's module, when it has one.
    pub module: Option<SymbolIndex>,
    pub afferent: usize,
    pub efferent: usize,
    /// `efferent / (afferent + efferent)`: 0 depended on only, 1 depending only.
    pub instability: f32,
    /// The files it shares the most edges with, most first (at most three).
    pub partners: Vec<CouplingPartner>,
}

/// At most this many partners, and sites per partner, are named.
const MAX_PARTNERS: usize = 3;
const MAX_SITES: usize = 3;

/// Edges from one file to another: how many, and the lines of the first file they are on.
#[derive(Default)]
struct FileEdges {
    count: usize,
    lines: Vec<u32>,
}

impl Snapshot {
    pub(crate) fn file_coupling(&self, options: &HealthOptions) -> Vec<FileCoupling> {
        let mut between: BTreeMap<(&str, &str), FileEdges> = BTreeMap::new();
        for edge in self.dependency_edges() {
            let from = self.symbol(edge.source).path.as_str();
            let to = self.symbol(edge.target).path.as_str();
            let edges = between.entry((from, to)).or_default();
            edges.count += 1;
            edges.lines.push(edge.edge.line);
        }
        let mut partners_of: BTreeMap<&str, BTreeMap<&str, (usize, usize)>> = BTreeMap::new();
        for ((from, to), edges) in &between {
            partners_of.entry(from).or_default().entry(to).or_default().0 += edges.count;
            partners_of.entry(to).or_default().entry(from).or_default().1 += edges.count;
        }
        let mut files: Vec<FileCoupling> = partners_of
            .iter()
            .filter(|(path, _)| Snapshot::in_health_folder(path, options))
            .map(|(path, partners)| {
                let efferent = partners.values().filter(|(outgoing, _)| *outgoing > 0).count();
                let afferent = partners.values().filter(|(_, incoming)| *incoming > 0).count();
                let mut ranked: Vec<(&str, usize, usize)> = partners
                    .iter()
                    .map(|(partner, (outgoing, incoming))| (*partner, *outgoing, *incoming))
                    .collect();
                ranked.sort_by(|a, b| (b.1 + b.2).cmp(&(a.1 + a.2)).then_with(|| a.0.cmp(b.0)));
                let partners = ranked
                    .into_iter()
                    .take(MAX_PARTNERS)
                    .map(|(partner, outgoing, incoming)| {
                        let heavier_first = if outgoing >= incoming {
                            [(*path, partner), (partner, *path)]
                        } else {
                            [(partner, *path), (*path, partner)]
                        };
                        let mut sites: Vec<(String, u32)> = Vec::new();
                        for key in heavier_first {
                            if let Some(edges) = between.get(&key) {
                                let mut lines = edges.lines.clone();
                                lines.sort_unstable();
                                lines.dedup();
                                let room = MAX_SITES - sites.len();
                                let from = key.0;
                                sites.extend(
                                    lines
                                        .into_iter()
                                        .take(room)
                                        .map(|line| (from.to_string(), line)),
                                );
                            }
                        }
                        CouplingPartner {
                            path: partner.to_string(),
                            outgoing,
                            incoming,
                            mutual: outgoing > 0 && incoming > 0,
                            sites,
                        }
                    })
                    .collect();
                FileCoupling {
                    path: path.to_string(),
                    module: crate::health::module_of_file(self, path),
                    afferent,
                    efferent,
                    instability: efferent as f32 / (afferent + efferent).max(1) as f32,
                    partners,
                }
            })
            .collect();
        let shared = |file: &FileCoupling| -> usize {
            file.partners.iter().map(|partner| partner.outgoing + partner.incoming).sum()
        };
        files.sort_by(|a, b| {
            (b.afferent + b.efferent)
                .cmp(&(a.afferent + a.efferent))
                .then_with(|| shared(b).cmp(&shared(a)))
                .then_with(|| a.path.cmp(&b.path))
        });
        files
    }
}
