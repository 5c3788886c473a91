//! Where a repository's daemon keeps its files: database, socket, lock and log, all in the
//! git directory (`.git/tether/`, mode 0700), or `.tether/` outside git.
//!
//! The socket sits beside the database only when nobody else can create files in that folder
//! (and its path fits `sun_path`); otherwise it goes to this user's private runtime folder
//! (see [`crate::private_paths`]), under a name derived from the database folder. A socket in
//! a folder others can write to could be created first by someone else, who would then
//! receive this user's queries and `record` bodies.

use std::path::{Path, PathBuf};

use crate::private_paths;

/// A Unix socket path must fit `sun_path` (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH_BYTES: usize = 100;

#[derive(Clone, Debug)]
pub struct DaemonPaths {
    pub root: PathBuf,
    pub database: PathBuf,
    /// The folder holding the database, lock and log.
    pub folder: PathBuf,
    pub socket: PathBuf,
    pub lock: PathBuf,
    pub log: PathBuf,
}

impl DaemonPaths {
    /// The paths for the repository at `root`, with the database at `database`. Nothing is
    /// created; [`DaemonPaths::prepare`] does that.
    pub fn new(root: &Path, database: &Path) -> DaemonPaths {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let folder = database.parent().map(Path::to_path_buf).unwrap_or_else(|| root.clone());
        let socket = socket_path(&folder);
        DaemonPaths {
            root,
            database: database.to_path_buf(),
            socket,
            lock: folder.join("daemon.lock"),
            log: folder.join("daemon.log"),
            folder,
        }
    }

    /// Creates the daemon's folder (0700 when tether names it: `.git/tether`, `.tether`) and
    /// the socket's folder (always private), refusing a link or another user's folder there.
    pub fn prepare(&self) -> std::io::Result<()> {
        if is_tether_folder(&self.folder) {
            private_paths::ensure_private_folder(&self.folder)?;
        } else {
            std::fs::create_dir_all(&self.folder)?;
        }
        if let Some(socket_folder) = self.socket.parent() {
            if socket_folder != self.folder {
                private_paths::ensure_private_folder(socket_folder)?;
            }
        }
        Ok(())
    }
}

/// Folders tether names itself (`.git/tether`, `.tether`, or the like inside a worktree),
/// which it may close to other users; a `--db` folder of the user's choosing is left as it is.
fn is_tether_folder(folder: &Path) -> bool {
    matches!(folder.file_name().and_then(|name| name.to_str()), Some("tether" | ".tether"))
}

/// Beside the database when that folder is this user's alone to write (or will be: a tether
/// folder not created yet is made 0700), else in the private runtime folder.
fn socket_path(folder: &Path) -> PathBuf {
    let beside = folder.join("daemon.sock");
    let private = if folder.exists() {
        private_paths::folder_is_private_to_write(folder) || is_tether_folder(folder)
    } else {
        is_tether_folder(folder)
    };
    if private && beside.as_os_str().len() <= MAX_SOCKET_PATH_BYTES {
        return beside;
    }
    let tag = tether_model::stable_hash(folder.as_os_str().as_encoded_bytes());
    private_paths::runtime_folder().join(format!("{tag:016x}.sock"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn the_socket_leaves_a_folder_others_can_write_to() {
        let scratch = tempfile::tempdir().unwrap();
        let shared = scratch.path().join("shared");
        std::fs::create_dir(&shared).unwrap();
        std::fs::set_permissions(&shared, std::fs::Permissions::from_mode(0o777)).unwrap();
        let paths = DaemonPaths::new(scratch.path(), &shared.join("graph.lbug"));
        assert!(
            paths.socket.starts_with(private_paths::runtime_folder()),
            "{}",
            paths.socket.display()
        );
        paths.prepare().unwrap();
        assert!(private_paths::folder_is_private_to_write(paths.socket.parent().unwrap()));

        let own = DaemonPaths::new(scratch.path(), &scratch.path().join(".git/tether/graph.lbug"));
        own.prepare().unwrap();
        assert_eq!(own.socket, scratch.path().join(".git/tether/daemon.sock"));
        assert!(private_paths::folder_is_private_to_write(&own.folder));
    }
}
