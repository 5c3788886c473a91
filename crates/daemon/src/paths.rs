//! Where a repository's daemon keeps its files: database, socket, lock and log, all in the
//! git directory (`.git/tether/`), or `.tether/` outside git.

use std::path::{Path, PathBuf};

/// A Unix socket path must fit `sun_path` (108 bytes on Linux, 104 on macOS).
const MAX_SOCKET_PATH_BYTES: usize = 100;

#[derive(Clone, Debug)]
pub struct DaemonPaths {
    pub root: PathBuf,
    pub database: PathBuf,
    pub socket: PathBuf,
    pub lock: PathBuf,
    pub log: PathBuf,
}

impl DaemonPaths {
    /// The paths for the repository at `root`, with the database at `database`.
    pub fn new(root: &Path, database: &Path) -> DaemonPaths {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let directory = database.parent().map(Path::to_path_buf).unwrap_or_else(|| root.clone());
        let mut socket = directory.join("daemon.sock");
        if socket.as_os_str().len() > MAX_SOCKET_PATH_BYTES {
            let runtime = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from).unwrap_or_else(std::env::temp_dir);
            let tag = tether_model::stable_hash(directory.as_os_str().as_encoded_bytes());
            socket = runtime.join(format!("tether-{tag:016x}.sock"));
        }
        DaemonPaths { root, database: database.to_path_buf(), socket, lock: directory.join("daemon.lock"), log: directory.join("daemon.log") }
    }
}
