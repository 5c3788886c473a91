//! Tests of [`super::split_front_matter`]: values with their lines, structural errors, bodies.

use super::*;
use expect_test::expect;

fn describe(text: &str) -> String {
    match split_front_matter(text) {
        Ok(front_matter) => format!("{:#?}", front_matter),
        Err(error) => format!("error at line {}: {}", error.line, error.message),
    }
}

#[test]
fn reads_scalars_lists_and_maps_with_lines() {
    let text = "---\nid: a  # comment\n\n# a comment line\ntags:\n- x\n- 'y z'\npins:\n  - commit: abc\n    files:\n    - f.rs\n  -   commit: def\n      files: [g.rs]\nparent:\n---\nBody\n";
    expect![[r#"
        FrontMatter {
            fields: [
                RawField {
                    key: "id",
                    line: 2,
                    value: Scalar(
                        "a",
                    ),
                },
                RawField {
                    key: "tags",
                    line: 5,
                    value: List(
                        [
                            RawItem {
                                line: 6,
                                value: Scalar(
                                    "x",
                                ),
                            },
                            RawItem {
                                line: 7,
                                value: Scalar(
                                    "y z",
                                ),
                            },
                        ],
                    ),
                },
                RawField {
                    key: "pins",
                    line: 8,
                    value: List(
                        [
                            RawItem {
                                line: 9,
                                value: Map(
                                    [
                                        RawField {
                                            key: "commit",
                                            line: 9,
                                            value: Scalar(
                                                "abc",
                                            ),
                                        },
                                        RawField {
                                            key: "files",
                                            line: 10,
                                            value: List(
                                                [
                                                    RawItem {
                                                        line: 11,
                                                        value: Scalar(
                                                            "f.rs",
                                                        ),
                                                    },
                                                ],
                                            ),
                                        },
                                    ],
                                ),
                            },
                            RawItem {
                                line: 12,
                                value: Map(
                                    [
                                        RawField {
                                            key: "commit",
                                            line: 12,
                                            value: Scalar(
                                                "def",
                                            ),
                                        },
                                        RawField {
                                            key: "files",
                                            line: 13,
                                            value: List(
                                                [
                                                    RawItem {
                                                        line: 13,
                                                        value: Scalar(
                                                            "g.rs",
                                                        ),
                                                    },
                                                ],
                                            ),
                                        },
                                    ],
                                ),
                            },
                        ],
                    ),
                },
                RawField {
                    key: "parent",
                    line: 14,
                    value: Null,
                },
            ],
            body: "Body\n",
        }"#]]
    .assert_eq(&describe(text));
}

#[test]
fn reports_structural_errors_at_their_lines() {
    let cases = [
        ("no front matter", "# Title\n"),
        ("unterminated", "---\nid: a\n"),
        ("not key value", "---\nid: a\njust words\n---\n"),
        ("indented key", "---\nid: a\n  title: b\n---\n"),
        ("stray item", "---\n- a\n---\n"),
        ("tab", "---\ntags:\n\t- a\n---\n"),
        ("nested map", "---\nparent:\n  id: a\n---\n"),
        ("nested list", "---\ntags:\n  - [a]\n---\n"),
        ("empty item", "---\ntags:\n  -\n---\n"),
        ("bad inline list", "---\nid: a\ntags: [a, b\n---\n"),
        ("misaligned item", "---\ntags:\n  - a\n   - b\n---\n"),
    ];
    let report: Vec<String> =
        cases.iter().map(|(name, text)| format!("{name}: {}", describe(text))).collect();
    expect![[r#"
        no front matter: error at line 1: missing front matter: the file must start with a `---` line
        unterminated: error at line 1: unterminated front matter: no closing `---` line
        not key value: error at line 3: expected `key: value`, found `just words`
        indented key: error at line 3: unexpected indentation
        stray item: error at line 2: a list item must belong to a key (`key:` on the line above)
        tab: error at line 3: tabs are not allowed for indentation
        nested map: error at line 3: nested maps are only supported as list items (`- key: value`)
        nested list: error at line 3: nested lists are not supported
        empty item: error at line 3: empty list item
        bad inline list: error at line 3: malformed list: missing the closing `]`
        misaligned item: error at line 4: unexpected indentation"#]]
    .assert_eq(&report.join("\n"));
}

#[test]
fn keeps_the_body_verbatim() {
    let front_matter = split_front_matter("---\r\nid: a\r\n---\r\n\r\n---\nmore\n---");
    assert_eq!(
        front_matter.map(|front_matter| front_matter.body),
        Ok("\r\n---\nmore\n---".to_string())
    );
    let empty_body = split_front_matter("---\nid: a\n---");
    assert_eq!(empty_body.map(|front_matter| front_matter.body), Ok(String::new()));
}
