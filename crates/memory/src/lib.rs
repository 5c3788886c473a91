//! Memory entries: the Markdown files under `.memory/` that record plans, decisions,
//! experiments and notes next to the code, and what tether computes from them.
//!
//! An entry is one file with a small YAML-like front matter (see [`parse_entry`] for the
//! accepted format) followed by a free Markdown body. This crate models entries
//! ([`Entry`]), parses them with exact 1-based line numbers in every problem
//! ([`parse_entry`], [`load_entries`]), writes them back in a canonical form
//! ([`render_entry`], which [`parse_entry`] reads back to the same [`Entry`]), helps the
//! `record` command name and check new entries ([`entry_file_path`], [`slugify_title`],
//! [`unique_id`], [`validate_new_entry`]), and ranks them ([`needs_recheck`], [`tip`],
//! [`search`]).
//!
//! It deliberately does not do IO: it does not read or write files, walk `.memory/`, talk
//! to git (pins are plain strings; whether a pinned commit or file exists is the caller's
//! business), or touch the database. Callers hand it file texts and get values back.
//! It also does not depend on a YAML library: the front matter is a restricted format
//! (scalars, lists of scalars, and the `pins` list of maps) parsed by hand so that every
//! problem points at the right line.

mod entry;
mod front_matter;
mod load;
mod parse;
mod plan_brief;
mod plan_completeness;
mod problem;
mod recheck;
mod record;
mod render;
mod research_tree;
mod scalar;
mod search;
mod timestamp;
mod tip;
mod trace;
mod trace_file;
mod trace_operations;
mod trace_recall;
mod trace_recheck;
mod trace_rules;

pub use entry::{Entry, EntryStatus, EntryType, Pin};
pub use load::{load_entries, MemoryLoad};
pub use parse::parse_entry;
pub use plan_brief::{brief, open_phases, subtree_signature, Brief, MOST_CENTRAL};
pub use plan_completeness::{
    completeness_weights, mean_of_leaves, phase_signals, plan_completeness, CompletenessWeights,
    PhaseSignals,
};
pub use problem::{EntryProblem, Severity};
pub use recheck::{needs_recheck, RecheckVerdict};
pub use record::{
    entry_file_path, slugify_title, unique_id, validate_id, validate_new_entry, InvalidId,
};
pub use render::render_entry;
pub use research_tree::{check_new_parent, research_tree, PlanLevel, ResearchTree};
pub use search::{search, SearchFilters};
pub use timestamp::{parse_timestamp, TimestampKey};
pub use tip::{tip, TetherKind};
pub use trace::{trace_file_path, EvidenceRef, FindingType, Trace, TraceSteps, TRACE_FOLDER};
pub use trace_file::{parse_trace, render_trace};
pub use trace_operations::{operation_replay, OperationReplay};
pub use trace_recall::{recall, Recall, RecallReason, RecallRequest, RecalledTrace};
pub use trace_recheck::{trace_recheck, PremiseChange, TraceRecheck, UnknownReason};
pub use trace_rules::{check_new_traces, TraceRefusal, MAX_SUBJECT_CHARS, MAX_TRACE_TEXT_CHARS};

#[cfg(test)]
mod test_support;
