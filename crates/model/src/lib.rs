//! tether's data model: the plain values every other crate passes around.
//!
//! This crate holds symbols, spans, stable ids, the per-file facts that extraction
//! produces, the resolved edges of the code graph and diagnostics.
//!
//! It deliberately does not do IO, parsing of code, resolution or serialization: no file is
//! read, no tree-sitter type appears, and no JSON is written here (that happens only in the
//! protocol crate). Everything is `Clone + Debug + PartialEq` plain data. The one reader here
//! is of tether's own data, compiled in: the test framework's conventions
//! (`test_framework.rs`), which extraction, resolution and queries all consult. The one helper
//! is for locks whose holder panicked (`lock_poisoning.rs`), shared by every crate that locks.

mod change_history;
mod deadline;
mod diagnostic;
mod edge_sites;
mod facts;
mod graph;
mod id;
mod lock_poisoning;
mod ownership;
mod runtime_evidence;
mod runtime_evidence_merge;
mod symbol;
mod test_framework;
mod trace_records;
mod visibility;

pub use change_history::{ChangeHistory, ChangedCommit, ChangedFile, Hunk};
pub use deadline::{Cancelled, Deadline, DeadlineTicker};
pub use diagnostic::{Diagnostic, DiagnosticKind};
pub use edge_sites::{misplaced_edge_sites, MisplacedSite};
pub use facts::{
    ArgumentForm, AttributeParameter, Binding, BindingValue, Branch, CallArgument, CallSite,
    CalleeExpr, DerivedTraits, ElementStore, FieldOwner, FieldStore, FileFacts, FixtureName,
    FixtureRequest, ImplBlock, Import, ImportStyle, MacroInvocation, Parameter, ParameterKind,
    Receiver, SupertypeRef,
};
pub use graph::{
    BufferVersion, CallOutcome, Census, Edge, EdgeKind, FileRecord, FileStatus, Freshness, Graph,
    IndexMeta, MemoryEntryRecord, MemoryGraph, ResolutionRule, TetherRecord, UnresolvedCall,
    UnresolvedReason,
};
pub use id::{stable_hash, SymbolId};
pub use lock_poisoning::IgnoringPoison;
pub use ownership::{Owner, Ownership};
pub use runtime_evidence::{EvidenceFile, RecordedSymbol, RuntimeEvidence};
pub use runtime_evidence_merge::{context_without_phase, MergeCounts};
pub use symbol::{Language, Span, Symbol, SymbolKind};
pub use test_framework::{FileNamePattern, TestFramework};
pub use trace_records::{
    CitationRecord, EvidenceRecord, TraceAboutRecord, TraceGraph, TraceRecord,
};
pub use visibility::Visibility;
