//! The MCP resources: the graph's schema (a constant), the census and the freshness of the
//! index (both asked of the daemon when read).

use rmcp::model::{Resource, ResourceContents};
use tether_protocol::wire::{Answer, FreshnessDocument};
use tether_protocol::Request;

pub const SCHEMA_RESOURCE_URI: &str = "tether://schema";
pub const CENSUS_RESOURCE_URI: &str = "tether://census";
pub const FRESHNESS_RESOURCE_URI: &str = "tether://freshness";

/// What the graph holds and how far its answers can be trusted.
pub const GRAPH_SCHEMA_MARKDOWN: &str = r#"# The tether code graph

tether indexes one git repository (Python and Rust) into a graph of symbols and the edges
between them, kept current by a daemon that rebuilds it when HEAD moves or a saved source
file's content differs from the graph (no commit needed).

## Nodes: symbols

Every symbol has an `id` (16 hex digits, stable across rebuilds), a `qualified_name`
(`pkg.module.Class.method`, `my_crate::module::Type::method`), a `kind`, a `path` (relative
to the repository root), `line`..`end_line`, and `is_test`.

Kinds: `module`, `class`, `struct`, `enum`, `union`, `trait`, `impl`, `function`, `method`,
`lambda`, `macro`; `external` and `builtin` stand for targets outside the repository.

A symbol is addressed, in this order, by: its id; `path:line:column` (on a call, the function
called there; on a definition's name, that symbol); `path:line` (the innermost symbol whose
span holds the line); its exact qualified name; a unique suffix of it at a segment
boundary (`Class.method`, `Type::method`); or `Class.member` for a member a base defines
(answered as the base's symbol). A name matching several symbols is an error that
lists the candidates: tether never guesses; call again with one of their ids.

## Edges

- `CONTAINS`: a module holds a class, a class its methods, a type its impls.
- `CALLS`: a call site in the source calls the target (`site` is its file:line).
- `IMPORTS`: a module imports another module or a symbol of it.
- `INHERITS`: a class derives from another class.
- `IMPLEMENTS`: a Rust type implements a trait.
- `REFERENCES`: a function, method or class used as a value (passed, stored, returned or
  decorated): whoever receives it may call it where no call expression names it.

## Confidence

Each edge carries the confidence of the rule that resolved it:

| rule | confidence | meaning |
|---|---|---|
| `syntax` | 1.0 | evident from the syntax alone |
| `same_scope`, `import`, `qualified_path` | 0.95 | bound through scope, an import or a full path |
| `self_method`, `type_member`, `constructor`, `macro` | 0.9 | a method of self, a member of a known type, a constructor, a macro |
| `typed_receiver` | 0.85 | a method on a receiver whose type was inferred |
| `dynamic_dispatch` | 0.5 | one of several implementations a dynamic call may reach |
| `ambiguous` | 0.4 | one of several same-named targets |
| `name_only` | 0.2 | matched by name alone |
| `pytest_fixture` | 0.9 | a pytest test or fixture asking for a fixture (pytest calls it first) |
| `callback` | 0.5 | outside code may call it back (a project object handed to an outside call, a method an outside base may call) |
| `value_flow` | 0.7 | a call through a parameter, bound to a value the project's call sites pass for it |

A blast item's confidence is the product along its path. Its severity is `breaks` for a
direct dependent through a confident edge, `maybe` for anything indirect or reached through
a dynamic, ambiguous or name-only edge.

## Completeness

Every dependency answer says how complete it is:

- `exact`: no call site in the repository could add an item. "0 callers" with `exact` means
  nothing calls it.
- `lower_bound`: the list may be missing items; the causes say why (each named by its
  `kind`, counted, with examples; listed under "Completeness causes" below). Do not
  conclude that nothing depends on the symbol.

## Freshness

Every answer says which commit the graph was built from (`indexed_commit`), HEAD, whether
HEAD moved since (`head_moved`: the daemon is rebuilding), the source files whose content on
disk the graph does not hold yet (`files_not_in_graph`: a rebuild is due), and the tracked
files with uncommitted changes (`uncommitted_files`, whose saved content the graph may well
hold). `stale` means a change is not in the graph yet: HEAD moved or files are not in the
graph; a stale answer may not reflect the working tree. An editor's unsaved buffers, when
the answer counts them, are listed in `buffers`.

## Memory

Memory entries (plans, checkpoints, experiments, decisions, todos, notes, annotations) are
markdown files under `.memory/`, committed to git and tethered to the symbols their pinned
commit changed. `context` lists the entries tethered to a symbol, with staleness (edits to
the code after the entry was written); `search_memory` searches them; `record` writes one.
"#;

/// The resources this server lists.
pub fn resource_list() -> Vec<Resource> {
    vec![
        Resource::new(SCHEMA_RESOURCE_URI, "schema")
            .with_title("tether graph schema")
            .with_description("Node kinds, edge kinds, confidence rules, completeness and freshness: how to read tether's answers.")
            .with_mime_type("text/markdown"),
        Resource::new(CENSUS_RESOURCE_URI, "census")
            .with_title("tether census")
            .with_description("Counts of the indexed repository: files, symbols and edges by kind and language.")
            .with_mime_type("application/json"),
        Resource::new(FRESHNESS_RESOURCE_URI, "freshness")
            .with_title("tether index freshness")
            .with_description("The commit the graph was built from, HEAD, whether the graph is stale, and whether a rebuild is running.")
            .with_mime_type("application/json"),
    ]
}

/// The daemon request a resource is read from, or `None` for the constant schema.
pub fn resource_daemon_request(uri: &str) -> Option<Request> {
    match uri {
        CENSUS_RESOURCE_URI => Some(Request::census()),
        FRESHNESS_RESOURCE_URI => Some(Request::Status),
        _ => None,
    }
}

/// Whether this server serves `uri`.
pub fn is_known_resource(uri: &str) -> bool {
    matches!(uri, SCHEMA_RESOURCE_URI | CENSUS_RESOURCE_URI | FRESHNESS_RESOURCE_URI)
}

/// The contents of a resource read from the daemon (`answer` is its request's answer): the
/// freshness document of a `status`, any other answer as it is.
pub fn daemon_resource_contents(uri: &str, answer: &Answer) -> ResourceContents {
    let text = match answer {
        Answer::Status(status) if uri == FRESHNESS_RESOURCE_URI => {
            FreshnessDocument::from_status(status).to_pretty_json()
        }
        other => other.to_pretty_json(),
    };
    ResourceContents::text(text, uri).with_mime_type("application/json")
}

/// The contents of the schema resource.
pub fn schema_resource_contents() -> ResourceContents {
    ResourceContents::text(graph_schema_markdown(), SCHEMA_RESOURCE_URI)
        .with_mime_type("text/markdown")
}

/// The schema resource: the graph's description, then every completeness cause an answer
/// may give, read from the answers' own schema (a cause added there is listed here).
pub fn graph_schema_markdown() -> String {
    let mut text = GRAPH_SCHEMA_MARKDOWN.to_string();
    text.push_str("\n## Completeness causes\n\n");
    for (kind, meaning) in completeness_causes() {
        text.push_str(&format!("- `{kind}`: {meaning}\n"));
    }
    text
}

/// Each completeness cause's `kind` and the sentence its schema gives it.
fn completeness_causes() -> Vec<(String, String)> {
    let Some(schema) = tether_protocol::wire::answer_schema(tether_protocol::Method::Blast) else {
        return Vec::new();
    };
    let variants = schema
        .get("$defs")
        .and_then(|definitions| definitions.get("CompletenessCause"))
        .and_then(|cause| cause.get("oneOf"))
        .and_then(|variants| variants.as_array())
        .cloned()
        .unwrap_or_default();
    variants
        .iter()
        .filter_map(|variant| {
            let kind = variant.pointer("/properties/kind/const")?.as_str()?;
            let meaning = variant.get("description").and_then(|text| text.as_str()).unwrap_or("");
            Some((kind.to_string(), meaning.split_whitespace().collect::<Vec<_>>().join(" ")))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::graph_schema_markdown;
    use tether_model::{EdgeKind, ResolutionRule};

    /// Every edge kind, every rule with its confidence, and every completeness cause the graph
    /// and its answers use are described: adding one without describing it fails here.
    #[test]
    fn the_schema_resource_names_every_edge_kind_rule_and_cause() {
        let text = graph_schema_markdown();
        for kind in EdgeKind::ALL {
            assert!(text.contains(&format!("- `{}`:", kind.as_str())), "{}", kind.as_str());
        }
        for rule in ResolutionRule::ALL {
            // `1.0`, `0.95`: the table's way of writing a confidence.
            let in_its_row = text.lines().any(|line| {
                line.contains(&format!("`{}`", rule.as_str()))
                    && line.contains(&format!("| {:?} |", rule.confidence()))
            });
            assert!(in_its_row, "{} with confidence {:?}", rule.as_str(), rule.confidence());
        }
        for kind in ["unresolved_call_sites", "escaped_value", "dirty_files", "depth_limit"] {
            let line = text.lines().find(|line| line.starts_with(&format!("- `{kind}`: ")));
            assert!(line.is_some_and(|line| line.len() > kind.len() + 12), "{kind}");
        }
    }
}
