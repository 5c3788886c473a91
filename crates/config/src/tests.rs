//! The files' merge, strictness and refusals.

use std::path::Path;

use super::*;

fn write(folder: &Path, name: &str, text: &str) -> PathBuf {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn the_repository_wins_over_the_user_and_lists_are_joined_with_their_sources() {
    let folder = tempfile::tempdir().unwrap();
    let user = write(
        folder.path(),
        "user.toml",
        "[answers]\nlimit = 5\ntests_limit = 7\n[ownership]\nexclude_authors = [\"ci-robot\"]\n[lsp]\nlenses = { class = false, method = false }\n",
    );
    let repository = write(
        folder.path(),
        ".tether.toml",
        "[index]\nexclude = [\"vendor/\"]\n[answers]\nlimit = 9\n[ownership]\nexclude_authors = [\"release-bot\"]\n[lsp]\nlenses = { method = true }\n",
    );
    let configuration = Configuration::load_files(Some(&user), &repository).unwrap();
    assert_eq!(configuration.limit, Setting { value: Some(9), sources: vec![repository.clone()] });
    assert_eq!(configuration.tests_limit, Setting { value: Some(7), sources: vec![user.clone()] });
    assert_eq!(configuration.budget_tokens.value, None);
    assert_eq!(configuration.budget_tokens.source_text(), "default");
    assert_eq!(configuration.exclude_authors.value, ["ci-robot", "release-bot"]);
    assert_eq!(configuration.exclude_authors.sources, [user.clone(), repository.clone()]);
    assert_eq!(
        configuration.lenses.value,
        [("class".to_string(), false), ("method".to_string(), true)]
    );
    assert_eq!(configuration.files_read, [user, repository]);
}

#[test]
fn no_file_is_the_default() {
    let folder = tempfile::tempdir().unwrap();
    let configuration =
        Configuration::load_files(None, &folder.path().join(".tether.toml")).unwrap();
    assert_eq!(configuration, Configuration::default());
}

#[test]
fn an_unknown_key_or_a_wrong_type_is_an_error_naming_the_file_line_and_key() {
    let folder = tempfile::tempdir().unwrap();
    let repository = write(folder.path(), ".tether.toml", "[index]\nexlude = [\"vendor/\"]\n");
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.starts_with(&format!("{}: line 2", repository.display())), "{error}");
    assert!(error.contains("unknown field `exlude`"), "{error}");
    assert!(error.contains("`exclude`"), "{error}");
    write(folder.path(), ".tether.toml", "[answer]\nlimit = 3\n");
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("unknown field `answer`"), "{error}");
    write(folder.path(), ".tether.toml", "[answers]\nlimit = \"ten\"\n");
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("line 2") && error.contains("invalid type"), "{error}");
    write(folder.path(), ".tether.toml", "[index]\nexclude = [\"a/{b\"]\n");
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("index.exclude: \"a/{b\" is not a .gitignore pattern"), "{error}");
}

#[test]
fn hostile_files_are_refused_without_being_read() {
    let folder = tempfile::tempdir().unwrap();
    let repository = folder.path().join(".tether.toml");
    // A folder, a device, a FIFO, a huge file, bytes that are not text.
    std::fs::create_dir(&repository).unwrap();
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_dir(&repository).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &repository).unwrap();
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_file(&repository).unwrap();
    let status = std::process::Command::new("mkfifo").arg(&repository).status().unwrap();
    assert!(status.success());
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("not a regular file"), "{error}");
    std::fs::remove_file(&repository).unwrap();
    std::fs::write(&repository, "# x\n".repeat(100_000)).unwrap();
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("over the 262144"), "{error}");
    std::fs::write(&repository, [0xff, 0xfe, 0x00]).unwrap();
    let error = Configuration::load_files(None, &repository).unwrap_err().to_string();
    assert!(error.contains("UTF-8"), "{error}");
    // Deeply nested values are a TOML error, not a stack overflow.
    std::fs::write(&repository, format!("x = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000)))
        .unwrap();
    assert!(Configuration::load_files(None, &repository).is_err());
}

#[test]
fn exclusions_match_paths_and_their_folders_as_gitignore_does() {
    let exclusions = PathExclusions::new(
        Path::new("/repo"),
        &["vendor/".to_string(), "*_pb2.py".to_string(), "!keep_pb2.py".to_string()],
    )
    .unwrap();
    assert!(exclusions.excludes("vendor", true));
    assert!(exclusions.excludes("vendor/lib/a.py", false));
    assert!(exclusions.excludes("app/schema_pb2.py", false));
    assert!(!exclusions.excludes("app/keep_pb2.py", false));
    assert!(!exclusions.excludes("app/vendor.py", false));
    assert!(!exclusions.excludes("", true));
    assert!(!PathExclusions::none().excludes("vendor/a.py", false));
}
