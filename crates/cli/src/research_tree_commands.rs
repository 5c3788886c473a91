//! `tether tree`, `tether open-phases` and `tether brief` (issue 45): the research tree, its
//! open phases and a subtree's brief, and how their answers print.

use std::fmt::Write;

use clap::Args;
use tether_protocol::wire::{BriefAnswer, BriefEntry, OpenPhasesAnswer, TreeAnswer, TreeNode};
use tether_protocol::{PageRequest, Request, TreeParams};

use crate::query_commands::QueryOptions;

#[derive(Args)]
pub struct TreeArgs {
    /// Only the plan nodes: the project, subprojects and phases.
    #[arg(long)]
    pub plans_only: bool,
    /// Discarded entries too.
    #[arg(long)]
    pub include_discarded: bool,
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct OpenPhasesArgs {
    #[command(flatten)]
    pub options: QueryOptions,
}

#[derive(Args)]
pub struct BriefArgs {
    /// The entry whose subtree to summarise.
    pub id: String,
    #[command(flatten)]
    pub options: QueryOptions,
}

fn page(options: &QueryOptions) -> anyhow::Result<PageRequest> {
    let limit = crate::configured_defaults::limit(options.limit).map(|limit| limit as usize);
    PageRequest::new(options.cursor.as_deref(), limit).map_err(crate::exit_codes::usage)
}

pub fn run_tree(args: TreeArgs) -> anyhow::Result<()> {
    let request = Request::Tree(TreeParams {
        plans_only: args.plans_only,
        include_discarded: args.include_discarded,
        page: page(&args.options)?,
    });
    crate::query_answers::run_query(request, &args.options)
}

pub fn run_open_phases(args: OpenPhasesArgs) -> anyhow::Result<()> {
    let request = Request::OpenPhases { page: page(&args.options)? };
    crate::query_answers::run_query(request, &args.options)
}

pub fn run_brief(args: BriefArgs) -> anyhow::Result<()> {
    crate::query_answers::run_query(Request::Brief { id: args.id.clone() }, &args.options)
}

fn node_line(out: &mut String, node: &TreeNode, indent: usize) {
    let place = match (&node.level, node.completeness) {
        (Some(level), Some(score)) => format!(" ({level}, {score:.2} complete)"),
        _ => String::new(),
    };
    let status = if node.status == "active" { String::new() } else { format!(", {}", node.status) };
    let _ = writeln!(
        out,
        "{:indent$}{} [{}{status}] {}{place}  {}",
        "",
        node.id,
        node.entry_type,
        node.title,
        node.file,
        indent = indent
    );
}

pub(crate) fn tree_text(out: &mut String, tree: &TreeAnswer) {
    let project = tree.project.as_deref().unwrap_or("none");
    let _ = writeln!(
        out,
        "research tree: {} entries shown of {}; project {project}",
        tree.items.len(),
        tree.total
    );
    for node in &tree.items {
        node_line(out, node, 2 + 2 * node.depth);
    }
    for problem in &tree.problems {
        let _ = writeln!(out, "  problem: {problem}");
    }
}

pub(crate) fn open_phases_text(out: &mut String, open: &OpenPhasesAnswer) {
    let _ = writeln!(out, "open phases: {}, least complete first", open.total);
    for node in &open.items {
        node_line(out, node, 2);
    }
}

/// `1 entry`, `3 entries`.
fn plural(count: usize, one: &str, many: &str) -> String {
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

fn entry_text(entry: &BriefEntry) -> String {
    format!("{} [{}, {}] {}", entry.id, entry.entry_type, entry.status, entry.title)
}

pub(crate) fn brief_text(out: &mut String, brief: &BriefAnswer) {
    let place = match (&brief.level, brief.completeness) {
        (Some(level), Some(score)) => format!("; {level}, {score:.2} complete"),
        _ => String::new(),
    };
    let cached = if brief.cached { " (cached)" } else { "" };
    let _ = writeln!(out, "brief of {}{place}{cached}", entry_text(&brief.entry));
    let types: Vec<String> =
        brief.types_below.iter().map(|(kind, count)| format!("{kind} {count}")).collect();
    let _ = writeln!(
        out,
        "  {} below ({}); {}; last activity {}",
        plural(brief.size, "entry", "entries"),
        if types.is_empty() { "none".to_string() } else { types.join(", ") },
        plural(brief.open_threads, "open thread", "open threads"),
        brief.last_activity.as_deref().unwrap_or("unknown")
    );
    if let Some(checkpoint) = &brief.concluding_checkpoint {
        let _ = writeln!(out, "  concluded by {}", entry_text(checkpoint));
    }
    for child in &brief.children {
        let _ = writeln!(out, "  child {}", entry_text(child));
    }
    for central in &brief.central {
        let _ = writeln!(out, "  central {}", entry_text(central));
    }
}
