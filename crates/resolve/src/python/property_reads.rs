//! Python property reads: `request.blueprint` runs the getter of the `blueprint` property of
//! `request`'s class, with no call expression. Each read whose receiver's type is visible and
//! whose attribute is a project property (`@property`, `@cached_property`) becomes a CALLS
//! edge to the getter, bound like a method call on that receiver.
//!
//! Not followed: reads on values of unknown type (most of a framework's proxies), setters and
//! deleters (assignments are not reads), and descriptors other than properties (`__get__`).

use tether_model::{CallSite, CalleeExpr, Edge, EdgeKind, FileFacts, Language};

use crate::denotation::{instance_member_rule, Denotation, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// The getter edges of one Python file's attribute reads.
pub(crate) fn property_read_edges(resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
    let mut edges = Vec::new();
    for read in &file.attribute_reads {
        let Some(name) = crate::calls::callee_name(&read.callee) else { continue };
        if !resolver.index.python_property_names.contains(name) {
            continue;
        }
        let Some(caller) = resolver.index.sym_of(read.caller) else { continue };
        for (getter, rule) in resolver
            .context
            .with_use_position(caller, read.byte, || resolver.property_getters(caller, read, name))
        {
            edges.push(Edge {
                kind: EdgeKind::Calls,
                source: read.caller,
                target: resolver.index.symbol(getter).id,
                line: read.line,
                confidence: rule.confidence(),
                rule,
            });
        }
    }
    edges
}

impl Resolver<'_> {
    /// The project property getters an attribute read runs.
    fn property_getters(
        &self,
        caller: Sym,
        read: &CallSite,
        name: &str,
    ) -> Vec<(Sym, tether_model::ResolutionRule)> {
        let receiver = match &read.callee {
            CalleeExpr::Path(path) if path.len() >= 2 => {
                self.python_path_in(caller, &path[..path.len() - 1], BindingUse::Allowed).ok()
            }
            CalleeExpr::Method { receiver, .. } => {
                self.receiver_value(caller, receiver, Language::Python)
            }
            _ => None,
        };
        let Some(Resolved { denotation: Denotation::Instance { type_sym, is_dyn, .. }, rule }) =
            receiver
        else {
            return Vec::new();
        };
        let is_getter = |candidate: &Sym| {
            self.index.bindings_named(*candidate, crate::PROPERTY_BINDING).is_some()
        };
        match self.type_member(type_sym, name, is_dyn, Language::Python, instance_member_rule(rule))
        {
            Ok(Resolved { denotation: Denotation::Symbol(getter), rule }) if is_getter(&getter) => {
                vec![(getter, rule)]
            }
            // A getter beside its setter (`@total.setter` defines `total` again): the getter.
            Ok(Resolved { denotation: Denotation::Ambiguous(candidates), .. }) => {
                let getters: Vec<Sym> = candidates.into_iter().filter(is_getter).collect();
                let rule = if getters.len() == 1 {
                    instance_member_rule(rule)
                } else {
                    tether_model::ResolutionRule::Ambiguous
                };
                getters.into_iter().map(|getter| (getter, rule)).collect()
            }
            _ => Vec::new(),
        }
    }
}
