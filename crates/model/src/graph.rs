//! The resolved code graph: symbols, typed edges with confidence, and unresolved call sites.

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::id::SymbolId;
use crate::symbol::{Language, Symbol, SymbolKind};

/// The kind of an edge.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum EdgeKind {
    Contains,
    Calls,
    Imports,
    Inherits,
    Implements,
    /// A function, method, lambda or class used as a value (passed, stored, returned, or
    /// decorated) by the source: whoever receives the value may call it where no call
    /// expression names it.
    References,
}

impl EdgeKind {
    pub const ALL: [EdgeKind; 6] = [
        EdgeKind::Contains,
        EdgeKind::Calls,
        EdgeKind::Imports,
        EdgeKind::Inherits,
        EdgeKind::Implements,
        EdgeKind::References,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Contains => "CONTAINS",
            EdgeKind::Calls => "CALLS",
            EdgeKind::Imports => "IMPORTS",
            EdgeKind::Inherits => "INHERITS",
            EdgeKind::Implements => "IMPLEMENTS",
            EdgeKind::References => "REFERENCES",
        }
    }

    pub fn parse(text: &str) -> Option<EdgeKind> {
        EdgeKind::ALL.into_iter().find(|kind| kind.as_str() == text)
    }
}

/// The rule that bound a reference to its target. Each rule has a fixed confidence.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum ResolutionRule {
    /// Syntactic containment (CONTAINS edges).
    Syntax,
    /// A name defined in the same or an enclosing scope.
    SameScope,
    /// A name bound by an import.
    Import,
    /// A fully qualified path (`crate::a::f`, `pkg.mod.f`).
    QualifiedPath,
    /// `self.m()`, `cls.m()`, `Self::m()`, through the class and its bases.
    SelfMethod,
    /// `Type::assoc()` or `Class.method()` on a named type.
    TypeMember,
    /// `x.m()` where the type of `x` is visible.
    TypedReceiver,
    /// Calling a class, bound to its `__init__` or to the class itself.
    Constructor,
    /// A macro invocation bound to its `macro_rules!`.
    Macro,
    /// A call through a trait object or generic bound, fanned out to every impl.
    DynamicDispatch,
    /// Several candidates remained; each gets an edge with this rule.
    Ambiguous,
    /// Only the name matched; no scope, import or type supported it.
    NameOnly,
    /// A pytest test or fixture asking for a fixture (a parameter, `usefixtures`, `autouse`):
    /// pytest calls the fixture first.
    PytestFixture,
    /// Code outside the project may call it back: a project object handed to an outside call
    /// (its `__call__`), or a method of a project class an outside base may call.
    Callback,
    /// A call through a parameter, bound to what the project's call sites pass for it (or
    /// its default): one of the values that flow there.
    ValueFlow,
}

impl ResolutionRule {
    pub const ALL: [ResolutionRule; 15] = [
        ResolutionRule::Syntax,
        ResolutionRule::SameScope,
        ResolutionRule::Import,
        ResolutionRule::QualifiedPath,
        ResolutionRule::SelfMethod,
        ResolutionRule::TypeMember,
        ResolutionRule::TypedReceiver,
        ResolutionRule::Constructor,
        ResolutionRule::Macro,
        ResolutionRule::DynamicDispatch,
        ResolutionRule::Ambiguous,
        ResolutionRule::NameOnly,
        ResolutionRule::PytestFixture,
        ResolutionRule::Callback,
        ResolutionRule::ValueFlow,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ResolutionRule::Syntax => "syntax",
            ResolutionRule::SameScope => "same_scope",
            ResolutionRule::Import => "import",
            ResolutionRule::QualifiedPath => "qualified_path",
            ResolutionRule::SelfMethod => "self_method",
            ResolutionRule::TypeMember => "type_member",
            ResolutionRule::TypedReceiver => "typed_receiver",
            ResolutionRule::Constructor => "constructor",
            ResolutionRule::Macro => "macro",
            ResolutionRule::DynamicDispatch => "dynamic_dispatch",
            ResolutionRule::Ambiguous => "ambiguous",
            ResolutionRule::NameOnly => "name_only",
            ResolutionRule::PytestFixture => "pytest_fixture",
            ResolutionRule::Callback => "callback",
            ResolutionRule::ValueFlow => "value_flow",
        }
    }

    pub fn parse(text: &str) -> Option<ResolutionRule> {
        ResolutionRule::ALL.into_iter().find(|rule| rule.as_str() == text)
    }

    /// The confidence an edge made by this rule carries.
    pub fn confidence(self) -> f32 {
        match self {
            ResolutionRule::Syntax => 1.0,
            ResolutionRule::SameScope | ResolutionRule::Import | ResolutionRule::QualifiedPath => {
                0.95
            }
            ResolutionRule::SelfMethod
            | ResolutionRule::TypeMember
            | ResolutionRule::Constructor => 0.9,
            ResolutionRule::Macro => 0.9,
            ResolutionRule::TypedReceiver => 0.85,
            ResolutionRule::DynamicDispatch => 0.5,
            ResolutionRule::Ambiguous => 0.4,
            ResolutionRule::NameOnly => 0.2,
            ResolutionRule::PytestFixture => 0.9,
            ResolutionRule::Callback => 0.5,
            ResolutionRule::ValueFlow => 0.7,
        }
    }
}

/// A directed edge. For CALLS and IMPORTS, `line` is the site's line in the source's file.
#[derive(Clone, PartialEq, Debug)]
pub struct Edge {
    pub kind: EdgeKind,
    pub source: SymbolId,
    pub target: SymbolId,
    pub line: u32,
    pub confidence: f32,
    pub rule: ResolutionRule,
}

/// Why a call site could not be bound.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum UnresolvedReason {
    /// No scope, import or project symbol has this name.
    UnknownName,
    /// A method on a receiver whose type is not visible, or a call of such a value
    /// (a parameter, a closure variable, a local assigned from an untyped expression).
    UnknownReceiverType,
    /// The type is known but has no member of this name (perhaps inherited from outside).
    UnknownMember,
    /// An import path that names nothing in the project.
    UnresolvedImport,
    /// The callee is not a name (`f()()`, `table[k]()`).
    ComplexCallee,
    /// No project symbol has the callee's name, so the call cannot target project code
    /// (a method of the standard library or of a dependency on a receiver of unknown type).
    NoProjectSymbolNamed,
    /// A call through a value whose target is not visible: a parameter or local called as a
    /// function (`callback()`), an attribute of unknown type holding one (Python), a call
    /// result or subscript called (`f()()`, `handlers[k]()`). It may call any function,
    /// method or class used as a value anywhere.
    ValueCall,
    /// Not a call: a name used as a value (`view_func=self.send_static_file`) whose target is
    /// not visible, recorded so every project callable of that name counts as escaped. Not
    /// counted among call sites.
    ValueReference,
    /// Not a call the graph can see: the name of a project function or method mentioned in
    /// code the extraction does not analyse (the tokens of a macro whose expansion is not
    /// followed), which may call it there. Every project callable of that name may be called
    /// from the site. Not counted among call sites.
    UnanalysedCode,
}

impl UnresolvedReason {
    pub const ALL: [UnresolvedReason; 9] = [
        UnresolvedReason::UnknownName,
        UnresolvedReason::UnknownReceiverType,
        UnresolvedReason::UnknownMember,
        UnresolvedReason::UnresolvedImport,
        UnresolvedReason::ComplexCallee,
        UnresolvedReason::NoProjectSymbolNamed,
        UnresolvedReason::ValueCall,
        UnresolvedReason::ValueReference,
        UnresolvedReason::UnanalysedCode,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            UnresolvedReason::UnknownName => "unknown_name",
            UnresolvedReason::UnknownReceiverType => "unknown_receiver_type",
            UnresolvedReason::UnknownMember => "unknown_member",
            UnresolvedReason::UnresolvedImport => "unresolved_import",
            UnresolvedReason::ComplexCallee => "complex_callee",
            UnresolvedReason::NoProjectSymbolNamed => "no_project_symbol_named",
            UnresolvedReason::ValueCall => "value_call",
            UnresolvedReason::ValueReference => "value_reference",
            UnresolvedReason::UnanalysedCode => "unanalysed_code",
        }
    }

    /// Whether the record stands for a call site (the others are names the graph could not
    /// follow: a value reference, a mention in unanalysed code).
    pub fn is_call_site(self) -> bool {
        !matches!(self, UnresolvedReason::ValueReference | UnresolvedReason::UnanalysedCode)
    }

    pub fn parse(text: &str) -> Option<UnresolvedReason> {
        UnresolvedReason::ALL.into_iter().find(|reason| reason.as_str() == text)
    }
}

/// A call site that no rule could bind. It stays in the graph: "no callers" is never
/// claimed for a name that such a site could target.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnresolvedCall {
    pub caller: SymbolId,
    /// The callee as written (`self.helper.run`, `make().go`).
    pub callee_text: String,
    /// The last segment of the callee: the name it could target.
    pub callee_name: String,
    pub path: String,
    pub line: u32,
    pub reason: UnresolvedReason,
}

/// How one call site ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum CallOutcome {
    Resolved,
    Ambiguous,
    External,
    Builtin,
    Dynamic,
    NameOnly,
    Unresolved,
}

impl CallOutcome {
    pub const ALL: [CallOutcome; 7] = [
        CallOutcome::Resolved,
        CallOutcome::Ambiguous,
        CallOutcome::External,
        CallOutcome::Builtin,
        CallOutcome::Dynamic,
        CallOutcome::NameOnly,
        CallOutcome::Unresolved,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CallOutcome::Resolved => "resolved",
            CallOutcome::Ambiguous => "ambiguous",
            CallOutcome::External => "external",
            CallOutcome::Builtin => "builtin",
            CallOutcome::Dynamic => "dynamic",
            CallOutcome::NameOnly => "name_only",
            CallOutcome::Unresolved => "unresolved",
        }
    }
}

/// Whether a file made it into the graph.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FileStatus {
    /// Parsed cleanly.
    Parsed,
    /// Parsed, with syntax errors recovered around.
    ParsedWithErrors,
    /// Left out (too large, binary, not UTF-8, unreadable).
    Skipped,
}

impl FileStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            FileStatus::Parsed => "parsed",
            FileStatus::ParsedWithErrors => "parsed_with_errors",
            FileStatus::Skipped => "skipped",
        }
    }

    pub fn parse(text: &str) -> Option<FileStatus> {
        [FileStatus::Parsed, FileStatus::ParsedWithErrors, FileStatus::Skipped]
            .into_iter()
            .find(|status| status.as_str() == text)
    }
}

/// One file the index saw, with the content tag that lets an update skip it when unchanged.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct FileRecord {
    pub path: String,
    pub language: Language,
    pub size_bytes: u64,
    /// A stable hash of the file's bytes.
    pub content_hash: u64,
    pub status: FileStatus,
}

/// The whole resolved graph of a repository.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Graph {
    pub files: Vec<FileRecord>,
    pub symbols: Vec<Symbol>,
    pub edges: Vec<Edge>,
    pub unresolved: Vec<UnresolvedCall>,
    pub diagnostics: Vec<Diagnostic>,
    /// How each call site ended, counted.
    pub call_outcomes: BTreeMap<CallOutcome, u64>,
    /// Why unresolved call sites stayed unresolved, counted (for `--report`).
    pub unresolved_reasons: BTreeMap<UnresolvedReason, u64>,
}

/// What the database records about the index that produced it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct IndexMeta {
    /// The indexed folder, absolute.
    pub root: String,
    /// The commit HEAD pointed at when indexing began; `None` outside git or before the first commit.
    pub head_commit: Option<String>,
    /// The branch HEAD named, if any (`None` when detached).
    pub head_branch: Option<String>,
    /// Seconds since the Unix epoch.
    pub indexed_at_unix: i64,
    pub tether_version: String,
}

/// Counts that summarize a graph.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Census {
    pub files: u64,
    pub files_skipped: u64,
    pub symbols_by_kind: BTreeMap<SymbolKind, u64>,
    pub edges_by_kind: BTreeMap<EdgeKind, u64>,
    pub unresolved_calls: u64,
    pub diagnostics: u64,
}

impl Graph {
    pub fn census(&self) -> Census {
        let mut census = Census {
            files: self.files.len() as u64,
            files_skipped: self
                .files
                .iter()
                .filter(|file| file.status == FileStatus::Skipped)
                .count() as u64,
            unresolved_calls: self
                .unresolved
                .iter()
                .filter(|call| call.reason.is_call_site())
                .count() as u64,
            diagnostics: self.diagnostics.len() as u64,
            ..Census::default()
        };
        for symbol in &self.symbols {
            *census.symbols_by_kind.entry(symbol.kind).or_default() += 1;
        }
        for edge in &self.edges {
            *census.edges_by_kind.entry(edge.kind).or_default() += 1;
        }
        census
    }

    /// The CONTAINS edges (by position in `edges`) that close a cycle, which a correct graph
    /// never has: CONTAINS is a forest (no symbol inside itself). A depth-first search from
    /// each symbol up through its parents, iterative, so any depth of nesting is fine;
    /// removing the edges it returns leaves no cycle.
    pub fn contains_cycle_edges(&self) -> Vec<usize> {
        use std::collections::HashMap;
        let mut parents: HashMap<SymbolId, Vec<(usize, SymbolId)>> = HashMap::new();
        let mut closing = Vec::new();
        for (position, edge) in self.edges.iter().enumerate() {
            if edge.kind == EdgeKind::Contains {
                if edge.source == edge.target {
                    closing.push(position);
                } else {
                    parents.entry(edge.target).or_default().push((position, edge.source));
                }
            }
        }
        // 1: on the search's current path, 2: done.
        let mut colour: HashMap<SymbolId, u8> = HashMap::new();
        let mut starts: Vec<SymbolId> = parents.keys().copied().collect();
        starts.sort_unstable();
        for start in starts {
            if colour.contains_key(&start) {
                continue;
            }
            colour.insert(start, 1);
            let mut path: Vec<(SymbolId, usize)> = vec![(start, 0)];
            while let Some((symbol, next)) = path.last_mut() {
                let up = parents.get(symbol).map(Vec::as_slice).unwrap_or(&[]);
                if let Some((position, parent)) = up.get(*next).copied() {
                    *next += 1;
                    match colour.get(&parent) {
                        None => {
                            colour.insert(parent, 1);
                            path.push((parent, 0));
                        }
                        Some(1) => closing.push(position),
                        Some(_) => {}
                    }
                } else {
                    colour.insert(*symbol, 2);
                    path.pop();
                }
            }
        }
        closing.sort_unstable();
        closing
    }

    /// Symbols in one language.
    pub fn symbols_in(&self, language: Language) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |symbol| symbol.language == language)
    }
}

/// Whether an answer's graph still matches the repository.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Freshness {
    /// The commit the graph was built from (`None` outside git or before the first commit).
    pub indexed_commit: Option<String>,
    /// The commit HEAD points at now.
    pub head_commit: Option<String>,
    pub head_branch: Option<String>,
    /// HEAD moved since the graph was built: the answer may be stale.
    pub head_moved: bool,
    /// Tracked source files with uncommitted changes (`None` when git could not tell).
    pub uncommitted_files: Option<Vec<String>>,
    /// Source files whose content on disk is not what the graph was built from (edited,
    /// added or deleted since; the graph holds the others' uncommitted content too). `None`
    /// when nobody checked (outside a daemon).
    pub files_not_in_graph: Option<Vec<String>>,
    /// The unsaved editor buffers the graph was built with, in place of those files on disk
    /// (a connection's `buffer_update`s); empty for the published graph.
    pub buffers: Vec<BufferVersion>,
}

/// An editor buffer a graph holds instead of the file on disk: its path and the version the
/// client gave it.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct BufferVersion {
    pub path: String,
    pub version: i64,
}

/// The memory graph as stored beside the code graph: entries, the links between them, and
/// their tethers to the symbols of the code graph.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MemoryGraph {
    pub entries: Vec<MemoryEntryRecord>,
    /// (kind: `PARENT`, `SUPERSEDES`, `DEPENDS_ON` or `RELATED`; from id; to id).
    pub links: Vec<(&'static str, String, String)>,
    pub tethers: Vec<TetherRecord>,
    /// The traces, their steps, evidence and links (`.memory/traces/`).
    pub traces: crate::TraceGraph,
}

/// One entry's searchable fields (the body stays in its Markdown file, `path`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MemoryEntryRecord {
    pub id: String,
    pub entry_type: String,
    pub title: String,
    pub status: String,
    pub created_at: String,
    pub path: String,
}

/// An entry tethered to a symbol (`changed`) or to a file's module (`referenced`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TetherRecord {
    pub entry_id: String,
    pub symbol: SymbolId,
    pub kind: &'static str,
    pub pin: String,
}
