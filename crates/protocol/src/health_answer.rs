//! `health`'s sections from the query layer, as the wire writes them.

use tether_model::Freshness;
use tether_query::{HealthFindings, HealthSection, Snapshot};

use crate::answers::{completeness_wire, freshness_wire, symbol_ref};
use crate::wire;

pub fn health_answer(
    snapshot: &Snapshot,
    sections: &[HealthSection],
    commits: usize,
    freshness: &Freshness,
) -> wire::HealthAnswer {
    let next = match sections {
        [section] => match &section.next_cursor {
            // The next page of churn ranks the same history only with the same commits.
            Some(cursor) if section.kind == tether_query::HealthKind::Churn => format!(
                "health {{\"kind\": \"churn\", \"commits\": {commits}, \"cursor\": {cursor:?}}} for the next page"
            ),
            Some(cursor) => format!(
                "health {{\"kind\": {:?}, \"cursor\": {cursor:?}}} for the next page",
                section.kind.as_str()
            ),
            None => "blast on a finding's symbol before changing it".to_string(),
        },
        _ => "health {\"kind\": KIND} for one section, paged".to_string(),
    };
    wire::HealthAnswer {
        sections: sections.iter().map(|section| health_section(snapshot, section)).collect(),
        freshness: freshness_wire(freshness),
        next,
    }
}

fn health_section(snapshot: &Snapshot, section: &HealthSection) -> wire::HealthSection {
    let site = |path: &str, line: u32| format!("{path}:{line}");
    let mut wired = wire::HealthSection {
        kind: section.kind.as_str().to_string(),
        total: section.total,
        god_objects: Vec::new(),
        coupling: Vec::new(),
        cycles: Vec::new(),
        churn: Vec::new(),
        change_coupling: Vec::new(),
        change_coupling_total: None,
        commits_counted: None,
        dead_code: Vec::new(),
        next_cursor: section.next_cursor.clone(),
        completeness: completeness_wire(&section.completeness),
        note: section.note.clone(),
    };
    match &section.findings {
        HealthFindings::GodObjects(found) => {
            wired.god_objects = found
                .iter()
                .map(|god| wire::GodObject {
                    symbol: symbol_ref(snapshot, god.index),
                    members: god.members,
                    lines: god.lines,
                    fan_in: god.fan_in,
                    fan_out: god.fan_out,
                    score: god.score,
                    drivers: god
                        .drivers
                        .iter()
                        .map(|driver| {
                            let symbol = snapshot.symbol(driver.index);
                            wire::HeavyMember {
                                qualified_name: symbol.qualified_name.clone(),
                                site: site(&symbol.path, symbol.span.start_line),
                                lines: driver.lines,
                            }
                        })
                        .collect(),
                })
                .collect()
        }
        HealthFindings::Coupling(files) => {
            wired.coupling = files
                .iter()
                .map(|file| wire::FileCoupling {
                    path: file.path.clone(),
                    module: file
                        .module
                        .map(|module| snapshot.symbol(module).qualified_name.clone()),
                    afferent: file.afferent,
                    efferent: file.efferent,
                    instability: file.instability,
                    partners: file
                        .partners
                        .iter()
                        .map(|partner| wire::CouplingPartner {
                            path: partner.path.clone(),
                            outgoing: partner.outgoing,
                            incoming: partner.incoming,
                            mutual: partner.mutual,
                            sites: partner
                                .sites
                                .iter()
                                .map(|(path, line)| site(path, *line))
                                .collect(),
                        })
                        .collect(),
                })
                .collect()
        }
        HealthFindings::Cycles(cycles) => {
            wired.cycles = cycles
                .iter()
                .map(|cycle| wire::Cycle {
                    graph: cycle.graph.as_str().to_string(),
                    files: cycle.files,
                    hops: cycle
                        .hops
                        .iter()
                        .map(|hop| wire::CycleHop {
                            from: hop.from.clone(),
                            to: hop.to.clone(),
                            site: site(&hop.from, hop.line),
                        })
                        .collect(),
                })
                .collect()
        }
        HealthFindings::Churn {
            hotspots,
            change_coupling,
            change_coupling_total,
            commits_counted,
        } => {
            wired.churn = hotspots
                .iter()
                .map(|hotspot| wire::ChurnHotspot {
                    path: hotspot.path.clone(),
                    commits: hotspot.commits,
                    authors: hotspot.authors,
                    lines_added: hotspot.lines_added,
                    lines_deleted: hotspot.lines_deleted,
                    last_changed_unix: hotspot.last_changed,
                    complexity: hotspot.complexity,
                    symbols: hotspot.symbols,
                    call_sites: hotspot.call_sites,
                    lines: hotspot.lines,
                    score: hotspot.score,
                    hottest: hotspot
                        .hottest
                        .iter()
                        .map(|churn| {
                            let symbol = snapshot.symbol(churn.symbol);
                            wire::SymbolChurn {
                                qualified_name: symbol.qualified_name.clone(),
                                site: site(&symbol.path, symbol.span.start_line),
                                commits: churn.commits,
                            }
                        })
                        .collect(),
                })
                .collect();
            wired.change_coupling = change_coupling
                .iter()
                .map(|pair| wire::ChangeCoupling {
                    first: pair.first.clone(),
                    second: pair.second.clone(),
                    together: pair.together,
                    first_commits: pair.first_commits,
                    second_commits: pair.second_commits,
                    degree: pair.degree,
                })
                .collect();
            wired.change_coupling_total = Some(*change_coupling_total);
            wired.commits_counted = Some(*commits_counted);
        }
        HealthFindings::DeadCode(found) => {
            wired.dead_code = found
                .iter()
                .map(|dead| wire::DeadSymbol {
                    symbol: symbol_ref(snapshot, dead.index),
                    verdict: dead.verdict.as_str().to_string(),
                    lines: dead.lines,
                    completeness: completeness_wire(&dead.completeness),
                })
                .collect()
        }
    }
    wired
}
