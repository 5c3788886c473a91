//! What a Python read of a computed name may reach (`FileFacts::dynamic_reads`), as
//! REFERENCES edges: the project callables there escape as values, so a call through what was
//! read (`getattr(self, "on_" + kind)()`, `eval(code)`) is one of the unresolved calls
//! through values that answers about them count (`escaped_value`), never a silent `exact`.
//!
//! - `getattr(obj, name)`: every method of `obj`'s class through its MRO and of its
//!   subclasses when `obj` is a project instance or class (`self`, `cls`, a typed local),
//!   every function and class a project module defines when `obj` names one;
//! - `eval(code)`, `exec(code)`: every function and class the calling module defines.
//!
//! It deliberately does not follow a receiver whose type is not visible (a parameter with no
//! annotation: any project method could be read, which would make every answer a lower
//! bound), nor the names a module imports.

use tether_model::{CalleeExpr, Edge, EdgeKind, FileFacts, Language, ResolutionRule, SymbolKind};

use crate::denotation::Denotation;
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

/// The REFERENCES edges of one file's dynamic reads.
pub(crate) fn dynamic_read_edges(resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
    let mut edges = Vec::new();
    for read in &file.dynamic_reads {
        let (Some(caller), CalleeExpr::Path(path)) =
            (resolver.index.sym_of(read.caller), &read.callee)
        else {
            continue;
        };
        let targets = if path.is_empty() {
            module_members(resolver, resolver.index.module_of[caller as usize])
        } else {
            let value = resolver.context.with_use_position(caller, read.byte, || {
                resolver.python_path_in(caller, path, BindingUse::Allowed)
            });
            match value.map(|value| value.denotation) {
                Ok(Denotation::Instance { type_sym, .. }) => class_methods(resolver, type_sym),
                Ok(Denotation::Symbol(sym)) => match resolver.index.symbol(sym).kind {
                    SymbolKind::Class => class_methods(resolver, sym),
                    SymbolKind::Module => module_members(resolver, sym),
                    _ => Vec::new(),
                },
                _ => Vec::new(),
            }
        };
        let rule = ResolutionRule::NameOnly;
        for target in targets.into_iter().filter(|target| *target != caller) {
            edges.push(Edge {
                kind: EdgeKind::References,
                source: read.caller,
                target: resolver.index.symbol(target).id,
                line: read.line,
                confidence: rule.confidence(),
                rule,
            });
        }
    }
    edges
}

/// The methods of a project class through its MRO, and those of its project subclasses (an
/// instance may be one: `getattr(self, request.method.lower())` in a base view reads a
/// subclass's `get`), tests left out.
fn class_methods(resolver: &Resolver<'_>, class: Sym) -> Vec<Sym> {
    let mut methods = Vec::new();
    let subclasses = resolver.subclasses.get(&class).map(Vec::as_slice).unwrap_or(&[]);
    for class in resolver.linearization(class).into_iter().chain(subclasses.iter().copied()) {
        methods.extend(children_of_kinds(resolver, class, &[SymbolKind::Method]));
    }
    methods.sort_unstable();
    methods.dedup();
    methods
}

/// The functions and classes a module defines at its top level (tests left out).
fn module_members(resolver: &Resolver<'_>, module: Sym) -> Vec<Sym> {
    let mut members =
        children_of_kinds(resolver, module, &[SymbolKind::Function, SymbolKind::Class]);
    members.sort_unstable();
    members
}

fn children_of_kinds(resolver: &Resolver<'_>, parent: Sym, kinds: &[SymbolKind]) -> Vec<Sym> {
    let Some(children) = resolver.index.children_by_name.get(&parent) else { return Vec::new() };
    children
        .values()
        .flatten()
        .copied()
        .filter(|child| {
            let symbol = resolver.index.symbol(*child);
            kinds.contains(&symbol.kind) && !symbol.is_test && symbol.language == Language::Python
        })
        .collect()
}
