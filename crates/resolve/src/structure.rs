//! The structural edges: CONTAINS (impls re-parented under their type), IMPORTS, INHERITS
//! (class bases, supertraits) and IMPLEMENTS (a type's trait impls).

use rustc_hash::FxHashMap as HashMap;

use tether_model::{Edge, EdgeKind, Language, ResolutionRule, Symbol, SymbolId, SymbolKind};

use crate::denotation::{Denotation, Resolved};
use crate::outside_symbol;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// The CONTAINS edge from `parent` to `symbol`.
fn contains_edge(parent: SymbolId, symbol: &Symbol) -> Edge {
    Edge {
        kind: EdgeKind::Contains,
        source: parent,
        target: symbol.id,
        line: symbol.span.start_line,
        confidence: 1.0,
        rule: ResolutionRule::Syntax,
    }
}

/// The CONTAINS edges extraction alone decides: each symbol under its parent, except impls,
/// which resolution moves under their type when it finds it. Resolution's edges include
/// these, so they can be stored before it ends.
pub fn extracted_contains_edges(symbols: &[Symbol]) -> Vec<Edge> {
    symbols
        .iter()
        .filter(|symbol| symbol.kind != SymbolKind::Impl)
        .filter_map(|symbol| Some(contains_edge(symbol.parent?, symbol)))
        .collect()
}

pub(crate) fn structural_edges(
    resolver: &Resolver<'_>,
    outside: &mut HashMap<SymbolId, Symbol>,
) -> Vec<Edge> {
    let index = &resolver.index;
    let mut edges = Vec::new();

    let moved_impls = impls_moved_under_their_types(resolver);
    for (position, symbol) in index.symbols.iter().enumerate() {
        let Some(parent) = symbol.parent else { continue };
        let parent = moved_impls
            .get(&(position as Sym))
            .map(|type_sym| index.symbol(*type_sym).id)
            .unwrap_or(parent);
        edges.push(contains_edge(parent, symbol));
    }

    for (position, import) in index.imports.iter().enumerate() {
        let Some(resolved) = &resolver.import_results[position] else { continue };
        let Some(scope) = index.sym_of(import.scope) else { continue };
        let language = index.symbol(scope).language;
        for target in denotation_targets(resolver, resolved, language, outside) {
            edges.push(Edge {
                kind: EdgeKind::Imports,
                source: import.scope,
                target,
                line: import.line,
                confidence: resolved.rule.confidence(),
                rule: resolved.rule,
            });
        }
    }

    for supertype in &index.supertypes {
        let Some(subtype) = index.sym_of(supertype.subtype) else { continue };
        let language = index.symbol(subtype).language;
        let scope = index.parent(subtype).unwrap_or(subtype);
        let resolved =
            crate::language_rules::rules_of(language).item_path(resolver, scope, &supertype.path);
        let resolved = resolved.unwrap_or_else(|_| unresolved_outside(&supertype.path, language));
        for target in denotation_targets(resolver, &resolved, language, outside) {
            edges.push(Edge {
                kind: EdgeKind::Inherits,
                source: supertype.subtype,
                target,
                line: supertype.line,
                confidence: resolved.rule.confidence(),
                rule: resolved.rule,
            });
        }
    }

    for block in &index.impls {
        let Some(trait_path) = &block.trait_path else { continue };
        let Some(impl_sym) = index.sym_of(block.impl_symbol) else { continue };
        let self_type =
            resolver.impl_self_type.get(&impl_sym).map(|type_sym| index.symbol(*type_sym));
        let source = self_type.map_or(block.impl_symbol, |self_type| self_type.id);
        // The site is a line of the source's file: the impl's, or, for an impl written in
        // another file than its type, the type's own line (a printed `path:line` is the
        // source's path).
        let line = match self_type {
            Some(self_type) if self_type.path != index.symbol(impl_sym).path => {
                self_type.span.start_line
            }
            _ => block.line,
        };
        let scope = index.parent(impl_sym).unwrap_or(impl_sym);
        let language = index.symbol(impl_sym).language;
        let resolved = crate::language_rules::rules_of(language)
            .item_path(resolver, scope, trait_path)
            .unwrap_or_else(|_| unresolved_outside(trait_path, language));
        for target in denotation_targets(resolver, &resolved, language, outside) {
            edges.push(Edge {
                kind: EdgeKind::Implements,
                source,
                target,
                line,
                confidence: resolved.rule.confidence(),
                rule: resolved.rule,
            });
        }
    }
    edges
}

/// The impls that move under their self type (impl → type), as CONTAINS parents. Every
/// other symbol stays under its syntactic parent. CONTAINS stays a forest by construction: a
/// move that would close a cycle (an impl standing for a type a macro defines is its own self
/// type; a type defined inside its own impl) is not made, and the impl keeps its syntactic
/// parent, which always encloses it.
fn impls_moved_under_their_types(resolver: &Resolver<'_>) -> HashMap<Sym, Sym> {
    let index = &resolver.index;
    let mut moved: HashMap<Sym, Sym> = resolver
        .impl_self_type
        .iter()
        .filter(|(sym, type_sym)| {
            sym != type_sym
                && index.symbol(**sym).kind == SymbolKind::Impl
                && index.symbol(**sym).parent.is_some()
        })
        .map(|(sym, type_sym)| (*sym, *type_sym))
        .collect();
    // Undo moves until no moved impl is its own ancestor. Syntactic parents alone are acyclic,
    // so each undo removes a cycle and the loop ends.
    let mut candidates: Vec<Sym> = moved.keys().copied().collect();
    candidates.sort_unstable();
    while let Some(closing) =
        candidates.iter().copied().find(|sym| is_own_ancestor(index, &moved, *sym))
    {
        moved.remove(&closing);
        candidates.retain(|sym| *sym != closing);
    }
    moved
}

/// Whether walking up from `sym` (through moved impls' types, else syntactic parents) comes
/// back to it.
fn is_own_ancestor(
    index: &crate::project_index::ProjectIndex<'_>,
    moved: &HashMap<Sym, Sym>,
    sym: Sym,
) -> bool {
    let parent_of = |current: Sym| moved.get(&current).copied().or_else(|| index.parent(current));
    let mut current = parent_of(sym);
    for _ in 0..=index.symbols.len() {
        match current {
            None => return false,
            Some(ancestor) if ancestor == sym => return true,
            Some(ancestor) => current = parent_of(ancestor),
        }
    }
    true
}

/// A supertype path that names nothing visible is most likely outside the project (a glob
/// import of a dependency); it is kept as an external target rather than dropped.
fn unresolved_outside(path: &[String], language: Language) -> Resolved {
    let separator = crate::language_rules::rules_of(language).separator();
    Resolved {
        denotation: Denotation::External(path.join(separator)),
        rule: ResolutionRule::NameOnly,
    }
}

/// The symbols a denotation stands for, creating outside symbols as needed.
fn denotation_targets(
    resolver: &Resolver<'_>,
    resolved: &Resolved,
    language: Language,
    outside: &mut HashMap<SymbolId, Symbol>,
) -> Vec<SymbolId> {
    let index = &resolver.index;
    match &resolved.denotation {
        Denotation::Symbol(sym) => vec![index.symbol(*sym).id],
        Denotation::Instance { type_sym, .. } => vec![index.symbol(*type_sym).id],
        Denotation::Ambiguous(candidates) => {
            candidates.iter().map(|sym| index.symbol(*sym).id).collect()
        }
        Denotation::External(path) if !path.is_empty() => {
            vec![outside_symbol(outside, path, SymbolKind::External, language)]
        }
        Denotation::Namespace(path) => {
            vec![outside_symbol(outside, path, SymbolKind::External, language)]
        }
        Denotation::Builtin(path) => {
            let separator = crate::language_rules::rules_of(language).separator();
            vec![outside_symbol(
                outside,
                &format!("<builtin>{separator}{path}"),
                SymbolKind::Builtin,
                language,
            )]
        }
        Denotation::External(_)
        | Denotation::UntypedLocal
        | Denotation::Wrapped { .. }
        | Denotation::Tuple(_) => Vec::new(),
    }
}
