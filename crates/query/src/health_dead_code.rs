//! Dead code: definitions nothing in the project calls, references, imports or extends.
//! A symbol is `dead` only when its callers' completeness is exact: no unresolved call site
//! spells its name, no value call could reach it, no outside code (a base class, a
//! decorator, a test runner, a library's users) may call it. Otherwise it is `possibly_dead`,
//! with the causes. A symbol only tests use is `test_only`.
//!
//! Left out: tests, benchmarks and what runs them, entry points (`main`, a script block, a
//! test framework's hooks: `queries/python/test_framework.txt`; what the packaging declares,
//! handed in as [`HealthOptions::entry_points`]), `@overload` stubs, methods a trait impl must
//! write and the methods of an implemented trait, and what the language calls without a call
//! expression (dunders, `Display::fmt`): they are not dead for want of callers.
//!
//! A definition runtime evidence saw run (any evidence, fresh or not: it ran once) is never
//! listed; how many were left out so is counted.
//!
//! A type is at most `possibly_dead`: annotations and signatures name types without an
//! edge, and a subclass is used through what it inherits (`Sub.as_view()` binds to the
//! base's method). A public name may be used by code outside the repository: a Python name
//! without a leading underscore in a package (a folder with `__init__.py`), and a Rust item
//! declared `pub` (or as visible as a `pub` trait) outside a binary's `main.rs` or `src/bin/`,
//! are at most `possibly_dead`; `pub(crate)` and private Rust items can be `dead`.

use tether_model::{Language, SymbolKind};

use crate::health::{is_guess, HealthOptions, DEPENDENCY_KINDS};
use crate::hidden_callers::EntryPointCallers;
use crate::page::{Completeness, CompletenessCause};
use crate::snapshot::{Snapshot, SymbolIndex};

/// What the graph can say of an unused definition.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum DeadVerdict {
    /// Nothing calls it, and nothing could without the graph seeing it.
    Dead,
    /// Only tests use it.
    TestOnly,
    /// Nothing the graph sees calls it; the causes say what may.
    PossiblyDead,
}

impl DeadVerdict {
    pub fn as_str(self) -> &'static str {
        match self {
            DeadVerdict::Dead => "dead",
            DeadVerdict::TestOnly => "test_only",
            DeadVerdict::PossiblyDead => "possibly_dead",
        }
    }
}

#[derive(Clone, PartialEq, Debug)]
pub struct DeadSymbol {
    pub index: SymbolIndex,
    pub verdict: DeadVerdict,
    /// Lines of its definition (what deleting it removes).
    pub lines: u32,
    /// Exact for `dead`; the causes of a `possibly_dead`; for `test_only`, whether tests are
    /// all its users.
    pub completeness: Completeness,
}

/// Unused-looking definitions left out of the dead code section, counted for its note.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub(crate) struct DeadCodeLeftOut {
    /// Runtime evidence saw them run.
    pub seen_running: usize,
    /// The packaging declares them entry points (console scripts, plugins).
    pub entry_points: usize,
}

impl Snapshot {
    /// Unused definitions: `dead` first (longest first), then `test_only`, then
    /// `possibly_dead` (fewest hidden callers first); and how many unused-looking ones were
    /// left out, and why.
    pub(crate) fn dead_code(&self, options: &HealthOptions) -> (Vec<DeadSymbol>, DeadCodeLeftOut) {
        let mut left_out = DeadCodeLeftOut::default();
        let mut file_states = crate::runtime_evidence::FileStates::default();
        let entry_points: rustc_hash::FxHashSet<&str> =
            options.entry_points.iter().map(String::as_str).collect();
        let mut found: Vec<DeadSymbol> = (0..self.symbols().len() as SymbolIndex)
            .filter(|index| self.may_be_dead(*index, options))
            .filter_map(|index| self.unused(index))
            .filter(|dead| {
                let declared = self.is_declared_entry_point(dead.index, &entry_points);
                left_out.entry_points += usize::from(declared);
                !declared
            })
            .filter(|dead| {
                let ran = options.evidence.as_deref().is_some_and(|evidence| {
                    self.subtree(dead.index)
                        .iter()
                        .any(|part| self.ran_at_runtime(*part, evidence, &mut file_states))
                });
                left_out.seen_running += usize::from(ran);
                !ran
            })
            .collect();
        // A packaging file that could not be read may declare any Python definition an entry
        // point.
        if let Some(problem) = options.entry_point_problems.first() {
            for dead in found.iter_mut().filter(|dead| {
                dead.verdict == DeadVerdict::Dead
                    && self.symbol(dead.index).language == Language::Python
            }) {
                dead.verdict = DeadVerdict::PossiblyDead;
                dead.completeness =
                    Completeness::from_causes(vec![CompletenessCause::CalledFromOutside {
                        count: 1,
                        examples: vec![format!(
                            "the packaging may declare it an entry point: {problem}"
                        )],
                    }]);
            }
        }
        // A member of an unused class is said with its class, not again on its own.
        let listed: rustc_hash::FxHashSet<tether_model::SymbolId> =
            found.iter().map(|dead| self.symbol(dead.index).id).collect();
        found.retain(|dead| {
            !self.symbol(dead.index).parent.is_some_and(|parent| listed.contains(&parent))
        });
        let weight = |dead: &DeadSymbol| match &dead.completeness {
            Completeness::Exact => 0,
            Completeness::LowerBound(causes) => causes.iter().map(|cause| cause.weight()).sum(),
        };
        found.sort_by(|a, b| {
            a.verdict
                .cmp(&b.verdict)
                .then_with(|| weight(a).cmp(&weight(b)))
                .then_with(|| b.lines.cmp(&a.lines))
                .then_with(|| {
                    self.symbol(a.index).qualified_name.cmp(&self.symbol(b.index).qualified_name)
                })
        });
        (found, left_out)
    }

    /// A Python definition the packaging names (`pkg.cli.main`), or one at the top level of a
    /// module it names (a plugin module's hooks are called by name).
    fn is_declared_entry_point(
        &self,
        index: SymbolIndex,
        entry_points: &rustc_hash::FxHashSet<&str>,
    ) -> bool {
        let symbol = self.symbol(index);
        if symbol.language != Language::Python || entry_points.is_empty() {
            return false;
        }
        if entry_points.contains(symbol.qualified_name.as_str()) {
            return true;
        }
        let parent = symbol
            .parent
            .and_then(|parent| self.index_of(parent))
            .map(|parent| self.symbol(parent));
        parent.is_some_and(|parent| {
            parent.kind == SymbolKind::Module
                && entry_points.contains(parent.qualified_name.as_str())
        })
    }

    /// A definition that is not a test, an entry point or a stub, in the folder asked about.
    fn may_be_dead(&self, index: SymbolIndex, options: &HealthOptions) -> bool {
        let symbol = self.symbol(index);
        let kind_counts = symbol.kind.is_type()
            || matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method | SymbolKind::Macro);
        kind_counts
            && !symbol.is_test
            && !symbol.runs_as_test
            && !symbol.is_overload_stub
            && !matches!(symbol.name.as_str(), "main" | "__main__")
            && !(symbol.language == Language::Python
                && symbol.kind == SymbolKind::Function
                && tether_model::TestFramework::python()
                    .is_hook_function(&symbol.path, &symbol.name))
            && Snapshot::in_health_folder(&symbol.path, options)
            && !self.in_trait_impl(index)
    }

    /// A method of `impl Trait for Type`: the trait requires it, used or not.
    fn in_trait_impl(&self, index: SymbolIndex) -> bool {
        self.symbol(index).parent.and_then(|parent| self.index_of(parent)).is_some_and(|parent| {
            let parent = self.symbol(parent);
            parent.kind == SymbolKind::Impl && parent.name.contains(" for ")
        })
    }

    /// The verdict on a definition no project code outside it uses; `None` when some does.
    fn unused(&self, index: SymbolIndex) -> Option<DeadSymbol> {
        if self.is_method_of_an_implemented_trait(index) {
            return None;
        }
        let inside = self.subtree(index);
        let mut used_by_tests = false;
        // An ambiguous or name-only edge (`imp()` bound to both `#[cfg(unix)] fn imp` and
        // `#[cfg(not(unix))] fn imp`) may be a real use: not proof of one, nor of none.
        let mut guessed = 0;
        for part in &inside {
            for edge in self.incoming(*part, &DEPENDENCY_KINDS) {
                if inside.contains(&edge.source) {
                    continue;
                }
                if is_guess(edge.edge.rule) {
                    guessed += 1;
                    continue;
                }
                if !self.is_test_code(edge.source) {
                    return None;
                }
                used_by_tests = true;
            }
        }
        // Hidden callers of the definition itself: a class's dunders are called when it is
        // used, which is what is in question.
        let mut causes = self.unresolved_causes(&[index]);
        if guessed > 0 {
            causes.push(CompletenessCause::UncertainEdges { count: guessed });
        }
        let hidden = self.hidden_caller_causes(&[index], EntryPointCallers::Counted);
        // What the language calls by itself is not dead for want of a call expression.
        if hidden.iter().any(|cause| matches!(cause, CompletenessCause::ImplicitInvocation { .. }))
        {
            return None;
        }
        causes.extend(hidden);
        causes.extend(self.escaped_class_causes(index));
        causes.extend(self.public_name_cause(index));
        causes.extend(self.unlinked_type_uses_cause(index));
        causes.extend(self.unparsed_files_cause(index));
        let verdict = if used_by_tests {
            DeadVerdict::TestOnly
        } else if causes.is_empty() {
            DeadVerdict::Dead
        } else {
            DeadVerdict::PossiblyDead
        };
        let span = self.symbol(index).span;
        Some(DeadSymbol {
            index,
            verdict,
            lines: span.end_line + 1 - span.start_line,
            completeness: Completeness::from_causes(causes),
        })
    }

    /// A method a trait declares, when some type implements the trait: every impl is written
    /// against it (smallvec's `SpecFrom::spec_from` is called as `<Self as
    /// SpecFrom>::spec_from`, which binds to an impl's method), so it is not dead for want of
    /// callers of its own.
    fn is_method_of_an_implemented_trait(&self, index: SymbolIndex) -> bool {
        let Some(parent) = self.symbol(index).parent.and_then(|parent| self.index_of(parent))
        else {
            return false;
        };
        self.symbol(parent).kind == SymbolKind::Trait
            && self.incoming(parent, &[tether_model::EdgeKind::Implements]).next().is_some()
    }

    /// A method of a class used as a value (`sys.path_hooks.append(cls)`): whoever holds the
    /// class, or an instance of it, may call the method where the graph cannot see it.
    fn escaped_class_causes(&self, index: SymbolIndex) -> Vec<CompletenessCause> {
        let symbol = self.symbol(index);
        let class = symbol.parent.and_then(|parent| self.index_of(parent));
        let Some(class) = class.filter(|class| {
            symbol.kind == SymbolKind::Method && self.symbol(*class).kind == SymbolKind::Class
        }) else {
            return Vec::new();
        };
        let mut causes: Vec<CompletenessCause> = self
            .hidden_caller_causes(&[class], EntryPointCallers::Counted)
            .into_iter()
            .filter(|cause| matches!(cause, CompletenessCause::EscapedValue { .. }))
            .collect();
        // Used, yet neither it nor a subclass is instantiated here: its instances are made by
        // code the class is handed to (`sys.path_hooks.append(cls)`), which calls their
        // methods.
        let mut family = vec![class];
        let mut next = 0;
        while next < family.len() && family.len() < 1_000 {
            let subclasses: Vec<SymbolIndex> = self
                .incoming(family[next], &[tether_model::EdgeKind::Inherits])
                .map(|edge| edge.source)
                .filter(|subclass| !family.contains(subclass))
                .collect();
            family.extend(subclasses);
            next += 1;
        }
        let constructors: Vec<SymbolIndex> = family
            .iter()
            .flat_map(|member| {
                std::iter::once(*member).chain(
                    self.children(*member).filter(|child| self.symbol(*child).name == "__init__"),
                )
            })
            .collect();
        let instantiated = constructors.iter().any(|part| {
            self.incoming(*part, &[tether_model::EdgeKind::Calls])
                .any(|edge| !is_guess(edge.edge.rule) && !constructors.contains(&edge.source))
        });
        if symbol.language == Language::Python && !instantiated {
            causes.push(CompletenessCause::CalledFromOutside {
                count: 1,
                examples: vec![format!(
                    "neither its class {} nor a subclass is instantiated in the project: the code that makes its instances may call it",
                    self.symbol(class).qualified_name
                )],
            });
        }
        causes
    }

    /// The symbol and everything it contains (a class's methods, a type's impls' methods).
    fn subtree(&self, index: SymbolIndex) -> Vec<SymbolIndex> {
        let mut parts = vec![index];
        let mut next = 0;
        while next < parts.len() {
            let children: Vec<SymbolIndex> = self.children(parts[next]).collect();
            parts.extend(children);
            next += 1;
        }
        parts
    }

    /// A type may be used where the graph links nothing: named in an annotation or a
    /// signature, or through what it inherits (`View.as_view()` called on a subclass binds to
    /// the base's method). So a type is at most `possibly_dead`.
    fn unlinked_type_uses_cause(&self, index: SymbolIndex) -> Option<CompletenessCause> {
        let symbol = self.symbol(index);
        symbol.kind.is_type()
        .then(|| CompletenessCause::CalledFromOutside {
            count: 1,
            examples: vec![format!(
                "{} is a type: annotations, signatures and calls of what it inherits may use it, which the graph does not link",
                symbol.qualified_name
            )],
        })
    }

    /// Code outside the repository may use a public name: a Python name without a leading
    /// underscore (nor one on its class) in a package, or a Rust item its modifier does not
    /// keep in its crate, outside a binary's `main.rs` or `src/bin/`.
    fn public_name_cause(&self, index: SymbolIndex) -> Option<CompletenessCause> {
        let symbol = self.symbol(index);
        let public = match symbol.language {
            Language::Python => {
                let folder = symbol.path.rsplit_once('/').map_or("", |(folder, _)| folder);
                let in_package = !folder.is_empty()
                    && self.by_path.contains_key(&format!("{folder}/__init__.py"));
                let module = crate::health::module_of_file(self, &symbol.path)
                    .map(|module| self.symbol(module).qualified_name.as_str())
                    .unwrap_or("");
                let relative = symbol.qualified_name.strip_prefix(module).unwrap_or("");
                in_package && !relative.split('.').any(|segment| segment.starts_with('_'))
            }
            // A crate-local item can be named by its crate only, which the graph sees whole.
            Language::Rust => {
                let file_name = symbol.path.rsplit('/').next().unwrap_or("");
                let in_binary = file_name == "main.rs"
                    || symbol.path.starts_with("src/bin/")
                    || symbol.path.contains("/src/bin/");
                !in_binary && !symbol.visibility.is_crate_local()
            }
        };
        let why = match symbol.visibility {
            tether_model::Visibility::MacroWritten => "is written inside a macro call or under an attribute macro the graph does not expand: the macro may use it",
            _ => "is a public name: code outside the repository may use it",
        };
        public.then(|| CompletenessCause::CalledFromOutside {
            count: 1,
            examples: vec![format!("{} {why}", symbol.qualified_name)],
        })
    }
}
