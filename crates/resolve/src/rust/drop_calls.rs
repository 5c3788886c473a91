//! Rust's `Drop`: a value of a project type with `impl Drop` is dropped where the scope that
//! holds it ends, which calls its `drop` with no call expression. A function that calls a
//! project function returning such a type (`SmallVec::new()`, `Guard::lock(…)`, `-> Self`),
//! or a std wrapper of one (`Option<Guard>`, `Vec<Buffer>`), holds a value that is dropped
//! there or handed on to be dropped later: an edge from the function to the type's `drop`, at
//! the call's line.
//!
//! It deliberately does not follow values made otherwise (struct literals, `Default`,
//! closures returning them), moves into another owner (the edge stays with the function that
//! got the value), nor `drop` of the fields of a dropped value: the types a struct holds are
//! dropped with it but no edge says so. Answers about a `drop` stay `lower_bound` with the
//! cause `implicit_invocation`.

use tether_model::{CallSite, Edge, EdgeKind, Language, ResolutionRule};

use crate::calls::CallTargets;
use crate::denotation::Denotation;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::HashMap;

/// How deep wrappers are searched for a dropped type (`Option<Vec<Guard>>`).
const MAX_WRAPPER_DEPTH: usize = 4;

impl Resolver<'_> {
    /// The `drop` method of each project type with an `impl Drop` (std's trait, by name).
    pub(crate) fn collect_drop_methods(&self) -> HashMap<Sym, Sym> {
        self.impl_trait_names
            .iter()
            .filter(|(_, name)| name.as_str() == "Drop")
            .filter_map(|(impl_sym, _)| {
                let type_sym = *self.impl_self_type.get(impl_sym)?;
                let drop = *self.index.children_named(*impl_sym, "drop").first()?;
                Some((type_sym, drop))
            })
            .collect()
    }

    /// The project types with a `drop` that a value of `denotation` holds.
    fn dropped_types(&self, denotation: &Denotation, depth: usize, found: &mut Vec<Sym>) {
        if depth > MAX_WRAPPER_DEPTH {
            return;
        }
        match denotation {
            Denotation::Instance { type_sym, .. }
                if self.drop_methods.contains_key(type_sym) && !found.contains(type_sym) =>
            {
                found.push(*type_sym);
            }
            Denotation::Wrapped { inner, .. } => self.dropped_types(inner, depth + 1, found),
            Denotation::Tuple(elements) => {
                for element in elements {
                    self.dropped_types(element, depth + 1, found);
                }
            }
            _ => {}
        }
    }
}

/// The `drop` edges of one bound call: from the caller to the `drop` of each project type the
/// called functions return.
pub(crate) fn drop_edges(
    resolver: &Resolver<'_>,
    call: &CallSite,
    targets: &CallTargets,
) -> Vec<Edge> {
    if resolver.drop_methods.is_empty() {
        return Vec::new();
    }
    let CallTargets::Project(bound) = targets else { return Vec::new() };
    let mut types = Vec::new();
    for (target, _) in bound {
        if let Some(returned) = resolver.declared_return_type(*target, Language::Rust) {
            resolver.dropped_types(&returned, 0, &mut types);
        }
    }
    types
        .into_iter()
        .filter_map(|type_sym| resolver.drop_methods.get(&type_sym))
        .map(|drop| Edge {
            kind: EdgeKind::Calls,
            source: call.caller,
            target: resolver.index.symbol(*drop).id,
            line: call.line,
            confidence: ResolutionRule::TypedReceiver.confidence(),
            rule: ResolutionRule::TypedReceiver,
        })
        .collect()
}
