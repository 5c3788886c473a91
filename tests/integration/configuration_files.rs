//! `.tether.toml` and the user's configuration file through the command line and the daemon:
//! paths left out of the graph (the walk, the daemon's changed files and its watcher), the
//! defaults of flags, `tether config`, and files refused with the key named (issue 42).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tether_tests::{FixtureRepository, StopDaemonOnDrop, APP_FIXTURE};

/// `tether ARGUMENTS` in `folder`, with the user's configuration folder `user_folder`.
fn tether(folder: &Path, user_folder: &Path, arguments: &[&str]) -> (i32, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_tether-test-cli"))
        .args(arguments)
        .current_dir(folder)
        .env("XDG_CONFIG_HOME", user_folder)
        .stdin(Stdio::null())
        .output()
        .expect("tether runs");
    (
        output.status.code().expect("tether exits"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn repository_with_vendored_code() -> FixtureRepository {
    let repository = FixtureRepository::new(APP_FIXTURE);
    repository.write(
        "vendor/lib.py",
        "from app.core import compute\n\ndef vendored(x):\n    return compute(x)\n",
    );
    repository
        .write(".tether.toml", "[index]\nexclude = [\"vendor/\"]\n\n[answers]\ntests_limit = 1\n");
    repository
}

#[test]
fn excluded_paths_stay_out_of_the_graph_and_config_says_where_each_value_came_from() {
    let repository = repository_with_vendored_code();
    let user = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(user.path().join("tether")).unwrap();
    std::fs::write(
        user.path().join("tether/config.toml"),
        "[answers]\ntests_limit = 7\nlimit = 3\n",
    )
    .unwrap();
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let (code, out, err) = tether(&root, user.path(), &["index"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("  files                4 "), "vendor/ is left out: {out}");
    let (code, out, _) = tether(&root, user.path(), &["lookup", "vendored", "--no-daemon"]);
    assert_eq!(code, 1, "{out}");
    // Callers stay what the project holds: the vendored caller is not one.
    let (code, out, _) =
        tether(&root, user.path(), &["callers", "app.core.compute", "--no-daemon"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("vendor"), "{out}");

    let (code, out, err) = tether(&root, user.path(), &["config"]);
    assert_eq!(code, 0, "{out}{err}");
    let repository_file = root.join(".tether.toml").display().to_string();
    let user_file = user.path().join("tether/config.toml").display().to_string();
    let line = |key: &str| {
        out.lines()
            .find(|line| line.starts_with(key))
            .unwrap_or_else(|| panic!("{key}: {out}"))
            .to_string()
    };
    assert!(line("index.exclude ").contains("[\"vendor/\"]"), "{out}");
    assert!(line("index.exclude ").ends_with(&repository_file), "{out}");
    // The repository's file wins over the user's; a key only the user set keeps the user's.
    assert!(line("answers.tests_limit ").contains(" 1 "), "{out}");
    assert!(line("answers.tests_limit ").ends_with(&repository_file), "{out}");
    assert!(line("answers.limit ").ends_with(&user_file), "{out}");
    assert!(line("answers.budget_tokens ").ends_with("default"), "{out}");
    assert!(out.contains(&format!("user file: {user_file} (read)")), "{out}");

    // The configured limits apply where no flag is given; a flag wins.
    let (code, out, _) = tether(&root, user.path(), &["lookup", "app", "--no-daemon", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"next_cursor\": \"o:3\""), "answers.limit is the page's limit: {out}");
    let (code, out, _) =
        tether(&root, user.path(), &["lookup", "app", "--no-daemon", "--json", "--limit", "5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\"next_cursor\": \"o:5\""), "{out}");
}

#[test]
fn the_daemon_leaves_excluded_files_out_of_its_changes_and_follows_an_edited_configuration() {
    let repository = repository_with_vendored_code();
    let user = tempfile::tempdir().unwrap();
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let (code, out, err) = tether(&root, user.path(), &["start"]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, _) = tether(&root, user.path(), &["lookup", "compute"]);
    assert_eq!(code, 0, "{out}");
    // A new file under vendor/ is not a change the graph lacks: answers stay exact.
    std::fs::write(root.join("vendor/more.py"), "def more():\n    return 1\n").unwrap();
    std::thread::sleep(Duration::from_millis(800));
    let (code, out, _) = tether(&root, user.path(), &["callers", "app.core.compute", "--json"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("vendor/more.py"), "{out}");
    assert!(out.contains("\"status\": \"exact\""), "{out}");
    // Editing .tether.toml rebuilds with it: app/api.py leaves the graph.
    std::fs::write(root.join(".tether.toml"), "[index]\nexclude = [\"vendor/\", \"app/api.py\"]\n")
        .unwrap();
    let started = Instant::now();
    loop {
        let (code, out, _) = tether(&root, user.path(), &["lookup", "app.api.handle"]);
        if code == 1 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(20), "never rebuilt: {out}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn an_unusable_configuration_is_a_usage_error_naming_the_file_and_key() {
    let repository = FixtureRepository::new(APP_FIXTURE);
    let user = tempfile::tempdir().unwrap();
    let root = repository.root().canonicalize().unwrap();
    let _stop_daemon = StopDaemonOnDrop(root.clone());
    let file = root.join(".tether.toml");
    for (text, expected) in [
        ("[index]\nexlude = [\"vendor/\"]\n", "unknown field `exlude`"),
        ("[answers]\nlimit = 0\n", "answers.limit = 0 is outside 1 to 200"),
        ("[answers]\nbudget_tokens = 5\n", "answers.budget_tokens = 5 is outside 300"),
        ("[lsp]\nlenses = { modules = false }\n", "lsp.lenses: unknown kind \"modules\""),
    ] {
        std::fs::write(&file, text).unwrap();
        for arguments in [&["config"][..], &["lookup", "compute"], &["index"]] {
            let (code, out, err) = tether(&root, user.path(), arguments);
            assert_eq!(code, 2, "{arguments:?} with {text:?}: {out}{err}");
            assert!(err.contains(&file.display().to_string()), "{err}");
            assert!(err.contains(expected), "{expected}: {err}");
        }
    }
    // Nothing was started or written by the refusals.
    assert!(!root.join(".git/tether/daemon.sock").exists());
}
