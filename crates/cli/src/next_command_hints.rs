//! The `next:` line of a text answer, written as the `tether` command to type
//! (`tether callers app.core.compute --cursor o:20`). The daemon's own `next` strings name
//! JSON-RPC calls (`callers {"symbol": …}`) and stay in `--json`; these are built here from
//! the typed answer (its subject, `next_cursor`, first item) and the request that was asked.

use std::path::Path;

use tether_protocol::wire::{Answer, ChangesAnswer, SymbolOrFile};
use tether_protocol::{Request, Subject};
use tether_query::BlastOptions;

/// What the command line said beyond the request, repeated in a hint so that it runs the
/// same way: `-C DIR` (when not the current folder) and `--limit`.
#[derive(Clone, Copy, Default)]
pub struct HintContext<'a> {
    pub repo: Option<&'a Path>,
    pub limit: Option<u64>,
}

/// The hint for `answer` to `request`, or `None` when there is no natural follow-up.
pub fn next_command(request: &Request, answer: &Answer, context: HintContext) -> Option<String> {
    let command = |words: &[&str]| command_line(words, context);
    let paged = |words: &[&str], cursor: &str| {
        let mut words = words.to_vec();
        let limit = context.limit.map(|limit| limit.to_string());
        if let Some(limit) = &limit {
            words.extend(["--limit", limit.as_str()]);
        }
        words.extend(["--cursor", cursor]);
        format!("{} for the next page", command(&words))
    };
    let hint = match answer {
        Answer::Neighbours(neighbours) => {
            let subject = neighbours.subject.qualified_name.as_str();
            let method = request.method().as_str();
            match (&neighbours.next_cursor, request) {
                (Some(cursor), _) => paged(&[method, subject], cursor),
                (None, Request::Callers { .. }) => format!(
                    "{} for everything that depends on it, transitively",
                    command(&["blast", subject])
                ),
                (None, Request::Callees { .. }) => {
                    format!("{} for the other direction", command(&["callers", subject]))
                }
                (None, _) => format!("{} for what depends on it", command(&["blast", subject])),
            }
        }
        Answer::Blast(blast) => {
            let Request::Blast { subject, walk } = request else { return None };
            let file = match subject {
                Subject::Path(path) => Some(path_from_here(path)),
                Subject::Symbol(_) => None,
            };
            let mut words = match &file {
                None => vec!["blast", blast.subject.as_str()],
                Some(file) => vec!["blast", "--file", file.as_str()],
            };
            let depth = walk.depth.filter(|depth| *depth != BlastOptions::DEFAULT_DEPTH as usize);
            let depth = depth.map(|depth| depth.to_string());
            if let Some(depth) = &depth {
                words.extend(["--depth", depth.as_str()]);
            }
            match (&blast.next_cursor, blast.items.first()) {
                (Some(cursor), _) => paged(&words, cursor),
                (None, Some(first)) => format!(
                    "{} to see how the top dependent uses it",
                    command(&["callers", &first.symbol.qualified_name])
                ),
                (None, None) => {
                    "nothing depends on it within the depth; raise --depth, or read the completeness line"
                        .to_string()
                }
            }
        }
        Answer::Changes(ChangesAnswer::Diff { changed, blast, .. }) => {
            let Request::Changes(params) = request else { return None };
            let mut words = vec!["changes"];
            match params.scope.as_deref() {
                Some("staged") => words.push("--staged"),
                Some("unstaged") => words.push("--unstaged"),
                _ => {}
            }
            if let Some(base) = &params.base {
                words.extend(["--base", base.as_str()]);
            }
            if let Some(range) = &params.range {
                words.extend(["--range", range.as_str()]);
            }
            if params.include_whitespace {
                words.push("--include-whitespace");
            }
            // Comments alone change nothing to blast.
            let first_code_change = changed.iter().find(|symbol| symbol.change != "comments");
            match (&blast.next_cursor, first_code_change) {
                (Some(cursor), _) => paged(&words, cursor),
                (None, Some(first)) => format!(
                    "{} for one changed symbol alone",
                    command(&["blast", &first.qualified_name])
                ),
                (None, None) if !changed.is_empty() => {
                    "only comments changed: nothing depends on them".to_string()
                }
                (None, None) => "no source changes in that scope".to_string(),
            }
        }
        Answer::Changes(ChangesAnswer::NotARepository { .. }) => return None,
        Answer::Health(health) => {
            let Request::Health(asked) = request else { return None };
            let mut words = vec!["health"];
            if let Some(folder) = &asked.folder {
                words.extend(["--folder", folder.as_str()]);
            }
            let commits = asked.commits.to_string();
            if asked.commits != tether_protocol::DEFAULT_HEALTH_COMMITS {
                words.extend(["--commits", commits.as_str()]);
            }
            match health.sections.as_slice() {
                [section] => {
                    words.extend(["--kind", section.kind.as_str()]);
                    match (&section.next_cursor, section.god_objects.first()) {
                        (Some(cursor), _) => paged(&words, cursor),
                        (None, Some(god)) => format!(
                            "{} before changing it",
                            command(&["blast", &god.symbol.qualified_name])
                        ),
                        (None, None) => return None,
                    }
                }
                _ => format!(
                    "{} for one section, paged",
                    command(&[&words[..], &["--kind", "cycles"]].concat())
                ),
            }
        }
        Answer::Lookup(lookup) => {
            let Request::Lookup { folder, .. } = request else { return None };
            let mut words = vec!["lookup", lookup.query.as_str()];
            if let Some(folder) = folder {
                words.extend(["--folder", folder.as_str()]);
            }
            match (&lookup.next_cursor, lookup.items.first()) {
                (Some(cursor), _) => paged(&words, cursor),
                (None, Some(first)) => {
                    // The qualified name reads better than the id, unless two hits share it.
                    let shared = lookup
                        .items
                        .iter()
                        .filter(|item| item.qualified_name == first.qualified_name)
                        .count();
                    let name = if shared > 1 { &first.id } else { &first.qualified_name };
                    command(&["blast", name])
                }
                (None, None) => match lookup.similar.first() {
                    Some(closest) => format!(
                        "no match; the closest name is {}: {}",
                        closest.qualified_name,
                        command(&["blast", &closest.qualified_name])
                    ),
                    None => "no match; try a shorter or different name".to_string(),
                },
            }
        }
        Answer::Census(_) => format!(
            "{} to find a symbol, then blast or callers on it",
            command(&["lookup", "NAME"])
        ),
        Answer::Ownership(ownership) => {
            let about = subject_words("context", &ownership.subject);
            let about: Vec<&str> = about.iter().map(String::as_str).collect();
            match ownership.owners.first() {
                Some(owner) => format!(
                    "ask {} <{}> first; {} says why the code exists",
                    owner.author,
                    owner.email,
                    command(&about)
                ),
                None => "no committed lines to attribute".to_string(),
            }
        }
        Answer::Context(context_answer) => {
            let tip_file = context_answer.tip.as_ref().and_then(|tip| {
                context_answer.chain.iter().find(|entry| &entry.id == tip).map(|entry| &entry.file)
            });
            match tip_file {
                Some(file) => {
                    let about = subject_words("ownership", &context_answer.subject);
                    let about: Vec<&str> = about.iter().map(String::as_str).collect();
                    format!(
                        "read {file} for the decision behind it; {} for whom to ask",
                        command(&about)
                    )
                }
                None if context_answer.note.is_some() => return None,
                None => format!(
                    "no entry is tethered to it; {} adds one",
                    command(&["record", "--type", "note", "--title", "TITLE", "--commit", "SHA"])
                ),
            }
        }
        Answer::SearchMemory(search) => {
            let Request::SearchMemory(params) = request else { return None };
            match &search.next_cursor {
                Some(cursor) => {
                    let path = match &params.tethered_to {
                        Some(Subject::Path(path)) => Some(path_from_here(path)),
                        _ => None,
                    };
                    let mut words = vec!["search-memory", params.query.as_str()];
                    if let Some(entry_type) = &params.entry_type {
                        words.extend(["--type", entry_type.as_str()]);
                    }
                    if let Some(status) = &params.status {
                        words.extend(["--status", status.as_str()]);
                    }
                    if let Some(Subject::Symbol(symbol)) = &params.tethered_to {
                        words.extend(["--symbol", symbol.as_str()]);
                    }
                    if let Some(path) = &path {
                        words.extend(["--path", path.as_str()]);
                    }
                    paged(&words, cursor)
                }
                None => format!(
                    "{} shows the entries tethered to a symbol, with staleness",
                    command(&["context", "SYMBOL"])
                ),
            }
        }
        Answer::Record(record) if record.dry_run => {
            "the same command without --dry-run writes and commits it".to_string()
        }
        // The file shows the entry whatever its diff touched (a symbol shows it only when
        // the diff changed that symbol).
        Answer::Record(record) => match record.pinned_files.as_slice() {
            [] => format!(
                "{} on a file its commit changed shows this entry",
                command(&["context", "--path", "FILE"])
            ),
            [only] => format!(
                "{} shows this entry",
                command(&["context", "--path", &path_from_here(only)])
            ),
            [first, ..] => format!(
                "{} (or any file it pins) shows this entry",
                command(&["context", "--path", &path_from_here(first)])
            ),
        },
        Answer::RecordTrace(recorded) if recorded.dry_run => {
            "the same command without --dry-run writes and commits them".to_string()
        }
        Answer::RecordTrace(recorded) => match recorded.traces.first() {
            Some(first) => format!(
                "{} shows it with what it supersedes and depends on",
                command(&["recall", "--anchor", &first.id])
            ),
            None => return None,
        },
        Answer::Recall(recall) if recall.left_out > 0 => {
            let Request::Recall(asked) = request else { return None };
            let more = (asked.max_nodes * 2).min(tether_protocol::MAX_RECALL_NODES).to_string();
            let budget =
                (asked.token_budget * 2).min(tether_protocol::MAX_RECALL_TOKENS).to_string();
            let mut words = vec!["recall"];
            if let Some(query) = &asked.query {
                words.push(query.as_str());
            }
            for anchor in &asked.anchors {
                words.extend(["--anchor", anchor.as_str()]);
            }
            words.extend(["--max-nodes", more.as_str(), "--token-budget", budget.as_str()]);
            format!("{} for the {} left out", command(&words), recall.left_out)
        }
        Answer::Recall(recall) => match recall.traces.first() {
            Some(first) => match first.artifacts.first() {
                Some(artifact)
                    if artifact.contains('/')
                        || artifact.ends_with(".py")
                        || artifact.ends_with(".rs") =>
                {
                    format!(
                        "{} for the code its first trace is about",
                        command(&["context", "--path", artifact])
                    )
                }
                Some(symbol) => format!(
                    "{} for the code its first trace is about",
                    command(&["context", symbol])
                ),
                None => return None,
            },
            None => {
                "no trace matches: fewer words, or --anchor a path, subject or trace id".to_string()
            }
        },
        Answer::Tree(tree) => match (&tree.next_cursor, &tree.project) {
            (Some(cursor), _) => paged(&["tree"], cursor),
            (None, Some(project)) => {
                format!("{} summarises the project", command(&["brief", project]))
            }
            (None, None) => format!(
                "{} makes the project",
                command(&["record", "--type", "plan", "--title", "TITLE", "--commit", "HEAD"])
            ),
        },
        Answer::OpenPhases(open) => match (&open.next_cursor, open.items.first()) {
            (Some(cursor), _) => paged(&["open-phases"], cursor),
            (None, Some(first)) => format!("{} says what it holds", command(&["brief", &first.id])),
            (None, None) => return None,
        },
        Answer::Brief(brief) => match brief.central.first() {
            Some(first) => format!("{} for its most linked entry", command(&["brief", &first.id])),
            None => format!("{} shows where it stands", command(&["tree"])),
        },
        Answer::CoverageImport(_) => format!(
            "{}: its tests affected now list the tests recorded executing it",
            command(&["blast", "SYMBOL"])
        ),
        Answer::Status(_)
        | Answer::Stopping(_)
        | Answer::Subscribed(_)
        | Answer::Outline(_)
        | Answer::Buffers(_)
        | Answer::Export(_)
        | Answer::IndexReport(_)
        | Answer::Cypher(_) => return None,
    };
    Some(hint)
}

/// `tether METHOD SUBJECT` for a symbol, `tether METHOD --path FILE` for a file.
fn subject_words(method: &str, subject: &SymbolOrFile) -> Vec<String> {
    match subject {
        SymbolOrFile::Symbol(symbol) => vec![method.to_string(), symbol.qualified_name.clone()],
        SymbolOrFile::File { path } => vec![method.to_string(), "--path".into(), path.clone()],
    }
}

/// A path the CLI made absolute (`current_folder_paths`) as the person would type it again
/// here: relative to the current folder when under it.
fn path_from_here(path: &str) -> String {
    let candidate = Path::new(path);
    let here = std::env::current_dir().and_then(|here| here.canonicalize());
    match here {
        Ok(here) if candidate.is_absolute() => match candidate.strip_prefix(&here) {
            Ok(relative) if !relative.as_os_str().is_empty() => relative.display().to_string(),
            _ => path.to_string(),
        },
        _ => path.to_string(),
    }
}

/// `tether [-C DIR] WORDS…`, each word quoted for a POSIX shell when it needs it.
fn command_line(words: &[&str], context: HintContext) -> String {
    let mut line = String::from("tether");
    if let Some(repo) = context.repo {
        line.push_str(" -C ");
        line.push_str(&shell_word(&repo.display().to_string()));
    }
    for word in words {
        line.push(' ');
        line.push_str(&shell_word(word));
    }
    line
}

/// A word as a POSIX shell reads it back: bare when it holds only safe characters, else in
/// single quotes.
fn shell_word(word: &str) -> String {
    let safe =
        |character: char| character.is_ascii_alphanumeric() || "_-./:@%+=,".contains(character);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_would_split_or_expand_them() {
        assert_eq!(shell_word("app.core.compute"), "app.core.compute");
        assert_eq!(shell_word("app/core.py:12"), "app/core.py:12");
        assert_eq!(shell_word("m::{impl Display for T}::fmt"), "'m::{impl Display for T}::fmt'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
        let context = HintContext { repo: Some(Path::new("../other repo")), limit: None };
        assert_eq!(command_line(&["lookup", "x"], context), "tether -C '../other repo' lookup x");
    }
}
