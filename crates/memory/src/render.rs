//! [`render_entry`]: an [`Entry`] back to its canonical file text, which
//! [`crate::parse_entry`] reads back to the same entry.

use crate::entry::Entry;
use crate::scalar::{render_inline_list, render_scalar};

/// The canonical text of an entry file: front matter in the documented field order
/// (`id`, `type`, `title`, `status`, `parent`, `created_at`, `updated_at`, `tags`, `pins`,
/// `supersedes`, `depends_on`, `related`), lists inline, pins as a block list of maps,
/// absent optional scalars left out, then the closing `---` line and the body verbatim.
pub fn render_entry(entry: &Entry) -> String {
    let mut text = String::from("---\n");
    let mut push_field = |key: &str, value: String| {
        text.push_str(key);
        text.push_str(": ");
        text.push_str(&value);
        text.push('\n');
    };
    push_field("id", render_scalar(&entry.id));
    push_field("type", entry.entry_type.as_str().to_string());
    push_field("title", render_scalar(&entry.title));
    push_field("status", entry.status.as_str().to_string());
    for (key, value) in [
        ("parent", &entry.parent),
        ("created_at", &entry.created_at),
        ("updated_at", &entry.updated_at),
    ] {
        if let Some(value) = value {
            push_field(key, render_scalar(value));
        }
    }
    push_field("tags", render_inline_list(&entry.tags));
    if entry.pins.is_empty() {
        text.push_str("pins: []\n");
    } else {
        text.push_str("pins:\n");
        for pin in &entry.pins {
            text.push_str(&format!("  - commit: {}\n", render_scalar(&pin.commit)));
            text.push_str(&format!("    files: {}\n", render_inline_list(&pin.files)));
        }
    }
    let mut push_list = |key: &str, values: &[String]| {
        text.push_str(&format!("{key}: {}\n", render_inline_list(values)));
    };
    push_list("supersedes", &entry.supersedes);
    push_list("depends_on", &entry.depends_on);
    push_list("related", &entry.related);
    text.push_str("---\n");
    text.push_str(&entry.body);
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{EntryStatus, EntryType, Pin};
    use crate::parse::parse_entry;
    use crate::test_support::sample_entry;
    use expect_test::expect;

    #[test]
    fn renders_the_canonical_form() {
        let mut entry = sample_entry("use-ladybug", EntryType::Decision);
        entry.title = "Use LadybugDB for the graph".to_string();
        entry.parent = Some("project".to_string());
        entry.tags = vec!["storage".to_string(), "database".to_string()];
        entry.pins = vec![Pin {
            commit: "0123456789abcdef0123456789abcdef01234567".to_string(),
            files: vec![
                "crates/store/src/lib.rs".to_string(),
                "crates/store/src/load.rs".to_string(),
            ],
        }];
        entry.supersedes = vec!["use-sqlite".to_string()];
        entry.depends_on = vec!["rust-workspace".to_string()];
        entry.body = "Free Markdown body.\n".to_string();
        expect![[r#"
            ---
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
        "#]]
        .assert_eq(&render_entry(&entry));
    }

    #[test]
    fn parsing_a_rendered_entry_gives_it_back() {
        let tricky_texts = [
            "",
            "plain",
            "null",
            "a: b # c",
            "\"quoted\" and 'single'",
            "- leading dash",
            "[brackets], {braces}",
            "ünïcödé\ttab\nnewline",
            "  padded  ",
        ];
        let mut entries = Vec::new();
        for (index, entry_type) in EntryType::ALL.into_iter().enumerate() {
            let mut entry = sample_entry(&format!("entry-{index}.v{index}_x"), entry_type);
            let tricky = tricky_texts[index % tricky_texts.len()];
            let other_tricky = tricky_texts[(index + 3) % tricky_texts.len()];
            entry.title = format!("Title {index} {tricky}");
            entry.status =
                if index % 2 == 0 { EntryStatus::Active } else { EntryStatus::Discarded };
            entry.parent = (index % 3 == 0).then(|| "parent-id".to_string());
            entry.created_at = (index % 4 != 1).then(|| "2026-01-02T03:04:05+01:00".to_string());
            entry.updated_at = (index % 4 == 2).then(|| other_tricky.to_string());
            entry.tags = (0..index)
                .map(|tag_index| format!("tag {tag_index} {}", tricky_texts[tag_index]))
                .collect();
            entry.pins = (0..index % 3)
                .map(|pin_index| Pin {
                    commit: format!("{pin_index}").repeat(if pin_index == 1 { 64 } else { 40 }),
                    files: (0..pin_index + index % 2)
                        .map(|file_index| format!("src/dir {file_index}/f.rs"))
                        .collect(),
                })
                .collect();
            entry.supersedes = (0..index % 2).map(|n| format!("old-{n}")).collect();
            entry.depends_on = (0..index % 3).map(|n| format!("dep-{n}")).collect();
            entry.related = vec![format!("rel{index}")];
            entry.body = match index % 3 {
                0 => String::new(),
                1 => format!("# Heading\n\n---\nnot front matter\n{tricky}"),
                _ => "\r\nwindows body\r\n".to_string(),
            };
            entry.path = format!(".memory/{}/{}.md", entry_type.folder_name(), entry.id);
            entries.push(entry);
        }
        for entry in &entries {
            let text = render_entry(entry);
            match parse_entry(&entry.path, &text) {
                Ok((parsed, warnings)) => {
                    assert_eq!(&parsed, entry, "{text}");
                    let unexpected: Vec<_> = warnings
                        .iter()
                        .filter(|warning| !warning.message.contains("timestamp"))
                        .collect();
                    assert!(unexpected.is_empty(), "{unexpected:?}");
                }
                Err(problem) => panic!("{problem}\n{text}"),
            }
        }
    }
}
