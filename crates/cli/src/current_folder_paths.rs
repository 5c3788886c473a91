//! Paths a person types are relative to the current folder, as in every command-line tool;
//! the daemon reads them relative to the repository's root, or absolute. A typed path (or the
//! path of a `path:line` address) that names a file from the current folder is sent absolute,
//! so `tether callers core.py:12` works from inside `app/`; any other text is sent as typed
//! (a repository-relative path, a qualified name, an id). A folder (`lookup --folder`) is
//! sent repository-relative, the prefix the daemon filters by.

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
    let is_number = |text: &str| text.parse::<u32>().is_ok();
    // `path:line:column`, then `path:line`.
    let (path, position) = match address.rsplitn(3, ':').collect::<Vec<_>>()[..] {
        [column, line, path] if is_number(column) && is_number(line) => {
            (path, format!("{line}:{column}"))
        }
        _ => match address.rsplit_once(':') {
            Some((path, line)) if is_number(line) => (path, line.to_string()),
            _ => return address.to_string(),
        },
    };
    if path.is_empty() {
        return address.to_string();
    }
    format!("{}:{position}", path_from_current_folder(path))
}

/// A folder (`lookup --folder`) as the repository-relative prefix the daemon filters by, when
/// it names a folder inside `root` from the current folder (or absolutely); else as typed.
pub(crate) fn folder_from_current_folder(folder: &str, root: &Path) -> String {
    let Ok(absolute) = Path::new(folder).canonicalize() else { return folder.to_string() };
    if !absolute.is_dir() {
        return folder.to_string();
    }
    match absolute.strip_prefix(root) {
        Ok(relative) if relative.as_os_str().is_empty() => ".".to_string(),
        Ok(relative) => relative.display().to_string(),
        Err(_) => folder.to_string(),
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
        assert_eq!(
            address_from_current_folder("./Cargo.toml:3:14"),
            format!("{}:3:14", manifest.display())
        );
        assert_eq!(address_from_current_folder("app/core.py:3:14"), "app/core.py:3:14");
        assert_eq!(address_from_current_folder("app.core.compute"), "app.core.compute");
        assert_eq!(address_from_current_folder("Cargo.toml"), "Cargo.toml");
        assert_eq!(path_from_current_folder("/etc/hostname"), "/etc/hostname");
        // A folder is not a file: sent as typed.
        assert_eq!(path_from_current_folder("src"), "src");
    }

    #[test]
    fn folders_from_here_become_repository_relative_and_others_stay() {
        let here = std::env::current_dir().unwrap().canonicalize().unwrap();
        let root = here.parent().unwrap();
        let name = here.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(folder_from_current_folder(".", root), name);
        assert_eq!(folder_from_current_folder("src", root), format!("{name}/src"));
        assert_eq!(folder_from_current_folder(&here.display().to_string(), &here), ".");
        assert_eq!(folder_from_current_folder("not/a/folder", root), "not/a/folder");
        assert_eq!(folder_from_current_folder("/", &here), "/");
    }
}
