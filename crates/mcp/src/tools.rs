//! The tool catalogue: each MCP tool's daemon method, description for a model, the method's
//! parameters it offers (their kinds, bounds and descriptions are the method's own table in
//! `tether_protocol`; both the JSON input schema and the argument check are made from them),
//! and paging.

use std::sync::Arc;

use crate::tool_arguments::{Parameter, ParameterKind, ParameterSpecification, ToolArguments};
use rmcp::model::{Tool, ToolAnnotations};
use tether_protocol::Method;

/// The rendering budget when a call gives no `budget_tokens`.
pub const DEFAULT_BUDGET_TOKENS: u64 = 6000;

/// The smallest budget accepted: the least page, one item with the answer's subject,
/// completeness and freshness, fits it as text and as JSON.
pub const MINIMUM_BUDGET_TOKENS: u64 = 300;

/// The largest budget accepted.
pub const MAXIMUM_BUDGET_TOKENS: u64 = 1_000_000;

/// One MCP tool and the daemon method it forwards to.
#[derive(Clone, Copy, Debug)]
pub struct ToolSpecification {
    pub name: &'static str,
    /// A short name for people (a client's tool list).
    pub title: &'static str,
    pub daemon_method: Method,
    pub description: &'static str,
    /// The daemon method's parameters the tool offers, by name, in the schema's order.
    pub parameters: &'static [&'static str],
    /// Those of them a call must give.
    pub required: &'static [&'static str],
    /// At least one of these must be given (`symbol` or `file`, say); empty when none is needed.
    pub requires_one_of: &'static [&'static str],
    /// Whether the daemon pages the answer's `items` with `cursor` (`o:<offset>`).
    pub paged_by_cursor: bool,
    pub read_only: bool,
}

const fn presentation(
    name: &'static str,
    kind: ParameterKind,
    description: &'static str,
) -> ParameterSpecification {
    ParameterSpecification { parameter: Parameter { name, kind, description }, required: false }
}

/// The presentation arguments every tool accepts; never forwarded to the daemon.
pub const PRESENTATION_PARAMETERS: &[ParameterSpecification] = &[
    presentation(
        "format",
        ParameterKind::OneOf(&["text", "json"]),
        "Default text (compact lines).",
    ),
    presentation(
        "budget_tokens",
        ParameterKind::Integer {
            minimum: MINIMUM_BUDGET_TOKENS as i64,
            maximum: MAXIMUM_BUDGET_TOKENS as i64,
        },
        "Token limit (default 6000).",
    ),
];

/// Every tool, in the order they are listed.
pub fn tool_catalogue() -> &'static [ToolSpecification] {
    TOOL_CATALOGUE
}

/// The tool with this name.
pub fn tool_named(name: &str) -> Option<&'static ToolSpecification> {
    TOOL_CATALOGUE.iter().find(|tool| tool.name == name)
}

const TOOL_CATALOGUE: &[ToolSpecification] = &[
    ToolSpecification {
        name: "blast",
        title: "What breaks if this changes",
        daemon_method: Method::Blast,
        description: "Blast radius: everything that depends on a symbol (or on every symbol of a file), transitively through CALLS, IMPORTS, INHERITS and IMPLEMENTS. Call it BEFORE editing, renaming or deleting a symbol, to know what may break. Items have distance (hops), severity (breaks: a direct dependent through a confident edge; maybe: indirect or uncertain), confidence and edge; tests_affected lists the tests reached. If completeness is lower_bound, items may be missing (the causes say why): never conclude that nothing depends on it.",
        parameters: &["symbol", "file", "depth", "limit", "cursor"],
        required: &[],
        requires_one_of: &["symbol", "file"],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "callers",
        title: "Who calls this",
        daemon_method: Method::Callers,
        description: "Direct callers of a symbol, each with its call site (file:line), confidence and resolution rule. Use it before changing a signature; blast gives the transitive picture. If completeness is lower_bound, items may be missing (the causes say why): never conclude that nothing calls it.",
        parameters: &["symbol", "limit", "cursor"],
        required: &["symbol"],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "callees",
        title: "What this calls",
        daemon_method: Method::Callees,
        description: "Direct callees of a symbol: what it calls, with the call site, confidence and rule. Use it to understand what a function relies on. If completeness is lower_bound, items may be missing (the causes say why).",
        parameters: &["symbol", "limit", "cursor"],
        required: &["symbol"],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "imports",
        title: "Module imports, both ways",
        daemon_method: Method::Imports,
        description: "Imports of a module both ways: what it imports (direction imports) and who imports it (direction imported_by). Use it for module-level dependencies. If completeness is lower_bound, items may be missing (the causes say why): never conclude that nothing imports it.",
        parameters: &["symbol", "limit", "cursor"],
        required: &["symbol"],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "lookup",
        title: "Find symbols by name",
        daemon_method: Method::Lookup,
        description: "Find symbols by name (exact names first, then qualified-name suffixes, prefixes, substrings) to get the ids the other tools take. Without query: the repository's census (files, symbols, edges by kind).",
        parameters: &["query", "folder", "limit", "cursor"],
        required: &[],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "changes",
        title: "What a diff touches and breaks",
        daemon_method: Method::Changes,
        description: "The symbols a diff touches (added, modified, deleted, or comments only, which seed no blast; with lines changed) and the blast radius of them all. Use it before committing or reviewing to see what the working-tree changes, a branch (base) or a commit range may break. If completeness is lower_bound, items may be missing (the causes say why): never conclude that nothing depends on the changes.",
        parameters: &["scope", "base", "range", "include_whitespace", "depth", "limit", "cursor"],
        required: &[],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "ownership",
        title: "Who wrote this, whom to ask",
        daemon_method: Method::Ownership,
        description: "Who owns a symbol's lines (or a whole file): git blame aggregated by author through .mailmap, ranked by lines, with share, commits and each owner's latest commit. Use it to know whom to ask or to request review from.",
        parameters: &["symbol", "path", "exclude_authors", "follow_moves", "ignore_revs_file"],
        required: &[],
        requires_one_of: &["symbol", "path"],
        paged_by_cursor: false,
        read_only: true,
    },
    ToolSpecification {
        name: "context",
        title: "Why this exists",
        daemon_method: Method::Context,
        description: "Why a symbol or file exists: the memory entries (plans, decisions, experiments, notes) tethered to it, oldest first, with staleness (has the code changed since) and whether each needs a recheck; tip is the one to read first. Use it before changing code whose intent you do not know.",
        parameters: &["symbol", "path"],
        required: &[],
        requires_one_of: &["symbol", "path"],
        paged_by_cursor: false,
        read_only: true,
    },
    ToolSpecification {
        name: "search_memory",
        title: "Search decisions and notes",
        daemon_method: Method::SearchMemory,
        description: "Search memory entries (plans, decisions, experiments, notes) by words in title, tags and body, optionally only those tethered to a symbol or path: find earlier decisions before proposing a design.",
        parameters: &["query", "type", "status", "symbol", "path", "limit", "cursor"],
        required: &["query"],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "health",
        title: "Where the code is unhealthy",
        daemon_method: Method::Health,
        description: "Where the code is unhealthy, worst first, at file:line: god_objects (big types many files use), coupling (files tied to many others), cycles (import/call cycles, every hop), churn (complex files changed in many recent commits; files changed together), dead_code (dead only when nothing could call it unseen; else test_only or possibly_dead with causes). Use it before planning a refactor or deleting code. Without kind: the worst 5 of each.",
        parameters: &["kind", "folder", "commits", "limit", "cursor"],
        required: &[],
        requires_one_of: &[],
        paged_by_cursor: true,
        read_only: true,
    },
    ToolSpecification {
        name: "record",
        title: "Record a decision or note",
        daemon_method: Method::Record,
        description: "Write a memory entry (a markdown file under .memory/, committed to git) tethered to the code it is about: pass files to commit them with it, or commit to pin an existing commit. Use it to record a decision, plan or finding that a later reader of the code should know.",
        parameters: &["type", "title", "body", "parent", "files", "commit", "tags", "supersedes", "depends_on", "dry_run"],
        required: &["type", "title"],
        requires_one_of: &[],
        paged_by_cursor: false,
        read_only: false,
    },
    ToolSpecification {
        name: "record_trace",
        title: "Record what was seen and done",
        daemon_method: Method::RecordTrace,
        description: "Record traces (situation, rationale, action, outcome: one line each) about a narrow subject, with evidence, committed under .memory/traces/ as one commit. Use it after observing a failure, testing a hypothesis or making a fix, so the next session can pick the thread up. A newer state finding with evidence may supersede older ones of its subject; pass an operation_id so a retry returns the first ids.",
        parameters: &["traces", "dry_run"],
        required: &["traces"],
        requires_one_of: &[],
        paged_by_cursor: false,
        read_only: false,
    },
    ToolSpecification {
        name: "recall",
        title: "What earlier sessions found",
        daemon_method: Method::Recall,
        description: "Traces bearing on words or anchors (paths, symbols, subjects, trace or run ids), with what they depend on, supersede or resolve; current findings first. Call it before working on a failure or a file, to pick up where earlier sessions stopped. If completeness is incomplete, read_next names what was left out.",
        parameters: &["query", "anchors", "max_nodes", "max_depth", "token_budget"],
        required: &[],
        requires_one_of: &["query", "anchors"],
        paged_by_cursor: false,
        read_only: true,
    },
];

impl ToolSpecification {
    /// Its arguments: the parameters and the presentation ones, for the schema and the check.
    pub fn arguments(&self) -> ToolArguments<'static> {
        let parameters = self
            .parameters
            .iter()
            .filter_map(|name| self.daemon_method.parameter(name))
            .map(|parameter| ParameterSpecification {
                parameter: *parameter,
                required: self.required.contains(&parameter.name),
            })
            .collect();
        ToolArguments {
            tool_name: self.name,
            method: self.daemon_method,
            parameters,
            presentation: PRESENTATION_PARAMETERS,
            requires_one_of: self.requires_one_of,
        }
    }

    /// The rmcp tool definition.
    pub fn to_mcp_tool(&self) -> Tool {
        // The title is the tool's own; the write hints only mean something for a tool that
        // writes (MCP: "meaningful only when readOnlyHint == false"). How paging works is
        // said once, in the server's instructions.
        let annotations = match self.read_only {
            true => ToolAnnotations::new().read_only(true),
            false => ToolAnnotations::new().read_only(false).destructive(false).idempotent(false),
        }
        .open_world(false);
        let tool =
            Tool::new(self.name, self.description, Arc::new(self.arguments().input_schema()))
                .with_title(self.title)
                .with_annotations(annotations);
        match self.output_schema() {
            Some(schema) => tool.with_raw_output_schema(Arc::new(schema)),
            None => tool,
        }
    }

    /// The schema of the answer's `structuredContent`, for tools whose daemon answers are
    /// typed (`protocol::wire`); generated from the same types the daemon writes, compact
    /// (`output_schemas`).
    pub fn output_schema(&self) -> Option<tether_protocol::wire::AnswerSchema> {
        tether_protocol::wire::answer_schema(self.daemon_method)
            .map(crate::output_schemas::compact_output_schema)
    }
}
