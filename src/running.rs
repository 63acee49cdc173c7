//! What a running `zero-sandbox up` leaves in its state directory so that the other commands
//! (`token --querymesh`, `env`) describe *that* sandbox, even when its ports were picked at
//! start (`--iam-port 0`): its addresses, in `running.json`, removed when it stops.
//!
//! A record is trusted only while its IAM still accepts connections: a sandbox killed without
//! its cleanup leaves a file that must not mislead the next command. Only the sandbox that
//! wrote the record removes it, and only one sandbox runs on a directory at a time
//! ([`crate::state_dir::lock`]), so a second `up` never takes the first one's record away.

use std::io::ErrorKind;
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::platform::Endpoints;

const FILE: &str = "running.json";
/// How long a command waits to see whether the recorded IAM still answers.
const PROBE: Duration = Duration::from_millis(300);

/// A running sandbox's addresses, as `up` recorded them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub pid: u32,
    pub edge: SocketAddr,
    pub broker: SocketAddr,
    pub iam: SocketAddr,
    pub querymesh: SocketAddr,
}

#[derive(Debug, thiserror::Error)]
#[error("cannot record the running sandbox in {}: {source}", path.display())]
pub struct RecordError {
    path: PathBuf,
    source: std::io::Error,
}

/// `running.json` is there but cannot be read as a record's file (a FIFO in its place).
#[derive(Debug, thiserror::Error)]
#[error("cannot read {}: {source}", path.display())]
pub struct ReadError {
    path: PathBuf,
    source: std::io::Error,
}

/// Removes the record when the sandbox that wrote it stops (if it is still its own).
#[must_use]
pub struct Record {
    path: PathBuf,
    pid: u32,
}

impl Drop for Record {
    fn drop(&mut self) {
        if read(&self.path).is_ok_and(|r| r.is_some_and(|r| r.pid == self.pid)) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// Writes `endpoints` into `state_dir` (temporary file + rename, so a reader never sees half).
pub fn record(state_dir: &Path, endpoints: &Endpoints) -> Result<Record, RecordError> {
    let path = state_dir.join(FILE);
    let running = Running {
        pid: std::process::id(),
        edge: endpoints.edge,
        broker: endpoints.broker,
        iam: endpoints.iam,
        querymesh: endpoints.querymesh,
    };
    let error = |source| RecordError {
        path: path.clone(),
        source,
    };
    let text = serde_json::to_string_pretty(&running)
        .map_err(|e| error(std::io::Error::new(ErrorKind::InvalidData, e)))?;
    let temporary = state_dir.join(format!(".{FILE}.{}", running.pid));
    std::fs::write(&temporary, text + "\n").map_err(error)?;
    std::fs::rename(&temporary, &path).map_err(error)?;
    Ok(Record {
        path,
        pid: running.pid,
    })
}

/// The sandbox running on `state_dir`, if one recorded itself there and its IAM still answers.
pub fn find(state_dir: &Path) -> Result<Option<Running>, ReadError> {
    Ok(read(&state_dir.join(FILE))?.filter(|r| TcpStream::connect_timeout(&r.iam, PROBE).is_ok()))
}

/// What `state_dir`'s record says, whether or not that sandbox still runs.
pub fn recorded(state_dir: &Path) -> Option<Running> {
    read(&state_dir.join(FILE)).ok().flatten()
}

/// The record in `path`; `None` when absent or not a record (a crash mid-write never leaves
/// one: it is renamed into place whole). Not a regular file: refused, not waited on.
fn read(path: &Path) -> Result<Option<Running>, ReadError> {
    let contents = crate::state_dir::read_regular(path).map_err(|source| ReadError {
        path: path.to_path_buf(),
        source,
    })?;
    Ok(contents.and_then(|c| serde_json::from_slice(&c).ok()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every component at `addr`: only the IAM's address matters to [`find`].
    fn all_at(addr: SocketAddr) -> Endpoints {
        Endpoints {
            edge: addr,
            broker: addr,
            iam: addr,
            querymesh: addr,
        }
    }

    #[test]
    fn a_record_names_a_live_sandbox_and_goes_with_it() {
        let dir = tempfile::tempdir().expect("a directory");
        let iam = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
        let addr = iam.local_addr().expect("an address");
        let endpoints = all_at(addr);
        let record = record(dir.path(), &endpoints).expect("recorded");
        assert_eq!(
            find(dir.path()).expect("readable").map(|r| r.iam),
            Some(addr)
        );
        drop(record);
        assert!(find(dir.path()).expect("readable").is_none());
        assert!(!dir.path().join(FILE).exists());
    }

    #[test]
    fn a_record_whose_iam_is_gone_is_ignored() {
        let dir = tempfile::tempdir().expect("a directory");
        let addr = {
            let gone = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
            gone.local_addr().expect("an address")
        };
        let endpoints = all_at(addr);
        let record = record(dir.path(), &endpoints).expect("recorded");
        assert!(find(dir.path()).expect("readable").is_none());
        std::mem::forget(record);
        // Nor is a file that is not a record.
        std::fs::write(dir.path().join(FILE), "{not json").expect("writes");
        assert!(find(dir.path()).expect("readable").is_none());
    }

    #[test]
    fn a_newer_record_survives_the_older_sandbox_stopping() {
        let dir = tempfile::tempdir().expect("a directory");
        let iam = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
        let addr = iam.local_addr().expect("an address");
        let endpoints = all_at(addr);
        let older = Record {
            path: dir.path().join(FILE),
            pid: std::process::id().wrapping_add(1),
        };
        let _newer = record(dir.path(), &endpoints).expect("recorded");
        drop(older);
        assert!(find(dir.path()).expect("readable").is_some());
    }
}
