//! Helpers for the `record` command: checking and inventing ids, naming the file a new
//! entry goes to, and checking a new entry before it is written.

use std::collections::HashSet;

use crate::entry::{Entry, EntryType};
use crate::parse::parse_entry_with_lines;
use crate::problem::EntryProblem;
use crate::render::render_entry;

/// The longest id allowed.
pub const MAX_ID_LENGTH: usize = 100;
/// The longest id [`slugify_title`] makes.
const MAX_SLUG_LENGTH: usize = 60;

/// Why a text is not a valid entry id.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("id `{id}`: {reason}")]
pub struct InvalidId {
    pub id: String,
    pub reason: &'static str,
}

/// Checks an id: `[a-z0-9][a-z0-9._-]*`, at most 100 characters.
pub fn validate_id(id: &str) -> Result<(), InvalidId> {
    let invalid = |reason| Err(InvalidId { id: id.to_string(), reason });
    let Some(first) = id.chars().next() else {
        return invalid("must not be empty");
    };
    if id.len() > MAX_ID_LENGTH {
        return invalid("must be at most 100 characters");
    }
    if !(first.is_ascii_lowercase() || first.is_ascii_digit()) {
        return invalid("must start with a lowercase letter or a digit");
    }
    let allowed = |character: char| {
        character.is_ascii_lowercase()
            || character.is_ascii_digit()
            || matches!(character, '.' | '_' | '-')
    };
    if !id.chars().all(allowed) {
        return invalid("may only contain lowercase letters, digits, `.`, `_` and `-`");
    }
    Ok(())
}

/// Where a new entry is written: `.memory/<type folder>/<id>.md`, e.g.
/// `.memory/decisions/use-ladybug.md`.
pub fn entry_file_path(entry_type: EntryType, id: &str) -> String {
    format!(".memory/{}/{id}.md", entry_type.folder_name())
}

/// An id made from a title: lowercase ASCII letters and digits, every other run of
/// characters turned into one `-`, no `-` at either end, at most 60 characters; `entry`
/// when nothing is left.
pub fn slugify_title(title: &str) -> String {
    let mut slug = String::new();
    for character in title.chars() {
        if character.is_ascii_alphanumeric() {
            slug.push(character.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    slug.truncate(MAX_SLUG_LENGTH);
    let trimmed = slug.trim_end_matches('-');
    if trimmed.is_empty() {
        "entry".to_string()
    } else {
        trimmed.to_string()
    }
}

/// `base` if no existing entry has it, otherwise `base-2`, `base-3`, … (shortening `base`
/// when needed to stay within 100 characters).
pub fn unique_id(base: &str, existing: &HashSet<String>) -> String {
    if !existing.contains(base) {
        return base.to_string();
    }
    (2u64..)
        .map(|counter| {
            let suffix = format!("-{counter}");
            let mut stem = base.to_string();
            stem.truncate(MAX_ID_LENGTH.saturating_sub(suffix.len()));
            format!("{}{suffix}", stem.trim_end_matches(['-', '.', '_']))
        })
        .find(|candidate| !existing.contains(candidate))
        .unwrap_or_else(|| base.to_string())
}

/// Checks an entry the `record` command is about to write, given the ids already in use.
/// Problems point at lines of [`render_entry`]'s text. Errors: anything [`crate::parse_entry`]
/// would reject, an id already taken, a text that would not read back the same. Warnings:
/// a path other than [`entry_file_path`], references to ids not in `existing_ids`.
pub fn validate_new_entry(entry: &Entry, existing_ids: &HashSet<String>) -> Vec<EntryProblem> {
    let text = render_entry(entry);
    let parsed = match parse_entry_with_lines(&entry.path, &text) {
        Ok(parsed) => parsed,
        Err(problem) => return vec![problem],
    };
    let mut problems = parsed.warnings;
    if existing_ids.contains(&entry.id) {
        problems.push(EntryProblem::error(
            &entry.path,
            parsed.id_line,
            format!("id `{}` is already taken", entry.id),
        ));
    }
    if parsed.entry != *entry {
        problems.push(EntryProblem::error(
            &entry.path,
            1,
            "the entry would not read back unchanged after writing",
        ));
    }
    let expected_path = entry_file_path(entry.entry_type, &entry.id);
    if entry.path != expected_path {
        problems.push(EntryProblem::warning(
            &entry.path,
            1,
            format!("new entries belong at `{expected_path}`"),
        ));
    }
    for (field, referenced_id, line) in &parsed.reference_lines {
        if !existing_ids.contains(referenced_id) && *referenced_id != entry.id {
            problems.push(EntryProblem::warning(
                &entry.path,
                *line,
                format!("`{field}` refers to unknown id `{referenced_id}`"),
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::sample_entry;
    use expect_test::expect;

    #[test]
    fn validates_ids() {
        for valid in ["a", "0007-use-ladybug", "v1.2_x", &"a".repeat(100)] {
            assert_eq!(validate_id(valid), Ok(()), "{valid}");
        }
        let report: Vec<String> = ["", "-a", "Use", "a b", "ä", &"a".repeat(101)]
            .iter()
            .filter_map(|id| validate_id(id).err())
            .map(|invalid| invalid.reason.to_string())
            .collect();
        expect![[r#"
            must not be empty
            must start with a lowercase letter or a digit
            must start with a lowercase letter or a digit
            may only contain lowercase letters, digits, `.`, `_` and `-`
            must start with a lowercase letter or a digit
            must be at most 100 characters"#]]
        .assert_eq(&report.join("\n"));
    }

    #[test]
    fn names_files_by_type_folder() {
        assert_eq!(
            entry_file_path(EntryType::Decision, "use-ladybug"),
            ".memory/decisions/use-ladybug.md"
        );
        assert_eq!(entry_file_path(EntryType::Todo, "x"), ".memory/todos/x.md");
        assert_eq!(entry_file_path(EntryType::Annotation, "y"), ".memory/annotations/y.md");
    }

    #[test]
    fn slugifies_titles() {
        assert_eq!(slugify_title("Use LadybugDB for the graph!"), "use-ladybugdb-for-the-graph");
        assert_eq!(slugify_title("  --Ünïcode & spaces--  "), "n-code-spaces");
        assert_eq!(slugify_title("!!!"), "entry");
        assert_eq!(slugify_title(""), "entry");
        let long = slugify_title(&"word ".repeat(30));
        assert!(long.len() <= 60 && !long.ends_with('-'), "{long}");
        for title in ["A", "Über 9000", &"x-".repeat(80)] {
            assert_eq!(validate_id(&slugify_title(title)), Ok(()), "{title}");
        }
    }

    #[test]
    fn appends_counters_to_taken_ids() {
        let existing: HashSet<String> =
            ["note", "note-2", &"a".repeat(100)].iter().map(|id| id.to_string()).collect();
        assert_eq!(unique_id("fresh", &existing), "fresh");
        assert_eq!(unique_id("note", &existing), "note-3");
        let long = unique_id(&"a".repeat(100), &existing);
        assert_eq!(long, format!("{}-2", "a".repeat(98)));
        assert_eq!(validate_id(&long), Ok(()));
    }

    #[test]
    fn checks_new_entries() {
        let existing: HashSet<String> =
            ["taken", "known"].iter().map(|id| id.to_string()).collect();
        let mut entry = sample_entry("taken", EntryType::Note);
        entry.path = ".memory/misc/taken.md".to_string();
        entry.depends_on = vec!["known".to_string(), "ghost".to_string()];
        let report: Vec<String> = validate_new_entry(&entry, &existing)
            .iter()
            .map(|problem| format!("{:?} {problem}", problem.severity))
            .collect();
        expect![[r#"
            Error .memory/misc/taken.md:2: id `taken` is already taken
            Warning .memory/misc/taken.md:1: new entries belong at `.memory/notes/taken.md`
            Warning .memory/misc/taken.md:11: `depends_on` refers to unknown id `ghost`"#]]
        .assert_eq(&report.join("\n"));

        let fresh = sample_entry("fresh", EntryType::Note);
        assert_eq!(validate_new_entry(&fresh, &existing), vec![]);
        let mut untitled = sample_entry("untitled", EntryType::Note);
        untitled.title = String::new();
        let problems = validate_new_entry(&untitled, &existing);
        assert_eq!(problems.len(), 1);
        assert_eq!(
            problems[0].to_string(),
            ".memory/notes/untitled.md:4: `title` must not be empty"
        );
    }
}
