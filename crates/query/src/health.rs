//! Code health over the graph's structure: which types do too much (`god_objects`), which
//! files are knotted to which (`coupling`), which modules depend on each other in a
//! circle (`cycles`), and, with the change history the daemon reads, which complex files
//! change the most (`churn`). Each section is ranked, capped and paged like every answer, locates
//! each finding at file:line, and says how sure it is: edges the graph lacks (call sites
//! whose target is unknown, files not parsed) may hide coupling, so a section is `exact`
//! only when nothing could.
//!
//! Thresholds are data (`queries/health_thresholds.txt`), not code. Edges bound by name
//! alone or among several candidates (`name_only`, `ambiguous`) are left out of every count,
//! as they may link the wrong function; they are counted in the completeness instead.
//!
//! Dead code (`dead_code`) is said `dead` only when each symbol's callers' completeness is
//! exact (`health_dead_code`).
//!
//! Deliberately not here: reading history (churn is handed the history; git is the daemon's).

use rustc_hash::FxHashSet as HashSet;

use tether_model::{ChangeHistory, EdgeKind, ResolutionRule, UnresolvedReason};

use crate::page::{Completeness, CompletenessCause, PageRequest, MAX_CAUSE_EXAMPLES};
use crate::snapshot::{IndexedEdge, Snapshot, SymbolIndex};

pub use crate::health_churn::{ChangeCoupling, ChurnFindings, ChurnHotspot, SymbolChurn};
pub use crate::health_coupling::{CouplingPartner, FileCoupling};
pub use crate::health_cycles::{Cycle, CycleGraph, CycleHop};
pub use crate::health_dead_code::{DeadSymbol, DeadVerdict};
pub use crate::health_god_objects::{GodObject, HeavyMember};

/// A section of the health answer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum HealthKind {
    GodObjects,
    Coupling,
    Cycles,
    Churn,
    DeadCode,
}

impl HealthKind {
    pub const ALL: [HealthKind; 5] = [
        HealthKind::GodObjects,
        HealthKind::Coupling,
        HealthKind::Cycles,
        HealthKind::Churn,
        HealthKind::DeadCode,
    ];

    /// Their names, in the order of [`HealthKind::ALL`] (the order the enum declares them).
    pub const NAMES: [&'static str; 5] =
        ["god_objects", "coupling", "cycles", "churn", "dead_code"];

    pub fn as_str(self) -> &'static str {
        HealthKind::NAMES[self as usize]
    }

    pub fn parse(text: &str) -> Option<HealthKind> {
        HealthKind::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// What part of the graph a health section looks at, and which page of it.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct HealthOptions {
    /// Only findings in files under this repository-relative folder (a cycle when one of its
    /// files is); `None` or `.` for the whole repository.
    pub folder: Option<String>,
    pub page: PageRequest,
    /// The runtime evidence in force: a symbol it saw run is never dead.
    pub evidence: Option<std::sync::Arc<tether_model::RuntimeEvidence>>,
    /// What the project's packaging declares as entry points, as dotted names (`pkg.cli.main`
    /// for `pkg.cli:main`; a module for a plugin naming one): never dead.
    pub entry_points: Vec<String>,
    /// Packaging files that could not be read, said in the dead code section's note.
    pub entry_point_problems: Vec<String>,
}

/// The findings of one section, ranked worst first.
#[derive(Clone, PartialEq, Debug)]
pub enum HealthFindings {
    GodObjects(Vec<GodObject>),
    Coupling(Vec<FileCoupling>),
    Cycles(Vec<Cycle>),
    /// A page of hotspots; the change coupling pairs are the first few, counted.
    Churn {
        hotspots: Vec<ChurnHotspot>,
        change_coupling: Vec<ChangeCoupling>,
        change_coupling_total: usize,
        /// Commits of the history read that changed a file the graph holds.
        commits_counted: usize,
    },
    DeadCode(Vec<DeadSymbol>),
}

#[derive(Clone, PartialEq, Debug)]
pub struct HealthSection {
    pub kind: HealthKind,
    /// Findings in the whole section (all pages).
    pub total: usize,
    pub findings: HealthFindings,
    pub next_cursor: Option<String>,
    pub completeness: Completeness,
    /// What the reader should know about how the section was made (churn without history).
    pub note: Option<String>,
}

/// The history churn reads, as the daemon could read it.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ChurnHistory<'h> {
    /// The newest commits of HEAD's history (those by bots left out), `asked` of them wanted
    /// and `read` read: fewer when the history is shorter, or when reading it was
    /// `cut_short` by the request's time.
    Read {
        history: &'h ChangeHistory,
        read: usize,
        asked: usize,
        cut_short: bool,
        note: Option<&'h str>,
    },
    /// No history to read (not a git repository, no commit): why.
    Unavailable { note: &'h str },
}

/// At most this many change coupling pairs are listed (the section pages its hotspots).
pub const CHANGE_COUPLING_LISTED: usize = 10;

/// The limits above which a finding is listed, read from `queries/health_thresholds.txt`.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HealthThresholds {
    pub god_object_members: usize,
    pub god_object_lines: u32,
    pub god_object_modules: usize,
    pub churn_min_commits: usize,
    pub change_coupling_min_commits: usize,
    pub change_coupling_min_percent: usize,
    pub change_coupling_max_files: usize,
}

impl HealthThresholds {
    /// The thresholds the data file sets (read once).
    pub fn from_data_file() -> HealthThresholds {
        static THRESHOLDS: std::sync::OnceLock<HealthThresholds> = std::sync::OnceLock::new();
        *THRESHOLDS.get_or_init(HealthThresholds::parse_data_file)
    }

    fn parse_data_file() -> HealthThresholds {
        let text = include_str!("../../../queries/health_thresholds.txt");
        let value = |key: &str| -> usize {
            text.lines()
                .map(str::trim)
                .filter(|line| !line.starts_with('#'))
                .find_map(|line| line.strip_prefix(key)?.trim().parse().ok())
                .unwrap_or_else(|| panic!("queries/health_thresholds.txt sets {key}"))
        };
        HealthThresholds {
            god_object_members: value("god_object_members"),
            god_object_lines: value("god_object_lines") as u32,
            god_object_modules: value("god_object_modules"),
            churn_min_commits: value("churn_min_commits"),
            change_coupling_min_commits: value("change_coupling_min_commits"),
            change_coupling_min_percent: value("change_coupling_min_percent"),
            change_coupling_max_files: value("change_coupling_max_files"),
        }
    }
}

impl Snapshot {
    /// The sections of a health answer: one kind's, or every kind's (`None`). What may hide
    /// an edge is the same for every structural section, so it is found once.
    pub fn health(
        &self,
        kind: Option<HealthKind>,
        options: &HealthOptions,
        history: ChurnHistory,
    ) -> Vec<HealthSection> {
        let kinds = match kind {
            Some(kind) => vec![kind],
            None => HealthKind::ALL.to_vec(),
        };
        let completeness = self.health_completeness(options);
        kinds
            .into_iter()
            .map(|kind| self.health_section(kind, options, history, completeness.clone()))
            .collect()
    }

    /// The churn section: hotspots paged, the first change coupling pairs, and whether the
    /// history read is all that was asked for.
    fn churn_section(&self, options: &HealthOptions, history: ChurnHistory) -> HealthSection {
        let thresholds = HealthThresholds::from_data_file();
        let (findings, note, causes) = match history {
            ChurnHistory::Unavailable { note } => {
                (ChurnFindings::default(), Some(note.to_string()), Vec::new())
            }
            ChurnHistory::Read { history, read, asked, cut_short, note } => {
                let causes = match cut_short {
                    true => vec![CompletenessCause::PartialHistory { read, asked }],
                    false => Vec::new(),
                };
                (self.churn(history, options, &thresholds), note.map(str::to_string), causes)
            }
        };
        let total = findings.hotspots.len();
        let (hotspots, next_cursor) = options.page.apply(findings.hotspots);
        let change_coupling_total = findings.change_coupling.len();
        let mut change_coupling = findings.change_coupling;
        change_coupling.truncate(CHANGE_COUPLING_LISTED);
        HealthSection {
            kind: HealthKind::Churn,
            total,
            findings: HealthFindings::Churn {
                hotspots,
                change_coupling,
                change_coupling_total,
                commits_counted: findings.commits_counted,
            },
            next_cursor,
            completeness: Completeness::from_causes(causes),
            note,
        }
    }

    fn health_section(
        &self,
        kind: HealthKind,
        options: &HealthOptions,
        history: ChurnHistory,
        completeness: Completeness,
    ) -> HealthSection {
        let thresholds = HealthThresholds::from_data_file();
        let mut note = None;
        let (total, findings, next_cursor) = match kind {
            HealthKind::GodObjects => {
                let all = self.god_objects(options, &thresholds);
                let total = all.len();
                let (page, next) = options.page.apply(all);
                (total, HealthFindings::GodObjects(page), next)
            }
            HealthKind::Coupling => {
                let all = self.file_coupling(options);
                let total = all.len();
                let (page, next) = options.page.apply(all);
                (total, HealthFindings::Coupling(page), next)
            }
            HealthKind::Cycles => {
                let all = self.cycles(options);
                let total = all.len();
                let (page, next) = options.page.apply(all);
                (total, HealthFindings::Cycles(page), next)
            }
            HealthKind::DeadCode => {
                let (all, left_out) = self.dead_code(options);
                let mut said = Vec::new();
                if left_out.seen_running > 0 {
                    said.push(format!(
                        "{} unused-looking definitions left out: runtime evidence saw them run",
                        left_out.seen_running
                    ));
                }
                if left_out.entry_points > 0 {
                    said.push(format!(
                        "{} unused-looking definitions left out: the packaging declares them entry points",
                        left_out.entry_points
                    ));
                }
                said.extend(options.entry_point_problems.iter().cloned());
                if !said.is_empty() {
                    note = Some(said.join("; "));
                }
                let total = all.len();
                let (page, next) = options.page.apply(all);
                (total, HealthFindings::DeadCode(page), next)
            }
            HealthKind::Churn => return self.churn_section(options, history),
        };
        HealthSection { kind, total, findings, next_cursor, completeness, note }
    }

    /// Whether a repository-relative path is in the folder a health answer looks at.
    pub(crate) fn in_health_folder(path: &str, options: &HealthOptions) -> bool {
        match options.folder.as_deref().map(|folder| folder.trim_end_matches('/')) {
            None | Some("") | Some(".") => !path.is_empty(),
            Some(folder) => path.strip_prefix(folder).is_some_and(|rest| rest.starts_with('/')),
        }
    }

    /// The edges health counts: between two project symbols in different files, neither of
    /// them test code (tests are meant to depend on what they test), of a kind that makes
    /// one depend on the other, and not bound by name alone.
    pub(crate) fn dependency_edges(&self) -> impl Iterator<Item = IndexedEdge<'_>> + '_ {
        (0..self.graph.edges.len() as u32)
            .filter_map(|index| self.known_edge(index))
            .filter(|edge| DEPENDENCY_KINDS.contains(&edge.edge.kind) && !is_guess(edge.edge.rule))
            .filter(|edge| {
                let (source, target) = (self.symbol(edge.source), self.symbol(edge.target));
                !source.kind.is_outside()
                    && !target.kind.is_outside()
                    && !self.is_test_code(edge.source)
                    && !self.is_test_code(edge.target)
                    && !source.path.is_empty()
                    && source.path != target.path
            })
    }

    /// Test code: a test, or anything in a test file (a Python test module and its helpers,
    /// a Rust file of a `tests/` folder or a `tests.rs`; the test frameworks' data files say
    /// which).
    pub(crate) fn is_test_code(&self, index: SymbolIndex) -> bool {
        let symbol = self.symbol(index);
        symbol.is_test
            || (!symbol.path.is_empty()
                && tether_model::TestFramework::of(symbol.language).is_test_file(&symbol.path))
    }

    /// What may hide coupling from a health answer: call sites in its folder whose target is
    /// unknown but may be project code, guessed edges left out, files not parsed.
    fn health_completeness(&self, options: &HealthOptions) -> Completeness {
        let mut causes = Vec::new();
        let hiding: Vec<_> = self
            .unresolved()
            .iter()
            .filter(|site| Snapshot::in_health_folder(&site.path, options))
            .filter(|site| {
                matches!(
                    site.reason,
                    UnresolvedReason::UnknownReceiverType
                        | UnresolvedReason::UnknownMember
                        | UnresolvedReason::ComplexCallee
                        | UnresolvedReason::ValueCall
                        | UnresolvedReason::UnanalysedCode
                )
            })
            .collect();
        if !hiding.is_empty() {
            causes.push(CompletenessCause::UnresolvedSites {
                count: hiding.len(),
                examples: hiding
                    .iter()
                    .take(MAX_CAUSE_EXAMPLES)
                    .map(|site| (site.path.clone(), site.line, site.callee_text.clone()))
                    .collect(),
            });
        }
        let guessed = (0..self.graph.edges.len() as u32)
            .filter_map(|index| self.known_edge(index))
            .filter(|edge| is_guess(edge.edge.rule))
            .filter(|edge| Snapshot::in_health_folder(&self.symbol(edge.source).path, options))
            .count();
        if guessed > 0 {
            causes.push(CompletenessCause::UncertainEdges { count: guessed });
        }
        let unparsed: HashSet<&String> = self
            .files_with_problems
            .iter()
            .filter(|path| self.skipped_files.contains(*path))
            .filter(|path| Snapshot::in_health_folder(path, options))
            .collect();
        if !unparsed.is_empty() {
            let mut examples: Vec<String> = unparsed.iter().map(|path| path.to_string()).collect();
            examples.sort();
            examples.truncate(MAX_CAUSE_EXAMPLES);
            causes.push(CompletenessCause::UnparsedFiles { count: unparsed.len(), examples });
        }
        Completeness::from_causes(causes)
    }
}

/// The edges by which one file depends on another.
pub(crate) const DEPENDENCY_KINDS: [EdgeKind; 5] = [
    EdgeKind::Calls,
    EdgeKind::Imports,
    EdgeKind::Inherits,
    EdgeKind::Implements,
    EdgeKind::References,
];

/// Edges that may link the wrong symbol: left out of health's counts.
pub(crate) fn is_guess(rule: ResolutionRule) -> bool {
    matches!(rule, ResolutionRule::NameOnly | ResolutionRule::Ambiguous)
}

/// The module a finding's file is: its qualified name, for the reader.
pub(crate) fn module_of_file(snapshot: &Snapshot, path: &str) -> Option<SymbolIndex> {
    snapshot.symbols_in_file(path).iter().copied().find(|index| {
        let symbol = snapshot.symbol(*index);
        symbol.kind == tether_model::SymbolKind::Module && symbol.parent.is_none()
    })
}
