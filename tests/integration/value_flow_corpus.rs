//! The value-flow corpus (`tests/corpus/value_flow/{python,rust}/*.fixture`): small programs
//! per idiom with their exact call graphs, scored with precision, recall and the share of call
//! lines resolved exactly, per category. The scores and every line that is not exact are a
//! snapshot (`tests/corpus/value_flow/scores.txt`), so a change that moves a score, either
//! way, shows in review; `UPDATE_EXPECT=1` rewrites it. docs/value-flow-corpus.md's table is this file's.

use std::path::{Path, PathBuf};

use expect_test::expect_file;
use tether_tests::{corpus_fixture, score_corpus_program, CorpusScore};

const LANGUAGES: [&str; 2] = ["python", "rust"];

fn corpus_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/value_flow")
}

/// The corpus files of a language, sorted.
fn corpus_files(language: &str) -> Vec<PathBuf> {
    let folder = corpus_folder().join(language);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "fixture"))
        .collect();
    files.sort();
    files
}

fn score_line(language: &str, category: &str, score: &CorpusScore) -> String {
    format!(
        "| {language} | {category} | {} | {} | {:.3} | {:.3} | {:.3} |",
        score.sites,
        score.exact_sites,
        score.exact_share(),
        score.precision(),
        score.recall()
    )
}

#[test]
fn value_flow_corpus_scores() {
    let mut table = vec![
        "| language | category | call lines | exact | exact share | precision | recall |"
            .to_string(),
        "|---|---|---|---|---|---|---|".to_string(),
    ];
    let mut details = Vec::new();
    for language in LANGUAGES {
        let mut total = CorpusScore::default();
        for file in corpus_files(language) {
            let category = file.file_stem().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&file).unwrap();
            let fixture = corpus_fixture(&text);
            assert!(
                !fixture.expected_calls().is_empty(),
                "{}: a corpus program without call markers",
                file.display()
            );
            let score = score_corpus_program(&fixture);
            table.push(score_line(language, &category, &score));
            details.extend(
                score.mismatches.iter().map(|line| format!("{language}/{category} {line}")),
            );
            total.add(&score);
        }
        table.push(score_line(language, "**all**", &total));
    }
    let rendered =
        format!("{}\n\nLines not resolved exactly:\n{}\n", table.join("\n"), details.join("\n"));
    expect_file!["../corpus/value_flow/scores.txt"].assert_eq(&rendered);
}
