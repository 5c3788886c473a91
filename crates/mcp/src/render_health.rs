//! The text of `health` for a model: one section asked for is the main list (one finding per
//! line, paged by cursor); every section at once shows each one's worst few as lists cut to
//! fit, each with its own completeness, and says which `kind` pages the rest.

use tether_protocol::wire::{
    ChangeCoupling, ChurnHotspot, Cycle, DeadSymbol, FileCoupling, GodObject, HealthAnswer,
    HealthSection,
};

use crate::budget::{CuttableList, TextPart, TextSections};
use crate::render_lines::{cause_line, completeness_verdict_line, freshness_line, symbol_line};

/// The sections of a `health` answer's text.
pub(crate) fn health_sections(sections: &mut TextSections, health: &HealthAnswer) {
    match health.sections.as_slice() {
        [section] => {
            sections.line(format!("health {}: {} found", section.kind, section.total));
            section_notes(sections, section);
            sections.items.extend(finding_lines(section));
            sections.parts.push(TextPart::Items);
            change_coupling_list(sections, section);
            section_completeness(sections, section);
        }
        several => {
            sections.line(format!(
                "health: the worst of each section; call with kind (one of {}) to page one",
                several.iter().map(|section| section.kind.as_str()).collect::<Vec<_>>().join(", ")
            ));
            for section in several {
                let lines = finding_lines(section);
                let title =
                    format!("{}: {} found, {} shown", section.kind, section.total, lines.len());
                // The findings are the section's first page: all of them are counted, and a
                // cut is said in the list's own note.
                section_notes(sections, section);
                sections.list(CuttableList {
                    title: Some(title),
                    total: lines.len(),
                    elements: lines,
                    noun: "findings",
                });
                change_coupling_list(sections, section);
                section_completeness(sections, section);
            }
        }
    }
    sections.context_line(freshness_line(&health.freshness));
    sections.next = Some(health.next.clone());
}

/// What churn says of the history it read.
fn section_notes(sections: &mut TextSections, section: &HealthSection) {
    if let Some(commits) = section.commits_counted {
        sections
            .line(format!("{}: over {commits} commits that changed source files", section.kind));
    }
    if let Some(note) = &section.note {
        sections.line(format!("{} note: {note}", section.kind));
    }
}

/// Churn's change coupling pairs, cut to fit and counted.
fn change_coupling_list(sections: &mut TextSections, section: &HealthSection) {
    let Some(total) = section.change_coupling_total.filter(|total| *total > 0) else { return };
    sections.list(CuttableList {
        title: Some(format!("change coupling ({total} pairs of files changed together):")),
        elements: section.change_coupling.iter().map(change_coupling_line).collect(),
        total,
        noun: "pairs",
    });
}

/// A section's completeness: its verdict line, then its causes.
fn section_completeness(sections: &mut TextSections, section: &HealthSection) {
    let verdict = completeness_verdict_line(&section.completeness);
    sections.context_line(format!("{} {verdict}", section.kind));
    let causes: Vec<String> =
        section.completeness.causes.iter().flatten().map(cause_line).collect();
    let total = causes.len();
    sections.context_list(CuttableList { title: None, elements: causes, total, noun: "causes" });
}

/// One line per finding of the section's list.
fn finding_lines(section: &HealthSection) -> Vec<String> {
    let god_objects = section.god_objects.iter().map(god_object_line);
    let coupling = section.coupling.iter().map(coupling_line);
    let cycles = section.cycles.iter().map(cycle_line);
    let churn = section.churn.iter().map(hotspot_line);
    let dead_code = section.dead_code.iter().map(dead_symbol_line);
    god_objects.chain(coupling).chain(cycles).chain(churn).chain(dead_code).collect()
}

fn god_object_line(god: &GodObject) -> String {
    let drivers: Vec<String> = god
        .drivers
        .iter()
        .map(|driver| {
            format!("{} {} lines at {}", driver.qualified_name, driver.lines, driver.site)
        })
        .collect();
    format!(
        "{} · {} members, {} lines · {} files depend on it, it on {} · score {} · heaviest: {} · id {}",
        symbol_line(&god.symbol),
        god.members,
        god.lines,
        god.fan_in,
        god.fan_out,
        god.score,
        drivers.join("; "),
        god.symbol.id
    )
}

fn coupling_line(file: &FileCoupling) -> String {
    let partners: Vec<String> = file
        .partners
        .iter()
        .map(|partner| {
            let mutual = if partner.mutual { " mutual" } else { "" };
            format!(
                "{} ({} out, {} in{mutual}, at {})",
                partner.path,
                partner.outgoing,
                partner.incoming,
                partner.sites.join(", ")
            )
        })
        .collect();
    format!(
        "{} · depended on by {} files, depends on {} · instability {:.2} · most coupled: {}",
        file.path,
        file.afferent,
        file.efferent,
        file.instability,
        partners.join("; ")
    )
}

fn cycle_line(cycle: &Cycle) -> String {
    let hops: Vec<String> =
        cycle.hops.iter().map(|hop| format!("{} → {} at {}", hop.from, hop.to, hop.site)).collect();
    format!("{} cycle among {} files: {}", cycle.graph, cycle.files, hops.join("; "))
}

fn hotspot_line(hotspot: &ChurnHotspot) -> String {
    let hottest: Vec<String> = hotspot
        .hottest
        .iter()
        .map(|symbol| {
            format!("{} {} commits at {}", symbol.qualified_name, symbol.commits, symbol.site)
        })
        .collect();
    format!(
        "{} · {} commits by {} authors (+{} -{}) · complexity {} ({} symbols, {} call sites) · score {} · hottest: {}",
        hotspot.path,
        hotspot.commits,
        hotspot.authors,
        hotspot.lines_added,
        hotspot.lines_deleted,
        hotspot.complexity,
        hotspot.symbols,
        hotspot.call_sites,
        hotspot.score,
        hottest.join("; ")
    )
}

fn change_coupling_line(pair: &ChangeCoupling) -> String {
    format!(
        "  {} + {} · {} times together ({:.0}% of their {} and {} commits)",
        pair.first,
        pair.second,
        pair.together,
        pair.degree * 100.0,
        pair.first_commits,
        pair.second_commits
    )
}

fn dead_symbol_line(dead: &DeadSymbol) -> String {
    let mut line = format!(
        "{} {} · {} lines · id {}",
        dead.verdict,
        symbol_line(&dead.symbol),
        dead.lines,
        dead.symbol.id
    );
    let causes: Vec<String> = dead
        .completeness
        .causes
        .iter()
        .flatten()
        .map(|cause| cause_line(cause).trim_start().trim_start_matches("cause: ").to_string())
        .collect();
    if !causes.is_empty() {
        line.push_str(&format!(" · may be used unseen: {}", causes.join("; ")));
    }
    line
}
