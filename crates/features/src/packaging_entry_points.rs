//! The entry points a Python project's packaging declares, which code outside the project
//! calls by name: console and GUI scripts and plugin entry points (`[project.scripts]`,
//! `[project.gui-scripts]`, `[project.entry-points.<group>]` and Poetry's
//! `[tool.poetry.scripts]` in `pyproject.toml`; `[options.entry_points]` in `setup.cfg`;
//! `"name = module:attribute"` strings in `setup.py`). Each is given as the dotted name the
//! graph gives its target (`pkg.cli:main` is `pkg.cli.main`; a plugin naming a module,
//! `pkg.plugin`, is the module).
//!
//! Only the repository's root is read, each file at most [`MAX_PACKAGING_FILE_BYTES`] and only
//! when it is a regular file inside the repository (links resolved); a file that cannot be
//! read or parsed is a problem, never an error: the entry points found elsewhere still count,
//! and `health` keeps Python definitions from `dead` while a problem stands. It does not run `setup.py`: entry
//! points it computes are not seen.

use std::io::Read;
use std::path::Path;

/// Larger packaging files are not read (a `pyproject.toml` is a few kilobytes).
pub const MAX_PACKAGING_FILE_BYTES: u64 = 1 << 20;

/// What the packaging files declare.
#[derive(Clone, Default, PartialEq, Debug)]
pub struct DeclaredEntryPoints {
    /// Dotted names (`pkg.cli.main`, `pkg.plugin`), sorted, each once.
    pub targets: Vec<String>,
    /// A file that could not be read or parsed, and why.
    pub problems: Vec<String>,
}

/// The entry points declared by the packaging files at `root`.
pub fn declared_entry_points(root: &Path) -> DeclaredEntryPoints {
    let mut declared = DeclaredEntryPoints::default();
    let mut read = |name: &str, parse: fn(&str, &mut Vec<String>) -> Result<(), String>| {
        match read_small_file(root, name) {
            Ok(None) => {}
            Ok(Some(text)) => {
                if let Err(problem) = parse(&text, &mut declared.targets) {
                    declared.problems.push(format!("{name}: {problem}"));
                }
            }
            Err(problem) => declared.problems.push(format!("{name}: {problem}")),
        }
    };
    read("pyproject.toml", pyproject_entry_points);
    read("setup.cfg", setup_cfg_entry_points);
    read("setup.py", setup_py_entry_points);
    declared.targets.sort();
    declared.targets.dedup();
    declared
}

/// The file's text; `None` when there is no such file. A link must resolve inside `root`;
/// the file is opened without blocking and checked on the open handle, so a FIFO or a device
/// swapped in after the check cannot hold the request.
fn read_small_file(root: &Path, name: &str) -> Result<Option<String>, String> {
    use std::os::unix::fs::OpenOptionsExt;
    let path = root.join(name);
    match std::fs::symlink_metadata(&path) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error.to_string()),
        Ok(_) => {}
    }
    let resolved = path.canonicalize().map_err(|error| error.to_string())?;
    let root = root.canonicalize().map_err(|error| error.to_string())?;
    if !resolved.starts_with(&root) {
        return Err("a link out of the repository; not read".to_string());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(&resolved)
        .map_err(|error| error.to_string())?;
    let metadata = file.metadata().map_err(|error| error.to_string())?;
    if !metadata.is_file() {
        return Err("not a regular file; not read".to_string());
    }
    if metadata.len() > MAX_PACKAGING_FILE_BYTES {
        return Err(format!("{} bytes, over {MAX_PACKAGING_FILE_BYTES}; not read", metadata.len()));
    }
    let mut text = String::new();
    file.take(MAX_PACKAGING_FILE_BYTES)
        .read_to_string(&mut text)
        .map_err(|error| error.to_string())?;
    Ok(Some(text))
}

/// `module:attribute [extra]` (or a bare `module`) as the graph's dotted name.
fn dotted_target(reference: &str) -> Option<String> {
    let reference = reference.split('[').next()?.trim();
    let (module, attribute) = match reference.split_once(':') {
        Some((module, attribute)) => (module.trim(), Some(attribute.trim())),
        None => (reference, None),
    };
    let is_dotted_name = |text: &str| {
        !text.is_empty()
            && text.split('.').all(|part| {
                !part.is_empty()
                    && !part.starts_with(|first: char| first.is_ascii_digit())
                    && part.chars().all(|character| character.is_alphanumeric() || character == '_')
            })
    };
    if !is_dotted_name(module) || attribute.is_some_and(|attribute| !is_dotted_name(attribute)) {
        return None;
    }
    Some(match attribute {
        Some(attribute) => format!("{module}.{attribute}"),
        None => module.to_string(),
    })
}

fn pyproject_entry_points(text: &str, targets: &mut Vec<String>) -> Result<(), String> {
    let document: toml::Table =
        text.parse().map_err(|error: toml::de::Error| error.message().to_string())?;
    let table = |value: Option<&toml::Value>| value.and_then(toml::Value::as_table).cloned();
    let project = table(document.get("project"));
    let mut groups: Vec<toml::Table> = Vec::new();
    if let Some(project) = &project {
        groups.extend(table(project.get("scripts")));
        groups.extend(table(project.get("gui-scripts")));
        if let Some(entry_points) = table(project.get("entry-points")) {
            groups.extend(entry_points.values().filter_map(|group| group.as_table().cloned()));
        }
    }
    let poetry = table(document.get("tool")).and_then(|tool| table(tool.get("poetry")));
    groups.extend(poetry.and_then(|poetry| table(poetry.get("scripts"))));
    for group in groups {
        for value in group.values() {
            // Poetry also allows `{ reference = "pkg:main", type = "console" }`.
            let reference = value
                .as_str()
                .or_else(|| value.get("reference").and_then(toml::Value::as_str))
                .or_else(|| value.get("callable").and_then(toml::Value::as_str));
            targets.extend(reference.and_then(dotted_target));
        }
    }
    Ok(())
}

/// `[options.entry_points]`: `group =` lines, each followed by indented `name = target` lines.
fn setup_cfg_entry_points(text: &str, targets: &mut Vec<String>) -> Result<(), String> {
    let mut in_section = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_section = trimmed == "[options.entry_points]";
            continue;
        }
        if !in_section || trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        // `group = name = target` on one line, or a continuation line `name = target`.
        let value = match line.starts_with(char::is_whitespace) {
            true => trimmed.split_once('=').map(|(_, target)| target),
            false => trimmed
                .split_once('=')
                .and_then(|(_, rest)| rest.split_once('='))
                .map(|(_, target)| target),
        };
        targets.extend(value.and_then(dotted_target));
    }
    Ok(())
}

/// Strings of the form `"name = module:attribute"` (what `entry_points=` lists hold).
fn setup_py_entry_points(text: &str, targets: &mut Vec<String>) -> Result<(), String> {
    for quote in ['"', '\''] {
        for (index, literal) in text.split(quote).enumerate() {
            // Odd pieces are inside quotes (a rough split; a miss only loses an entry point).
            if index % 2 == 1 && literal.len() < 300 && literal.contains(':') {
                if let Some((_, target)) = literal.split_once('=') {
                    targets.extend(dotted_target(target));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn declared(files: &[(&str, &str)]) -> DeclaredEntryPoints {
        let folder = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(folder.path().join(name), text).unwrap();
        }
        declared_entry_points(folder.path())
    }

    #[test]
    fn scripts_gui_scripts_plugins_and_poetry_scripts_are_entry_points() {
        let found = declared(&[(
            "pyproject.toml",
            r#"
[project]
name = "tool"
[project.scripts]
tool = "tool.cli:main"
[project.gui-scripts]
tool-gui = "tool.gui:App.run [gui]"
[project.entry-points.pytest11]
tool = "tool.plugin"
[tool.poetry.scripts]
legacy = "tool.legacy:start"
other = { reference = "tool.other:go", type = "console" }
"#,
        )]);
        assert_eq!(
            found.targets,
            [
                "tool.cli.main",
                "tool.gui.App.run",
                "tool.legacy.start",
                "tool.other.go",
                "tool.plugin"
            ]
        );
        assert!(found.problems.is_empty());
    }

    #[test]
    fn setup_cfg_and_setup_py_entry_points_are_read() {
        let found = declared(&[
            (
                "setup.cfg",
                "[metadata]\nname = x\n[options.entry_points]\nconsole_scripts =\n    x = x.cli:main\n# a comment\nx.plugins = y = x.plug:hook\n[other]\nz = x.no:thing\n",
            ),
            ("setup.py", "setup(entry_points={'console_scripts': ['x2 = x.cli2:run', \"bad = not a target\"]})"),
        ]);
        assert_eq!(found.targets, ["x.cli.main", "x.cli2.run", "x.plug.hook"]);
    }

    #[test]
    fn a_broken_or_hostile_packaging_file_is_a_problem_and_the_others_still_count() {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("pyproject.toml"), "[project\nscripts = ").unwrap();
        std::fs::write(
            folder.path().join("setup.cfg"),
            "[options.entry_points]\nconsole_scripts =\n    x = x.cli:main\n",
        )
        .unwrap();
        // A FIFO named setup.py is never opened (opening it would block).
        let fifo =
            std::ffi::CString::new(folder.path().join("setup.py").to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let found = declared_entry_points(folder.path());
        assert_eq!(found.targets, ["x.cli.main"]);
        assert_eq!(found.problems.len(), 2, "{:?}", found.problems);
        assert!(found.problems[0].starts_with("pyproject.toml: "), "{:?}", found.problems);
        assert_eq!(found.problems[1], "setup.py: not a regular file; not read");
    }

    #[test]
    fn a_link_out_of_the_repository_is_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(
            outside.path().join("pyproject.toml"),
            "[project.scripts]\nx = \"x:main\"\n",
        )
        .unwrap();
        let folder = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("pyproject.toml"),
            folder.path().join("pyproject.toml"),
        )
        .unwrap();
        let found = declared_entry_points(folder.path());
        assert!(found.targets.is_empty());
        assert_eq!(found.problems, ["pyproject.toml: a link out of the repository; not read"]);
    }

    #[test]
    fn a_huge_packaging_file_is_not_read() {
        let folder = tempfile::tempdir().unwrap();
        let file = std::fs::File::create(folder.path().join("pyproject.toml")).unwrap();
        file.set_len(MAX_PACKAGING_FILE_BYTES + 1).unwrap();
        let found = declared_entry_points(folder.path());
        assert!(found.targets.is_empty());
        assert!(found.problems[0].contains("not read"), "{:?}", found.problems);
    }
}
