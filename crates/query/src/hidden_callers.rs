//! Calls the graph cannot see, and which may reach a symbol all the same: through a value it
//! escaped as (`escaped_value`), by the language itself (`implicit_invocation`: `__eq__` on
//! `==`, `Drop::drop` at the end of a scope), from code outside the project
//! (`called_from_outside`: an outside base class or trait, a framework decorator, the test
//! runner, an outside call it was passed to), or through a base method it overrides
//! (`overrides`). Each cause makes an answer about the symbol a lower bound, named, counted
//! and with examples. Which methods and traits the language invokes implicitly is data:
//! `queries/python/implicit_methods.txt`, `queries/rust/implicit_traits.txt`.

use std::collections::HashMap;
use std::sync::OnceLock;

use tether_model::{EdgeKind, Language, ResolutionRule, SymbolKind, UnresolvedReason};

use crate::page::{CompletenessCause, MAX_CAUSE_EXAMPLES};
use crate::snapshot::{Snapshot, SymbolIndex};

const PYTHON_IMPLICIT_METHODS: &str = include_str!("../../../queries/python/implicit_methods.txt");
const RUST_IMPLICIT_TRAITS: &str = include_str!("../../../queries/rust/implicit_traits.txt");
const PYTHON_OUTSIDE_PROTOCOL_METHODS: &str =
    include_str!("../../../queries/python/outside_protocol_methods.txt");

/// `name  how` lines, comments and blanks skipped.
fn table(text: &'static str) -> HashMap<&'static str, &'static str> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| match line.split_once(char::is_whitespace) {
            Some((name, how)) => (name, how.trim()),
            None => (line, ""),
        })
        .collect()
}

fn python_implicit_methods() -> &'static HashMap<&'static str, &'static str> {
    static TABLE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| table(PYTHON_IMPLICIT_METHODS))
}

fn python_outside_protocol_methods() -> &'static HashMap<&'static str, &'static str> {
    static TABLE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| table(PYTHON_OUTSIDE_PROTOCOL_METHODS))
}

fn rust_implicit_traits() -> &'static HashMap<&'static str, &'static str> {
    static TABLE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| table(RUST_IMPLICIT_TRAITS))
}

/// Decorators that make a method an attribute read: reading it calls it.
const PROPERTY_DECORATORS: [&str; 5] =
    ["property", "cached_property", "abstractproperty", "getter", "setter"];

/// How far up a class hierarchy overridden methods are looked for.
const MAX_BASES_WALKED: usize = 32;

/// The findings for a set of subjects, before they become causes.
#[derive(Default)]
struct Findings {
    /// (path, line, text) of each place a subject escaped as a value.
    escapes: Vec<(String, u32, String)>,
    escaped_subjects: usize,
    escaped_languages: Vec<Language>,
    implicit: Vec<String>,
    outside: Vec<String>,
    overridden_callers: usize,
    overridden_examples: Vec<(String, u32, String)>,
    /// Whether being an entry point (a test, `main`) is a finding.
    entry_points_count: bool,
    /// Macros invoked where items go (an impl body, a module), each with those invocations:
    /// what the expansion writes there is not in the graph, nor what calls it.
    item_macros: Vec<(String, Vec<Site>)>,
}

/// A place in the code: path, line, what is written there.
type Site = (String, u32, String);

/// Whether an entry point's callers from outside (a test runner, the program's start) count
/// among the hidden callers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum EntryPointCallers {
    /// `callers` of an entry point: its callers are outside.
    Counted,
    /// `blast`: nothing in the project depends on what calls an entry point.
    LeftOut,
}

impl Snapshot {
    /// The causes, besides unresolved calls by name, through which calls the graph does not
    /// hold may reach any of `subjects`. Entry points (tests, a program's `main`) are called
    /// from outside too, but nothing in the project depends on what calls them: a `blast`
    /// leaves them out, `callers` of one says so.
    pub(crate) fn hidden_caller_causes(
        &self,
        subjects: &[SymbolIndex],
        entry_points: EntryPointCallers,
    ) -> Vec<CompletenessCause> {
        let entry_points_count = entry_points == EntryPointCallers::Counted;
        let mut findings = Findings { entry_points_count, ..Findings::default() };
        for subject in subjects {
            self.find_hidden_callers(*subject, &mut findings);
        }
        let mut causes = Vec::new();
        if findings.escaped_subjects > 0 {
            findings.escaped_languages.sort();
            findings.escaped_languages.dedup();
            let calls: Vec<u32> = findings
                .escaped_languages
                .iter()
                .flat_map(|language| self.value_calls_of(*language).iter().copied())
                .collect();
            if !calls.is_empty() {
                causes.push(CompletenessCause::EscapedValue {
                    count: calls.len(),
                    escaped: findings.escaped_subjects,
                    escapes: findings.escapes.into_iter().take(MAX_CAUSE_EXAMPLES).collect(),
                    examples: self.unresolved_examples(&calls),
                });
            }
        }
        if !findings.implicit.is_empty() {
            causes.push(CompletenessCause::ImplicitInvocation {
                count: findings.implicit.len(),
                examples: findings.implicit.into_iter().take(MAX_CAUSE_EXAMPLES).collect(),
            });
        }
        if !findings.outside.is_empty() {
            causes.push(CompletenessCause::CalledFromOutside {
                count: findings.outside.len(),
                examples: findings.outside.into_iter().take(MAX_CAUSE_EXAMPLES).collect(),
            });
        }
        for (name, invocations) in findings.item_macros {
            causes.push(CompletenessCause::UnanalysedCode {
                name,
                count: invocations.len(),
                examples: invocations.into_iter().take(MAX_CAUSE_EXAMPLES).collect(),
            });
        }
        if findings.overridden_callers > 0 {
            causes.push(CompletenessCause::Overrides {
                count: findings.overridden_callers,
                examples: findings
                    .overridden_examples
                    .into_iter()
                    .take(MAX_CAUSE_EXAMPLES)
                    .collect(),
            });
        }
        causes
    }

    fn find_hidden_callers(&self, subject: SymbolIndex, findings: &mut Findings) {
        let symbol = self.symbol(subject);
        // A package's `__main__.py` runs as `python -m package`, in a test's subprocess too.
        if symbol.kind == SymbolKind::Module
            && symbol.language == Language::Python
            && symbol.name == "__main__"
        {
            findings.outside.push(format!(
                "{} runs as `python -m`: a test that starts it in a subprocess is not seen",
                symbol.qualified_name
            ));
            return;
        }
        if symbol.kind == SymbolKind::Macro {
            self.item_macro_findings(subject, findings);
            return;
        }
        if symbol.kind.is_outside() || !(symbol.kind.is_callable() || symbol.kind.is_type()) {
            return;
        }
        let name = symbol.name.as_str();
        let parent = symbol.parent.and_then(|parent| self.index_of(parent));
        let mut escaped = self.escapes_of(subject, findings);
        if symbol.kind == SymbolKind::Lambda {
            escaped = true;
        }
        if symbol.is_test && findings.entry_points_count {
            findings.outside.push(format!("{} is run by the test runner", symbol.qualified_name));
        }
        match symbol.language {
            Language::Python => {
                // A module's own `__getattr__` and `__dir__` (PEP 562) run on `module.name`.
                let in_module =
                    parent.is_some_and(|parent| self.symbol(parent).kind == SymbolKind::Module);
                if symbol.kind == SymbolKind::Function
                    && in_module
                    && matches!(name, "__getattr__" | "__dir__")
                {
                    findings.implicit.push(format!(
                        "{}: reading a missing attribute of the module, dir(module)",
                        symbol.qualified_name
                    ));
                }
                // An `if __name__ == "__main__":` block runs when the file is run as a script:
                // by a test too, in a subprocess the graph does not see (so `blast` counts it).
                if symbol.kind == SymbolKind::Function && in_module && name == "__main__" {
                    findings.outside.push(format!(
                        "{} runs when the file is run as a script: a test that starts it in a \
                         subprocess is not seen",
                        symbol.qualified_name
                    ));
                }
                if symbol.kind == SymbolKind::Method {
                    if let Some(how) = python_implicit_methods().get(name) {
                        findings.implicit.push(format!("{}: {how}", symbol.qualified_name));
                    }
                    if let Some(protocol) = python_outside_protocol_methods().get(name) {
                        findings.outside.push(format!(
                            "{}: {protocol} calls it on objects handed to it",
                            symbol.qualified_name
                        ));
                    }
                    if let Some(class) = parent {
                        escaped |= self.escapes_through_hierarchy(subject, class, findings);
                        self.python_class_findings(subject, class, findings);
                    }
                }
                if let Some(parent) = parent {
                    self.python_decorator_findings(subject, parent, findings);
                }
            }
            Language::Rust => self.rust_findings(subject, parent, findings),
        }
        if escaped {
            findings.escaped_subjects += 1;
            findings.escaped_languages.push(symbol.language);
        }
    }

    /// Whether a method escaped through its class hierarchy: constructing the class or any
    /// project subclass through a value runs `__init__`; a base's method of the same name used
    /// as a value through `self` (`view_func=self.handle`) may be this override.
    fn escapes_through_hierarchy(
        &self,
        subject: SymbolIndex,
        class: SymbolIndex,
        findings: &mut Findings,
    ) -> bool {
        let name = self.symbol(subject).name.as_str();
        let constructor = matches!(name, "__init__" | "__new__" | "__post_init__");
        let mut seen = vec![class];
        let mut position = 0;
        let mut escaped = false;
        while position < seen.len() && seen.len() < MAX_BASES_WALKED {
            let current = seen[position];
            position += 1;
            if constructor {
                escaped |= self.escapes_of(current, findings);
            } else if current != class {
                for same_name in self
                    .children(current)
                    .filter(|child| {
                        self.symbol(*child).kind == SymbolKind::Method
                            && self.symbol(*child).name == name
                    })
                    .collect::<Vec<_>>()
                {
                    escaped |= self.escapes_of(same_name, findings);
                }
            }
            let next: Vec<SymbolIndex> = if constructor {
                self.incoming(current, &[EdgeKind::Inherits]).map(|edge| edge.source).collect()
            } else {
                self.outgoing(current, &[EdgeKind::Inherits]).map(|edge| edge.target).collect()
            };
            for class in next {
                if !seen.contains(&class) && !self.symbol(class).kind.is_outside() {
                    seen.push(class);
                }
            }
        }
        escaped
    }

    /// Whether a symbol escaped as a value, recording where; an escape into an outside call
    /// (`Thread(target=f)`) is recorded as called from outside instead. A value of unknown
    /// target carrying its name (`view_func=obj.handler`) counts as an escape.
    fn escapes_of(&self, subject: SymbolIndex, findings: &mut Findings) -> bool {
        let mut escaped = false;
        let symbol = self.symbol(subject);
        if symbol.language == Language::Python {
            for site in self.unbound_values_named(&symbol.name) {
                let value = &self.unresolved()[*site as usize];
                escaped = true;
                findings.escapes.push((
                    value.path.clone(),
                    value.line,
                    format!("`{}` may be it", value.callee_text),
                ));
            }
        }
        for edge in self.incoming(subject, &[EdgeKind::References]) {
            let source = self.symbol(edge.source);
            let outside_call = self.outgoing(edge.source, &[EdgeKind::Calls]).find(|call| {
                let target = self.symbol(call.target);
                call.edge.line == edge.edge.line
                    && target.kind.is_outside()
                    && !is_attribute_store(&target.qualified_name)
            });
            match outside_call {
                // `getattr(obj, name)`, `eval(code)` with a computed name or code.
                Some(call) if is_dynamic_read(&self.symbol(call.target).qualified_name) => {
                    findings.outside.push(format!(
                        "{} may be reached by name through {}() at {}:{} (a name or code computed at run time)",
                        self.symbol(subject).qualified_name,
                        self.symbol(call.target).qualified_name,
                        source.path,
                        edge.edge.line
                    ))
                }
                Some(call) => findings.outside.push(format!(
                    "{} is passed to the outside {} at {}:{}",
                    self.symbol(subject).qualified_name,
                    self.symbol(call.target).qualified_name,
                    source.path,
                    edge.edge.line
                )),
                None => {
                    escaped = true;
                    findings.escapes.push((
                        source.path.clone(),
                        edge.edge.line,
                        format!("used as a value in {}", source.qualified_name),
                    ));
                }
            }
        }
        escaped
    }

    /// A method of a class that extends an outside class, or that overrides a project base's
    /// method called through the base.
    fn python_class_findings(
        &self,
        subject: SymbolIndex,
        class: SymbolIndex,
        findings: &mut Findings,
    ) {
        let name = &self.symbol(subject).name;
        let mut seen = vec![class];
        let mut position = 0;
        while position < seen.len() && seen.len() < MAX_BASES_WALKED {
            let current = seen[position];
            position += 1;
            for base in self
                .outgoing(current, &[EdgeKind::Inherits])
                .map(|edge| edge.target)
                .collect::<Vec<_>>()
            {
                if seen.contains(&base) {
                    continue;
                }
                seen.push(base);
                let base_symbol = self.symbol(base);
                if base_symbol.kind.is_outside() {
                    // A library base may call any of its subclass's methods (a hook, a template
                    // method); a builtin one (`dict`, `Exception`) only its dunders, which are
                    // implicit invocations, and `Generic`, `Protocol`, `object` none.
                    if base_symbol.kind == SymbolKind::External
                        && !is_typing_base(&base_symbol.qualified_name)
                    {
                        findings.outside.push(format!(
                            "{}: its class extends {}, outside the project, which may call it",
                            self.symbol(subject).qualified_name,
                            base_symbol.qualified_name
                        ));
                    }
                    continue;
                }
                // Constructing the base never runs a subclass's constructor.
                if matches!(name.as_str(), "__init__" | "__new__") {
                    continue;
                }
                for overridden in self.children(base).filter(|child| {
                    self.symbol(*child).kind == SymbolKind::Method
                        && &self.symbol(*child).name == name
                }) {
                    // Calls through the base's own methods (`self.step()`) or a base-typed
                    // value may dispatch here; `super().step()` from another override (a
                    // method of the same name) does not.
                    for call in self.incoming(overridden, &[EdgeKind::Calls]).filter(|call| {
                        matches!(
                            call.edge.rule,
                            ResolutionRule::SelfMethod | ResolutionRule::TypedReceiver
                        ) && &self.symbol(call.source).name != name
                    }) {
                        findings.overridden_callers += 1;
                        if findings.overridden_examples.len() < MAX_CAUSE_EXAMPLES {
                            let caller = self.symbol(call.source);
                            findings.overridden_examples.push((
                                caller.path.clone(),
                                call.edge.line,
                                format!(
                                    "{} calls {}",
                                    caller.qualified_name,
                                    self.symbol(overridden).qualified_name
                                ),
                            ));
                        }
                    }
                }
            }
        }
    }

    /// A Rust macro invoked in item position (`iterator_methods!()` in an impl body) writes
    /// items there; unless the invocation was expanded (same file, see
    /// `extract::rust::macro_expansion`), those items and their callers are not in the graph,
    /// so a change to the macro reaches callers the walk cannot see.
    fn item_macro_findings(&self, subject: SymbolIndex, findings: &mut Findings) {
        let symbol = self.symbol(subject);
        let invocations: Vec<Site> = self
            .incoming(subject, &[EdgeKind::Calls])
            .filter(|call| !self.symbol(call.source).kind.is_callable())
            .map(|call| {
                let site = self.symbol(call.source);
                (
                    site.path.clone(),
                    call.edge.line,
                    format!("{}! in {}", symbol.name, site.qualified_name),
                )
            })
            .collect();
        if !invocations.is_empty() {
            findings.item_macros.push((symbol.qualified_name.clone(), invocations));
        }
    }

    /// Decorators applied to a definition are calls from its enclosing scope on its lines: a
    /// property makes reading the attribute call it, and a method sharing a property's name
    /// (`@name.setter`, `@name.deleter`) is called by writing or deleting the attribute.
    fn python_decorator_findings(
        &self,
        subject: SymbolIndex,
        parent: SymbolIndex,
        findings: &mut Findings,
    ) {
        let symbol = self.symbol(subject);
        if self.is_property(subject, parent) {
            findings
                .implicit
                .push(format!("{}: reading the attribute (a property)", symbol.qualified_name));
        } else if self.children(parent).any(|sibling| {
            sibling != subject
                && self.symbol(sibling).name == symbol.name
                && self.is_property(sibling, parent)
        }) {
            findings.implicit.push(format!(
                "{}: writing or deleting the attribute (a property's setter or deleter)",
                symbol.qualified_name
            ));
        }
    }

    /// Whether an outside property decorator (`property`, `functools.cached_property`) is
    /// applied to this definition. (An outside decorator that receives the function is an
    /// escape into an outside call, which `escapes_of` reports.)
    fn is_property(&self, definition: SymbolIndex, parent: SymbolIndex) -> bool {
        let span = &self.symbol(definition).span;
        self.outgoing(parent, &[EdgeKind::Calls]).any(|call| {
            let decorator = self.symbol(call.target);
            let last =
                decorator.qualified_name.rsplit('.').next().unwrap_or(&decorator.qualified_name);
            call.edge.line >= span.start_line
                && call.edge.line <= span.end_line
                && decorator.kind.is_outside()
                && PROPERTY_DECORATORS.contains(&last)
        })
    }

    /// A method of an impl of a trait the language invokes implicitly, or of an outside trait
    /// (its code calls the method); a crate's `main`.
    fn rust_findings(
        &self,
        subject: SymbolIndex,
        parent: Option<SymbolIndex>,
        findings: &mut Findings,
    ) {
        let symbol = self.symbol(subject);
        // A program's `main` runs when the binary does: by a test too, in a process the graph
        // does not see (`Command::new(env!("CARGO_BIN_EXE_…"))`), so `blast` counts it.
        if symbol.name == "main"
            && symbol.kind == SymbolKind::Function
            && parent.is_some_and(|parent| self.symbol(parent).parent.is_none())
        {
            findings.outside.push(format!(
                "{} is the program's entry point: a test that runs the binary is not seen",
                symbol.qualified_name
            ));
        }
        let Some(block) = parent.filter(|parent| self.symbol(*parent).kind == SymbolKind::Impl)
        else {
            return;
        };
        let Some(trait_name) = impl_trait_name(&self.symbol(block).name) else { return };
        if let Some(how) = rust_implicit_traits().get(trait_name) {
            findings.implicit.push(format!("{} ({trait_name}): {how}", symbol.qualified_name));
            return;
        }
        if let Some(implemented) = self
            .implemented_trait(block)
            .filter(|implemented| self.symbol(*implemented).kind.is_outside())
        {
            findings.outside.push(format!(
                "{} implements {}, outside the project, whose code may call it",
                symbol.qualified_name,
                self.symbol(implemented).qualified_name
            ));
        }
        // Calls of the project trait's method (through a generic bound or a `dyn`) may run
        // this implementation.
        for declared in self.overridden_methods(subject) {
            for call in self.incoming(declared, &[EdgeKind::Calls]) {
                findings.overridden_callers += 1;
                if findings.overridden_examples.len() < MAX_CAUSE_EXAMPLES {
                    let caller = self.symbol(call.source);
                    findings.overridden_examples.push((
                        caller.path.clone(),
                        call.edge.line,
                        format!(
                            "{} calls {}",
                            caller.qualified_name,
                            self.symbol(declared).qualified_name
                        ),
                    ));
                }
            }
        }
    }

    /// The trait a Rust impl block implements, as resolved: an IMPLEMENTS edge on the impl's
    /// line, from the type (or from the impl, when its type is not seen).
    pub(crate) fn implemented_trait(&self, block: SymbolIndex) -> Option<SymbolIndex> {
        let trait_name = impl_trait_name(&self.symbol(block).name)?;
        let impl_line = self.symbol(block).span.start_line;
        let holders = [
            Some(block),
            self.symbol(block).parent.and_then(|holder| self.index_of(holder)),
            self.containing(block),
        ];
        holders
            .into_iter()
            .flatten()
            .flat_map(|holder| {
                self.outgoing(holder, &[EdgeKind::Implements])
                    .filter(move |edge| edge.edge.line == impl_line)
                    .map(|edge| edge.target)
            })
            .find(|target| {
                self.symbol(*target).name == trait_name
                    || self.symbol(*target).qualified_name.ends_with(trait_name)
            })
    }

    /// The symbol whose CONTAINS edge holds this one (an impl's type, once resolution moved it).
    fn containing(&self, child: SymbolIndex) -> Option<SymbolIndex> {
        self.incoming(child, &[EdgeKind::Contains]).map(|edge| edge.source).next()
    }

    /// Unresolved calls through values (`callback()`, `handlers[k]()`) of one language.
    pub(crate) fn value_calls_of(&self, language: Language) -> &[u32] {
        self.value_calls.get(&language).map(Vec::as_slice).unwrap_or(&[])
    }
}

/// The trait an impl symbol implements, by the name extraction gives impls
/// (`{impl fmt::Display for Wrapper<T>}` → `Display`).
fn impl_trait_name(impl_name: &str) -> Option<&str> {
    let inner = impl_name.strip_prefix("{impl")?.trim_end_matches('}').trim_start();
    // `impl<T: Clone> From<T> for …`: the impl's own generics come first.
    let inner = match inner.strip_prefix('<') {
        Some(rest) => {
            let mut depth = 1usize;
            let end = rest.char_indices().find(|(_, character)| {
                match character {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    _ => {}
                }
                depth == 0
            })?;
            &rest[end.0 + 1..]
        }
        None => inner,
    };
    let (trait_part, _) = inner.split_once(" for ")?;
    let trait_part = trait_part.trim();
    let trait_part = trait_part.split('<').next().unwrap_or(trait_part);
    let last = trait_part.rsplit("::").next().unwrap_or(trait_part).trim();
    (!last.is_empty()).then_some(last)
}

/// Bases that add no behaviour of their own: typing's generics and protocols.
fn is_typing_base(qualified_name: &str) -> bool {
    let last = qualified_name.rsplit('.').next().unwrap_or(qualified_name);
    matches!(last, "Generic" | "Protocol" | "NamedTuple" | "TypedDict" | "object")
}

/// Whether an unresolved call goes through a value.
/// The builtins that read a name (or run code) computed at run time: a reference at their
/// site is a dynamic read (`extract::python_dynamic_reads`), not a value passed to them.
fn is_dynamic_read(qualified_name: &str) -> bool {
    matches!(qualified_name, "<builtin>.getattr" | "<builtin>.eval" | "<builtin>.exec")
}

/// `setattr(obj, "name", f)` keeps `f` as `obj.name = f` would: an escape into the project's
/// own objects, not a value handed to outside code.
fn is_attribute_store(qualified_name: &str) -> bool {
    qualified_name == "<builtin>.setattr"
}

pub(crate) fn is_value_call(reason: UnresolvedReason) -> bool {
    reason == UnresolvedReason::ValueCall
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_load_and_impl_names_give_their_trait() {
        assert!(python_implicit_methods().contains_key("__eq__"));
        assert!(rust_implicit_traits().contains_key("Display"));
        assert!(python_outside_protocol_methods().contains_key("readable"));
        assert_eq!(impl_trait_name("{impl fmt::Display for Wrapper<T>}"), Some("Display"));
        assert_eq!(impl_trait_name("{impl<T: Clone> From<T> for Holder<T>}"), Some("From"));
        assert_eq!(impl_trait_name("{impl Wrapper}"), None);
    }

    /// A builtin calls these dunders on an argument whose type the graph may not know
    /// (`reversed(obj)`): each is implicit, or an unused-looking `__reversed__` is said dead.
    #[test]
    fn every_dunder_a_builtin_calls_is_an_implicit_method() {
        let calls = include_str!("../../../queries/python/builtin_dunder_calls.txt");
        for line in calls.lines().filter(|line| !line.starts_with('#') && !line.trim().is_empty()) {
            for method in line.split_whitespace().skip(2) {
                assert!(python_implicit_methods().contains_key(method), "{method} ({line})");
            }
        }
    }
}
