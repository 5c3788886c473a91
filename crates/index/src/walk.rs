//! Walking the working tree: source files by language (honouring .gitignore), the folders
//! that are Python packages, and the Rust crates the Cargo manifests declare.

use std::collections::HashSet;
use std::path::Path;

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
}

/// Walks `root`, honouring `.gitignore`, `.ignore` and git's exclude files even outside a
/// git repository, skipping hidden folders and never following symlinks.
pub fn walk_tree(root: &Path) -> WalkedTree {
    let mut tree = WalkedTree::default();
    let walker = ignore::WalkBuilder::new(root).hidden(true).require_git(false).follow_links(false).build();
    let mut manifests = Vec::new();
    for entry in walker.flatten() {
        if !entry.file_type().is_some_and(|file_type| file_type.is_file()) {
            continue;
        }
        let Ok(relative) = entry.path().strip_prefix(root) else { continue };
        let Some(relative) = relative.to_str().map(|path| path.replace('\\', "/")) else { continue };
        if relative.ends_with("Cargo.toml") && (relative == "Cargo.toml" || relative.ends_with("/Cargo.toml")) {
            manifests.push(relative.clone());
        }
        if let Some(language) = Language::from_path(&relative) {
            if language == Language::Python && relative.ends_with("__init__.py") {
                let folder = relative.rsplit_once('/').map(|(folder, _)| folder.to_string()).unwrap_or_default();
                tree.python_packages.insert(folder);
            }
            tree.sources.push((relative, language));
        }
    }
    tree.sources.sort();
    manifests.sort();
    for manifest in manifests {
        match read_crate_name(&root.join(&manifest)) {
            Ok(Some(name)) => {
                let directory = manifest.strip_suffix("Cargo.toml").unwrap_or("").trim_end_matches('/').to_string();
                tree.rust_crates.push(RustCrate { name, directory });
            }
            Ok(None) => {}
            Err(reason) => tree.manifest_problems.push((manifest, reason)),
        }
    }
    tree
}

/// The crate name code uses in paths: `[lib] name`, else `[package] name` with `-` as `_`.
/// `None` for a virtual workspace manifest.
fn read_crate_name(manifest: &Path) -> Result<Option<String>, String> {
    let text = std::fs::read_to_string(manifest).map_err(|error| error.to_string())?;
    let value: toml::Table = text.parse().map_err(|error: toml::de::Error| error.message().to_string())?;
    let lib_name = value.get("lib").and_then(|lib| lib.get("name")).and_then(|name| name.as_str());
    let package_name = value.get("package").and_then(|package| package.get("name")).and_then(|name| name.as_str());
    Ok(lib_name.or(package_name).map(|name| name.replace('-', "_")))
}
