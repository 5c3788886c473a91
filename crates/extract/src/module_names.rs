//! Module names from paths: Python's dotted names from the package root, Rust's crate paths.
//!
//! Pure functions over paths; the caller supplies what it learned from the file system
//! (which directories hold an `__init__.py`, which crates the Cargo manifests declare).

/// A Rust crate: its name (as used in paths, `-` replaced by `_`) and the directory of its
/// `Cargo.toml`, repository-relative (`""` for the root).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RustCrate {
    pub name: String,
    pub directory: String,
    /// With `autotests = false` and one `[[test]]` target in `tests/` (`tests/tests.rs`), the
    /// other files of `tests/` are that target's modules: its file stem (`tests`). The test
    /// crate is then named `{name}_{stem}`, so that two packages' `tests/tests.rs` differ.
    pub tests_root: Option<String>,
    /// A target whose root file is not under `src/` (`[[bin]] path = "crates/core/main.rs"`):
    /// `directory` holds the root file (stem `main`), and its other files are its modules.
    pub root_file: Option<String>,
}

/// The dotted module name of a Python file.
///
/// The name counts from the outermost folder that holds an `__init__.py` (`is_package` says
/// so): `src/flask/sansio/app.py` is `flask.sansio.app` even though `sansio/` has no
/// `__init__.py` (a namespace portion inside a regular package). `pkg/__init__.py` is `pkg`.
/// A file with no package above it is named by its stem. A `src/` layout needs no special
/// case: `src/` holds no `__init__.py`.
pub fn python_module_name(path: &str, is_package: impl Fn(&str) -> bool) -> String {
    let without_extension = path.strip_suffix(".py").unwrap_or(path);
    let mut segments: Vec<&str> =
        without_extension.split('/').filter(|segment| !segment.is_empty()).collect();
    let is_init = segments.len() > 1 && segments.last() == Some(&"__init__");
    if is_init {
        segments.pop();
    }
    // The folders above the module: all segments for a package's __init__, else all but the file.
    let folder_count = if is_init { segments.len() } else { segments.len().saturating_sub(1) };
    for depth in 1..=folder_count {
        if is_package(&segments[..depth].join("/")) {
            return segments[depth - 1..].join(".");
        }
    }
    segments.last().map(|stem| stem.to_string()).unwrap_or_default()
}

/// The crate path of a Rust file's module (`my_crate::a::b`), given the workspace's crates.
///
/// `src/lib.rs` and `src/main.rs` are the crate root; `src/a/mod.rs` and `src/a.rs` are
/// `crate::a`. Files of `src/bin/`, `tests/`, `examples/` and `benches/` are crates of their
/// own, named after the file. A file in no crate is named after its path.
pub fn rust_module_path(path: &str, crates: &[RustCrate]) -> String {
    let owner = crates
        .iter()
        .filter(|candidate| {
            candidate.directory.is_empty() || path.starts_with(&format!("{}/", candidate.directory))
        })
        .max_by_key(|candidate| candidate.directory.len());
    let without_extension = path.strip_suffix(".rs").unwrap_or(path);
    let Some(owner) = owner else {
        return sanitize_segments(without_extension.split('/'));
    };
    let inside = if owner.directory.is_empty() {
        without_extension
    } else {
        &without_extension[owner.directory.len() + 1..]
    };
    let segments: Vec<&str> = inside.split('/').collect();
    if let Some(root_file) = owner.root_file.as_deref() {
        let mut rest: Vec<&str> =
            segments.into_iter().filter(|segment| !segment.is_empty()).collect();
        if rest == [root_file] || rest.last() == Some(&"mod") {
            rest.pop();
        }
        return sanitize_segments(std::iter::once(owner.name.as_str()).chain(rest));
    }
    match segments.as_slice() {
        ["src", "lib" | "main"] => owner.name.clone(),
        ["src", "bin", binary] => sanitize_segments([*binary].into_iter()),
        ["src", "bin", binary, "main"] => sanitize_segments([*binary].into_iter()),
        ["tests", rest @ ..] if owner.tests_root.is_some() && !rest.is_empty() => {
            let root = owner.tests_root.as_deref().unwrap_or_default();
            let mut rest: Vec<&str> =
                rest.iter().copied().filter(|segment| rest.len() > 1 || *segment != root).collect();
            if rest.last() == Some(&"mod") {
                rest.pop();
            }
            let crate_name = format!("{}_{root}", owner.name);
            sanitize_segments(std::iter::once(crate_name.as_str()).chain(rest))
        }
        ["tests" | "examples" | "benches", rest @ ..] if !rest.is_empty() => {
            let mut rest = rest.to_vec();
            if (rest.last() == Some(&"main") || rest.last() == Some(&"mod")) && rest.len() > 1 {
                rest.pop();
            }
            sanitize_segments(rest.into_iter())
        }
        ["src", rest @ ..] => {
            let mut rest = rest.to_vec();
            if rest.last() == Some(&"mod") {
                rest.pop();
            }
            let mut path = owner.name.clone();
            for segment in rest {
                path.push_str("::");
                path.push_str(&segment.replace('-', "_"));
            }
            path
        }
        ["build"] => format!("{}_build_script", owner.name),
        _ => sanitize_segments(inside.split('/')),
    }
}

fn sanitize_segments<'a>(segments: impl Iterator<Item = &'a str>) -> String {
    segments.map(|segment| segment.replace(['-', '.'], "_")).collect::<Vec<_>>().join("::")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_names_count_from_the_package_root() {
        let packages = ["src/pkg", "src/pkg/sub", "mypy", "mypy/server"];
        let is_package = |directory: &str| packages.contains(&directory);
        assert_eq!(python_module_name("src/pkg/mod.py", is_package), "pkg.mod");
        assert_eq!(python_module_name("src/pkg/sub/deep.py", is_package), "pkg.sub.deep");
        assert_eq!(python_module_name("src/pkg/__init__.py", is_package), "pkg");
        assert_eq!(python_module_name("src/pkg/sub/__init__.py", is_package), "pkg.sub");
        assert_eq!(python_module_name("mypy/server/update.py", is_package), "mypy.server.update");
        assert_eq!(python_module_name("setup.py", is_package), "setup");
        assert_eq!(python_module_name("scripts/tool.py", is_package), "tool");
        assert_eq!(python_module_name("__init__.py", is_package), "__init__");
        // A namespace folder inside a package keeps the package's prefix.
        assert_eq!(
            python_module_name("mypy/server/plain/deep.py", is_package),
            "mypy.server.plain.deep"
        );
    }

    #[test]
    fn rust_paths_follow_the_crate_layout() {
        let crates = [
            RustCrate {
                name: "root_crate".into(),
                directory: "".into(),
                tests_root: None,
                root_file: None,
            },
            RustCrate {
                name: "my_lib".into(),
                directory: "crates/my-lib".into(),
                tests_root: None,
                root_file: None,
            },
        ];
        assert_eq!(rust_module_path("src/lib.rs", &crates), "root_crate");
        assert_eq!(rust_module_path("src/a/mod.rs", &crates), "root_crate::a");
        assert_eq!(rust_module_path("crates/my-lib/src/lib.rs", &crates), "my_lib");
        assert_eq!(rust_module_path("crates/my-lib/src/x/y.rs", &crates), "my_lib::x::y");
        assert_eq!(rust_module_path("crates/my-lib/src/bin/tool.rs", &crates), "tool");
        assert_eq!(rust_module_path("crates/my-lib/tests/it/main.rs", &crates), "it");
        assert_eq!(rust_module_path("crates/my-lib/build.rs", &crates), "my_lib_build_script");
        assert_eq!(rust_module_path("loose/file.rs", &[]), "loose::file");
    }
}
