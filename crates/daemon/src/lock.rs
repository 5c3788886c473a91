//! One daemon per repository: an exclusive lock on `daemon.lock`, holding the daemon's pid.
//! The lock dies with the process, so a crashed daemon never blocks the next one.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error("a tether daemon (pid {pid}) already serves this repository; `tether status` talks to it, `tether stop` stops it")]
    AlreadyRunning { pid: String },
    #[error("cannot use the lock file {}: {source}", path.display())]
    Io { path: PathBuf, source: std::io::Error },
}

/// Held for the daemon's whole life.
pub struct DaemonLock {
    _file: File,
}

impl DaemonLock {
    pub fn acquire(path: &Path) -> Result<DaemonLock, LockError> {
        let io = |source| LockError::Io { path: path.to_path_buf(), source };
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(std::fs::TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                return Err(LockError::AlreadyRunning { pid: pid.trim().to_string() });
            }
            Err(std::fs::TryLockError::Error(source)) => return Err(io(source)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        write!(file, "{}", std::process::id()).map_err(io)?;
        file.flush().map_err(io)?;
        Ok(DaemonLock { _file: file })
    }

    /// Whether some process holds the lock now (without taking it).
    pub fn is_held(path: &Path) -> bool {
        let Ok(file) = OpenOptions::new().read(true).write(true).open(path) else { return false };
        match file.try_lock() {
            Ok(()) => {
                let _ = file.unlock();
                false
            }
            Err(_) => true,
        }
    }
}
