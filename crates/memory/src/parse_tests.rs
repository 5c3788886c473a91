//! Tests of [`super::parse_entry`]: the documented example, and each error and warning.

use super::*;
use expect_test::expect;

const EXAMPLE: &str = "---
id: use-ladybug
type: decision
title: Use LadybugDB for the graph
status: active
parent: project
created_at: 2026-11-30T05:00:00Z
updated_at: 2026-11-30T05:00:00Z
tags: [storage, database]
pins:
  - commit: 0123456789abcdef0123456789abcdef01234567
    files: [crates/store/src/lib.rs, crates/store/src/load.rs]
supersedes: [use-sqlite]
depends_on: [rust-workspace]
related: []
---
Free Markdown body.
";

#[test]
fn parses_the_documented_example() {
    let parsed = parse_entry(".memory/decisions/0007-use-ladybug.md", EXAMPLE);
    expect![[r#"
        Ok(
            (
                Entry {
                    id: "use-ladybug",
                    entry_type: Decision,
                    title: "Use LadybugDB for the graph",
                    status: Active,
                    parent: Some(
                        "project",
                    ),
                    created_at: Some(
                        "2026-11-30T05:00:00Z",
                    ),
                    updated_at: Some(
                        "2026-11-30T05:00:00Z",
                    ),
                    tags: [
                        "storage",
                        "database",
                    ],
                    pins: [
                        Pin {
                            commit: "0123456789abcdef0123456789abcdef01234567",
                            files: [
                                "crates/store/src/lib.rs",
                                "crates/store/src/load.rs",
                            ],
                        },
                    ],
                    supersedes: [
                        "use-sqlite",
                    ],
                    depends_on: [
                        "rust-workspace",
                    ],
                    related: [],
                    body: "Free Markdown body.\n",
                    path: ".memory/decisions/0007-use-ladybug.md",
                },
                [],
            ),
        )"#]]
    .assert_eq(&format!("{parsed:#?}"));
}

#[test]
fn reads_block_lists_defaults_and_warnings() {
    let text = "---\nid: n1\ntype: note\ntitle: 'A note'\nmood: happy\ncreated_at: yesterday\ntags:\n  - one\n  - \"two words\"\ndepends_on:\n- n0\npins:\n  - commit: 0123456789abcdef0123456789abcdef01234567\n    files:\n      - a.rs\n    why: because\n---\n";
    let (entry, warnings) = match parse_entry("n1.md", text) {
        Ok(parsed) => parsed,
        Err(problem) => panic!("{problem}"),
    };
    assert_eq!(entry.status, EntryStatus::Active);
    assert_eq!(entry.parent, None);
    assert_eq!(entry.updated_at, None);
    assert_eq!(entry.tags, ["one", "two words"]);
    assert_eq!(entry.depends_on, ["n0"]);
    assert_eq!(entry.pins[0].files, ["a.rs"]);
    assert_eq!(entry.body, "");
    let report: Vec<String> =
        warnings.iter().map(|warning| format!("{:?} {warning}", warning.severity)).collect();
    expect![[r#"
        Warning n1.md:5: unknown key `mood` is ignored
        Warning n1.md:6: `created_at` is not an RFC 3339 timestamp like 2026-11-30T05:00:00Z: `yesterday`
        Warning n1.md:16: unknown pin key `why` is ignored"#]]
    .assert_eq(&report.join("\n"));
}

#[test]
fn reports_each_error_at_its_line() {
    let head = "---\nid: a\ntype: note\ntitle: T\n";
    let cases: Vec<(&str, String)> = vec![
        ("no front matter", "id: a\n".to_string()),
        ("unterminated", head.to_string()),
        ("missing id", "---\ntype: note\ntitle: T\n---\n".to_string()),
        ("missing type", "---\nid: a\ntitle: T\n---\n".to_string()),
        ("missing title", "---\nid: a\ntype: note\n---\n".to_string()),
        ("empty id", "---\nid:\ntype: note\ntitle: T\n---\n".to_string()),
        ("empty title", "---\nid: a\ntype: note\ntitle: ''\n---\n".to_string()),
        ("bad id", "---\nid: Bad Id\ntype: note\ntitle: T\n---\n".to_string()),
        ("unknown type", "---\nid: a\ntype: idea\ntitle: T\n---\n".to_string()),
        ("unknown status", format!("{head}status: done\n---\n")),
        ("bad parent", format!("{head}parent: ../up\n---\n")),
        ("bad reference", format!("{head}related:\n  - ok\n  - NOT OK\n---\n")),
        ("duplicate key", format!("{head}id: b\n---\n")),
        ("scalar for list", format!("{head}tags: storage\n---\n")),
        ("list for scalar", format!("{head}parent: [a]\n---\n")),
        ("malformed list", format!("{head}tags: [a, b\n---\n")),
        ("map in tags", format!("{head}tags:\n  - a: b\n---\n")),
        ("short commit", format!("{head}pins:\n  - commit: abc123\n    files: [a.rs]\n---\n")),
        ("non-hex commit", format!("{head}pins:\n  - commit: {}\n---\n", "g".repeat(40))),
        ("pin without commit", format!("{head}pins:\n  - files: [a.rs]\n---\n")),
        ("pin not a map", format!("{head}pins:\n  - a.rs\n---\n")),
        ("absolute path", format!("{head}pins:\n  - commit: {}\n    files: [/etc/passwd]\n---\n", "a".repeat(64))),
        ("dotdot path", format!("{head}pins:\n  - commit: {}\n    files:\n      - ok.rs\n      - src/../../x.rs\n---\n", "a".repeat(40))),
        ("windows path", format!("{head}pins:\n  - commit: {}\n    files: ['C:\\x.rs']\n---\n", "a".repeat(40))),
    ];
    let report: Vec<String> = cases
        .iter()
        .map(|(name, text)| match parse_entry("e.md", text) {
            Ok(_) => format!("{name}: parsed"),
            Err(problem) => format!("{name}: {:?} {problem}", problem.severity),
        })
        .collect();
    expect![[r#"
        no front matter: Error e.md:1: missing front matter: the file must start with a `---` line
        unterminated: Error e.md:1: unterminated front matter: no closing `---` line
        missing id: Error e.md:1: missing required field `id`
        missing type: Error e.md:1: missing required field `type`
        missing title: Error e.md:1: missing required field `title`
        empty id: Error e.md:2: missing value for required field `id`
        empty title: Error e.md:4: `title` must not be empty
        bad id: Error e.md:2: bad id `Bad Id`: must start with a lowercase letter or a digit
        unknown type: Error e.md:3: unknown type `idea` (expected one of plan, checkpoint, experiment, decision, todo, note, annotation)
        unknown status: Error e.md:5: unknown status `done` (expected active or discarded)
        bad parent: Error e.md:5: bad `parent` id `../up`: must start with a lowercase letter or a digit
        bad reference: Error e.md:7: bad `related` id `NOT OK`: must start with a lowercase letter or a digit
        duplicate key: Error e.md:5: duplicate key `id` (first on line 2)
        scalar for list: Error e.md:5: malformed list: `tags` must be a list (`[a, b]` or `- a` lines)
        list for scalar: Error e.md:5: `parent` must be a single value, not a list
        malformed list: Error e.md:5: malformed list: missing the closing `]`
        map in tags: Error e.md:6: malformed list: `tags` items must be plain values, not maps
        short commit: Error e.md:6: bad commit `abc123`: expected 40 or 64 hexadecimal digits
        non-hex commit: Error e.md:6: bad commit `gggggggggggggggggggggggggggggggggggggggg`: expected 40 or 64 hexadecimal digits
        pin without commit: Error e.md:6: pin is missing `commit`
        pin not a map: Error e.md:6: each pin must be a map with `commit` and `files`
        absolute path: Error e.md:7: bad pinned path `/etc/passwd`: must be relative to the repository, not absolute
        dotdot path: Error e.md:9: bad pinned path `src/../../x.rs`: must not contain `..`
        windows path: Error e.md:7: bad pinned path `C:\x.rs`: must be relative to the repository, not absolute"#]]
    .assert_eq(&report.join("\n"));
}
