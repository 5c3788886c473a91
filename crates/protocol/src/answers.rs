//! Query answers as JSON: every answer carries its items (qualified name, kind, file, line),
//! the total, a cursor for the rest, completeness, freshness, and a hint for the next call.

use serde_json::{json, Value};
use tether_model::Freshness;
use tether_query::{
    AddressError, BlastAnswer, Candidate, Completeness, CompletenessCause, LookupAnswer,
    NeighbourAnswer, NeighbourKind, Snapshot, SymbolIndex,
};

/// A confidence with three decimals (an `f32` printed as-is shows float noise).
fn rounded(confidence: f32) -> f64 {
    (f64::from(confidence) * 1000.0).round() / 1000.0
}

/// A symbol as every answer shows it.
pub fn symbol_json(snapshot: &Snapshot, index: SymbolIndex) -> Value {
    let symbol = snapshot.symbol(index);
    json!({
        "id": symbol.id.to_string(),
        "qualified_name": symbol.qualified_name,
        "kind": symbol.kind.as_str(),
        "path": symbol.path,
        "line": symbol.span.start_line,
        "end_line": symbol.span.end_line,
        "is_test": symbol.is_test,
    })
}

pub fn freshness_json(freshness: &Freshness) -> Value {
    json!({
        "indexed_commit": freshness.indexed_commit,
        "head_commit": freshness.head_commit,
        "head_branch": freshness.head_branch,
        "head_moved": freshness.head_moved,
        "uncommitted_files": freshness.uncommitted_files,
        "stale": freshness.head_moved || freshness.uncommitted_files.as_ref().is_some_and(|files| !files.is_empty()),
    })
}

pub fn completeness_json(completeness: &Completeness) -> Value {
    match completeness {
        Completeness::Exact => json!({ "status": "exact" }),
        Completeness::LowerBound(causes) => json!({
            "status": "lower_bound",
            "causes": causes.iter().map(cause_json).collect::<Vec<_>>(),
        }),
    }
}

fn cause_json(cause: &CompletenessCause) -> Value {
    match cause {
        CompletenessCause::UnresolvedCallSites { name, count, examples } => json!({
            "kind": "unresolved_call_sites",
            "name": name,
            "count": count,
            "examples": examples.iter().map(|(path, line, text)| json!({ "site": format!("{path}:{line}"), "callee": text })).collect::<Vec<_>>(),
        }),
        CompletenessCause::UncertainEdges { count } => {
            json!({ "kind": "uncertain_edges", "count": count })
        }
        CompletenessCause::UnparsedFiles { count, examples } => {
            json!({ "kind": "unparsed_files", "count": count, "examples": examples })
        }
        CompletenessCause::EscapedValue { count, escaped, escapes, examples } => json!({
            "kind": "escaped_value",
            "count": count,
            "escaped": escaped,
            "escapes": escapes.iter().map(|(path, line, text)| json!({ "site": format!("{path}:{line}"), "how": text })).collect::<Vec<_>>(),
            "examples": examples.iter().map(|(path, line, text)| json!({ "site": format!("{path}:{line}"), "callee": text })).collect::<Vec<_>>(),
        }),
        CompletenessCause::ImplicitInvocation { count, examples } => {
            json!({ "kind": "implicit_invocation", "count": count, "examples": examples })
        }
        CompletenessCause::CalledFromOutside { count, examples } => {
            json!({ "kind": "called_from_outside", "count": count, "examples": examples })
        }
        CompletenessCause::Overrides { count, examples } => json!({
            "kind": "overrides",
            "count": count,
            "examples": examples.iter().map(|(path, line, text)| json!({ "site": format!("{path}:{line}"), "callee": text })).collect::<Vec<_>>(),
        }),
        CompletenessCause::DepthLimit { depth, count } => {
            json!({ "kind": "depth_limit", "depth": depth, "count": count })
        }
        CompletenessCause::DirtyFiles { count, examples } => {
            json!({ "kind": "dirty_files", "count": count, "examples": examples })
        }
    }
}

fn candidate_json(candidate: &Candidate) -> Value {
    json!({
        "id": candidate.id.to_string(),
        "qualified_name": candidate.qualified_name,
        "kind": candidate.kind.as_str(),
        "path": candidate.path,
        "line": candidate.line,
    })
}

/// The `data` of an addressing error: the candidates to choose from.
pub fn address_error_json(error: &AddressError) -> (String, Value) {
    match error {
        AddressError::NotFound { address, similar } => (
            format!("no symbol matches {address:?}; try a qualified name, a unique suffix, path:line or an id (similar names are listed)"),
            json!({ "kind": "not_found", "address": address, "similar": similar.iter().map(candidate_json).collect::<Vec<_>>() }),
        ),
        AddressError::Ambiguous { address, candidates } => (
            format!("{address:?} matches {} symbols; call again with one of these ids or qualified names", candidates.len()),
            json!({ "kind": "ambiguous", "address": address, "candidates": candidates.iter().map(candidate_json).collect::<Vec<_>>() }),
        ),
    }
}

pub fn neighbours_json(
    snapshot: &Snapshot,
    answer: &NeighbourAnswer,
    freshness: &Freshness,
) -> Value {
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
    json!({
        "subject": symbol_json(snapshot, answer.subject),
        "total": answer.total,
        "items": answer.items.iter().map(|item| {
            let mut value = symbol_json(snapshot, item.index);
            value["direction"] = json!(item.direction);
            value["site"] = json!(format!("{}:{}", item.site_path, item.site_line));
            value["confidence"] = json!(rounded(item.confidence));
            value["rule"] = json!(item.rule.as_str());
            value
        }).collect::<Vec<_>>(),
        "next_cursor": answer.next_cursor,
        "completeness": completeness_json(&answer.completeness),
        "freshness": freshness_json(freshness),
        "next": next,
    })
}

pub fn blast_json(
    snapshot: &Snapshot,
    subject: &str,
    answer: &BlastAnswer,
    freshness: &Freshness,
) -> Value {
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
    json!({
        "subject": subject,
        "seeds": answer.seeds.len(),
        "depth": answer.depth,
        "total": answer.total,
        "breaks": answer.breaks,
        "items": answer.items.iter().map(|item| {
            let mut value = symbol_json(snapshot, item.index);
            value["distance"] = json!(item.distance);
            value["severity"] = json!(item.severity.as_str());
            value["confidence"] = json!(rounded(item.confidence));
            value["edge"] = json!(item.edge_kind.as_str());
            value["site"] = json!(format!("{}:{}", snapshot.symbol(item.index).path, item.site_line));
            value["via"] = json!(item.via.iter().map(|index| snapshot.symbol(*index).qualified_name.clone()).collect::<Vec<_>>());
            value
        }).collect::<Vec<_>>(),
        "tests_affected": answer.tests_affected.iter().map(|test| affected_test_json(snapshot, test)).collect::<Vec<_>>(),
        "tests_total": answer.tests_total,
        "tests_truncated": answer.tests_total > answer.tests_affected.len(),
        "evidence_commit": answer.evidence_commit,
        "next_cursor": answer.next_cursor,
        "completeness": completeness_json(&answer.completeness),
        "freshness": freshness_json(freshness),
        "next": next,
    })
}

pub fn lookup_json(snapshot: &Snapshot, answer: &LookupAnswer, freshness: &Freshness) -> Value {
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
    json!({
        "query": answer.query,
        "total": answer.total,
        "items": answer.items.iter().map(|item| symbol_json(snapshot, item.index)).collect::<Vec<_>>(),
        "next_cursor": answer.next_cursor,
        "freshness": freshness_json(freshness),
        "next": next,
    })
}

/// `ownership`: owners ranked by lines, with shares, commits and each one's latest commit.
pub fn ownership_json(
    subject: Value,
    path: &str,
    start: u32,
    end: u32,
    ownership: &tether_model::Ownership,
    note: Option<&str>,
    freshness: &Freshness,
) -> Value {
    let counted = ownership.owners.iter().map(|owner| owner.lines).sum::<u32>().max(1);
    json!({
        "subject": subject,
        "range": format!("{path}:{start}-{end}"),
        "total_lines": ownership.total_lines,
        "owners": ownership.owners.iter().map(|owner| json!({
            "author": owner.author,
            "email": owner.email,
            "lines": owner.lines,
            "share": (f64::from(owner.lines) / f64::from(counted) * 1000.0).round() / 1000.0,
            "commits": owner.commits,
            "latest": {
                "commit": owner.latest_commit,
                "date_unix": owner.latest_time,
                "summary": owner.latest_summary,
            },
        })).collect::<Vec<_>>(),
        "not_committed_yet": ownership.uncommitted_lines,
        "excluded_bot_lines": ownership.bot_lines,
        "excluded_bots": ownership.bots,
        "note": note,
        "freshness": freshness_json(freshness),
        "next": match ownership.owners.first() {
            Some(owner) => format!("ask {} <{}> first; context {{\"symbol\": ...}} says why the code exists", owner.author, owner.email),
            None => "no committed lines to attribute".to_string(),
        },
    })
}

/// `changes`: the changed symbols of a diff and the blast radius of them all.
pub fn changes_json(
    snapshot: &Snapshot,
    changed: &[Value],
    files: usize,
    blast: &BlastAnswer,
    freshness: &Freshness,
) -> Value {
    let mut value = blast_json(snapshot, "the diff", blast, freshness);
    value["changed"] = json!(changed);
    value["files_changed"] = json!(files);
    value["next"] = json!(match changed.first() {
        Some(first) => format!(
            "blast {{\"symbol\": {:?}}} for one changed symbol alone",
            first["qualified_name"].as_str().unwrap_or("")
        ),
        None => "no source changes in that scope".to_string(),
    });
    value
}

/// A listed test and why: `static` (a path of the graph reaches it), `executed` (runtime
/// evidence saw it run the subject; `evidence` says `fresh` or `stale`), or both.
fn affected_test_json(snapshot: &Snapshot, test: &tether_query::AffectedTest) -> Value {
    let mut value = symbol_json(snapshot, test.index);
    let mut why = Vec::new();
    if test.static_path {
        why.push("static");
    }
    if test.executed.is_some() {
        why.push("executed");
    }
    value["why"] = json!(why);
    if let Some(stale) = test.executed {
        value["evidence"] = json!(if stale { "stale" } else { "fresh" });
    }
    value
}
