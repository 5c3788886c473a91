//! Resolution: the per-file facts of a whole project become the cross-file edges of the
//! code graph, each with the rule that made it and a confidence.
//!
//! Precise first, complete second: a reference binds through scopes, imports and visible
//! types; when several candidates remain all are kept and labelled ambiguous; a name-only
//! guess is labelled and low-confidence; every call site ends with an outcome and nothing
//! is dropped (unbound sites become [`UnresolvedCall`]s with a reason).
//!
//! Types come from what the facts show: annotations, constructors, declared return types
//! (and, in Python, the value a function visibly returns), std wrappers whose element is
//! written (`Option<T>`, `Vec<T>`, `impl Iterator<Item = T>`) with the std methods that
//! unwrap or iterate them, pattern and closure parameters fed by those, type aliases, methods
//! reached through a project `impl Deref`, and pytest fixtures by name. A use sees the
//! nearest earlier binding of a name in its scope.
//!
//! This crate deliberately does no IO and no parsing, and does not infer types the facts
//! do not show: generic arguments are substituted only where they are written (a value's
//! type arguments fill its fields' and methods' Self-type parameters; a call's `::<T>` fills a
//! return type naming the function's own parameter), never inferred from uses and never
//! through associated types; closure return types only through std adapters and local
//! closures; no trait solving (a blanket extension trait is matched by the impls of its
//! bound).

mod argument_slots;
mod binding_values;
mod bindings_in_force;
mod builtins;
mod call_results;
mod calls;
mod container_types;
mod denotation;
mod language_rules;
mod project_index;
mod python;
mod resolution_context;
mod resolver;
mod rust;
mod structure;
mod value_flow;
mod value_types;

pub use structure::extracted_contains_edges;

use std::borrow::Borrow;
use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap as HashMap;
use tether_model::{
    CallOutcome, CallSite, CalleeExpr, Edge, EdgeKind, FileFacts, Language, ResolutionRule, Symbol,
    SymbolId, SymbolKind, UnresolvedCall, UnresolvedReason,
};

use crate::calls::{callee_name, CallTargets};
use crate::project_index::ProjectIndex;
use crate::resolver::{Resolver, ResolverTables};

/// The binding under which extraction records a function's declared return type.
pub(crate) const RETURN_BINDING: &str = "return";

/// The binding under which extraction records what a Python function yields.
pub(crate) const YIELD_BINDING: &str = "yield";

/// The binding under which extraction marks a Python property's getter.
pub(crate) const PROPERTY_BINDING: &str = "@property";
pub(crate) const PROPERTY_SETTER_BINDING: &str = "@property.setter";

/// The binding under which extraction marks a pytest fixture function.
pub(crate) const FIXTURE_BINDING: &str = "@fixture";

/// The binding under which extraction marks a pytest fixture declared `autouse=True`.
pub(crate) const AUTOUSE_FIXTURE_BINDING: &str = "@autouse_fixture";

/// The binding under which extraction marks a Python `@overload` stub.
pub(crate) const OVERLOAD_BINDING: &str = "@overload";

/// The binding under which extraction records what a Rust type alias stands for.
pub(crate) const TYPE_ALIAS_BINDING: &str = "type";

/// The bindings under which extraction records what each decorator of a Python function
/// gives, nearest first.
pub(crate) const DECORATED_BINDING: &str = "@decorated";

/// The binding under which extraction marks a Rust inherent method written without `pub`.
pub(crate) const PRIVATE_METHOD_BINDING: &str = "@private";

/// Everything resolution adds to the symbols extraction found.
#[derive(Clone, Debug, Default)]
pub struct Resolution {
    pub edges: Vec<Edge>,
    pub unresolved: Vec<UnresolvedCall>,
    /// External and builtin targets, one symbol each.
    pub outside_symbols: Vec<Symbol>,
    pub call_outcomes: BTreeMap<CallOutcome, u64>,
    pub unresolved_reasons: BTreeMap<UnresolvedReason, u64>,
}

/// Resolves a whole project's facts (owned, or borrowed from a cache).
pub fn resolve<F: Borrow<FileFacts> + Sync>(files: &[F]) -> Resolution {
    let tables = ResolverTables::new(ProjectIndex::build(files));
    let (resolution, structural) = rayon::join(
        || {
            files
                .par_iter()
                .map(|file| resolve_calls_of_file(&tables.resolver(), file.borrow()))
                .reduce(FileCalls::default, FileCalls::merge)
        },
        || StructuralEdges::of(&tables.resolver()),
    );
    let resolver = tables.resolver();
    let mut resolution = resolution;
    let flowed = resolver.value_flow_edges(&resolution.argument_flows, &resolution.parameter_calls);
    resolution.edges.extend(flowed);
    let expanded = resolver.macro_expansion_edges(&resolution.edges);
    resolution.edges.extend(expanded);
    let filled = resolver.macro_template_edges(files, &resolution.edges);
    resolution.edges.extend(filled);
    let (mentions, guesses) =
        resolver.unanalysed_macro_mentions(files, &resolution.edges, &resolution.unresolved);
    resolution.unresolved.extend(mentions);
    resolution.edges.extend(guesses);
    finish(resolution, structural)
}

/// One file for [`resolve_cached`]: its facts, a version that changes whenever they are
/// re-extracted, and their [`interface_hash`].
pub struct VersionedFacts<'a> {
    pub facts: &'a FileFacts,
    pub version: u64,
    pub interface_hash: u64,
}

/// The call sites of each file as last resolved, valid while the project's interface (every
/// file's [`interface_hash`]) stays the same.
#[derive(Clone, Default)]
pub struct ResolutionCache {
    interface: u64,
    per_file: HashMap<String, (u64, Arc<FileCalls>)>,
    /// Keep per-file results for the next build (off for a one-off cold build).
    pub keep: bool,
}

impl ResolutionCache {
    /// A cache that keeps each build's per-file results for the next build.
    pub fn kept() -> ResolutionCache {
        ResolutionCache { keep: true, ..ResolutionCache::default() }
    }
}

/// Like [`resolve`], re-resolving only the call sites of files whose facts changed, as long as
/// no file's interface (what other files' calls can bind to) changed; otherwise everything.
pub fn resolve_cached(files: &[VersionedFacts<'_>], cache: &mut ResolutionCache) -> Resolution {
    let facts: Vec<&FileFacts> = files.iter().map(|file| file.facts).collect();
    let tables = ResolverTables::new(ProjectIndex::build(&facts));
    let mut interface = rustc_hash::FxHasher::default();
    for file in files {
        file.facts.path.hash(&mut interface);
        file.interface_hash.hash(&mut interface);
    }
    let interface = interface.finish();
    if interface != cache.interface {
        cache.per_file.clear();
        cache.interface = interface;
    }
    let (per_file, structural) = rayon::join(
        || {
            files
                .par_iter()
                .map(|file| {
                    let calls = match cache.per_file.get(&file.facts.path) {
                        Some((version, calls)) if *version == file.version => Arc::clone(calls),
                        _ => Arc::new(resolve_calls_of_file(&tables.resolver(), file.facts)),
                    };
                    (file.facts.path.clone(), file.version, calls)
                })
                .collect::<Vec<(String, u64, Arc<FileCalls>)>>()
        },
        || StructuralEdges::of(&tables.resolver()),
    );
    let resolver = tables.resolver();
    cache.per_file.clear();
    let mut merged = FileCalls::default();
    let mut next_cache = HashMap::default();
    for (path, version, calls) in per_file {
        if cache.keep {
            merged.extend_from(&calls);
            next_cache.insert(path, (version, calls));
        } else {
            // Nothing else holds a one-off build's results: they move.
            match Arc::try_unwrap(calls) {
                Ok(calls) => merged = merged.merge(calls),
                Err(shared) => merged.extend_from(&shared),
            }
        }
    }
    cache.per_file = next_cache;
    let flowed = resolver.value_flow_edges(&merged.argument_flows, &merged.parameter_calls);
    merged.edges.extend(flowed);
    let expanded = resolver.macro_expansion_edges(&merged.edges);
    merged.edges.extend(expanded);
    let filled = resolver.macro_template_edges(&facts, &merged.edges);
    merged.edges.extend(filled);
    let (mentions, guesses) =
        resolver.unanalysed_macro_mentions(&facts, &merged.edges, &merged.unresolved);
    merged.unresolved.extend(mentions);
    merged.edges.extend(guesses);
    finish(merged, structural)
}

/// A hash of what other files' call sites can bind to in this file: its symbols (not their
/// spans), imports, supertypes, impls, derives and bindings. Editing inside a function body without
/// touching these leaves it unchanged.
pub fn interface_hash(facts: &FileFacts) -> u64 {
    let mut hasher = rustc_hash::FxHasher::default();
    for symbol in &facts.symbols {
        (
            symbol.id,
            symbol.kind,
            &symbol.name,
            &symbol.qualified_name,
            symbol.parent,
            symbol.is_test,
            symbol.runs_as_test,
            symbol.is_overload_stub,
        )
            .hash(&mut hasher);
    }
    for import in &facts.imports {
        (
            import.scope,
            import.style,
            import.relative_level,
            &import.path,
            &import.alias,
            import.is_glob,
            import.is_public,
        )
            .hash(&mut hasher);
    }
    for supertype in &facts.supertypes {
        (supertype.subtype, &supertype.path).hash(&mut hasher);
    }
    for block in &facts.impls {
        (block.impl_symbol, &block.self_type, &block.trait_path).hash(&mut hasher);
    }
    // A derive, or a field's type under one, decides what `a == b` calls in other files.
    for derive in &facts.derives {
        (derive.type_symbol, &derive.traits, &derive.field_types).hash(&mut hasher);
    }
    for binding in &facts.bindings {
        (binding.scope, &binding.name, &binding.value).hash(&mut hasher);
    }
    // Other files' tests and fixtures request fixtures by these names.
    for named in &facts.fixture_names {
        (named.fixture, &named.name).hash(&mut hasher);
    }
    hasher.finish()
}

/// The edges that do not come from call sites (CONTAINS, IMPORTS, INHERITS, IMPLEMENTS) and
/// the outside symbols they reach; computed beside the call sites.
struct StructuralEdges {
    edges: Vec<Edge>,
    outside: HashMap<SymbolId, Symbol>,
}

impl StructuralEdges {
    fn of(resolver: &Resolver<'_>) -> StructuralEdges {
        let mut outside = HashMap::default();
        let edges = structure::structural_edges(resolver, &mut outside);
        StructuralEdges { edges, outside }
    }
}

fn finish(mut resolution: FileCalls, structural: StructuralEdges) -> Resolution {
    let mut outside = std::mem::take(&mut resolution.outside);
    outside.extend(structural.outside);
    let mut edges = resolution.edges;
    edges.extend(structural.edges);
    edges.sort_by(|a, b| {
        (a.kind, a.source, a.target, a.line).cmp(&(b.kind, b.source, b.target, b.line))
    });
    edges.dedup_by(|a, b| {
        a.kind == b.kind && a.source == b.source && a.target == b.target && a.line == b.line
    });
    let mut outside_symbols: Vec<Symbol> = outside.into_values().collect();
    outside_symbols.sort_by(|a, b| a.qualified_name.cmp(&b.qualified_name));
    Resolution {
        edges,
        unresolved: resolution.unresolved,
        outside_symbols,
        call_outcomes: resolution.outcomes,
        unresolved_reasons: resolution.reasons,
    }
}

#[derive(Default, Clone)]
struct FileCalls {
    edges: Vec<Edge>,
    /// What this file's calls pass to parameters, and its calls of parameters (value flow,
    /// joined over the project afterwards).
    argument_flows: Vec<value_flow::ArgumentFlow>,
    parameter_calls: Vec<value_flow::ParameterCall>,
    unresolved: Vec<UnresolvedCall>,
    outside: HashMap<SymbolId, Symbol>,
    outcomes: BTreeMap<CallOutcome, u64>,
    reasons: BTreeMap<UnresolvedReason, u64>,
}

impl FileCalls {
    /// Appends copies of `other`'s results (a cached file's, kept for the next build).
    fn extend_from(&mut self, other: &FileCalls) {
        self.edges.extend_from_slice(&other.edges);
        self.argument_flows.extend_from_slice(&other.argument_flows);
        self.parameter_calls.extend_from_slice(&other.parameter_calls);
        self.unresolved.extend_from_slice(&other.unresolved);
        self.outside.extend(other.outside.iter().map(|(id, symbol)| (*id, symbol.clone())));
        for (outcome, count) in &other.outcomes {
            *self.outcomes.entry(*outcome).or_default() += count;
        }
        for (reason, count) in &other.reasons {
            *self.reasons.entry(*reason).or_default() += count;
        }
    }

    fn merge(mut self, other: FileCalls) -> FileCalls {
        self.edges.extend(other.edges);
        self.argument_flows.extend(other.argument_flows);
        self.parameter_calls.extend(other.parameter_calls);
        self.unresolved.extend(other.unresolved);
        self.outside.extend(other.outside);
        for (outcome, count) in other.outcomes {
            *self.outcomes.entry(outcome).or_default() += count;
        }
        for (reason, count) in other.reasons {
            *self.reasons.entry(reason).or_default() += count;
        }
        self
    }
}

fn resolve_calls_of_file(resolver: &Resolver<'_>, file: &FileFacts) -> FileCalls {
    let mut result = FileCalls::default();
    let Some(language) = file.language else { return result };
    for reference in &file.function_references {
        let Some(caller) = resolver.index.sym_of(reference.caller) else { continue };
        if let Some(targets) = resolver.resolve_function_reference(caller, reference, language) {
            record_targets(resolver, &mut result, reference, targets, language);
        }
    }
    let mut referenced = rustc_hash::FxHashSet::default();
    for reference in &file.value_references {
        let Some(scope) = resolver.index.sym_of(reference.caller) else { continue };
        let targets = match resolver.resolve_value_reference(scope, reference, language) {
            crate::calls::ValueReference::Targets(targets) => targets,
            crate::calls::ValueReference::Unbound => {
                // Not a call site: kept beside them, out of the outcomes and reasons counted.
                let (callee_text, callee_name) = match &reference.callee {
                    CalleeExpr::Path(path) => {
                        (path.join("."), path.last().cloned().unwrap_or_default())
                    }
                    CalleeExpr::Method { name, .. } => (format!("(…).{name}"), name.clone()),
                    _ => continue,
                };
                result.unresolved.push(UnresolvedCall {
                    caller: reference.caller,
                    callee_text,
                    callee_name,
                    path: file.path.clone(),
                    line: reference.line,
                    reason: UnresolvedReason::ValueReference,
                });
                continue;
            }
            crate::calls::ValueReference::NotCallable => continue,
        };
        for (target, rule) in targets {
            let target = resolver.index.symbol(target).id;
            if referenced.insert((reference.caller, target, reference.line)) {
                result.edges.push(Edge {
                    kind: EdgeKind::References,
                    source: reference.caller,
                    target,
                    line: reference.line,
                    confidence: rule.confidence(),
                    rule,
                });
            }
        }
    }
    let rules = crate::language_rules::rules_of(language);
    result.edges.extend(rules.file_edges(resolver, file));
    let mut arguments_of_call: HashMap<(SymbolId, u32), Vec<&tether_model::CallArgument>> =
        HashMap::default();
    for argument in &file.call_arguments {
        arguments_of_call.entry((argument.caller, argument.call_byte)).or_default().push(argument);
    }
    // The language's own calls (`with`, operators, subscripts, applying what `@route("/")`
    // returns): project targets only, and not counted among call sites. A lookup that goes
    // through a project `Deref` (`v[0]` on a type that derefs to a slice) calls its `deref`,
    // whatever the target.
    let project_derefs = resolver.index.names.contains("deref");
    for call in &file.implicit_calls {
        // Only names some project symbol has can bind; what a call returns may be anything.
        let may_bind = match &call.callee {
            CalleeExpr::Returned(_) => true,
            callee => crate::calls::callee_name(callee)
                .is_some_and(|method| project_derefs || resolver.index.names.contains(method)),
        };
        let Some(caller) = resolver.index.sym_of(call.caller).filter(|_| may_bind) else {
            continue;
        };
        let (targets, noted) = resolver
            .context
            .noting_implicit_calls(|| resolver.resolve_call(caller, call, language));
        result.edges.extend(implicit_edges(resolver, rules, call, &noted));
        if let targets @ CallTargets::Project(_) = targets {
            if let (CallTargets::Project(bound), Some(arguments)) =
                (&targets, arguments_of_call.get(&(call.caller, call.byte)))
            {
                result.argument_flows.extend(resolver.argument_flows(caller, arguments, bound));
            }
            record_targets(resolver, &mut result, call, targets, language);
        }
    }
    for call in &file.calls {
        let Some(caller) = resolver.index.sym_of(call.caller) else { continue };
        let (targets, noted) = resolver
            .context
            .noting_implicit_calls(|| resolver.resolve_call(caller, call, language));
        let arguments = arguments_of_call.get(&(call.caller, call.byte));
        let targets = match arguments {
            Some(arguments) => resolver.with_first_argument_impl(caller, arguments, targets),
            None => targets,
        };
        result.edges.extend(implicit_edges(resolver, rules, call, &noted));
        *result.outcomes.entry(targets.outcome()).or_default() += 1;
        if let (CallTargets::Project(bound), Some(arguments)) = (&targets, arguments) {
            result.argument_flows.extend(resolver.argument_flows(caller, arguments, bound));
        }
        if let Some(arguments) = arguments {
            result.argument_flows.extend(resolver.builtin_argument_flows(caller, call, arguments));
        }
        // A call of a parameter binds to nothing by itself: value flow may bind it.
        if matches!(&targets, CallTargets::Unresolved(_))
            || matches!(&targets, CallTargets::Project(bound) if bound.is_empty())
        {
            result.parameter_calls.extend(resolver.parameter_calls(caller, call));
        }
        if let CallTargets::Unresolved(reason) = targets {
            *result.reasons.entry(reason).or_default() += 1;
            result.unresolved.push(UnresolvedCall {
                caller: call.caller,
                callee_text: call.text.clone(),
                callee_name: callee_name(&call.callee)
                    .map(str::to_string)
                    .unwrap_or_else(|| crate::calls::name_from_text(&call.text)),
                path: file.path.clone(),
                line: call.line,
                reason,
            });
            continue;
        }
        result.edges.extend(rules.call_edges(resolver, caller, call, &targets));
        record_targets(resolver, &mut result, call, targets, language);
    }
    // After the calls: typing a store's receiver first would fill the context's binding cache
    // without noting the dereferences a call through it makes (`deref_calls`).
    result.argument_flows.extend(resolver.field_store_flows(file));
    result.argument_flows.extend(resolver.element_store_flows(file));
    result
}

/// Adds the CALLS edges (and outside targets) of one bound site.
/// The edges a call site has besides its targets: the `deref` of each project `Deref` its
/// lookups went through, and the project methods a derived impl it reached calls (several
/// are a dispatch: a derived `eq` stops at the first field that differs).
fn implicit_edges(
    resolver: &Resolver<'_>,
    rules: &dyn crate::language_rules::LanguageRules,
    call: &CallSite,
    noted: &crate::resolution_context::NotedImplicitCalls,
) -> Vec<Edge> {
    let mut edges = Vec::new();
    if !noted.dereferenced.is_empty() {
        edges.extend(rules.dereference_edges(resolver, call, &noted.dereferenced));
    }
    let rule = match noted.derived.len() {
        1 => ResolutionRule::TypedReceiver,
        _ => ResolutionRule::DynamicDispatch,
    };
    edges.extend(noted.derived.iter().map(|method| Edge {
        kind: EdgeKind::Calls,
        source: call.caller,
        target: resolver.index.symbol(*method).id,
        line: call.line,
        confidence: rule.confidence(),
        rule,
    }));
    edges
}

fn record_targets(
    resolver: &Resolver<'_>,
    result: &mut FileCalls,
    call: &tether_model::CallSite,
    targets: CallTargets,
    language: Language,
) {
    match targets {
        CallTargets::Project(targets) => {
            for (target, rule) in targets {
                let target = resolver.index.symbol(target).id;
                result.edges.push(Edge {
                    kind: EdgeKind::Calls,
                    source: call.caller,
                    target,
                    line: call.line,
                    confidence: rule.confidence(),
                    rule,
                });
            }
        }
        CallTargets::Outside { qualified_name, is_builtin, rule } => {
            let kind = if is_builtin { SymbolKind::Builtin } else { SymbolKind::External };
            let target = outside_symbol(&mut result.outside, &qualified_name, kind, language);
            result.edges.push(Edge {
                kind: EdgeKind::Calls,
                source: call.caller,
                target,
                line: call.line,
                confidence: rule.confidence(),
                rule,
            });
        }
        CallTargets::Unresolved(_) => {}
    }
}

/// The id of an outside target, creating its symbol on first use.
pub(crate) fn outside_symbol(
    outside: &mut HashMap<SymbolId, Symbol>,
    qualified_name: &str,
    kind: SymbolKind,
    language: Language,
) -> SymbolId {
    let id = SymbolId::for_outside_target(qualified_name, kind);
    outside.entry(id).or_insert_with(|| {
        let separator = crate::language_rules::rules_of(language).separator();
        let name = qualified_name.rsplit(separator).next().unwrap_or(qualified_name).to_string();
        Symbol {
            id,
            kind,
            name,
            qualified_name: qualified_name.to_string(),
            path: String::new(),
            language,
            span: Default::default(),
            parent: None,
            is_test: false,
            runs_as_test: false,
            content_hash: 0,
            body_start_line: 0,
            is_overload_stub: false,
            visibility: tether_model::Visibility::Undeclared,
        }
    });
    id
}

#[cfg(test)]
mod tests {
    use tether_model::{DerivedTraits, FileFacts, SymbolId};

    /// Another file's `a == b` binds through a type's derives: editing one re-resolves them.
    #[test]
    fn a_derive_is_part_of_a_files_interface() {
        let with = |traits: &[&str]| FileFacts {
            derives: vec![DerivedTraits {
                type_symbol: SymbolId(7),
                traits: traits.iter().map(|name| name.to_string()).collect(),
                field_types: vec![vec!["Key".to_string()]],
            }],
            ..FileFacts::default()
        };
        assert_ne!(
            super::interface_hash(&with(&["PartialEq"])),
            super::interface_hash(&with(&["PartialEq", "Hash"]))
        );
    }
}
