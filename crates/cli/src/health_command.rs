//! `tether health`: where the code base is unhealthy (god objects, coupling, cycles), each
//! finding at file:line, and how its answer is printed.

use std::fmt::Write;

use clap::Args;
use tether_protocol::wire::HealthAnswer;
use tether_protocol::{HealthParams, PageRequest, Request, HEALTH_SUMMARY_LIMIT};
use tether_query::HealthKind;

use crate::current_folder_paths::folder_from_current_folder;
use crate::query_commands::QueryOptions;

#[derive(Args)]
pub struct HealthArgs {
    /// One section, paged: god_objects, coupling, cycles or dead_code (default: the worst
    /// five of each).
    #[arg(long, value_parser = parse_kind)]
    pub kind: Option<HealthKind>,
    /// Only findings in files under this folder (from the current folder or the repository
    /// root).
    #[arg(long)]
    pub folder: Option<String>,
    #[command(flatten)]
    pub options: QueryOptions,
}

fn parse_kind(text: &str) -> Result<HealthKind, String> {
    HealthKind::parse(text).ok_or_else(|| {
        let kinds: Vec<&str> = HealthKind::ALL.iter().map(|kind| kind.as_str()).collect();
        format!("kinds: {}", kinds.join(", "))
    })
}

pub fn run_health(args: HealthArgs) -> anyhow::Result<()> {
    // Every section at once shows each one's worst few, unless a limit is asked for.
    let limit = match (args.options.limit, args.kind) {
        (Some(limit), _) => Some(limit as usize),
        (None, None) => Some(HEALTH_SUMMARY_LIMIT),
        (None, Some(_)) => crate::configured_defaults::limit(None).map(|limit| limit as usize),
    };
    let page = PageRequest::new(args.options.cursor.as_deref(), limit)
        .map_err(crate::exit_codes::usage)?;
    let root = args.options.repository().root();
    let request = Request::Health(HealthParams {
        kind: args.kind,
        folder: args.folder.as_deref().map(|folder| folder_from_current_folder(folder, &root)),
        page,
    });
    crate::query_answers::run_query(request, &args.options)
}

/// The sections, each with its findings and its completeness.
pub(crate) fn health_text(out: &mut String, health: &HealthAnswer, why: bool) {
    for section in &health.sections {
        let shown = section.god_objects.len()
            + section.coupling.len()
            + section.cycles.len()
            + section.dead_code.len();
        let _ = writeln!(out, "{}: {} found, {shown} shown", section.kind, section.total);
        for god in &section.god_objects {
            let _ = writeln!(
                out,
                "  {}  {}:{}  {} members, {} lines, {} files depend on it, it on {} (score {})",
                god.symbol.qualified_name,
                god.symbol.path,
                god.symbol.line,
                god.members,
                god.lines,
                god.fan_in,
                god.fan_out,
                god.score
            );
            for driver in &god.drivers {
                let _ = writeln!(
                    out,
                    "      {} lines  {}  {}",
                    driver.lines, driver.qualified_name, driver.site
                );
            }
        }
        for file in &section.coupling {
            let _ = writeln!(
                out,
                "  {}  depended on by {} files, depends on {} (instability {:.2})",
                file.path, file.afferent, file.efferent, file.instability
            );
            for partner in &file.partners {
                let mutual = if partner.mutual { ", mutual" } else { "" };
                let _ = writeln!(
                    out,
                    "      {}  {} out, {} in{mutual}  at {}",
                    partner.path,
                    partner.outgoing,
                    partner.incoming,
                    partner.sites.join(", ")
                );
            }
        }
        for cycle in &section.cycles {
            let _ = writeln!(out, "  {} cycle among {} files:", cycle.graph, cycle.files);
            for hop in &cycle.hops {
                let _ = writeln!(out, "      {} -> {}  at {}", hop.from, hop.to, hop.site);
            }
        }
        for dead in &section.dead_code {
            let _ = writeln!(
                out,
                "  {:<13} {}  {}:{}  {} lines",
                dead.verdict,
                dead.symbol.qualified_name,
                dead.symbol.path,
                dead.symbol.line,
                dead.lines
            );
            if dead.verdict != "dead" && why {
                let mut causes = String::new();
                crate::answer_text::write_completeness(&mut causes, &dead.completeness, why);
                for line in causes.lines().skip(1) {
                    let _ = writeln!(out, "    {line}");
                }
            } else if let Some(causes) =
                dead.completeness.causes.as_ref().filter(|causes| !causes.is_empty())
            {
                let noun = if causes.len() == 1 { "cause" } else { "causes" };
                let _ = writeln!(
                    out,
                    "      {} {noun} may hide a user (--why lists them)",
                    causes.len()
                );
            }
        }
        if let Some(cursor) = &section.next_cursor {
            let _ = writeln!(out, "  more: --kind {} --cursor {cursor}", section.kind);
        }
        crate::answer_text::write_completeness(out, &section.completeness, why);
    }
}
