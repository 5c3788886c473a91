//! What a macro invocation runs: an invocation of a project `macro_rules!` calls what the
//! macro's expansion calls (the calls written in its rules' right sides, extraction's
//! "calls of the macro"), from the invocation's caller and line, through the macros the
//! expansion invokes in turn.
//!
//! A call whose path holds one metavariable (`$crate::audit::$stage()`, a template) is filled
//! in with each identifier an invocation passes: `stages!(open)` calls `crate::audit::open`,
//! from the invocation and from the macro's body; a filled-in path that names no project
//! function is dropped (the identifiers of `guarded!(user, …)` are not all names).
//!
//! It deliberately does not match invocations against the rules' patterns (every identifier
//! is tried), does not fill in templates with two metavariables or through a macro invoking a
//! macro, and adds no edges for a macro whose expansion reaches more than
//! [`MAX_EXPANSION_TARGETS`] targets: the invocation's edge to the macro still leads there.

use std::borrow::Borrow;
use std::collections::{BTreeSet, HashSet};

use rustc_hash::FxHashMap as HashMap;
use tether_model::{
    CallSite, CalleeExpr, Edge, EdgeKind, FileFacts, Language, ResolutionRule, SymbolId, SymbolKind,
};

use crate::calls::CallTargets;
use crate::resolver::Resolver;

/// Rounds of macros invoking macros followed.
const MAX_NESTED_MACROS: usize = 4;

/// A macro whose expansion reaches more targets than this gets no expansion edges.
const MAX_EXPANSION_TARGETS: usize = 32;

impl Resolver<'_> {
    /// The CALLS edges from each invocation of a project macro to the project symbols its
    /// expansion calls (outside targets, `panic!` or `Ok`, say nothing about what breaks).
    /// An invocation in item position (from a module, which runs no code) writes items, whose
    /// own edges say what they call, and gets none.
    pub(crate) fn macro_expansion_edges(&self, edges: &[Edge]) -> Vec<Edge> {
        macro_expansion_edges(
            edges,
            |id| {
                self.index
                    .sym_of(id)
                    .is_some_and(|sym| self.index.symbol(sym).kind == SymbolKind::Module)
            },
            |id| self.index.sym_of(id).is_some(),
        )
    }

    /// The CALLS edges a macro's template calls make once filled in with an invocation's
    /// identifiers: from the invocation's caller at its line, and from the macro at the
    /// template's line.
    pub(crate) fn macro_template_edges<F: Borrow<FileFacts>>(
        &self,
        files: &[F],
        edges: &[Edge],
    ) -> Vec<Edge> {
        let mut templates: HashMap<SymbolId, Vec<&CallSite>> = HashMap::default();
        let mut identifiers: HashMap<(SymbolId, u32), Vec<&str>> = HashMap::default();
        for file in files {
            let file = file.borrow();
            for template in &file.macro_template_calls {
                templates.entry(template.caller).or_default().push(template);
            }
            for invocation in &file.macro_invocations {
                identifiers
                    .entry((invocation.caller, invocation.line))
                    .or_default()
                    .extend(invocation.identifiers.iter().map(String::as_str));
            }
        }
        if templates.is_empty() {
            return Vec::new();
        }
        let existing: HashSet<(SymbolId, SymbolId, u32)> = edges
            .iter()
            .filter(|edge| edge.kind == EdgeKind::Calls)
            .map(|edge| (edge.source, edge.target, edge.line))
            .collect();
        let mut filled: HashMap<(SymbolId, u32, &str), Vec<SymbolId>> = HashMap::default();
        let mut added = HashSet::new();
        let mut template_edges = Vec::new();
        let mut push = |source: SymbolId, target: SymbolId, line: u32| {
            let key = (source, target, line);
            if source != target && !existing.contains(&key) && added.insert(key) {
                template_edges.push(Edge {
                    kind: EdgeKind::Calls,
                    source,
                    target,
                    line,
                    confidence: ResolutionRule::Macro.confidence(),
                    rule: ResolutionRule::Macro,
                });
            }
        };
        for invocation in edges {
            if invocation.kind != EdgeKind::Calls || invocation.rule != ResolutionRule::Macro {
                continue;
            }
            let Some(macro_templates) = templates.get(&invocation.target) else { continue };
            // An invocation in item position writes items, whose own edges say what they call.
            let from_module = self
                .index
                .sym_of(invocation.source)
                .is_some_and(|sym| self.index.symbol(sym).kind == SymbolKind::Module);
            if from_module {
                continue;
            }
            let Some(names) = identifiers.get(&(invocation.source, invocation.line)) else {
                continue;
            };
            for template in macro_templates {
                for name in names {
                    let targets = filled
                        .entry((template.caller, template.byte, name))
                        .or_insert_with(|| self.filled_template_targets(template, name));
                    for target in targets.iter().copied() {
                        push(invocation.source, target, invocation.line);
                        push(template.caller, target, template.line);
                    }
                }
            }
        }
        template_edges
    }

    /// The project functions a template call names with its one metavariable replaced by
    /// `name`; nothing for a template with more than one, or for a name that is a keyword.
    fn filled_template_targets(&self, template: &CallSite, name: &str) -> Vec<SymbolId> {
        let CalleeExpr::Path(segments) = &template.callee else { return Vec::new() };
        let metavariables: BTreeSet<&String> =
            segments.iter().filter(|segment| segment.starts_with('$')).collect();
        if metavariables.len() != 1 || name.starts_with('$') {
            return Vec::new();
        }
        let Some(macro_sym) = self.index.sym_of(template.caller) else { return Vec::new() };
        let path = segments
            .iter()
            .map(
                |segment| if segment.starts_with('$') { name.to_string() } else { segment.clone() },
            )
            .collect();
        let site = CallSite { callee: CalleeExpr::Path(path), ..template.clone() };
        match self.resolve_call(macro_sym, &site, Language::Rust) {
            // A name guessed (by its last segment alone, or among several) is no substitution;
            // a test (one the macro writes is named by an identifier of its invocation) is
            // called by no code.
            CallTargets::Project(targets) => targets
                .into_iter()
                .filter(|(sym, rule)| {
                    let symbol = self.index.symbol(*sym);
                    !matches!(rule, ResolutionRule::NameOnly | ResolutionRule::Ambiguous)
                        && matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
                        && !symbol.is_test
                })
                .map(|(sym, _)| self.index.symbol(sym).id)
                .collect(),
            _ => Vec::new(),
        }
    }
}

fn macro_expansion_edges(
    edges: &[Edge],
    is_module: impl Fn(SymbolId) -> bool,
    is_project: impl Fn(SymbolId) -> bool,
) -> Vec<Edge> {
    let invocations: Vec<&Edge> = edges
        .iter()
        .filter(|edge| {
            edge.kind == EdgeKind::Calls
                && edge.rule == ResolutionRule::Macro
                && is_project(edge.target)
        })
        .collect();
    let macros: HashSet<SymbolId> = invocations.iter().map(|edge| edge.target).collect();
    if macros.is_empty() {
        return Vec::new();
    }
    let mut expansion: HashMap<SymbolId, BTreeSet<SymbolId>> = HashMap::default();
    for edge in edges {
        if edge.kind == EdgeKind::Calls && macros.contains(&edge.source) && is_project(edge.target)
        {
            expansion.entry(edge.source).or_default().insert(edge.target);
        }
    }
    for _ in 0..MAX_NESTED_MACROS {
        let mut changed = false;
        let sources: Vec<SymbolId> = expansion.keys().copied().collect();
        for source in sources {
            let nested: Vec<SymbolId> = expansion[&source]
                .iter()
                .filter(|target| **target != source)
                .filter_map(|target| expansion.get(target))
                .flatten()
                .copied()
                .collect();
            let targets = expansion.get_mut(&source).expect("a key of the map");
            for target in nested {
                changed |= target != source && targets.insert(target);
            }
        }
        if !changed {
            break;
        }
    }
    let existing: HashSet<(SymbolId, SymbolId, u32)> = edges
        .iter()
        .filter(|edge| edge.kind == EdgeKind::Calls)
        .map(|edge| (edge.source, edge.target, edge.line))
        .collect();
    let mut added = HashSet::new();
    let mut expanded = Vec::new();
    for invocation in invocations {
        if is_module(invocation.source) {
            continue;
        }
        let Some(targets) = expansion.get(&invocation.target) else { continue };
        if targets.len() > MAX_EXPANSION_TARGETS {
            continue;
        }
        for target in targets {
            let key = (invocation.source, *target, invocation.line);
            if *target == invocation.source || existing.contains(&key) || !added.insert(key) {
                continue;
            }
            expanded.push(Edge {
                kind: EdgeKind::Calls,
                source: invocation.source,
                target: *target,
                line: invocation.line,
                confidence: ResolutionRule::Macro.confidence(),
                rule: ResolutionRule::Macro,
            });
        }
    }
    expanded
}
