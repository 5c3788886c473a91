//! The traces' tables as CSV files for `COPY … FROM` (issue 44; the model is
//! `tether_model::TraceGraph`): `Trace`, `TraceStep` (four per trace, `<trace id>#<step>`),
//! `Evidence`, then the rel tables, each row kept only when both ends were written.

use std::collections::HashSet;
use std::path::Path;

use tether_model::{Graph, MemoryGraph, SymbolId};

use crate::csv_writer::{CsvWriter, Field};
use crate::table_csv::TableCsv;
use crate::StoreError;

/// The steps of a trace in order, with the rel table joining each to the next.
const STEPS: [(&str, Option<&str>); 4] = [
    ("situation", Some("LED_TO")),
    ("rationale", Some("JUSTIFIED")),
    ("action", Some("PRODUCED")),
    ("outcome", None),
];

fn step_id(trace_id: &str, step: &str) -> String {
    format!("{trace_id}#{step}")
}

pub(crate) fn write_trace_csvs(
    graph: &Graph,
    memory: &MemoryGraph,
    directory: &Path,
) -> Result<Vec<TableCsv>, StoreError> {
    let traces = &memory.traces;
    let mut files = Vec::new();
    let mut written: HashSet<&str> = HashSet::new();
    let mut writer = CsvWriter::create(
        &directory.join("traces.csv"),
        &[
            "id",
            "subject",
            "finding_type",
            "observed_at",
            "recorded_at",
            "path",
            "run_id",
            "agent_id",
            "subagent_id",
            "operation_id",
        ],
    )?;
    for trace in &traces.traces {
        if !written.insert(trace.id.as_str()) {
            continue;
        }
        writer.row(&[
            Field::Text(&trace.id),
            Field::Text(&trace.subject),
            Field::Text(&trace.finding_type),
            Field::Text(&trace.observed_at),
            Field::Text(&trace.recorded_at),
            Field::Text(&trace.path),
            Field::Text(&trace.run_id),
            Field::Text(&trace.agent_id),
            Field::Text(&trace.subagent_id),
            Field::Text(&trace.operation_id),
        ])?;
    }
    files.push(TableCsv::finish("Trace", "Trace", writer)?);
    let recorded: Vec<_> =
        traces.traces.iter().filter(|trace| written.contains(trace.id.as_str())).collect();
    let mut writer =
        CsvWriter::create(&directory.join("trace-steps.csv"), &["id", "kind", "text"])?;
    let mut seen = HashSet::new();
    for trace in recorded.iter().filter(|trace| seen.insert(trace.id.as_str())) {
        for (step, text) in [
            ("situation", &trace.situation),
            ("rationale", &trace.rationale),
            ("action", &trace.action),
            ("outcome", &trace.outcome),
        ] {
            writer.row(&[
                Field::Text(&step_id(&trace.id, step)),
                Field::Text(step),
                Field::Text(text),
            ])?;
        }
    }
    files.push(TableCsv::finish("TraceStep", "TraceStep", writer)?);
    let mut sources: HashSet<&str> = HashSet::new();
    let mut writer = CsvWriter::create(
        &directory.join("evidence.csv"),
        &["source_id", "locator", "revision", "observed_at"],
    )?;
    for evidence in &traces.evidence {
        if sources.insert(evidence.source_id.as_str()) {
            writer.row(&[
                Field::Text(&evidence.source_id),
                Field::Text(&evidence.locator),
                Field::Text(&evidence.revision),
                Field::Text(&evidence.observed_at),
            ])?;
        }
    }
    files.push(TableCsv::finish("Evidence", "Evidence", writer)?);

    // The steps of each trace, and each step to the next.
    let mut has_step = CsvWriter::create(&directory.join("trace-has-step.csv"), &["from", "to"])?;
    let mut chains: Vec<(&str, CsvWriter)> = Vec::new();
    for (_, link) in STEPS.iter().filter_map(|(step, link)| link.map(|link| (step, link))) {
        let file = directory.join(format!("trace-{}.csv", link.to_lowercase()));
        chains.push((link, CsvWriter::create(&file, &["from", "to"])?));
    }
    let mut seen = HashSet::new();
    for trace in recorded.iter().filter(|trace| seen.insert(trace.id.as_str())) {
        for (position, (step, link)) in STEPS.iter().enumerate() {
            has_step.row(&[Field::Text(&trace.id), Field::Text(&step_id(&trace.id, step))])?;
            if let Some(link) = link {
                let next = STEPS[position + 1].0;
                let (_, writer) =
                    chains.iter_mut().find(|(name, _)| name == link).expect("a writer per link");
                writer.row(&[
                    Field::Text(&step_id(&trace.id, step)),
                    Field::Text(&step_id(&trace.id, next)),
                ])?;
            }
        }
    }
    files.push(TableCsv::finish("HAS_STEP", "HAS_STEP", has_step)?);
    for (link, writer) in chains {
        files.push(TableCsv::finish(link, link, writer)?);
    }

    let entries: HashSet<&str> = memory.entries.iter().map(|entry| entry.id.as_str()).collect();
    for kind in ["TRACE_SUPERSEDES", "RESOLVES", "TRACE_DEPENDS_ON", "TRACE_DEPENDS_ON_ENTRY"] {
        let targets = if kind == "TRACE_DEPENDS_ON_ENTRY" { &entries } else { &written };
        let mut writer = CsvWriter::create(
            &directory.join(format!("trace-link-{}.csv", kind.to_lowercase())),
            &["from", "to"],
        )?;
        let mut seen = HashSet::new();
        for (_, from, to) in traces.links.iter().filter(|(link, from, to)| {
            *link == kind && written.contains(from.as_str()) && targets.contains(to.as_str())
        }) {
            if seen.insert((from, to)) {
                writer.row(&[Field::Text(from), Field::Text(to)])?;
            }
        }
        files.push(TableCsv::finish(kind, kind, writer)?);
    }
    let mut writer =
        CsvWriter::create(&directory.join("trace-cites.csv"), &["from", "to", "summary"])?;
    let mut seen = HashSet::new();
    for citation in traces.citations.iter().filter(|citation| {
        written.contains(citation.trace_id.as_str())
            && sources.contains(citation.source_id.as_str())
    }) {
        if seen.insert((&citation.trace_id, &citation.source_id)) {
            writer.row(&[
                Field::Text(&citation.trace_id),
                Field::Text(&citation.source_id),
                Field::Text(&citation.summary),
            ])?;
        }
    }
    files.push(TableCsv::finish("CITES", "CITES", writer)?);
    let symbols: HashSet<SymbolId> = graph.symbols.iter().map(|symbol| symbol.id).collect();
    let mut writer =
        CsvWriter::create(&directory.join("trace-about.csv"), &["from", "to", "artifact"])?;
    let mut seen = HashSet::new();
    for about in traces.about.iter().filter(|about| {
        written.contains(about.trace_id.as_str()) && symbols.contains(&about.symbol)
    }) {
        if seen.insert((&about.trace_id, about.symbol)) {
            writer.row(&[
                Field::Text(&about.trace_id),
                Field::Integer(about.symbol.as_i64()),
                Field::Text(&about.artifact),
            ])?;
        }
    }
    files.push(TableCsv::finish("ABOUT", "ABOUT", writer)?);
    Ok(files)
}
