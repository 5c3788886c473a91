//! Python property reads and writes: `request.blueprint` runs the getter of the `blueprint`
//! property of `request`'s class, with no call expression, and `box.total = 3` runs the
//! setter of `total` (`@total.setter`). Each read or write whose receiver's type is visible and
//! whose attribute is a project property (`@property`, `@cached_property`) becomes a CALLS
//! edge to the getter or setter, bound like a method call on that receiver.
//!
//! Not followed: reads on values of unknown type (most of a framework's proxies), deleters,
//! and descriptors other than properties (`__get__`, `__set__`).

use tether_model::{CallSite, CalleeExpr, Edge, EdgeKind, FileFacts, Language};

use crate::denotation::{instance_member_rule, Denotation, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// Which method of a property an attribute access runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Accessor {
    /// Reading the attribute: the getter (`@property`).
    Getter,
    /// Writing the attribute: the setter (`@name.setter`).
    Setter,
}

impl Accessor {
    fn binding(self) -> &'static str {
        match self {
            Accessor::Getter => crate::PROPERTY_BINDING,
            Accessor::Setter => crate::PROPERTY_SETTER_BINDING,
        }
    }
}

/// The getter edges of one Python file's attribute reads and the setter edges of its writes.
pub(crate) fn property_read_edges(resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
    let mut edges = Vec::new();
    let accesses = (file.attribute_reads.iter().map(|read| (read, Accessor::Getter)))
        .chain(file.attribute_writes.iter().map(|write| (write, Accessor::Setter)));
    for (read, accessor) in accesses {
        let Some(name) = crate::calls::callee_name(&read.callee) else { continue };
        if !resolver.index.python_property_names.contains(name) {
            continue;
        }
        let Some(caller) = resolver.index.sym_of(read.caller) else { continue };
        for (getter, rule) in resolver.context.with_use_position(caller, read.byte, || {
            resolver.property_accessors(caller, read, name, accessor)
        }) {
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
    /// The project property getters an attribute read runs, or the setters a write runs.
    fn property_accessors(
        &self,
        caller: Sym,
        read: &CallSite,
        name: &str,
        accessor: Accessor,
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
        let runs_here =
            |candidate: &Sym| self.index.bindings_named(*candidate, accessor.binding()).is_some();
        match self.type_member(type_sym, name, is_dyn, Language::Python, instance_member_rule(rule))
        {
            Ok(Resolved { denotation: Denotation::Symbol(method), rule }) if runs_here(&method) => {
                vec![(method, rule)]
            }
            // A getter beside its setter (`@total.setter` defines `total` again): the one the
            // access runs.
            Ok(Resolved { denotation: Denotation::Ambiguous(candidates), .. }) => {
                let methods: Vec<Sym> = candidates.into_iter().filter(runs_here).collect();
                let rule = if methods.len() == 1 {
                    instance_member_rule(rule)
                } else {
                    tether_model::ResolutionRule::Ambiguous
                };
                methods.into_iter().map(|method| (method, rule)).collect()
            }
            _ => Vec::new(),
        }
    }
}
