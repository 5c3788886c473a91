//! Checking a path a request names: it must name something inside the repository's working
//! tree (the request's shape was checked when it was parsed: `protocol::requests`).

use std::path::{Component, Path};

use crate::FeatureError;

/// What a checked path must name besides lying inside the tree.
#[derive(Clone, Copy, PartialEq, Eq)]
enum PathMustName {
    /// Anything, or nothing yet (a buffer of a file not saved, a folder to scope to).
    AnythingInsideTheTree,
    /// An existing regular file (not a FIFO, a device or a folder): what is read.
    AnExistingRegularFile,
}

/// A path named by a request, as a repository-relative `/`-separated path. Relative paths are
/// taken from the repository root; absolute ones must lie inside it. `..` may not climb out,
/// and a path that exists must resolve (through links) inside the root. It need not exist:
/// [`repository_file`] is for a path that is read.
pub fn repository_path(root: &Path, path: &str) -> Result<String, FeatureError> {
    checked_repository_path(root, path, PathMustName::AnythingInsideTheTree)
}

/// A path named by a request that is read: as [`repository_path`], and it must exist and be a
/// regular file (not a FIFO, a device or a folder).
pub fn repository_file(root: &Path, path: &str) -> Result<String, FeatureError> {
    checked_repository_path(root, path, PathMustName::AnExistingRegularFile)
}

fn checked_repository_path(
    root: &Path,
    path: &str,
    must_name: PathMustName,
) -> Result<String, FeatureError> {
    let must_be_file = must_name == PathMustName::AnExistingRegularFile;
    let refuse = |why: &str| {
        FeatureError::refused(format!(
            "{path:?} {why}; paths name files of this repository, relative to its root"
        ))
    };
    if path.is_empty() || path.contains('\0') {
        return Err(refuse("is not a path"));
    }
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let candidate = Path::new(path);
    let relative = if candidate.is_absolute() {
        match candidate.strip_prefix(&root) {
            Ok(relative) => relative.to_path_buf(),
            Err(_) => {
                let resolved =
                    candidate.canonicalize().map_err(|_| refuse("is outside the repository"))?;
                resolved
                    .strip_prefix(&root)
                    .map_err(|_| refuse("is outside the repository"))?
                    .to_path_buf()
            }
        }
    } else {
        candidate.to_path_buf()
    };
    let mut parts: Vec<String> = Vec::new();
    for component in relative.components() {
        match component {
            Component::CurDir => {}
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::ParentDir => {
                if parts.pop().is_none() {
                    return Err(refuse("climbs out of the repository"));
                }
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(refuse("is not a repository path"))
            }
        }
    }
    if parts.is_empty() {
        return Err(refuse("names the repository itself, not a file"));
    }
    let normalized = parts.join("/");
    let full = root.join(&normalized);
    match std::fs::symlink_metadata(&full) {
        Ok(_) => {
            let resolved = full
                .canonicalize()
                .map_err(|_| refuse("cannot be resolved (a dangling link or a link loop)"))?;
            if !resolved.starts_with(&root) {
                return Err(refuse("leads outside the repository through a link"));
            }
            let metadata = std::fs::metadata(&resolved).map_err(|_| refuse("cannot be read"))?;
            if must_be_file && !metadata.file_type().is_file() {
                return Err(refuse("is not a regular file"));
            }
        }
        Err(_) if must_be_file => return Err(refuse("does not exist")),
        // A file the graph may still know (deleted since it was indexed), or one an editor has
        // not saved yet: its deepest existing folder must still be inside (a dangling link to
        // a folder outside is not).
        Err(_) => {
            let deepest =
                full.ancestors().skip(1).find(|folder| std::fs::symlink_metadata(folder).is_ok());
            let inside = deepest
                .and_then(|folder| folder.canonicalize().ok())
                .is_some_and(|folder| folder.starts_with(&root));
            if !inside {
                return Err(refuse("leads outside the repository through a link"));
            }
        }
    }
    Ok(normalized)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_stay_inside_the_repository_and_name_regular_files() {
        let scratch = tempfile::tempdir().unwrap();
        let root = scratch.path().join("repo");
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.py"), "x = 1\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", root.join("out")).unwrap();
        std::os::unix::fs::symlink("a.py", root.join("src/inside")).unwrap();
        let fifo = root.join("pipe");
        let fifo_name = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: a valid NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo_name.as_ptr(), 0o600) }, 0);

        let ok = |path: &str, file: bool| {
            let checked =
                if file { repository_file(&root, path) } else { repository_path(&root, path) };
            checked.map_err(|error| error.to_string())
        };
        assert_eq!(ok("src/a.py", true), Ok("src/a.py".to_string()));
        assert_eq!(ok("./src/../src/a.py", true), Ok("src/a.py".to_string()));
        assert_eq!(
            ok(&root.join("src/a.py").display().to_string(), true),
            Ok("src/a.py".to_string())
        );
        assert_eq!(ok("src/inside", true), Ok("src/inside".to_string()));
        assert_eq!(ok("src/gone.py", false), Ok("src/gone.py".to_string()));
        assert_eq!(ok("src/new/deeper/b.py", false), Ok("src/new/deeper/b.py".to_string()));
        // A file not on disk behind a dangling link to a folder outside is outside.
        std::os::unix::fs::symlink(scratch.path().join("elsewhere"), root.join("src/away"))
            .unwrap();
        let refused = ok("src/away/new.py", false).unwrap_err();
        assert!(refused.contains("outside the repository through a link"), "{refused}");
        assert!(ok("src/away", false).unwrap_err().contains("cannot be resolved"));
        for (path, why) in [
            ("/etc/shadow", "outside the repository"),
            ("/dev/zero", "outside the repository"),
            ("../repo/src/a.py", "climbs out"),
            ("out", "outside the repository through a link"),
            ("pipe", "not a regular file"),
            ("src", "not a regular file"),
            ("src/gone.py", "does not exist"),
            ("", "not a path"),
        ] {
            let refused = ok(path, true).unwrap_err();
            assert!(refused.contains(why), "{path}: {refused}");
        }
    }
}
