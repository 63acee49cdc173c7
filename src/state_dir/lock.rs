//! One running sandbox per state directory. `up` and `run` hold an advisory lock
//! (`flock(2)`) on `up.lock` in it for as long as they run: a second one on the same
//! directory would share its keys and overwrite its `running.json`, so `token --querymesh`
//! would then name the wrong IAM. The kernel releases the lock when the process ends however
//! it ends, so a `kill -9` never leaves a stale lock. `--ephemeral` uses no directory and
//! takes no lock.

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use crate::running;

/// The lock's file in the state directory; it holds the PID of the sandbox holding it.
pub const LOCK_FILE: &str = "up.lock";

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another zero-sandbox is running on the state directory {} ({holder}): stop it, or \
         start this one on its own directory with --state DIR, or with --ephemeral",
        dir.display()
    )]
    Held { dir: PathBuf, holder: String },
    #[error("cannot lock the state directory with {}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
}

/// The state directory held for this process's life (released when dropped or at exit).
#[derive(Debug)]
#[must_use]
pub struct StateLock {
    _file: File,
}

/// Takes the lock on `dir` (creating both), or says who holds it: its PID and, from its
/// `running.json`, its ports.
pub fn lock(dir: &Path) -> Result<StateLock, LockError> {
    let path = dir.join(LOCK_FILE);
    let error = |source| LockError::Io {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(error)?;
    let mut file = open(&path).map_err(error)?;
    if let Err(e) = try_lock(&file) {
        if e.kind() != io::ErrorKind::WouldBlock {
            return Err(error(e));
        }
        let mut pid = String::new();
        let _ = file.read_to_string(&mut pid);
        return Err(LockError::Held {
            dir: dir.to_path_buf(),
            holder: describe_holder(dir, pid.trim().parse().ok()),
        });
    }
    // So a second `up` can name this one before its `running.json` is written.
    file.set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| writeln!(file, "{}", std::process::id()))
        .map_err(error)?;
    Ok(StateLock { _file: file })
}

/// Opened for writing without following a FIFO into a blocking `open`, and only if it is a
/// regular file (see [`super`]).
fn open(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK).mode(0o600);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        // Says what it is.
        return super::open_regular(path);
    }
    Ok(file)
}

/// `flock(2)` on Unix (std's `File::try_lock`), exclusive, without waiting.
fn try_lock(file: &File) -> io::Result<()> {
    file.try_lock().map_err(|e| match e {
        std::fs::TryLockError::WouldBlock => io::ErrorKind::WouldBlock.into(),
        std::fs::TryLockError::Error(e) => e,
    })
}

/// "PID 1234: edge 127.0.0.1:4000, broker …" from the holder's record, or as much as is known
/// while it is still starting.
fn describe_holder(dir: &Path, pid: Option<u32>) -> String {
    let record = running::recorded(dir).filter(|r| pid.is_none_or(|pid| r.pid == pid));
    match (record, pid) {
        (Some(r), _) => format!(
            "PID {}: edge {}, broker {}, IAM {}, QueryMesh {}",
            r.pid, r.edge, r.broker, r.iam, r.querymesh
        ),
        (None, Some(pid)) => format!("PID {pid}, still starting"),
        (None, None) => "its PID is not known yet".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_on_a_directory_is_refused_until_the_first_goes() {
        let dir = tempfile::tempdir().expect("a directory");
        let first = lock(dir.path()).expect("locked");
        let refused = lock(dir.path()).expect_err("held");
        let message = refused.to_string();
        assert!(
            message.contains(&format!("PID {}, still starting", std::process::id())),
            "{message}"
        );
        assert!(message.contains("--state DIR"), "{message}");
        assert!(message.contains("--ephemeral"), "{message}");
        drop(first);
        let _again = lock(dir.path()).expect("free once the first is gone");
    }
}
