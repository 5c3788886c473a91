//! `tether health`: where the code base is unhealthy (god objects, coupling, cycles, churn
//! hotspots, dead code), each finding at file:line, and how its answer is printed.

use std::fmt::Write;

use clap::Args;
use tether_protocol::wire::HealthAnswer;
use tether_protocol::{
    HealthParams, PageRequest, Request, DEFAULT_HEALTH_COMMITS, HEALTH_SUMMARY_LIMIT,
    MAX_HEALTH_COMMITS,
};
use tether_query::HealthKind;

use crate::current_folder_paths::folder_from_current_folder;
use crate::query_commands::QueryOptions;

#[derive(Args)]
pub struct HealthArgs {
    /// One section, paged: god_objects, coupling, cycles, churn or dead_code (default: the
    /// worst five of each).
    #[arg(long, value_parser = parse_kind)]
    pub kind: Option<HealthKind>,
    /// Only findings in files under this folder (from the current folder or the repository
    /// root).
    #[arg(long)]
    pub folder: Option<String>,
    /// Churn: how many of the newest commits to read.
    #[arg(long, default_value_t = DEFAULT_HEALTH_COMMITS as u64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HEALTH_COMMITS as u64))]
    pub commits: u64,
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
        commits: args.commits as usize,
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
            + section.churn.len()
            + section.dead_code.len();
        let _ = writeln!(out, "{}: {} found, {shown} shown", section.kind, section.total);
        if let Some(note) = &section.note {
            let _ = writeln!(out, "  note: {note}");
        }
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
        churn_text(out, section);
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

/// Churn's hotspots (each with its hottest symbols) and its change coupling pairs.
fn churn_text(out: &mut String, section: &tether_protocol::wire::HealthSection) {
    if let Some(commits) = section.commits_counted {
        let _ = writeln!(out, "  over {commits} commits that changed source files:");
    }
    for hotspot in &section.churn {
        let _ = writeln!(
            out,
            "  {}  {} commits by {} authors, +{} -{} lines; complexity {} ({} symbols, {} call sites); score {}",
            hotspot.path,
            hotspot.commits,
            hotspot.authors,
            hotspot.lines_added,
            hotspot.lines_deleted,
            hotspot.complexity,
            hotspot.symbols,
            hotspot.call_sites,
            hotspot.score
        );
        for symbol in &hotspot.hottest {
            let _ = writeln!(
                out,
                "      {} commits  {}  {}",
                symbol.commits, symbol.qualified_name, symbol.site
            );
        }
    }
    if let Some(total) = section.change_coupling_total.filter(|total| *total > 0) {
        let _ = writeln!(out, "  change coupling ({total} pairs; changed together):");
        for pair in &section.change_coupling {
            let _ = writeln!(
                out,
                "      {} + {}  {} times ({:.0}% of their commits; {} and {})",
                pair.first,
                pair.second,
                pair.together,
                pair.degree * 100.0,
                pair.first_commits,
                pair.second_commits
            );
        }
    }
}
