//! Callbacks through code outside the project, as `maybe` CALLS edges labelled `callback`:
//!
//! - **An outside base calls a subclass's overrides.** A call that lands in an outside base's
//!   method (`client.get(…)` on a `FlaskClient`, whose `get` is werkzeug's `Client.get`)
//!   calls the hooks that method is known to call (werkzeug's `get` calls `self.open`, which
//!   `FlaskClient` overrides): the site reaches the project's overrides of them, by
//!   `queries/python/outside_base_hooks.txt`. An outside method not listed there makes no
//!   edge (answers about the overrides stay `lower_bound`, `called_from_outside`).
//! - **A project object handed to an outside API that calls it.** A project instance passed as
//!   an argument to a callable named in `queries/python/outside_callers.txt` (a WSGI server or
//!   test client calls `app(environ, start_response)`; `CliRunner.invoke` calls `cli.main`),
//!   or to the constructor of a project class built on one (`FlaskClient(app)`), is called
//!   there: the site reaches the method the file names, when the instance's class has it.
//!   Other outside calls that receive project objects are not followed: most only store or
//!   inspect them (a signal's `send(self)`, a context variable's `set(self)`).
//!
//! Python only. Bases in `queries/python/inert_outside_bases.txt` (typing, abc) never call
//! back; builtin bases (`dict`, `Exception`) are not followed either.

use tether_model::{
    CallSite, CalleeExpr, Edge, EdgeKind, FileFacts, Language, Receiver, ResolutionRule, SymbolKind,
};

use crate::calls::CallTargets;
use crate::denotation::{Denotation, Resolved};
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;

const INERT_OUTSIDE_BASES: &str =
    include_str!("../../../../queries/python/inert_outside_bases.txt");

const OUTSIDE_CALLERS: &str = include_str!("../../../../queries/python/outside_callers.txt");

/// The lines of a data file in `queries/python/` that say something (not blank, not `#`).
pub(crate) fn data_lines(text: &'static str) -> impl Iterator<Item = &'static str> {
    text.lines().map(str::trim).filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// The methods an outside callable calls on an object passed to it, by the callable's name.
fn outside_caller_methods(qualified_name: &str) -> Option<&'static [&'static str]> {
    static CALLERS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<&'static str>>> =
        std::sync::OnceLock::new();
    let callers = CALLERS.get_or_init(|| {
        data_lines(OUTSIDE_CALLERS)
            .filter_map(|line| {
                let mut fields = line.split_whitespace();
                Some((fields.next()?, fields.next()?.split(',').collect()))
            })
            .collect()
    });
    // A method of an outside class's instance is named through the call that made it
    // (`click.testing.CliRunner().invoke`).
    callers.get(qualified_name.replace("()", "").as_str()).map(Vec::as_slice)
}

const OUTSIDE_BASE_HOOKS: &str = include_str!("../../../../queries/python/outside_base_hooks.txt");

/// The hooks an outside method calls on its instance (`prefix*` for a prefix), by the
/// method's qualified name (`Base.*` for every method of a base).
fn outside_base_hooks(qualified_name: &str) -> Option<&'static [&'static str]> {
    static HOOKS: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<&'static str>>> =
        std::sync::OnceLock::new();
    let hooks = HOOKS.get_or_init(|| {
        data_lines(OUTSIDE_BASE_HOOKS)
            .filter_map(|line| {
                let mut fields = line.split_whitespace();
                Some((fields.next()?, fields.next()?.split(',').collect()))
            })
            .collect()
    });
    let qualified_name = qualified_name.replace("()", "");
    let qualified_name = qualified_name.as_str();
    let base = qualified_name.rsplit_once('.').map(|(base, _)| base);
    hooks
        .get(qualified_name)
        .or_else(|| base.and_then(|base| hooks.get(format!("{base}.*").as_str())))
        .map(Vec::as_slice)
}

fn is_inert_base(qualified_name: &str) -> bool {
    static NAMES: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| data_lines(INERT_OUTSIDE_BASES).collect());
    names.iter().any(|name| {
        qualified_name == *name
            || qualified_name.strip_prefix(name).is_some_and(|rest| rest.starts_with('.'))
    })
}

fn callback_edge(resolver: &Resolver<'_>, caller: Sym, target: Sym, line: u32) -> Edge {
    let rule = ResolutionRule::Callback;
    Edge {
        kind: EdgeKind::Calls,
        source: resolver.index.symbol(caller).id,
        target: resolver.index.symbol(target).id,
        line,
        confidence: rule.confidence(),
        rule,
    }
}

impl Resolver<'_> {
    /// Whether a project class has a base outside the project that may call back.
    fn has_calling_outside_base(&self, class: Sym) -> bool {
        self.linearization(class).iter().any(|class| {
            self.outside_bases.get(class).is_some_and(|bases| bases.iter().any(|base| matches!(base, Denotation::External(name) if !name.is_empty() && !is_inert_base(name))))
        })
    }

    /// The project methods of `class` (through its MRO) named by `hooks`, tests left out.
    fn project_hooks(&self, class: Sym, hooks: &[&str]) -> Vec<Sym> {
        let mut methods = Vec::new();
        for class in self.linearization(class) {
            let Some(children) = self.index.children_by_name.get(&class) else { continue };
            for (name, symbols) in children {
                let is_hook = hooks.iter().any(|hook| match hook.strip_suffix('*') {
                    Some(prefix) => name.starts_with(prefix),
                    None => name == hook,
                });
                if is_hook {
                    methods.extend(symbols.iter().copied().filter(|method| {
                        let symbol = self.index.symbol(*method);
                        symbol.kind == SymbolKind::Method && !symbol.is_test
                    }));
                }
            }
        }
        methods.sort_unstable();
        methods
    }

    /// The project class a call's receiver is an instance of (or the class itself, for
    /// `cls.m()`), when visible.
    fn receiver_class(&self, caller: Sym, call: &CallSite) -> Option<Sym> {
        let receiver = match &call.callee {
            CalleeExpr::Path(path) if path.len() >= 2 => {
                self.python_path_in(caller, &path[..path.len() - 1], BindingUse::Allowed).ok()?
            }
            CalleeExpr::Method { receiver: Receiver::Call(inner), .. }
                if **inner == CalleeExpr::Path(vec!["super".to_string()]) =>
            {
                return self.python_enclosing_class_of_method(caller);
            }
            CalleeExpr::Method { receiver, .. } => {
                self.receiver_value(caller, receiver, Language::Python)?
            }
            _ => return None,
        };
        match receiver.denotation {
            Denotation::Instance { type_sym, is_dyn: false, .. } => Some(type_sym),
            Denotation::Symbol(class) if self.index.symbol(class).kind == SymbolKind::Class => {
                Some(class)
            }
            _ => None,
        }
    }
}

/// The `callback` edges of a call bound outside the project whose receiver is a project
/// object of a class with an outside base.
pub(crate) fn outside_base_callbacks(
    resolver: &Resolver<'_>,
    caller: Sym,
    call: &CallSite,
    targets: &CallTargets,
) -> Vec<Edge> {
    let CallTargets::Outside { qualified_name, is_builtin: false, .. } = targets else {
        return Vec::new();
    };
    let Some(hooks) = outside_base_hooks(qualified_name) else { return Vec::new() };
    let class = resolver
        .context
        .with_use_position(caller, call.byte, || resolver.receiver_class(caller, call));
    let Some(class) = class.filter(|class| resolver.has_calling_outside_base(*class)) else {
        return Vec::new();
    };
    resolver
        .project_hooks(class, hooks)
        .into_iter()
        .filter(|method| *method != caller)
        .map(|method| callback_edge(resolver, caller, method, call.line))
        .collect()
}

/// The `callback` edges of one file's project objects passed to outside APIs that call them.
pub(crate) fn escaping_instance_callbacks(resolver: &Resolver<'_>, file: &FileFacts) -> Vec<Edge> {
    let mut edges = Vec::new();
    let arguments: Vec<&CallSite> =
        file.value_references.iter().filter(|reference| !reference.text.is_empty()).collect();
    if arguments.is_empty() {
        return edges;
    }
    // The call each value is an argument of: same scope, line and callee text (looked up once
    // per file, and each receiving call resolved once).
    let calls: rustc_hash::FxHashMap<(tether_model::SymbolId, u32, &str), &CallSite> = file
        .calls
        .iter()
        .rev()
        .map(|call| ((call.caller, call.line, call.text.as_str()), call))
        .collect();
    // Keyed by the receiving call's caller and byte, which tell call sites apart.
    let mut called_methods: rustc_hash::FxHashMap<
        (tether_model::SymbolId, u32),
        Option<&'static [&'static str]>,
    > = rustc_hash::FxHashMap::default();
    for reference in arguments {
        let (CalleeExpr::Path(path), Some(scope)) =
            (&reference.callee, resolver.index.sym_of(reference.caller))
        else {
            continue;
        };
        let Some(receiving) =
            calls.get(&(reference.caller, reference.line, reference.text.as_str()))
        else {
            continue;
        };
        let method_names = *called_methods
            .entry((receiving.caller, receiving.byte))
            .or_insert_with(|| methods_called_by_receiver(resolver, scope, receiving));
        let Some(method_names) = method_names else { continue };
        let value = resolver.context.with_use_position(scope, reference.byte, || {
            resolver.python_path_in(scope, path, BindingUse::Allowed)
        });
        let Ok(Resolved {
            denotation: Denotation::Instance { type_sym, is_dyn: false, .. }, ..
        }) = value
        else {
            continue;
        };
        for method_name in method_names {
            match resolver.type_member(
                type_sym,
                method_name,
                false,
                Language::Python,
                ResolutionRule::TypedReceiver,
            ) {
                Ok(Resolved { denotation: Denotation::Symbol(method), .. })
                    if resolver.index.symbol(method).kind == SymbolKind::Method =>
                {
                    edges.push(callback_edge(resolver, scope, method, reference.line));
                }
                // The method called is an outside base's (`CliRunner.invoke(cli)` calls a
                // `click.Group`'s `main`): the hooks it calls.
                Ok(Resolved { denotation: Denotation::External(outside_method), .. }) => {
                    let hooks = outside_base_hooks(&outside_method).unwrap_or_default();
                    edges.extend(
                        resolver
                            .project_hooks(type_sym, hooks)
                            .into_iter()
                            .map(|method| callback_edge(resolver, scope, method, reference.line)),
                    );
                }
                _ => {}
            }
        }
    }
    edges
}

/// The methods a call's callee calls on the objects passed to it: an outside caller's (by
/// `outside_callers.txt`), or those of the outside caller a constructed project class is built
/// on.
fn methods_called_by_receiver(
    resolver: &Resolver<'_>,
    caller: Sym,
    call: &CallSite,
) -> Option<&'static [&'static str]> {
    match resolver.resolve_call(caller, call, Language::Python) {
        CallTargets::Outside { qualified_name, is_builtin: false, .. } => {
            outside_caller_methods(&qualified_name)
        }
        CallTargets::Project(targets) => targets.iter().find_map(|(target, rule)| {
            if *rule != ResolutionRule::Constructor {
                return None;
            }
            let class = if resolver.index.symbol(*target).kind == SymbolKind::Class {
                *target
            } else {
                resolver.index.parent(*target)?
            };
            resolver
                .linearization(class)
                .iter()
                .filter_map(|class| resolver.outside_bases.get(class))
                .flatten()
                .find_map(|base| match base {
                    Denotation::External(name) => outside_caller_methods(name),
                    _ => None,
                })
        }),
        _ => None,
    }
}
