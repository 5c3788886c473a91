//! The one-hop views: callers, callees and imports of a symbol, ranked by confidence.

use tether_model::{EdgeKind, ResolutionRule};

use crate::hidden_callers::EntryPointCallers;
use crate::page::{Completeness, CompletenessCause, PageRequest, MAX_CAUSE_EXAMPLES};
use crate::snapshot::{Snapshot, SymbolIndex};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NeighbourKind {
    Callers,
    Callees,
    Imports,
}

/// One neighbour with the edge that connects it.
#[derive(Clone, PartialEq, Debug)]
pub struct NeighbourItem {
    pub index: SymbolIndex,
    /// `imports` (what the symbol imports) or `imported_by`, for the imports view.
    pub direction: &'static str,
    /// The site's line (the call or import line) in `site_path`.
    pub site_path: String,
    pub site_line: u32,
    pub confidence: f32,
    pub rule: ResolutionRule,
}

#[derive(Clone, PartialEq, Debug)]
pub struct NeighbourAnswer {
    pub subject: SymbolIndex,
    pub kind: NeighbourKind,
    pub total: usize,
    pub items: Vec<NeighbourItem>,
    pub next_cursor: Option<String>,
    pub completeness: Completeness,
}

impl Snapshot {
    pub fn neighbours(
        &self,
        subject: SymbolIndex,
        kind: NeighbourKind,
        page: PageRequest,
    ) -> NeighbourAnswer {
        let mut items: Vec<NeighbourItem> = Vec::new();
        let site = |edge: crate::snapshot::IndexedEdge<'_>| self.symbol(edge.source).path.clone();
        match kind {
            NeighbourKind::Callers => {
                for edge in self.incoming(subject, &[EdgeKind::Calls]) {
                    items.push(NeighbourItem {
                        index: edge.source,
                        direction: "calls",
                        site_path: site(edge),
                        site_line: edge.edge.line,
                        confidence: edge.edge.confidence,
                        rule: edge.edge.rule,
                    });
                }
            }
            NeighbourKind::Callees => {
                for edge in self.outgoing(subject, &[EdgeKind::Calls]) {
                    items.push(NeighbourItem {
                        index: edge.target,
                        direction: "called",
                        site_path: site(edge),
                        site_line: edge.edge.line,
                        confidence: edge.edge.confidence,
                        rule: edge.edge.rule,
                    });
                }
            }
            NeighbourKind::Imports => {
                for edge in self.outgoing(subject, &[EdgeKind::Imports]) {
                    items.push(NeighbourItem {
                        index: edge.target,
                        direction: "imports",
                        site_path: site(edge),
                        site_line: edge.edge.line,
                        confidence: edge.edge.confidence,
                        rule: edge.edge.rule,
                    });
                }
                for edge in self.incoming(subject, &[EdgeKind::Imports]) {
                    items.push(NeighbourItem {
                        index: edge.source,
                        direction: "imported_by",
                        site_path: site(edge),
                        site_line: edge.edge.line,
                        confidence: edge.edge.confidence,
                        rule: edge.edge.rule,
                    });
                }
                // `from module import name` imports the module's member: its importers import
                // the module too.
                if self.symbol(subject).kind == tether_model::SymbolKind::Module {
                    for member in self.children(subject).collect::<Vec<_>>() {
                        for edge in self.incoming(member, &[EdgeKind::Imports]) {
                            if edge.source != subject {
                                items.push(NeighbourItem {
                                    index: edge.source,
                                    direction: "imported_by",
                                    site_path: site(edge),
                                    site_line: edge.edge.line,
                                    confidence: edge.edge.confidence,
                                    rule: edge.edge.rule,
                                });
                            }
                        }
                    }
                }
            }
        }
        items.sort_by(|a, b| {
            b.confidence
                .total_cmp(&a.confidence)
                .then_with(|| a.site_path.cmp(&b.site_path))
                .then(a.site_line.cmp(&b.site_line))
        });
        // One item per importer and line (`from m import a, b` names the module twice).
        items.dedup_by(|a, b| {
            a.index == b.index
                && a.direction == b.direction
                && a.site_path == b.site_path
                && a.site_line == b.site_line
        });
        let total = items.len();
        let completeness = match kind {
            NeighbourKind::Callers => self.callers_completeness(subject, &items),
            NeighbourKind::Callees => self.callees_completeness(subject, &items),
            NeighbourKind::Imports => Completeness::Exact,
        };
        let (items, next_cursor) = page.apply(items);
        NeighbourAnswer { subject, kind, total, items, next_cursor, completeness }
    }

    /// Unresolved sites that call this symbol's name, uncertain edges among the callers, and
    /// files of its language that were never parsed.
    pub(crate) fn callers_completeness(
        &self,
        subject: SymbolIndex,
        items: &[NeighbourItem],
    ) -> Completeness {
        let mut causes = self.unresolved_causes(&[subject]);
        causes.extend(self.hidden_caller_causes(&[subject], EntryPointCallers::Counted));
        let uncertain = items.iter().filter(|item| is_uncertain(item.rule)).count();
        if uncertain > 0 {
            causes.push(CompletenessCause::UncertainEdges { count: uncertain });
        }
        causes.extend(self.unparsed_files_cause(subject));
        Completeness::from_causes(causes)
    }

    fn callees_completeness(&self, subject: SymbolIndex, items: &[NeighbourItem]) -> Completeness {
        let mut causes = Vec::new();
        let id = self.symbol(subject).id;
        let unbound: Vec<&tether_model::UnresolvedCall> = self
            .unresolved()
            .iter()
            .filter(|call| {
                call.caller == id
                    && call.reason != tether_model::UnresolvedReason::NoProjectSymbolNamed
            })
            .collect();
        if !unbound.is_empty() {
            causes.push(CompletenessCause::UnresolvedCallSites {
                name: String::new(),
                count: unbound.len(),
                examples: unbound
                    .iter()
                    .take(MAX_CAUSE_EXAMPLES)
                    .map(|call| (call.path.clone(), call.line, call.callee_text.clone()))
                    .collect(),
            });
        }
        let uncertain = items.iter().filter(|item| is_uncertain(item.rule)).count();
        if uncertain > 0 {
            causes.push(CompletenessCause::UncertainEdges { count: uncertain });
        }
        Completeness::from_causes(causes)
    }

    /// The first few of these unresolved sites as (path, line, callee), a cause's examples.
    pub(crate) fn unresolved_examples(&self, sites: &[u32]) -> Vec<(String, u32, String)> {
        sites
            .iter()
            .take(MAX_CAUSE_EXAMPLES)
            .map(|site| {
                let call = &self.unresolved()[*site as usize];
                (call.path.clone(), call.line, call.callee_text.clone())
            })
            .collect()
    }

    /// Unresolved call sites whose callee name is one of these symbols' names, and mentions
    /// of those names in code the extraction does not analyse.
    pub(crate) fn unresolved_causes(&self, subjects: &[SymbolIndex]) -> Vec<CompletenessCause> {
        let mut names: Vec<&str> =
            subjects.iter().flat_map(|subject| self.names_calling(*subject)).collect();
        names.sort_unstable();
        names.dedup();
        let mut causes = Vec::new();
        for name in names {
            let sites = self.unresolved_calling(name);
            if !sites.is_empty() {
                causes.push(CompletenessCause::UnresolvedCallSites {
                    name: name.to_string(),
                    count: sites.len(),
                    examples: self.unresolved_examples(sites),
                });
            }
            let mentions = self.unanalysed_mentions_of(name);
            if !mentions.is_empty() {
                causes.push(CompletenessCause::UnanalysedCode {
                    name: name.to_string(),
                    count: mentions.len(),
                    examples: self.unresolved_examples(mentions),
                });
            }
        }
        causes
    }

    /// The names a call may spell to reach a symbol: its own, and for a Python constructor
    /// (`__init__`, `__new__`, `__post_init__`) the names of its class and of the project
    /// classes deriving from it, since `Widget(…)` and `Button(…)` run `Widget.__init__`.
    fn names_calling(&self, subject: SymbolIndex) -> Vec<&str> {
        let symbol = self.symbol(subject);
        let mut names = vec![symbol.name.as_str()];
        let constructor = symbol.language == tether_model::Language::Python
            && symbol.kind == tether_model::SymbolKind::Method
            && matches!(symbol.name.as_str(), "__init__" | "__new__" | "__post_init__");
        let class = symbol.parent.and_then(|parent| self.index_of(parent));
        if let (true, Some(class)) = (constructor, class) {
            let mut seen = std::collections::HashSet::from([class]);
            let mut to_visit = vec![class];
            while let Some(current) = to_visit.pop() {
                names.push(self.symbol(current).name.as_str());
                for derived in self.incoming(current, &[EdgeKind::Inherits]) {
                    if seen.insert(derived.source) {
                        to_visit.push(derived.source);
                    }
                }
            }
        }
        names
    }

    pub(crate) fn unparsed_files_cause(&self, subject: SymbolIndex) -> Option<CompletenessCause> {
        let language = self.symbol(subject).language;
        let unparsed: Vec<&String> = self
            .files_with_problems
            .iter()
            .filter(|path| {
                tether_model::Language::from_path(path) == Some(language)
                    && self.skipped_files.contains(*path)
            })
            .collect();
        (!unparsed.is_empty()).then(|| CompletenessCause::UnparsedFiles {
            count: unparsed.len(),
            examples: unparsed.into_iter().take(MAX_CAUSE_EXAMPLES).cloned().collect(),
        })
    }
}

/// Edges that may not hold at run time.
pub(crate) fn is_uncertain(rule: ResolutionRule) -> bool {
    matches!(
        rule,
        ResolutionRule::DynamicDispatch
            | ResolutionRule::Ambiguous
            | ResolutionRule::NameOnly
            | ResolutionRule::Callback
            | ResolutionRule::ValueFlow
    )
}
