//! Names a macro invocation's tokens mention, where the graph cannot see what its expansion
//! calls: the conservative cause behind "no call the graph cannot see" (never-do #1).
//!
//! A macro's expansion is followed only so far: std's expression macros (`assert_eq!`,
//! `format!`: the calls written in their arguments are call sites of their own), and a
//! project `macro_rules!`'s calls and its one-metavariable templates filled in with each
//! invocation's identifiers. Any other use of an identifier inside a macro's tokens (an
//! outside macro such as `proptest!`, a template with two metavariables, `T::$method()`, a
//! metavariable passed on to another macro) may call a project function of that name without
//! any edge showing it. Each such mention of the name of a project function or method, with
//! no edge or call site of that name already on the invocation's line, becomes an
//! [`UnresolvedReason::UnanalysedCode`] record: answers about symbols of that name are lower
//! bounds that say where. When few project functions have the name (at most
//! [`MAX_MENTION_CANDIDATES`]), the mention also becomes `name_only` CALLS edges (`maybe`)
//! from the invocation's caller, or from the tests a macro writes at that invocation, so a
//! blast walks to them and lists those tests.
//!
//! It deliberately does not tell which of the functions of a name the expansion calls (every
//! one is a `maybe`), nor record names of types, fields or locals (only project functions and methods can be
//! called), nor mentions inside std's expression macros (a bare name there is a value, which
//! the calls around it pass on).

use std::borrow::Borrow;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use tether_model::{
    Edge, EdgeKind, FileFacts, Language, ResolutionRule, SymbolId, SymbolKind, UnresolvedCall,
    UnresolvedReason,
};

use crate::resolver::Resolver;

/// A mentioned name shared by more project functions than this makes no `name_only` edges
/// (the trait's declaration, its impls and a same-named inherent method are a handful).
const MAX_MENTION_CANDIDATES: usize = 8;

impl Resolver<'_> {
    /// The mentions of project function and method names in macro invocations whose
    /// expansion the graph does not follow, given every CALLS edge and unresolved call site,
    /// and the `name_only` edges they make.
    pub(crate) fn unanalysed_macro_mentions<F: Borrow<FileFacts>>(
        &self,
        files: &[F],
        edges: &[Edge],
        unresolved: &[UnresolvedCall],
    ) -> (Vec<UnresolvedCall>, Vec<Edge>) {
        // A test is called by no code (one a macro writes is named by its invocation).
        let is_callable_name = |name: &str| {
            self.index.callables_by_name.get(name).is_some_and(|candidates| {
                candidates.iter().any(|sym| {
                    let symbol = self.index.symbol(*sym);
                    matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
                        && !symbol.is_test
                        && symbol.language == Language::Rust
                })
            })
        };
        // The names each (path, line) already calls, bound or not, and the lines where a
        // project macro is invoked.
        let mut called: HashMap<(&str, u32), HashSet<&str>> = HashMap::default();
        let mut project_macro_lines: HashSet<(&str, u32, &str)> = HashSet::default();
        for edge in edges.iter().filter(|edge| edge.kind == EdgeKind::Calls) {
            let (Some(source), Some(target)) =
                (self.index.sym_of(edge.source), self.index.sym_of(edge.target))
            else {
                continue;
            };
            let (source, target) = (self.index.symbol(source), self.index.symbol(target));
            called.entry((source.path.as_str(), edge.line)).or_default().insert(&target.name);
            if target.kind == SymbolKind::Macro {
                project_macro_lines.insert((source.path.as_str(), edge.line, &target.name));
            }
        }
        for call in unresolved {
            called.entry((call.path.as_str(), call.line)).or_default().insert(&call.callee_name);
        }
        let mut mentions = Vec::new();
        let mut guesses = Vec::new();
        for file in files {
            let file = file.borrow();
            let mut recorded: HashSet<(u32, &str)> = HashSet::default();
            // Tests a macro writes span their invocation.
            let written_tests: Vec<(u32, u32, SymbolId)> = file
                .symbols
                .iter()
                .filter(|symbol| symbol.is_test && symbol.kind == SymbolKind::Function)
                .map(|symbol| (symbol.span.start_line, symbol.span.end_line, symbol.id))
                .collect();
            for invocation in &file.macro_invocations {
                let line = invocation.line;
                let name = invocation.macro_name.as_str();
                let is_project_macro =
                    project_macro_lines.contains(&(file.path.as_str(), line, name));
                if !is_project_macro && crate::builtins::is_rust_std_macro(name) {
                    continue;
                }
                let already = called.get(&(file.path.as_str(), line));
                for mentioned in &invocation.mentions {
                    let mentioned = mentioned.as_str();
                    if mentioned == name
                        || already.is_some_and(|names| names.contains(mentioned))
                        || !is_callable_name(mentioned)
                        || !recorded.insert((line, mentioned))
                    {
                        continue;
                    }
                    mentions.push(UnresolvedCall {
                        caller: invocation.caller,
                        callee_text: format!("{name}!(… {mentioned} …)"),
                        callee_name: mentioned.to_string(),
                        path: file.path.clone(),
                        line,
                        reason: UnresolvedReason::UnanalysedCode,
                    });
                    let candidates = self.mention_candidates(mentioned);
                    if candidates.is_empty() {
                        continue;
                    }
                    let in_tests: Vec<SymbolId> = written_tests
                        .iter()
                        .filter(|(start, end, _)| *start <= line && line <= *end)
                        .map(|(_, _, test)| *test)
                        .collect();
                    let sources =
                        if in_tests.is_empty() { vec![invocation.caller] } else { in_tests };
                    let rule = ResolutionRule::NameOnly;
                    for source in sources {
                        for target in &candidates {
                            guesses.push(Edge {
                                kind: EdgeKind::Calls,
                                source,
                                target: *target,
                                line,
                                confidence: rule.confidence(),
                                rule,
                            });
                        }
                    }
                }
            }
        }
        (mentions, guesses)
    }

    /// The project functions and methods (tests left out) named `name`, when there are at
    /// most [`MAX_MENTION_CANDIDATES`] of them.
    fn mention_candidates(&self, name: &str) -> Vec<SymbolId> {
        let candidates: Vec<SymbolId> = self
            .index
            .callables_by_name
            .get(name)
            .into_iter()
            .flatten()
            .map(|sym| self.index.symbol(*sym))
            .filter(|symbol| {
                matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
                    && !symbol.is_test
                    && symbol.language == Language::Rust
            })
            .map(|symbol| symbol.id)
            .collect();
        if candidates.len() > MAX_MENTION_CANDIDATES {
            return Vec::new();
        }
        candidates
    }
}
