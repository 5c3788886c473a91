//! Paths a person types are relative to the current folder, as in every command-line tool;
//! the daemon reads them relative to the repository's root, or absolute. A typed path (or the
//! path of a `path:line` address) that names a file from the current folder is sent absolute,
//! so `tether callers core.py:12` works from inside `app/`; any other text is sent as typed
//! (a repository-relative path, a qualified name, an id).

use std::path::Path;

/// `path` absolute when it names a file from the current folder, else as typed.
pub(crate) fn path_from_current_folder(path: &str) -> String {
    let candidate = Path::new(path);
    if candidate.is_absolute() {
        return path.to_string();
    }
    match candidate.canonicalize() {
        Ok(absolute) if absolute.is_file() => absolute.display().to_string(),
        _ => path.to_string(),
    }
}

/// A `path:line` address with its path taken from the current folder (see
/// [`path_from_current_folder`]); other addresses as typed.
pub(crate) fn address_from_current_folder(address: &str) -> String {
    match address.rsplit_once(':') {
        Some((path, line)) if !path.is_empty() && line.parse::<u32>().is_ok() => {
            format!("{}:{line}", path_from_current_folder(path))
        }
        _ => address.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_paths_that_name_files_from_here_become_absolute_and_others_stay() {
        let here = std::env::current_dir().unwrap();
        let manifest = here.join("Cargo.toml").canonicalize().unwrap();
        assert_eq!(path_from_current_folder("Cargo.toml"), manifest.display().to_string());
        assert_eq!(
            address_from_current_folder("./Cargo.toml:3"),
            format!("{}:3", manifest.display())
        );
        assert_eq!(address_from_current_folder("app/core.py:3"), "app/core.py:3");
        assert_eq!(address_from_current_folder("app.core.compute"), "app.core.compute");
        assert_eq!(address_from_current_folder("Cargo.toml"), "Cargo.toml");
        assert_eq!(path_from_current_folder("/etc/hostname"), "/etc/hostname");
        // A folder is not a file: sent as typed.
        assert_eq!(path_from_current_folder("src"), "src");
    }
}
