//! Walking the working tree: source files by language (honouring .gitignore), the folders
//! that are Python packages, and the Rust crates the Cargo manifests declare.

use std::collections::HashSet;
use std::path::Path;

use tether_config::PathExclusions;
use tether_extract::RustCrate;
use tether_model::Language;

/// What the walk found.
#[derive(Clone, Debug, Default)]
pub struct WalkedTree {
    /// Repository-relative, `/`-separated paths of source files, sorted.
    pub sources: Vec<(String, Language)>,
    /// Folders (repository-relative) that hold an `__init__.py`.
    pub python_packages: HashSet<String>,
    pub rust_crates: Vec<RustCrate>,
    /// Manifests that could not be read or parsed, with the reason.
    pub manifest_problems: Vec<(String, String)>,
    /// Folders and files the walk could not enter or read (permissions, a source name that is
    /// a FIFO or a device), with the reason: reported, never silently skipped.
    pub unreadable: Vec<(String, String)>,
}

/// The folders under `folder` (itself included, a folder of the tree at `root`) that
/// [`walk_tree`] enters: not ignored (the ignore files of `folder`'s parents apply too), not
/// left out by the configuration, not hidden, not behind a symlink. A watcher of the working
/// tree watches these.
pub fn walked_folders(
    root: &Path,
    folder: &Path,
    exclusions: &PathExclusions,
) -> Vec<std::path::PathBuf> {
    ignore::WalkBuilder::new(folder)
        .hidden(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(left_in(root, exclusions))
        .build()
        .flatten()
        .filter(|entry| entry.file_type().is_some_and(|file_type| file_type.is_dir()))
        .map(|entry| entry.into_path())
        .collect()
}

/// Walks `root`, honouring `.gitignore`, `.ignore` and git's exclude files even outside a
/// git repository, and the configuration's `index.exclude`, skipping hidden folders and never
/// following symlinks.
pub fn walk_tree(root: &Path, exclusions: &PathExclusions) -> WalkedTree {
    let mut tree = WalkedTree::default();
    let walker = ignore::WalkBuilder::new(root)
        .hidden(true)
        .require_git(false)
        .follow_links(false)
        .filter_entry(left_in(root, exclusions))
        .build();
    let mut manifests = Vec::new();
    for entry in walker {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                tree.unreadable.push(walk_error(root, &error));
                continue;
            }
        };
        let Ok(relative) = entry.path().strip_prefix(root) else { continue };
        let Some(relative) = relative.to_str().map(|path| path.replace('\\', "/")) else {
            continue;
        };
        let Some(file_type) = entry.file_type() else { continue };
        if !file_type.is_file() {
            // A FIFO, socket or device named like a source file is never opened.
            if !file_type.is_dir()
                && !file_type.is_symlink()
                && Language::from_path(&relative).is_some()
            {
                tree.unreadable.push((
                    relative,
                    "not a regular file (a FIFO, socket or device); not read".to_string(),
                ));
            }
            continue;
        }
        if relative.ends_with("Cargo.toml")
            && (relative == "Cargo.toml" || relative.ends_with("/Cargo.toml"))
        {
            manifests.push(relative.clone());
        }
        if let Some(language) = Language::from_path(&relative) {
            if language == Language::Python && relative.ends_with("__init__.py") {
                let folder = relative
                    .rsplit_once('/')
                    .map(|(folder, _)| folder.to_string())
                    .unwrap_or_default();
                tree.python_packages.insert(folder);
            }
            tree.sources.push((relative, language));
        }
    }
    tree.sources.sort();
    manifests.sort();
    for manifest in manifests {
        match read_crate_name(&root.join(&manifest)) {
            Ok(Some(manifest_crates)) => {
                let directory =
                    manifest.strip_suffix("Cargo.toml").unwrap_or("").trim_end_matches('/');
                for mut rust_crate in manifest_crates {
                    rust_crate.directory = [directory, rust_crate.directory.as_str()]
                        .iter()
                        .filter(|part| !part.is_empty())
                        .copied()
                        .collect::<Vec<_>>()
                        .join("/");
                    tree.rust_crates.push(rust_crate);
                }
            }
            Ok(None) => {}
            Err(reason) => tree.manifest_problems.push((manifest, reason)),
        }
    }
    tree
}

/// The path and reason of a walk error (`ignore` wraps the IO error with the path).
/// The walk's filter: an entry the configuration leaves out is pruned, a folder with all it
/// holds.
fn left_in(
    root: &Path,
    exclusions: &PathExclusions,
) -> impl Fn(&ignore::DirEntry) -> bool + Send + Sync + 'static {
    let (root, exclusions) = (root.to_path_buf(), exclusions.clone());
    move |entry| {
        if exclusions.is_empty() {
            return true;
        }
        let Ok(relative) = entry.path().strip_prefix(&root) else { return true };
        let Some(relative) = relative.to_str() else { return true };
        let is_folder = entry.file_type().is_some_and(|file_type| file_type.is_dir());
        !exclusions.excludes(&relative.replace('\\', "/"), is_folder)
    }
}

fn walk_error(root: &Path, error: &ignore::Error) -> (String, String) {
    fn path_of(error: &ignore::Error) -> Option<&Path> {
        match error {
            ignore::Error::WithPath { path, .. } => Some(path),
            ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
                path_of(err)
            }
            ignore::Error::Loop { child, .. } => Some(child),
            _ => None,
        }
    }
    let path = path_of(error)
        .map(|path| path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    (path, format!("cannot walk: {error}"))
}

/// The crate name code uses in paths: `[lib] name`, else `[package] name` with `-` as `_`.
/// `None` for a virtual workspace manifest.
/// The crates of one manifest, with directories relative to the manifest's folder: the
/// package (with the one `[[test]]` root in `tests/` when `autotests = false`, see
/// [`RustCrate::tests_root`]), and each `[lib]` or `[[bin]]` whose root file is outside `src/`.
fn read_crate_name(manifest: &Path) -> Result<Option<Vec<RustCrate>>, String> {
    let text = std::fs::read_to_string(manifest).map_err(|error| error.to_string())?;
    let value: toml::Table =
        text.parse().map_err(|error: toml::de::Error| error.message().to_string())?;
    let lib_name = value.get("lib").and_then(|lib| lib.get("name")).and_then(|name| name.as_str());
    let package = value.get("package");
    let package_name =
        package.and_then(|package| package.get("name")).and_then(|name| name.as_str());
    let autotests = package
        .and_then(|package| package.get("autotests"))
        .and_then(|autotests| autotests.as_bool())
        .unwrap_or(true);
    let test_roots: Vec<&str> = value
        .get("test")
        .and_then(|tests| tests.as_array())
        .into_iter()
        .flatten()
        .filter_map(|test| test.get("path").and_then(|path| path.as_str()))
        .filter_map(|path| path.strip_prefix("tests/").and_then(|file| file.strip_suffix(".rs")))
        .filter(|stem| !stem.contains('/'))
        .collect();
    let tests_root = match (autotests, test_roots.as_slice()) {
        (false, [only]) => Some(only.to_string()),
        _ => None,
    };
    let Some(name) = lib_name.or(package_name).map(|name| name.replace('-', "_")) else {
        return Ok(None);
    };
    let mut crates = vec![RustCrate {
        name: name.clone(),
        directory: String::new(),
        tests_root,
        root_file: None,
    }];
    let lib = value.get("lib").map(|lib| (name.as_str(), lib));
    let bins = value
        .get("bin")
        .and_then(|bins| bins.as_array())
        .into_iter()
        .flatten()
        .filter_map(|bin| Some((bin.get("name")?.as_str()?, bin)));
    for (target_name, target) in lib.into_iter().chain(bins) {
        let Some(path) = target.get("path").and_then(|path| path.as_str()) else { continue };
        let Some((folder, file)) = path.rsplit_once('/') else { continue };
        if folder == "src" || folder.starts_with("src/") {
            continue;
        }
        let Some(stem) = file.strip_suffix(".rs") else { continue };
        crates.push(RustCrate {
            name: target_name.replace('-', "_"),
            directory: folder.to_string(),
            tests_root: None,
            root_file: Some(stem.to_string()),
        });
    }
    Ok(Some(crates))
}
