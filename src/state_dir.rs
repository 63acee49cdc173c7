//! The state directory's files are read only when they are regular files: a FIFO in place of
//! a key file would block its `open` (and then its `read`) forever, and `up` would hang with
//! no output; a directory, socket or device there means something else owns the name.
//!
//! The lock that keeps a second `up` off a directory in use is in [`lock`].

pub mod lock;

use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::path::Path;

/// The contents of `path`, `None` when it does not exist; an error of kind `InvalidInput`
/// naming what it is when it is not a regular file. Opened without blocking (a FIFO's
/// `open` waits for a writer), then checked on the open file, so nothing can swap it between
/// the check and the read.
pub fn read_regular(path: &Path) -> io::Result<Option<Vec<u8>>> {
    let mut file = match open_regular(path) {
        Ok(file) => file,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut contents = Vec::new();
    file.read_to_end(&mut contents)?;
    Ok(Some(contents))
}

/// Whether `path` may be opened as a state file: absent (`false`), a regular file (`true`),
/// or an `InvalidInput` error naming what it is. For files others open (SQLite's).
pub fn is_regular_if_present(path: &Path) -> io::Result<bool> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_file() => Ok(true),
        Ok(metadata) => Err(not_regular(&metadata)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// `path` opened for reading, once it is known to be a regular file.
pub(crate) fn open_regular(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // Without it, opening a FIFO blocks until something opens it for writing; on a
        // regular file it changes nothing.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| match e.raw_os_error() {
        // A socket's name cannot be opened (ENXIO): say what it is instead.
        #[cfg(unix)]
        Some(libc::ENXIO) => std::fs::metadata(path).map_or(e, |m| not_regular(&m)),
        _ => e,
    })?;
    let metadata = file.metadata()?;
    if !metadata.is_file() {
        return Err(not_regular(&metadata));
    }
    Ok(file)
}

fn not_regular(metadata: &std::fs::Metadata) -> io::Error {
    io::Error::new(
        ErrorKind::InvalidInput,
        format!(
            "it is {}, not a regular file (move it away, or choose another directory with \
             --state DIR)",
            describe(metadata.file_type())
        ),
    )
}

fn describe(file_type: std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    if file_type.is_dir() {
        "a directory"
    } else {
        "something else"
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    pub(crate) fn make_fifo(path: &Path) {
        let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("a path");
        // SAFETY: mkfifo reads a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0, "mkfifo");
    }

    #[test]
    fn a_fifo_directory_or_missing_file_is_told_apart_without_blocking() {
        let dir = tempfile::tempdir().expect("a directory");
        let fifo = dir.path().join("keys.json");
        make_fifo(&fifo);
        let error = read_regular(&fifo).expect_err("refused");
        assert_eq!(error.kind(), ErrorKind::InvalidInput);
        assert!(error.to_string().starts_with("it is a FIFO"), "{error}");
        assert!(is_regular_if_present(&fifo).is_err());

        let error = read_regular(dir.path()).expect_err("refused");
        assert!(
            error.to_string().starts_with("it is a directory"),
            "{error}"
        );

        assert!(
            read_regular(&dir.path().join("absent"))
                .expect("fine")
                .is_none()
        );
        assert!(!is_regular_if_present(&dir.path().join("absent")).expect("fine"));

        let file = dir.path().join("file");
        std::fs::write(&file, b"kept").expect("written");
        assert_eq!(read_regular(&file).expect("read"), Some(b"kept".to_vec()));
        assert!(is_regular_if_present(&file).expect("fine"));
    }
}
