//! Queries over an immutable, in-memory snapshot of the code graph.
//!
//! A [`Snapshot`] is built once from a [`Graph`](tether_model::Graph) (CSR adjacency in both
//! directions, symbols by qualified name and by file) and then only read; a new graph means a
//! new snapshot, published whole. Every query returns plain data: ranked, capped and
//! paginated items with file and line, a completeness verdict, and a hint for the next call.
//!
//! This crate deliberately does no IO (freshness against git is the daemon's job), writes no
//! JSON (the protocol crate does), and never guesses: an ambiguous address returns the
//! candidates, and "no dependents" is said only when nothing unresolved could be one.

mod address;
mod blast;
mod blast_walk;
mod health;
mod health_churn;
mod health_coupling;
mod health_cycles;
mod health_dead_code;
mod health_god_objects;
mod hidden_callers;
mod import_time;
mod inherited_tests;
mod lookup;
mod member_addresses;
mod neighbours;
mod page;
mod runnable_tests;
mod runtime_evidence;
mod snapshot;

pub use address::{AddressError, Candidate};
pub use blast::{AffectedTest, BlastAnswer, BlastOptions, ImpactedSymbol, Severity, StaticPath};
pub use health::{
    ChangeCoupling, ChurnHistory, ChurnHotspot, CouplingPartner, Cycle, CycleGraph, CycleHop,
    DeadSymbol, DeadVerdict, FileCoupling, GodObject, HealthFindings, HealthKind, HealthOptions,
    HealthSection, HealthThresholds, HeavyMember, SymbolChurn, CHANGE_COUPLING_LISTED,
};
pub use lookup::{LookupAnswer, LookupItem};
pub use neighbours::{NeighbourAnswer, NeighbourItem, NeighbourKind};
pub use page::{Completeness, CompletenessCause, PageRequest};
pub use runtime_evidence::{SubjectEvidence, TestTier};
pub use snapshot::{Snapshot, SymbolIndex};
