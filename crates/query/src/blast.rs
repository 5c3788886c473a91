//! Blast radius: what depends on a symbol or a file, by a reverse walk over CALLS, IMPORTS,
//! INHERITS and IMPLEMENTS, with distance, the path it was reached by, a confidence (the
//! product along the path) and a severity.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use tether_model::{Cancelled, Deadline, DeadlineTicker, EdgeKind};

use crate::hidden_callers::EntryPointCallers;
use crate::page::{Completeness, CompletenessCause, PageRequest};
use crate::runtime_evidence::{FileStates, SubjectEvidence, TestTier};
use crate::snapshot::{Snapshot, SymbolIndex};

/// How far and what to walk.
#[derive(Clone, Debug)]
pub struct BlastOptions {
    pub depth: u32,
    pub page: PageRequest,
    /// The walk stops with [`Cancelled`] once this passes.
    pub deadline: Deadline,
    /// Tests recorded executing the subject are listed too (`tether coverage import`).
    pub evidence: Option<std::sync::Arc<tether_model::RuntimeEvidence>>,
    /// At most this many tests are listed (`tests_total` counts them all).
    pub tests_limit: usize,
}

impl BlastOptions {
    pub const DEFAULT_DEPTH: u32 = 3;
    pub const MAX_DEPTH: u32 = 8;
    pub const DEFAULT_TESTS_LIMIT: usize = 100;
    pub const MAX_TESTS_LIMIT: usize = 10_000;
}

impl Default for BlastOptions {
    fn default() -> BlastOptions {
        BlastOptions {
            depth: BlastOptions::DEFAULT_DEPTH,
            page: PageRequest::default(),
            deadline: Deadline::none(),
            evidence: None,
            tests_limit: BlastOptions::DEFAULT_TESTS_LIMIT,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Severity {
    /// A direct dependent through a confident edge: it breaks if the subject's contract changes.
    Breaks,
    /// Reached indirectly, or through a dynamic, ambiguous, name-only or low-confidence edge.
    Maybe,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Breaks => "breaks",
            Severity::Maybe => "maybe",
        }
    }
}

/// One dependent.
#[derive(Clone, PartialEq, Debug)]
pub struct ImpactedSymbol {
    pub index: SymbolIndex,
    pub distance: u32,
    /// From the subject (first) to this symbol (last).
    pub via: Vec<SymbolIndex>,
    /// The kind of the last edge (how this symbol depends on the previous one).
    pub edge_kind: EdgeKind,
    /// The line of that edge's site in this symbol's file.
    pub site_line: u32,
    pub confidence: f32,
    pub severity: Severity,
}

#[derive(Clone, PartialEq, Debug)]
pub struct BlastAnswer {
    /// The symbols the walk started from (the subject and what it contains).
    pub seeds: Vec<SymbolIndex>,
    pub depth: u32,
    pub total: usize,
    pub breaks: usize,
    pub items: Vec<ImpactedSymbol>,
    pub next_cursor: Option<String>,
    /// Tests reached at any distance (not only within `depth`), ranked by distance then
    /// confidence, then tests only runtime evidence names; not paginated, capped at 100.
    pub tests_affected: Vec<AffectedTest>,
    /// How many tests were reached or recorded in all (`tests_affected` lists the first 100).
    pub tests_total: usize,
    /// The commit the runtime evidence used was recorded at, when there was some.
    pub evidence_commit: Option<String>,
    /// How runtime evidence stands for the subject; `None` when none was imported.
    pub subject_evidence: Option<SubjectEvidence>,
    /// How many listed tests are of the first tier (fresh evidence saw them run the subject).
    pub tests_ran: usize,
    pub completeness: Completeness,
}

/// A test a blast lists, and why.
#[derive(Clone, PartialEq, Debug)]
pub struct AffectedTest {
    pub index: SymbolIndex,
    /// The best path of the graph from the subject to it, when there is one.
    pub static_path: Option<StaticPath>,
    /// Runtime evidence saw it execute the subject: `Some(stale)`, stale when the subject's
    /// file changed since the evidence was recorded.
    pub executed: Option<bool>,
    /// Its tier when fresh evidence for the subject splits the answer (`None` otherwise):
    /// ran (seen executing the subject) or reachable only (may break).
    pub tier: Option<TestTier>,
}

/// How a test is reached through the graph: hops from the subject and the best path's
/// confidence (the product of its edges'; import-time code counts 0.8).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct StaticPath {
    pub distance: u32,
    pub confidence: f32,
}

/// How far up a class hierarchy overridden methods are looked for.
const MAX_BASES_WALKED: usize = 32;

/// Confidence below which a path counts as uncertain.
const CONFIDENT: f32 = 0.8;
/// The confidence of a test listed because importing its module runs the change.
const IMPORT_TIME_CONFIDENCE: f32 = 0.8;

use crate::blast_walk::{Reached, Walk};

impl Snapshot {
    /// The blast radius of a symbol: of its text, so with every other symbol that text
    /// writes (the expansions of one `macro_rules!` body, see [`Snapshot::written_by_same_text`]).
    pub fn blast_symbol(
        &self,
        subject: SymbolIndex,
        options: BlastOptions,
    ) -> Result<BlastAnswer, Cancelled> {
        self.blast_symbols(&self.written_by_same_text(subject), options)
    }

    /// The subject, then the other symbols the same source text defines: a `macro_rules!`
    /// body expanded per invocation writes one method per invocation at the body's lines
    /// (`{impl Integer for i8}::div_floor`, `{impl Integer for i16}::div_floor`), and a change
    /// to that text changes each of them. Same file, lines, kind and name.
    pub fn written_by_same_text(&self, subject: SymbolIndex) -> Vec<SymbolIndex> {
        let symbol = self.symbol(subject);
        let mut written = vec![subject];
        let Some(in_file) = self.by_path.get(&symbol.path) else { return written };
        written.extend(in_file.iter().copied().filter(|other| {
            let other_symbol = self.symbol(*other);
            *other != subject
                && other_symbol.span.start_line == symbol.span.start_line
                && other_symbol.span.end_line == symbol.span.end_line
                && other_symbol.kind == symbol.kind
                && other_symbol.name == symbol.name
        }));
        written
    }

    /// The blast radius of several symbols at once (a diff's changed symbols), each with what
    /// it contains.
    pub fn blast_symbols(
        &self,
        subjects: &[SymbolIndex],
        options: BlastOptions,
    ) -> Result<BlastAnswer, Cancelled> {
        let seeds = self.with_contained(subjects, options.deadline)?;
        self.blast_from(seeds, options)
    }

    /// The blast radius of a file: of everything defined in it.
    pub fn blast_file(
        &self,
        path: &str,
        options: BlastOptions,
    ) -> Option<Result<BlastAnswer, Cancelled>> {
        let symbols = self.by_path.get(path)?;
        Some(self.blast_from(symbols.clone(), options))
    }

    /// The subjects and everything they contain, each once (subjects first, then breadth
    /// first). Each symbol is visited once, so even a CONTAINS cycle in a damaged graph ends.
    fn with_contained(
        &self,
        subjects: &[SymbolIndex],
        deadline: Deadline,
    ) -> Result<Vec<SymbolIndex>, Cancelled> {
        let mut ticker = DeadlineTicker::new(deadline, 1024);
        let mut seen: HashSet<SymbolIndex> = HashSet::default();
        let mut seeds: Vec<SymbolIndex> =
            subjects.iter().copied().filter(|subject| seen.insert(*subject)).collect();
        let mut position = 0;
        while position < seeds.len() {
            ticker.tick()?;
            let current = seeds[position];
            for child in self.children(current) {
                if seen.insert(child) {
                    seeds.push(child);
                }
            }
            position += 1;
        }
        Ok(seeds)
    }

    fn blast_from(
        &self,
        seeds: Vec<SymbolIndex>,
        options: BlastOptions,
    ) -> Result<BlastAnswer, Cancelled> {
        let depth = options.depth.clamp(1, BlastOptions::MAX_DEPTH);
        let walk = self.walk_dependents(&seeds, depth, options.deadline)?;
        let items = self.ranked_items(&walk.reached, depth);
        // Each file's freshness is looked up once for both the subject and its tests.
        let mut file_states = FileStates::default();
        let subject_evidence = options
            .evidence
            .as_ref()
            .map(|evidence| self.subject_evidence(&seeds, evidence, &mut file_states));
        let affected =
            self.affected_tests(&walk, &seeds, options.evidence.as_ref(), &mut file_states);
        let affected = in_tiers(affected, subject_evidence);
        let tests_total = affected.len();
        let tests_ran = affected.iter().filter(|test| test.tier == Some(TestTier::Ran)).count();
        let tests_affected: Vec<AffectedTest> =
            affected.into_iter().take(options.tests_limit).collect();
        let evidence_commit =
            options.evidence.as_ref().and_then(|evidence| evidence.commit.clone());
        let total = items.len();
        let breaks = items.iter().filter(|item| item.severity == Severity::Breaks).count();
        let causes = self.walk_causes(&walk, depth, &seeds);
        let (items, next_cursor) = options.page.apply(items);
        Ok(BlastAnswer {
            seeds,
            depth,
            total,
            breaks,
            items,
            next_cursor,
            tests_affected,
            tests_total,
            evidence_commit,
            subject_evidence,
            tests_ran,
            completeness: Completeness::from_causes(causes),
        })
    }

    /// The dependents within `depth`, most certain first: direct confident ones break, the
    /// rest may.
    fn ranked_items(
        &self,
        reached: &HashMap<SymbolIndex, Reached>,
        depth: u32,
    ) -> Vec<ImpactedSymbol> {
        let mut items: Vec<ImpactedSymbol> = reached
            .iter()
            .filter(|(_, state)| state.distance > 0 && state.distance <= depth)
            .map(|(index, state)| {
                let severity =
                    if state.distance == 1 && !state.uncertain && state.confidence >= CONFIDENT {
                        Severity::Breaks
                    } else {
                        Severity::Maybe
                    };
                ImpactedSymbol {
                    index: *index,
                    distance: state.distance,
                    via: self.path_to(reached, *index),
                    edge_kind: state.edge_kind,
                    site_line: state.site_line,
                    confidence: state.confidence,
                    severity,
                }
            })
            .collect();
        items.sort_by(|a, b| {
            (a.severity, a.distance)
                .cmp(&(b.severity, b.distance))
                .then(b.confidence.total_cmp(&a.confidence))
                .then_with(|| {
                    self.symbol(a.index).qualified_name.cmp(&self.symbol(b.index).qualified_name)
                })
        });
        items
    }

    /// Every test the walk reached (at any distance, the seeds' own tests first), the tests
    /// whose modules run the change
    /// when imported, then the tests runtime evidence saw execute a seed: static ones first
    /// (by distance, then confidence), then the recorded ones, fresh before stale.
    fn affected_tests(
        &self,
        walk: &Walk,
        seeds: &[SymbolIndex],
        evidence: Option<&std::sync::Arc<tether_model::RuntimeEvidence>>,
        file_states: &mut FileStates,
    ) -> Vec<AffectedTest> {
        // Test code reached stands for the test it runs in: a test the runner collects is
        // listed, a function or class written inside one lists that test, and test code in no
        // test (a helper, a test class, a macro of a test module) lists none itself (the tests
        // calling it are reached through it). A test among the seeds (the subject, or what it
        // contains) is the first to run when it changes: listed at distance 0.
        let mut nearest: rustc_hash::FxHashMap<SymbolIndex, (u32, f32)> = Default::default();
        for (index, state) in &walk.reached {
            let Some(test) = self.enclosing_runnable_test(*index) else { continue };
            let found = (state.distance, state.confidence);
            nearest
                .entry(test)
                .and_modify(|best| {
                    if (found.0, -found.1) < (best.0, -best.1) {
                        *best = found;
                    }
                })
                .or_insert(found);
        }
        let mut tests: Vec<(SymbolIndex, u32, f32)> = nearest
            .into_iter()
            .map(|(test, (distance, confidence))| (test, distance, confidence))
            .collect();
        if !walk.import_time.is_empty() {
            let modules: Vec<SymbolIndex> = walk.import_time.keys().copied().collect();
            let nearest = walk.import_time.values().copied().min().unwrap_or(1);
            let listed: HashSet<SymbolIndex> = tests.iter().map(|(test, _, _)| *test).collect();
            let mut added: HashSet<SymbolIndex> = HashSet::default();
            for (test, hops) in self.import_time_tests(&modules) {
                if !listed.contains(&test) && added.insert(test) {
                    tests.push((test, nearest + hops, IMPORT_TIME_CONFIDENCE));
                }
            }
        }
        tests.sort_by(|a, b| {
            a.1.cmp(&b.1)
                .then(b.2.total_cmp(&a.2))
                .then_with(|| self.symbol(a.0).qualified_name.cmp(&self.symbol(b.0).qualified_name))
        });
        let mut affected: Vec<AffectedTest> = tests
            .into_iter()
            .map(|(index, distance, confidence)| AffectedTest {
                index,
                static_path: Some(StaticPath { distance, confidence }),
                executed: None,
                tier: None,
            })
            .collect();
        if let Some(evidence) = evidence {
            let listed: rustc_hash::FxHashMap<SymbolIndex, usize> =
                affected.iter().enumerate().map(|(at, test)| (test.index, at)).collect();
            for (test, stale) in self.tests_executing(seeds, evidence, file_states) {
                match listed.get(&test) {
                    Some(at) => affected[*at].executed = Some(stale),
                    None => affected.push(AffectedTest {
                        index: test,
                        static_path: None,
                        executed: Some(stale),
                        tier: None,
                    }),
                }
            }
        }
        affected.sort_by_key(|test| (test.static_path.is_none(), test.executed == Some(true)));
        affected
    }

    /// Why the walk may have missed dependents: unresolved sites, values and implicit or
    /// outside calls could reach the seeds or anything reached short of the depth limit; then
    /// the uncertain edges walked, the depth limit and the files not parsed.
    fn walk_causes(
        &self,
        walk: &Walk,
        depth: u32,
        seeds: &[SymbolIndex],
    ) -> Vec<CompletenessCause> {
        let frontier: Vec<SymbolIndex> = walk
            .reached
            .iter()
            .filter(|(_, state)| state.distance < depth)
            .map(|(index, _)| *index)
            .filter(|index| {
                let symbol = self.symbol(*index);
                symbol.kind.is_callable()
                    || symbol.kind.is_type()
                    || symbol.kind == tether_model::SymbolKind::Macro
                    || is_script_module(symbol)
            })
            .collect();
        let mut causes = self.unresolved_causes(&frontier);
        causes.sort_by_key(|cause| std::cmp::Reverse(cause.weight()));
        causes.truncate(5);
        causes.extend(self.hidden_caller_causes(&frontier, EntryPointCallers::LeftOut));
        if walk.uncertain_edges > 0 {
            causes.push(CompletenessCause::UncertainEdges { count: walk.uncertain_edges });
        }
        if walk.frontier_with_more > 0 {
            causes.push(CompletenessCause::DepthLimit { depth, count: walk.frontier_with_more });
        }
        if let Some(first) = seeds.first() {
            causes.extend(self.unparsed_files_cause(*first));
        }
        causes
    }

    fn path_to(
        &self,
        reached: &HashMap<SymbolIndex, Reached>,
        end: SymbolIndex,
    ) -> Vec<SymbolIndex> {
        let mut path = vec![end];
        let mut current = end;
        while let Some(previous) = reached.get(&current).and_then(|state| state.previous) {
            path.push(previous);
            current = previous;
            if path.len() > BlastOptions::MAX_DEPTH as usize + 1 {
                break;
            }
        }
        path.reverse();
        path
    }
}

impl Snapshot {
    /// The project methods a method overrides: for Python, those of the same name in its
    /// class's project bases, nearest first (constructors are left out: constructing a base
    /// never runs a subclass's `__init__`); for a method of a Rust impl of a project trait,
    /// the trait's method of that name (a call through it, `T::from_u8(…)` with `T:
    /// FromPrimitive` or a `dyn` receiver, may run this implementation).
    pub(crate) fn overridden_methods(&self, method: SymbolIndex) -> Vec<SymbolIndex> {
        let symbol = self.symbol(method);
        if symbol.language == tether_model::Language::Rust {
            return self.implemented_trait_methods(method);
        }
        if symbol.kind != tether_model::SymbolKind::Method
            || matches!(symbol.name.as_str(), "__init__" | "__new__")
        {
            return Vec::new();
        }
        let Some(class) = symbol.parent.and_then(|parent| self.index_of(parent)) else {
            return Vec::new();
        };
        let mut classes = vec![class];
        let mut overridden = Vec::new();
        let mut position = 0;
        while position < classes.len() && classes.len() < MAX_BASES_WALKED {
            let current = classes[position];
            position += 1;
            for base in self
                .outgoing(current, &[EdgeKind::Inherits])
                .map(|edge| edge.target)
                .collect::<Vec<_>>()
            {
                if classes.contains(&base) || self.symbol(base).kind.is_outside() {
                    continue;
                }
                classes.push(base);
                overridden.extend(self.children(base).filter(|child| {
                    self.symbol(*child).kind == tether_model::SymbolKind::Method
                        && self.symbol(*child).name == symbol.name
                }));
            }
        }
        overridden
    }

    /// The project trait's method a Rust impl method implements (none for an inherent impl or
    /// an outside trait).
    fn implemented_trait_methods(&self, method: SymbolIndex) -> Vec<SymbolIndex> {
        let symbol = self.symbol(method);
        let Some(block) = symbol
            .parent
            .and_then(|parent| self.index_of(parent))
            .filter(|parent| self.symbol(*parent).kind == tether_model::SymbolKind::Impl)
        else {
            return Vec::new();
        };
        let Some(implemented) = self
            .implemented_trait(block)
            .filter(|implemented| !self.symbol(*implemented).kind.is_outside())
        else {
            return Vec::new();
        };
        self.children(implemented)
            .filter(|child| *child != method && self.symbol(*child).name == symbol.name)
            .collect()
    }
}

/// A package's `__main__.py`: what its top level reaches runs as `python -m package`.
fn is_script_module(symbol: &tether_model::Symbol) -> bool {
    symbol.kind == tether_model::SymbolKind::Module
        && symbol.language == tether_model::Language::Python
        && symbol.name == "__main__"
}

/// With fresh evidence for the subject, the tests split in two tiers, each kept in its order:
/// first those fresh evidence saw execute the subject (they break if the change breaks), then
/// the ones only the graph reaches (they may). Otherwise one tier, as listed. No test is ever
/// dropped: the second tier is kept whole.
fn in_tiers(
    mut affected: Vec<AffectedTest>,
    subject_evidence: Option<SubjectEvidence>,
) -> Vec<AffectedTest> {
    if subject_evidence != Some(SubjectEvidence::Fresh) {
        return affected;
    }
    for test in &mut affected {
        test.tier =
            Some(if test.executed == Some(false) { TestTier::Ran } else { TestTier::Reachable });
    }
    // A stable sort: each tier keeps the static ranking (distance, then confidence).
    affected.sort_by_key(|test| test.tier != Some(TestTier::Ran));
    affected
}
