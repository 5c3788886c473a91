//! [`load_entries`]: every entry file of a repository at once, skipping broken ones and
//! reporting duplicate ids and references to ids that do not exist.

use std::collections::{HashMap, HashSet};

use crate::entry::Entry;
use crate::parse::parse_entry_with_lines;
use crate::problem::EntryProblem;

/// The entries that loaded, and every problem found on the way.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct MemoryLoad {
    /// In input order.
    pub entries: Vec<Entry>,
    /// Sorted by path, then line (stable otherwise).
    pub problems: Vec<EntryProblem>,
}

/// Parses `(path, text)` pairs. A file with an error is reported and skipped; the others
/// load with their warnings. When two files share an id, the later one in `files` is
/// reported as an error and skipped. References (`parent`, `supersedes`, `depends_on`,
/// `related`) to ids no loaded entry has are reported as warnings. Trace files
/// (`.memory/traces/`) are left out.
pub fn load_entries(files: &[(String, String)]) -> MemoryLoad {
    let mut load = MemoryLoad::default();
    let mut path_of_id: HashMap<String, String> = HashMap::new();
    let mut reference_lines_per_entry = Vec::new();
    for (path, text) in files {
        // Traces are not entries: `crate::parse_trace` reads them.
        if path.starts_with(&format!(".memory/{}/", crate::trace::TRACE_FOLDER)) {
            continue;
        }
        let parsed = match parse_entry_with_lines(path, text) {
            Ok(parsed) => parsed,
            Err(problem) => {
                load.problems.push(problem);
                continue;
            }
        };
        load.problems.extend(parsed.warnings);
        if let Some(first_path) = path_of_id.get(&parsed.entry.id) {
            load.problems.push(EntryProblem::error(
                path,
                parsed.id_line,
                format!(
                    "duplicate id `{}` (already used by {first_path}); this entry is skipped",
                    parsed.entry.id
                ),
            ));
            continue;
        }
        path_of_id.insert(parsed.entry.id.clone(), path.clone());
        reference_lines_per_entry.push(parsed.reference_lines);
        load.entries.push(parsed.entry);
    }

    let known_ids: HashSet<&str> = load.entries.iter().map(|entry| entry.id.as_str()).collect();
    for (entry, reference_lines) in load.entries.iter().zip(&reference_lines_per_entry) {
        for (field, referenced_id, line) in reference_lines {
            let message = if *referenced_id == entry.id {
                format!("`{field}` refers to the entry itself")
            } else if !known_ids.contains(referenced_id.as_str()) {
                format!("`{field}` refers to unknown id `{referenced_id}`")
            } else {
                continue;
            };
            load.problems.push(EntryProblem::warning(&entry.path, *line, message));
        }
    }
    load.problems.sort_by(|left, right| (&left.path, left.line).cmp(&(&right.path, right.line)));
    load
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::expect;

    fn file(path: &str, text: &str) -> (String, String) {
        (path.to_string(), text.to_string())
    }

    #[test]
    fn loads_good_entries_and_reports_the_rest() {
        let files = [
            file(
                ".memory/notes/a.md",
                "---\nid: a\ntype: note\ntitle: A\nparent: ghost\nrelated: [b, a]\n---\n",
            ),
            file(
                ".memory/notes/b.md",
                "---\nid: b\ntype: note\ntitle: B\nsupersedes:\n  - a\n  - gone\n---\n",
            ),
            file(".memory/notes/broken.md", "---\nid: broken\ntype: nope\ntitle: X\n---\n"),
            file(".memory/notes/again.md", "---\ntitle: Again\nid: a\ntype: todo\n---\n"),
            file(".memory/notes/plain.md", "just text\n"),
        ];
        let load = load_entries(&files);
        let ids: Vec<&str> = load.entries.iter().map(|entry| entry.id.as_str()).collect();
        assert_eq!(ids, ["a", "b"]);
        let report: Vec<String> = load
            .problems
            .iter()
            .map(|problem| format!("{:?} {problem}", problem.severity))
            .collect();
        expect![[r#"
            Warning .memory/notes/a.md:5: `parent` refers to unknown id `ghost`
            Warning .memory/notes/a.md:6: `related` refers to the entry itself
            Error .memory/notes/again.md:3: duplicate id `a` (already used by .memory/notes/a.md); this entry is skipped
            Warning .memory/notes/b.md:7: `supersedes` refers to unknown id `gone`
            Error .memory/notes/broken.md:3: unknown type `nope` (expected one of plan, checkpoint, experiment, decision, todo, note, annotation)
            Error .memory/notes/plain.md:1: missing front matter: the file must start with a `---` line"#]]
        .assert_eq(&report.join("\n"));
    }

    #[test]
    fn loads_nothing_from_nothing() {
        assert_eq!(load_entries(&[]), MemoryLoad::default());
    }
}
