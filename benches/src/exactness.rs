//! How many `callers` answers are `exact`, over every project function, method and class of a
//! repository, and which causes make the others lower bounds (a symbol counts once per cause
//! kind it has). An honest tool says `exact` where nothing can hide; a useful one still says
//! it often.

use std::collections::BTreeMap;
use std::path::Path;

use tether_index::{build_graph, IndexOptions};
use tether_query::{Completeness, CompletenessCause, NeighbourKind, PageRequest, Snapshot};

pub fn run(path: &Path) -> anyhow::Result<()> {
    let graph = build_graph(&IndexOptions::new(path), &|_, _| {})?.graph;
    let snapshot = Snapshot::new(graph, tether_index::index_meta(path));
    let mut total = 0usize;
    let mut exact = 0usize;
    let mut with_callers = (0usize, 0usize);
    let mut causes: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut samples: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    let verbose = std::env::var_os("TETHER_BENCH_VERBOSE").is_some();
    let mut tests = 0usize;
    for (index, symbol) in snapshot.symbols().iter().enumerate() {
        if symbol.kind.is_outside()
            || !(symbol.kind.is_callable() || symbol.kind == tether_model::SymbolKind::Class)
            || symbol.kind == tether_model::SymbolKind::Lambda
        {
            continue;
        }
        // Nobody asks who calls a test; the test runner does.
        if symbol.is_test {
            tests += 1;
            continue;
        }
        total += 1;
        let answer =
            snapshot.neighbours(index as u32, NeighbourKind::Callers, PageRequest::default());
        let has_callers = answer.total > 0;
        with_callers.0 += usize::from(has_callers);
        match &answer.completeness {
            Completeness::Exact => {
                exact += 1;
                with_callers.1 += usize::from(has_callers);
            }
            Completeness::LowerBound(found) => {
                let mut kinds: Vec<&'static str> = found.iter().map(cause_kind).collect();
                kinds.sort_unstable();
                kinds.dedup();
                for kind in kinds {
                    *causes.entry(kind).or_default() += 1;
                }
                if verbose {
                    for cause in found {
                        let sample = samples.entry(cause_kind(cause)).or_default();
                        if sample.len() < 12 && (index * 7919) % 5 == 0 {
                            sample.push(format!("{}: {cause:?}", symbol.qualified_name));
                        }
                    }
                }
            }
        }
    }
    let share = |part: usize, whole: usize| {
        if whole == 0 {
            0.0
        } else {
            part as f64 * 100.0 / whole as f64
        }
    };
    println!(
        "symbols       {total} project functions, methods and classes ({tests} tests left out)"
    );
    println!(
        "exact         {exact} ({:.1} %); of the {} with callers, {} ({:.1} %)",
        share(exact, total),
        with_callers.0,
        with_callers.1,
        share(with_callers.1, with_callers.0)
    );
    for (kind, count) in causes {
        println!("  {kind:<24} {count} ({:.1} %)", share(count, total));
    }
    for (kind, sample) in samples {
        println!("{kind}:");
        for line in sample {
            println!("    {}", line.chars().take(300).collect::<String>());
        }
    }
    Ok(())
}

fn cause_kind(cause: &CompletenessCause) -> &'static str {
    cause.name()
}
