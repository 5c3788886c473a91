//! A blast's tests for people: the two tiers when fresh runtime evidence splits them (ran it,
//! reachable only), and `blast --tests ran|all`: the listed tests as command lines ready to
//! run (`python -m pytest NODE_ID…`, `cargo test -p PACKAGE -- --exact PATH…`).
//!
//! It deliberately does not run the tests, nor guess a runner's options (markers, features):
//! it prints what selects the tests, and the project's own configuration does the rest.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use clap::ValueEnum;
use tether_protocol::wire::{AffectedTest, BlastAnswer};

/// At most this many tests of each tier are shown in the text answer.
const MAX_TESTS_SHOWN: usize = 10;

/// Which of a blast's tests `blast --tests` turns into command lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum TestsToRun {
    /// The first tier: tests fresh runtime evidence saw run the subject.
    Ran,
    /// Every listed test, both tiers.
    All,
}

/// The tests-affected part of a blast's text: one list, or the two tiers with their counts.
pub fn tests_affected_text(out: &mut String, blast: &BlastAnswer) {
    if blast.tests_affected.is_empty() {
        let _ = writeln!(out, "tests affected: none found");
        if let Some(note) = evidence_note(blast) {
            let _ = writeln!(out, "  {note}");
        }
        return;
    }
    let total = blast.tests_total;
    let listed = if total > blast.tests_affected.len() {
        format!(" (the first {} are listed; --tests-limit lists more)", blast.tests_affected.len())
    } else {
        String::new()
    };
    let Some(ran) = blast.tests_ran else {
        let _ = writeln!(out, "tests affected: {total}{listed}");
        if let Some(note) = evidence_note(blast) {
            let _ = writeln!(out, "  {note}");
        }
        shown(out, blast.tests_affected.iter().collect(), "  ");
        return;
    };
    let commit = blast.evidence_commit.as_deref().map(short_commit).unwrap_or("an unknown commit");
    let _ = writeln!(
        out,
        "tests affected: {total}{listed}: {ran} ran it (runtime evidence recorded at {commit}), {} reachable only",
        total - ran
    );
    let (first, second): (Vec<&AffectedTest>, Vec<&AffectedTest>) =
        blast.tests_affected.iter().partition(|test| test.tier.as_deref() == Some("ran"));
    let _ = writeln!(out, "  ran it (break if the change breaks):");
    if first.is_empty() {
        let _ = writeln!(out, "    none: no test was recorded executing it");
    }
    shown(out, first, "    ");
    if !second.is_empty() {
        let _ = writeln!(out, "  reachable only (may break; not seen executing it):");
        shown(out, second, "    ");
    }
}

/// Why the tests are not in tiers although evidence was imported.
fn evidence_note(blast: &BlastAnswer) -> Option<&'static str> {
    match blast.subject_evidence.as_deref()? {
        "stale" => Some("runtime evidence: the subject's file changed since it was recorded, so it does not split the tests (`tether coverage run` records it again)"),
        "not_recorded" => Some("runtime evidence: the subject's file was not measured when it was recorded, so it does not split the tests"),
        _ => None,
    }
}

fn shown(out: &mut String, tests: Vec<&AffectedTest>, indent: &str) {
    for test in tests.iter().take(MAX_TESTS_SHOWN) {
        let _ = writeln!(out, "{indent}{}", test_line(test));
    }
    if tests.len() > MAX_TESTS_SHOWN {
        let _ = writeln!(
            out,
            "{indent}… {} more (--json lists them all)",
            tests.len() - MAX_TESTS_SHOWN
        );
    }
}

/// A listed test, with why when runtime evidence had a part (`executed`, `stale` evidence).
pub fn test_line(test: &AffectedTest) -> String {
    let why: Vec<&str> = test.why.iter().map(String::as_str).collect();
    let mark = match (why.as_slice(), test.evidence.as_deref()) {
        (["static"], _) | ([], _) => String::new(),
        (_, Some("stale")) => format!(" [{}, evidence stale]", why.join("+")),
        _ => format!(" [{}]", why.join("+")),
    };
    let symbol = &test.symbol;
    format!("{} ({}:{}){mark}", symbol.qualified_name, symbol.path, symbol.line)
}

fn short_commit(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

/// The command lines that run the chosen tests from the repository's root: one per runner
/// (and per Cargo package), or an error saying why there is nothing to run.
pub fn runner_command_lines(
    blast: &BlastAnswer,
    which: TestsToRun,
    root: &Path,
) -> Result<Vec<String>, String> {
    if which == TestsToRun::Ran && blast.tests_ran.is_none() {
        return Err(match blast.subject_evidence.as_deref() {
            None => "no runtime evidence: record it with `tether coverage run -- pytest --cov=PACKAGE --cov-context=test` or `tether coverage cargo`, or use --tests all".to_string(),
            Some(_) => format!("{} (use --tests all)", evidence_note(blast).unwrap_or("runtime evidence does not split the tests")),
        });
    }
    if blast.tests_truncated {
        return Err(format!(
            "{} tests are affected but only {} are listed: raise --tests-limit to run them all",
            blast.tests_total,
            blast.tests_affected.len()
        ));
    }
    let chosen = blast
        .tests_affected
        .iter()
        .filter(|test| which == TestsToRun::All || test.tier.as_deref() == Some("ran"));
    let mut python: Vec<String> = Vec::new();
    let mut cargo: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // A Rust test module stands for the tests a macro writes in it: selected by prefix, so
    // its package's line cannot use `--exact`.
    let mut by_prefix: std::collections::BTreeSet<String> = Default::default();
    for test in chosen {
        let listed = if test.symbol.path.ends_with(".py") {
            &mut python
        } else if let Some(package) = cargo_package_of(root, &test.symbol.path) {
            if test.symbol.kind == "module" {
                by_prefix.insert(package.clone());
            }
            cargo.entry(package).or_default()
        } else {
            continue;
        };
        for id in &test.test_ids {
            if !listed.contains(id) {
                listed.push(id.clone());
            }
        }
    }
    let mut lines = Vec::new();
    if !python.is_empty() {
        lines.push(format!("python -m pytest {}", shell_words(&python)));
    }
    for (package, ids) in cargo {
        let exact = if by_prefix.contains(&package) { "" } else { "--exact " };
        lines.push(format!(
            "cargo test -p {} -- {exact}{}",
            shell_word(&package),
            shell_words(&ids)
        ));
    }
    if lines.is_empty() {
        return Err("no test to run".to_string());
    }
    Ok(lines)
}

/// The `[package] name` of the nearest `Cargo.toml` above a repository-relative file.
fn cargo_package_of(root: &Path, path: &str) -> Option<String> {
    let mut folder = root.join(path);
    while folder.pop() && folder.starts_with(root) {
        let Ok(manifest) = std::fs::read_to_string(folder.join("Cargo.toml")) else { continue };
        let Ok(parsed) = manifest.parse::<toml::Table>() else { continue };
        if let Some(name) = parsed.get("package").and_then(|package| package.get("name")) {
            return name.as_str().map(str::to_string);
        }
    }
    None
}

fn shell_words(words: &[String]) -> String {
    words.iter().map(|word| shell_word(word)).collect::<Vec<_>>().join(" ")
}

/// A word as a POSIX shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word.chars().all(|c| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}
