//! Churn hotspots from a fixture repository's history: the file changed in the most commits
//! (followed through a rename) and the symbol in it that changed, bots' commits left out,
//! files that change together, a partial first answer that the background reading completes,
//! and churn outside git.

use std::time::{Duration, Instant};

use tether_model::Deadline;
use tether_protocol::json;
use tether_tests::{indexed_daemon, FixtureRepository};

const FIXTURE: &str = r#"
//- /app/__init__.py
//- /app/old_hot.py
def busy():
    return 0


def calm():
    return "calm"
//- /app/pair.py
VALUE = 0


def pair():
    return VALUE
//- /app/cool.py
def cool():
    return 0
//- /tests/test_hot.py
from app.old_hot import busy


def test_busy():
    assert busy() >= 0
"#;

fn hot_file(round: u32) -> String {
    format!("def busy():\n    return {round}\n\n\ndef calm():\n    return \"calm\"\n")
}

/// Twelve commits change `busy` (six before its file is renamed, six after), pair.py changes
/// with the first six, its test with the last six; a bot changes cool.py fifteen times, a
/// person once.
fn repository_with_history() -> FixtureRepository {
    let mut repository = FixtureRepository::new(FIXTURE);
    for round in 1..=6 {
        repository.write("app/old_hot.py", &hot_file(round));
        repository
            .write("app/pair.py", &format!("VALUE = {round}\n\n\ndef pair():\n    return VALUE\n"));
        repository.commit_all(&format!("busy and pair {round}"));
    }
    repository.git(&["mv", "app/old_hot.py", "app/hot.py"]);
    repository.commit_all("rename");
    for round in 7..=12 {
        repository.write("app/hot.py", &hot_file(round));
        // Tests change with what they test: never a hotspot, never change-coupled, helpers
        // of a test module included.
        repository.write(
            "tests/test_hot.py",
            &format!(
                "from app.hot import busy\n\n\ndef expected():\n    return {round}\n\n\ndef test_busy():\n    assert busy() == expected()\n"
            ),
        );
        repository.commit_all(&format!("busy {round}"));
    }
    for round in 1..=15 {
        repository.write("app/cool.py", &format!("def cool():\n    return {round}\n"));
        repository.commit_all_as(
            "dependabot[bot]",
            "49699333+dependabot[bot]@users.noreply.github.com",
            &format!("bump {round}"),
        );
    }
    repository.write("app/cool.py", "def cool():\n    return -1\n");
    repository.commit_all("cool by hand");
    repository
}

#[test]
fn the_file_changed_in_twelve_commits_is_the_top_hotspot_and_bots_do_not_count() {
    let repository = repository_with_history();
    let state = indexed_daemon(&repository);
    let answer = crate::handle_json(&state, "health", &json!({"kind": "churn"})).unwrap();
    let section = &answer["sections"][0];
    let hotspots: Vec<(&str, u64)> = section["churn"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hotspot| (hotspot["path"].as_str().unwrap(), hotspot["commits"].as_u64().unwrap()))
        .collect();
    // hot.py: its first commit, six before the rename, six after (the rename alone changes
    // no line); cool.py: its first commit and the person's, not the bot's fifteen.
    assert_eq!(hotspots, [("app/hot.py", 13), ("app/pair.py", 7), ("app/cool.py", 2)]);
    let hot = &section["churn"][0];
    assert_eq!(hot["hottest"][0]["qualified_name"], "app.hot.busy", "{hot}");
    assert_eq!(hot["hottest"][0]["commits"], 13, "{hot}");
    assert_eq!(hot["hottest"][0]["site"], "app/hot.py:1", "{hot}");
    assert_eq!(hot["hottest"][1]["qualified_name"], "app.hot.calm", "{hot}");
    assert_eq!(hot["hottest"][1]["commits"], 1, "{hot}");
    assert_eq!(
        hot["score"],
        hot["commits"].as_u64().unwrap() * hot["complexity"].as_u64().unwrap()
    );
    let note = section["note"].as_str().unwrap_or_default();
    assert!(note.contains("15 commits by bots left out (dependabot[bot])"), "{section}");
    assert_eq!(section["completeness"]["status"], "exact", "{section}");
    // Seven commits changed hot.py and pair.py together: 7 / mean(13, 7) = 70 %.
    let pair = &section["change_coupling"][0];
    assert_eq!(
        (pair["first"].as_str(), pair["second"].as_str()),
        (Some("app/hot.py"), Some("app/pair.py"))
    );
    assert_eq!(pair["together"], 7);
    assert_eq!(section["change_coupling_total"], 1);

    // The history is cached in the daemon's folder and read back by the next daemon.
    assert!(repository.root().join(".git/tether/churn-history.v1").is_file());
    drop(state);
    let again = indexed_daemon(&repository);
    let cached =
        crate::handle_json(&again, "health", &json!({"kind": "churn", "limit": 1})).unwrap();
    assert_eq!(cached["sections"][0]["churn"][0], answer["sections"][0]["churn"][0]);
    assert_eq!(cached["sections"][0]["next_cursor"], "o:1");

    // Fewer commits: the newest two changed only cool.py (one by the bot).
    let newest =
        crate::handle_json(&again, "health", &json!({"kind": "churn", "commits": 2})).unwrap();
    assert_eq!(newest["sections"][0]["total"], 0, "{newest}");
    assert_eq!(newest["sections"][0]["commits_counted"], 1, "{newest}");

    for params in [
        json!({"kind": "churn", "commits": 0}),
        json!({"kind": "churn", "commits": 100_001}),
        json!({"kind": "churn", "commits": "many"}),
    ] {
        let error = crate::handle_json(&again, "health", &params).unwrap_err();
        assert_eq!(error.code, -32602, "{params}: {}", error.message);
    }
}

#[test]
fn a_read_cut_short_is_labelled_partial_and_the_background_reading_completes_it() {
    let repository = repository_with_history();
    let folder = repository.root().join(".git/tether");
    std::fs::create_dir_all(&folder).unwrap();
    let cache = std::sync::Arc::new(tether_features::ChurnHistoryCache::default());
    let read = |budget: Duration| {
        tether_features::read_history(
            &cache,
            repository.root(),
            &folder,
            500,
            &[],
            Deadline::after(budget),
        )
    };
    // No time at all: nothing is read, and the answer says it is cut short.
    match read(Duration::ZERO) {
        tether_features::HistoryRead::Read { history, read, cut_short, .. } => {
            assert!(cut_short);
            assert_eq!(read, 0);
            assert!(history.commits.is_empty());
        }
        other => panic!("{other:?}"),
    }
    let started = Instant::now();
    loop {
        if let tether_features::HistoryRead::Read { history, read, cut_short: false, note } =
            read(Duration::ZERO)
        {
            // 1 + 6 + 1 + 6 + 1 commits by people; the bot's are counted in the note.
            assert_eq!((history.commits.len(), read), (15, 30));
            assert!(history.reached_root);
            assert!(note.unwrap_or_default().contains("15 commits by bots"));
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the background reading finishes");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn outside_git_churn_says_so() {
    let folder = tempfile::tempdir().unwrap();
    let cache = std::sync::Arc::new(tether_features::ChurnHistoryCache::default());
    let read = tether_features::read_history(
        &cache,
        folder.path(),
        &folder.path().join("state"),
        500,
        &[],
        Deadline::after(Duration::from_secs(5)),
    );
    match read {
        tether_features::HistoryRead::Unavailable(note) => {
            assert!(note.contains("not a git repository"), "{note}")
        }
        other => panic!("a temporary folder outside any repository has no history: {other:?}"),
    }
}
