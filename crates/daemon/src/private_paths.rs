//! Folders and sockets only this user can reach. The daemon's folder (`.git/tether/`) is
//! created 0700; the socket goes there only when no other user can create files in it,
//! otherwise into a per-user runtime folder (`$XDG_RUNTIME_DIR/tether/`, or
//! `/tmp/tether-<uid>/`) that is created 0700 and checked to be this user's real folder, not
//! a link or someone else's. Both ends of a connection check the other's uid (`SO_PEERCRED`).

use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The effective uid of this process.
pub fn current_uid() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// Creates `folder` (and missing parents) if needed and makes sure it is a real folder owned
/// by this user and closed to others (mode 0700). Refuses a symbolic link or a folder of
/// another user: something else placed there first.
pub fn ensure_private_folder(folder: &Path) -> io::Result<()> {
    if let Some(parent) = folder.parent() {
        if !parent.as_os_str().is_empty() {
            std::fs::create_dir_all(parent)?;
        }
    }
    match std::fs::DirBuilder::new().mode(0o700).create(folder) {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
        Err(error) => return Err(error),
    }
    let metadata = std::fs::symlink_metadata(folder)?;
    if !metadata.file_type().is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} is not a folder (a link or a file stands there); refusing to use it",
                folder.display()
            ),
        ));
    }
    if metadata.uid() != current_uid() {
        return Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!(
                "{} belongs to uid {}, not to you (uid {}); refusing to use it",
                folder.display(),
                metadata.uid(),
                current_uid()
            ),
        ));
    }
    if metadata.mode() & 0o077 != 0 {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// Whether only this user can create or remove entries in `folder` (it is theirs and not
/// writable by group or others), so a socket there cannot be squatted.
pub fn folder_is_private_to_write(folder: &Path) -> bool {
    std::fs::symlink_metadata(folder).is_ok_and(|metadata| {
        metadata.file_type().is_dir()
            && metadata.uid() == current_uid()
            && metadata.mode() & 0o022 == 0
    })
}

/// This user's runtime folder for sockets: `$XDG_RUNTIME_DIR/tether` when that variable names
/// a folder of this user, else `/tmp/tether-<uid>` (the system temp folder).
pub fn runtime_folder() -> PathBuf {
    let uid = current_uid();
    if let Some(runtime) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        if runtime.is_absolute()
            && std::fs::symlink_metadata(&runtime)
                .is_ok_and(|metadata| metadata.is_dir() && metadata.uid() == uid)
        {
            return runtime.join("tether");
        }
    }
    std::env::temp_dir().join(format!("tether-{uid}"))
}

/// The uid of the process at the other end of a connected Unix socket.
pub fn peer_uid(socket: &impl std::os::fd::AsRawFd) -> io::Result<u32> {
    let mut credentials = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut length = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: the fd is a live socket for the duration of the call, and `credentials` is a
    // writable ucred of the length passed.
    let result = unsafe {
        libc::getsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut credentials as *mut libc::ucred).cast(),
            &mut length,
        )
    };
    if result != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(credentials.uid)
}

/// Opens (creating) a file readable and writable by this user only, for appending.
pub fn open_private_append(path: &Path) -> io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().create(true).append(true).mode(0o600).open(path)?;
    restrict_to_owner(path)?;
    Ok(file)
}

/// Sets a file we own to mode 0600 (files created before this rule, or by the engine).
pub fn restrict_to_owner(path: &Path) -> io::Result<()> {
    let metadata = std::fs::metadata(path)?;
    if metadata.mode() & 0o077 != 0 && metadata.uid() == current_uid() {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_private_folder_is_0700_and_a_link_in_its_place_is_refused() {
        let scratch = tempfile::tempdir().unwrap();
        let folder = scratch.path().join("a/b/tether");
        ensure_private_folder(&folder).unwrap();
        assert_eq!(std::fs::metadata(&folder).unwrap().mode() & 0o777, 0o700);
        assert!(folder_is_private_to_write(&folder));
        std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o777)).unwrap();
        ensure_private_folder(&folder).unwrap();
        assert_eq!(std::fs::metadata(&folder).unwrap().mode() & 0o777, 0o700);

        let elsewhere = scratch.path().join("elsewhere");
        std::fs::create_dir(&elsewhere).unwrap();
        let link = scratch.path().join("link");
        std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
        let refused = ensure_private_folder(&link).unwrap_err();
        assert!(refused.to_string().contains("not a folder"), "{refused}");
    }
}
