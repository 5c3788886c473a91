//! Query answers as JSON: every answer carries its items (qualified name, kind, file, line),
//! the total, a cursor for the rest, completeness, freshness, and a hint for the next call.

use tether_model::Freshness;

use crate::wire;
use tether_query::{
    AddressError, BlastAnswer, Candidate, Completeness, CompletenessCause, LookupAnswer,
    NeighbourAnswer, NeighbourKind, Snapshot, SymbolIndex,
};

/// A confidence with three decimals (an `f32` printed as-is shows float noise).
fn rounded(confidence: f32) -> f64 {
    (f64::from(confidence) * 1000.0).round() / 1000.0
}

/// A symbol as every answer names it.
pub fn symbol_ref(snapshot: &Snapshot, index: SymbolIndex) -> wire::SymbolRef {
    let symbol = snapshot.symbol(index);
    wire::SymbolRef {
        id: symbol.id.to_string(),
        qualified_name: symbol.qualified_name.clone(),
        // A stub is listed as what it is: a signature of the definition of its name.
        kind: if symbol.is_overload_stub { "overload" } else { symbol.kind.as_str() }.to_string(),
        path: symbol.path.clone(),
        line: symbol.span.start_line,
        end_line: symbol.span.end_line,
        is_test: symbol.is_test,
    }
}
pub fn freshness_wire(freshness: &Freshness) -> wire::Freshness {
    wire::Freshness {
        indexed_commit: freshness.indexed_commit.clone(),
        head_commit: freshness.head_commit.clone(),
        head_branch: freshness.head_branch.clone(),
        head_moved: freshness.head_moved,
        uncommitted_files: freshness.uncommitted_files.clone(),
        files_not_in_graph: freshness.files_not_in_graph.clone(),
        // A change is not in the graph yet: HEAD moved, or a file on disk differs from the
        // graph's (without that check, any uncommitted file may be one).
        stale: freshness.head_moved
            || match &freshness.files_not_in_graph {
                Some(files) => !files.is_empty(),
                None => freshness.uncommitted_files.as_ref().is_some_and(|files| !files.is_empty()),
            },
        buffers: open_buffers_wire(&freshness.buffers),
    }
}

/// Editor buffers as the wire lists them (`freshness.buffers`, `buffer_update`'s answer).
pub fn open_buffers_wire(buffers: &[tether_model::BufferVersion]) -> Vec<wire::OpenBuffer> {
    buffers
        .iter()
        .map(|buffer| wire::OpenBuffer { path: buffer.path.clone(), version: buffer.version })
        .collect()
}

pub fn completeness_wire(completeness: &Completeness) -> wire::Completeness {
    match completeness {
        Completeness::Exact => wire::Completeness { status: "exact".into(), causes: None },
        Completeness::LowerBound(causes) => wire::Completeness {
            status: "lower_bound".into(),
            causes: Some(causes.iter().map(cause_wire).collect()),
        },
    }
}

fn site_examples(examples: &[(String, u32, String)]) -> Vec<wire::SiteExample> {
    examples
        .iter()
        .map(|(path, line, text)| wire::SiteExample {
            site: format!("{path}:{line}"),
            callee: text.clone(),
        })
        .collect()
}

fn cause_wire(cause: &CompletenessCause) -> wire::CompletenessCause {
    use wire::CompletenessCause as Wire;
    match cause {
        CompletenessCause::UnresolvedCallSites { name, count, examples } => {
            Wire::UnresolvedCallSites {
                name: name.clone(),
                count: *count,
                examples: site_examples(examples),
            }
        }
        CompletenessCause::UnanalysedCode { name, count, examples } => Wire::UnanalysedCode {
            name: name.clone(),
            count: *count,
            examples: site_examples(examples),
        },
        CompletenessCause::UnresolvedSites { count, examples } => {
            Wire::UnresolvedSites { count: *count, examples: site_examples(examples) }
        }
        CompletenessCause::UncertainEdges { count } => Wire::UncertainEdges { count: *count },
        CompletenessCause::UnparsedFiles { count, examples } => {
            Wire::UnparsedFiles { count: *count, examples: examples.clone() }
        }
        CompletenessCause::EscapedValue { count, escaped, escapes, examples } => {
            Wire::EscapedValue {
                count: *count,
                escaped: *escaped,
                escapes: escapes
                    .iter()
                    .map(|(path, line, text)| wire::EscapeExample {
                        site: format!("{path}:{line}"),
                        how: text.clone(),
                    })
                    .collect(),
                examples: site_examples(examples),
            }
        }
        CompletenessCause::ImplicitInvocation { count, examples } => {
            Wire::ImplicitInvocation { count: *count, examples: examples.clone() }
        }
        CompletenessCause::CalledFromOutside { count, examples } => {
            Wire::CalledFromOutside { count: *count, examples: examples.clone() }
        }
        CompletenessCause::Overrides { count, examples } => {
            Wire::Overrides { count: *count, examples: site_examples(examples) }
        }
        CompletenessCause::DepthLimit { depth, count } => {
            Wire::DepthLimit { depth: *depth, count: *count }
        }
        CompletenessCause::DirtyFiles { count, examples } => {
            Wire::DirtyFiles { count: *count, examples: examples.clone() }
        }
        CompletenessCause::PartialHistory { read, asked } => {
            Wire::PartialHistory { read: *read, asked: *asked }
        }
    }
}

fn address_candidate(candidate: &Candidate) -> wire::AddressCandidate {
    wire::AddressCandidate {
        id: candidate.id.to_string(),
        qualified_name: candidate.qualified_name.clone(),
        kind: candidate.kind.as_str().to_string(),
        path: candidate.path.clone(),
        line: candidate.line,
    }
}

/// An addressing error's message and `data`: the candidates to choose from.
pub fn address_error_data(error: &AddressError) -> (String, wire::AddressErrorData) {
    match error {
        AddressError::NotFound { address, similar } => (
            format!(
                "no symbol matches {address:?}; try a qualified name, a unique suffix, path:line or an id{}",
                if similar.is_empty() { "" } else { " (similar names are listed)" }
            ),
            wire::AddressErrorData {
                kind: "not_found".to_string(),
                address: address.clone(),
                similar: Some(similar.iter().map(address_candidate).collect()),
                candidates: None,
            },
        ),
        AddressError::Ambiguous { address, candidates } => (
            format!("{address:?} matches {} symbols; call again with one of these ids or qualified names", candidates.len()),
            wire::AddressErrorData {
                kind: "ambiguous".to_string(),
                address: address.clone(),
                similar: None,
                candidates: Some(candidates.iter().map(address_candidate).collect()),
            },
        ),
    }
}

pub fn neighbours_answer(
    snapshot: &Snapshot,
    answer: &NeighbourAnswer,
    freshness: &Freshness,
) -> wire::NeighboursAnswer {
    let subject = &snapshot.symbol(answer.subject).qualified_name;
    let method = match answer.kind {
        NeighbourKind::Callers => "callers",
        NeighbourKind::Callees => "callees",
        NeighbourKind::Imports => "imports",
    };
    let next = match (&answer.next_cursor, answer.kind) {
        (Some(cursor), _) => format!(
            "{method} {{\"symbol\": {subject:?}, \"cursor\": {cursor:?}}} for the next page"
        ),
        (None, NeighbourKind::Callers) => format!(
            "blast {{\"symbol\": {subject:?}}} for everything that depends on it, transitively"
        ),
        (None, NeighbourKind::Callees) => {
            format!("callers {{\"symbol\": {subject:?}}} for the other direction")
        }
        (None, NeighbourKind::Imports) => {
            format!("blast {{\"symbol\": {subject:?}}} for what depends on it")
        }
    };
    wire::NeighboursAnswer {
        subject: symbol_ref(snapshot, answer.subject),
        total: answer.total,
        items: answer
            .items
            .iter()
            .map(|item| wire::NeighbourItem {
                symbol: symbol_ref(snapshot, item.index),
                direction: item.direction.to_string(),
                site: format!("{}:{}", item.site_path, item.site_line),
                confidence: rounded(item.confidence),
                rule: item.rule.as_str().to_string(),
            })
            .collect(),
        next_cursor: answer.next_cursor.clone(),
        completeness: completeness_wire(&answer.completeness),
        freshness: freshness_wire(freshness),
        next,
    }
}

pub fn blast_answer(
    snapshot: &Snapshot,
    subject: &str,
    answer: &BlastAnswer,
    freshness: &Freshness,
) -> wire::BlastAnswer {
    let next = match &answer.next_cursor {
        Some(cursor) => {
            format!("blast {{\"symbol\": {subject:?}, \"cursor\": {cursor:?}}} for the next page")
        }
        None => match answer.items.first() {
            Some(first) => format!(
                "callers {{\"symbol\": {:?}}} to see how the top dependent uses it",
                snapshot.symbol(first.index).qualified_name
            ),
            None => "nothing depends on it within the depth; raise depth, or check completeness"
                .to_string(),
        },
    };
    blast_wire(snapshot, subject, answer, freshness, next)
}

fn blast_wire(
    snapshot: &Snapshot,
    subject: &str,
    answer: &BlastAnswer,
    freshness: &Freshness,
    next: String,
) -> wire::BlastAnswer {
    wire::BlastAnswer {
        subject: subject.to_string(),
        seeds: answer.seeds.len(),
        depth: answer.depth,
        total: answer.total,
        breaks: answer.breaks,
        items: answer
            .items
            .iter()
            .map(|item| wire::BlastItem {
                symbol: symbol_ref(snapshot, item.index),
                distance: item.distance,
                severity: item.severity.as_str().to_string(),
                confidence: rounded(item.confidence),
                edge: item.edge_kind.as_str().to_string(),
                site: format!("{}:{}", snapshot.symbol(item.index).path, item.site_line),
                via: item
                    .via
                    .iter()
                    .map(|index| snapshot.symbol(*index).qualified_name.clone())
                    .collect(),
            })
            .collect(),
        tests_affected: answer
            .tests_affected
            .iter()
            .map(|test| affected_test(snapshot, test))
            .collect(),
        tests_total: answer.tests_total,
        tests_truncated: answer.tests_total > answer.tests_affected.len(),
        evidence_commit: answer.evidence_commit.clone(),
        subject_evidence: answer.subject_evidence.map(|state| state.as_str().to_string()),
        tests_ran: (answer.subject_evidence == Some(tether_query::SubjectEvidence::Fresh))
            .then_some(answer.tests_ran),
        next_cursor: answer.next_cursor.clone(),
        completeness: completeness_wire(&answer.completeness),
        freshness: freshness_wire(freshness),
        next,
    }
}

/// The most similar names a lookup that matched nothing lists.
const LOOKUP_SIMILAR_NAMES: usize = 5;

pub fn lookup_answer(
    snapshot: &Snapshot,
    answer: &LookupAnswer,
    freshness: &Freshness,
) -> wire::LookupAnswer {
    let next = match (&answer.next_cursor, answer.items.first()) {
        (Some(cursor), _) => format!(
            "lookup {{\"query\": {:?}, \"cursor\": {cursor:?}}} for the next page",
            answer.query
        ),
        (None, Some(first)) => {
            format!("blast {{\"symbol\": {:?}}}", snapshot.symbol(first.index).id.to_string())
        }
        (None, None) => "no match; try a shorter or different name".to_string(),
    };
    // Nothing contains the name: the closest names, a typo's correction first.
    let similar: Vec<wire::SymbolRef> = match answer.total {
        0 => snapshot
            .similar(&answer.query)
            .iter()
            .take(LOOKUP_SIMILAR_NAMES)
            .map(|candidate| symbol_ref(snapshot, candidate.index))
            .collect(),
        _ => Vec::new(),
    };
    let next = match similar.first() {
        Some(closest) if answer.total == 0 => format!(
            "no match; the closest name is {}: blast {{\"symbol\": {:?}}}",
            closest.qualified_name, closest.qualified_name
        ),
        _ => next,
    };
    wire::LookupAnswer {
        query: answer.query.clone(),
        total: answer.total,
        items: answer.items.iter().map(|item| symbol_ref(snapshot, item.index)).collect(),
        similar,
        next_cursor: answer.next_cursor.clone(),
        freshness: freshness_wire(freshness),
        next,
    }
}

/// `ownership`: owners ranked by lines, with shares, commits and each one's latest commit.
pub fn ownership_answer(
    subject: wire::SymbolOrFile,
    (path, start, end): (&str, u32, u32),
    ownership: &tether_model::Ownership,
    blame_options: &[String],
    note: Option<&str>,
    freshness: &Freshness,
) -> wire::OwnershipAnswer {
    let counted = ownership.owners.iter().map(|owner| owner.lines).sum::<u32>().max(1);
    wire::OwnershipAnswer {
        subject,
        range: format!("{path}:{start}-{end}"),
        total_lines: ownership.total_lines,
        owners: ownership
            .owners
            .iter()
            .map(|owner| wire::Owner {
                author: owner.author.clone(),
                email: owner.email.clone(),
                lines: owner.lines,
                share: (f64::from(owner.lines) / f64::from(counted) * 1000.0).round() / 1000.0,
                commits: owner.commits,
                latest: wire::OwnerLatest {
                    commit: owner.latest_commit.clone(),
                    date_unix: owner.latest_time,
                    summary: owner.latest_summary.clone(),
                },
            })
            .collect(),
        not_committed_yet: ownership.uncommitted_lines,
        excluded_bot_lines: ownership.bot_lines,
        excluded_bots: ownership.bots.clone(),
        blame_options: blame_options.to_vec(),
        note: note.map(str::to_string),
        freshness: freshness_wire(freshness),
        next: match ownership.owners.first() {
            Some(owner) => format!(
                "ask {} <{}> first; context {{\"symbol\": ...}} says why the code exists",
                owner.author, owner.email
            ),
            None => "no committed lines to attribute".to_string(),
        },
    }
}

/// `changes`: the changed symbols of a diff and the blast radius of them all.
pub fn changes_answer(
    snapshot: &Snapshot,
    changed: Vec<wire::ChangedSymbol>,
    files: usize,
    blast: &BlastAnswer,
    freshness: &Freshness,
) -> wire::ChangesAnswer {
    // A symbol whose code changed; comments alone change nothing to blast.
    let first_code_change = changed.iter().find(|symbol| symbol.change != "comments");
    let next = match (first_code_change, changed.is_empty()) {
        (Some(first), _) => {
            format!("blast {{\"symbol\": {:?}}} for one changed symbol alone", first.qualified_name)
        }
        (None, false) => "only comments changed: nothing depends on them".to_string(),
        (None, true) => "no source changes in that scope".to_string(),
    };
    let blast = blast_wire(snapshot, "the diff", blast, freshness, next);
    wire::ChangesAnswer::Diff { changed, files_changed: files, blast: Box::new(blast) }
}

/// A listed test and why: `static` (a path of the graph reaches it), `executed` (runtime
/// evidence saw it run the subject; `evidence` says `fresh` or `stale`), or both.
fn affected_test(snapshot: &Snapshot, test: &tether_query::AffectedTest) -> wire::AffectedTest {
    let mut why = Vec::new();
    if test.static_path.is_some() {
        why.push("static".to_string());
    }
    if test.executed.is_some() {
        why.push("executed".to_string());
    }
    wire::AffectedTest {
        symbol: symbol_ref(snapshot, test.index),
        why,
        evidence: test.executed.map(|stale| if stale { "stale" } else { "fresh" }.to_string()),
        distance: test.static_path.map(|path| path.distance),
        confidence: test.static_path.map(|path| rounded(path.confidence)),
        tier: test.tier.map(|tier| tier.as_str().to_string()),
        test_ids: snapshot.runner_test_ids(test.index),
    }
}

/// `outline`: a file's symbols by start line (the repository-relative `path` as indexed).
pub fn outline_answer(
    snapshot: &Snapshot,
    path: &str,
    freshness: &Freshness,
) -> wire::OutlineAnswer {
    wire::OutlineAnswer {
        path: path.to_string(),
        items: snapshot
            .symbols_in_file(path)
            .iter()
            .map(|index| symbol_ref(snapshot, *index))
            .collect(),
        freshness: freshness_wire(freshness),
    }
}
