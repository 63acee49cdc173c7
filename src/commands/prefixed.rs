//! `run`'s one terminal shared by two programs: the app's stdout and stderr and the sandbox's
//! logs, each line prefixed with who wrote it (`app     | `, `sandbox | `).
//!
//! Bytes are forwarded as they arrive, not decoded: a partial line (a prompt, a progress dot)
//! shows at once and non-UTF-8 output passes through untouched. A line is never glued to
//! another source's: when a source writes to the screen another left mid-line (the same
//! stream, or stdout and stderr both on the terminal), that line is ended first and its
//! continuation gets a fresh prefix.
//!
//! Under `--ready-json` a harness reads the ready line as stdout's first line, but the app may
//! write before it accepts: stdout is then *held* ([`Output::hold_stdout`]) — written into a
//! bounded buffer in order — and [`Output::release`] writes the ready line first and the held
//! bytes after it. Past the cap, further stdout is dropped and counted, and the release says
//! how much on stderr, rather than the ready line losing its place or memory growing.

use std::io::{self, Write};
use std::sync::{Arc, Mutex, MutexGuard};

/// Who wrote the bytes, which decides the prefix and the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The app's stdout, to stdout.
    AppOut,
    /// The app's stderr, to stderr.
    AppErr,
    /// The sandbox's logs, to stderr.
    Sandbox,
    /// The sandbox's banner, to stdout.
    SandboxOut,
    /// Unprefixed, to stdout: the `--ready-json` line a harness parses.
    Plain,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stream {
    Out,
    Err,
}

impl Source {
    fn stream(self) -> Stream {
        match self {
            Self::AppOut | Self::SandboxOut | Self::Plain => Stream::Out,
            Self::AppErr | Self::Sandbox => Stream::Err,
        }
    }

    /// The prefix, padded so both columns line up; its ANSI colour when coloured.
    fn prefix(self) -> (&'static str, &'static str) {
        match self {
            Self::AppOut | Self::AppErr => ("app     | ", "\x1b[36m"),
            Self::Sandbox | Self::SandboxOut => ("sandbox | ", "\x1b[35m"),
            Self::Plain => ("", ""),
        }
    }
}

/// The shared output; cheap to clone.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<State>>,
}

struct State {
    out: Box<dyn Write + Send>,
    err: Box<dyn Write + Send>,
    /// Colour the prefixes: only for a stream that is a terminal (see [`crate::cli::log_colours`]).
    colour_out: bool,
    colour_err: bool,
    /// stdout and stderr show on one screen (both terminals): a line left open on one is
    /// ended before the other writes.
    one_screen: bool,
    /// The source whose last line on each stream has not ended yet.
    open_out: Option<Source>,
    open_err: Option<Source>,
    /// stdout held until the ready line is out; `None` once released (or never held).
    held: Option<Held>,
}

/// stdout's bytes while held: at most `cap`, the rest dropped and counted.
struct Held {
    bytes: Vec<u8>,
    cap: usize,
    dropped: u64,
}

impl Write for Held {
    /// All of `buf` or none of it, so a kept piece is never cut mid-line by the cap.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.dropped == 0 && self.bytes.len() + buf.len() <= self.cap {
            self.bytes.extend_from_slice(buf);
        } else {
            self.dropped += buf.len() as u64;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl State {
    fn stream(&mut self, stream: Stream) -> &mut dyn Write {
        match (stream, &mut self.held) {
            (Stream::Out, Some(held)) => held,
            (Stream::Out, None) => &mut *self.out,
            (Stream::Err, _) => &mut *self.err,
        }
    }

    fn open(&mut self, stream: Stream) -> &mut Option<Source> {
        match stream {
            Stream::Out => &mut self.open_out,
            Stream::Err => &mut self.open_err,
        }
    }

    fn write(&mut self, source: Source, bytes: &[u8]) -> io::Result<()> {
        let own = source.stream();
        for stream in [Stream::Out, Stream::Err] {
            if let Some(other) = *self.open(stream)
                && other != source
                && (stream == own || self.one_screen)
            {
                *self.open(stream) = None;
                self.stream(stream).write_all(b"\n")?;
                self.stream(stream).flush()?;
            }
        }
        let coloured = match own {
            Stream::Out => self.colour_out,
            Stream::Err => self.colour_err,
        };
        let (prefix, colour) = source.prefix();
        let mut open = *self.open(own) == Some(source);
        // One write per call: a held stdout keeps or drops it whole, prefixes included.
        let mut prefixed = Vec::with_capacity(bytes.len() + 32);
        for piece in bytes.split_inclusive(|&b| b == b'\n') {
            if !open && !prefix.is_empty() {
                if coloured {
                    write!(prefixed, "{colour}{prefix}\x1b[0m")?;
                } else {
                    prefixed.extend_from_slice(prefix.as_bytes());
                }
            }
            prefixed.extend_from_slice(piece);
            open = !piece.ends_with(b"\n");
        }
        let stream = self.stream(own);
        stream.write_all(&prefixed)?;
        stream.flush()?;
        *self.open(own) = open.then_some(source);
        Ok(())
    }
}

impl Output {
    pub fn new(
        out: Box<dyn Write + Send>,
        err: Box<dyn Write + Send>,
        colour_out: bool,
        colour_err: bool,
        one_screen: bool,
    ) -> Self {
        Self {
            inner: Arc::new(Mutex::new(State {
                out,
                err,
                colour_out,
                colour_err,
                one_screen,
                open_out: None,
                open_err: None,
                held: None,
            })),
        }
    }

    /// From now on stdout is held (up to `cap` bytes) until [`Output::release`].
    pub fn hold_stdout(&self, cap: usize) {
        self.lock().held = Some(Held {
            bytes: Vec::new(),
            cap,
            dropped: 0,
        });
    }

    /// Writes `first` (the ready line, unprefixed) to stdout, then what was held, and stops
    /// holding; says on stderr how many bytes did not fit. Without a hold, writes `first`.
    pub fn release(&self, first: Option<&[u8]>) -> io::Result<()> {
        let mut state = self.lock();
        let held = state.held.take();
        if let Some(first) = first {
            state.out.write_all(first)?;
        }
        let Some(held) = held else {
            return state.out.flush();
        };
        state.out.write_all(&held.bytes)?;
        state.out.flush()?;
        if held.dropped > 0 {
            let note = format!(
                "{} bytes of the app's stdout were dropped: it wrote more than {} KiB before \
                 it accepted connections, which `run --ready-json` holds so that the ready \
                 line comes first\n",
                held.dropped,
                held.cap / 1024
            );
            state.write(Source::Sandbox, note.as_bytes())?;
        }
        Ok(())
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forwards `bytes` from `source`, prefixing each line it starts.
    pub fn write(&self, source: Source, bytes: &[u8]) -> io::Result<()> {
        self.lock().write(source, bytes)
    }

    /// Ends a line `source` left open (at the app's exit), so what follows starts afresh.
    pub fn end_line(&self, source: Source) -> io::Result<()> {
        let mut state = self.lock();
        if *state.open(source.stream()) == Some(source) {
            *state.open(source.stream()) = None;
            state.stream(source.stream()).write_all(b"\n")?;
            state.stream(source.stream()).flush()?;
        }
        Ok(())
    }

    /// A writer for `source`, e.g. the sandbox's log subscriber's.
    pub fn writer(&self, source: Source) -> SourceWriter {
        SourceWriter {
            output: self.clone(),
            source,
        }
    }
}

/// [`Output::write`] as an [`io::Write`].
pub struct SourceWriter {
    output: Output,
    source: Source,
}

impl Write for SourceWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.output.write(self.source, buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The sandbox's log lines go through the shared output, prefixed `sandbox | `.
impl<'w> tracing_subscriber::fmt::MakeWriter<'w> for Output {
    type Writer = SourceWriter;

    fn make_writer(&'w self) -> Self::Writer {
        self.writer(Source::Sandbox)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test reads back.
    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        fn bytes(&self) -> Vec<u8> {
            self.0.lock().unwrap().clone()
        }
    }

    fn output(colour: bool) -> (Output, Captured, Captured) {
        screen(colour, true)
    }

    fn screen(colour: bool, one_screen: bool) -> (Output, Captured, Captured) {
        let (out, err) = (Captured::default(), Captured::default());
        let output = Output::new(
            Box::new(out.clone()),
            Box::new(err.clone()),
            colour,
            colour,
            one_screen,
        );
        (output, out, err)
    }

    #[test]
    fn streams_apart_keep_their_own_open_lines() {
        let (output, out, err) = screen(false, false);
        output.write(Source::AppOut, b"PORT").unwrap();
        output.write(Source::Sandbox, b"log\n").unwrap();
        output.write(Source::AppErr, b"warn").unwrap();
        output.write(Source::AppOut, b" 3000\n").unwrap();
        output.write(Source::AppErr, b"ing\n").unwrap();
        assert_eq!(out.bytes(), b"app     | PORT 3000\n");
        assert_eq!(err.bytes(), b"sandbox | log\napp     | warning\n");
    }

    #[test]
    fn lines_are_prefixed_as_they_come_split_anywhere() {
        let (output, out, _) = output(false);
        for chunk in [&b"one\ntw"[..], b"o\n", b"", b"three\nfour\n"] {
            output.write(Source::AppOut, chunk).unwrap();
        }
        assert_eq!(
            out.bytes(),
            b"app     | one\napp     | two\napp     | three\napp     | four\n"
        );
    }

    #[test]
    fn a_partial_line_shows_at_once_and_is_not_glued_to_another_source() {
        let (output, out, err) = output(false);
        output.write(Source::AppOut, b"Password: ").unwrap();
        assert_eq!(
            out.bytes(),
            b"app     | Password: ",
            "forwarded before its newline"
        );
        output.write(Source::Sandbox, b"INFO ready\n").unwrap();
        output.write(Source::AppOut, b"ok\n").unwrap();
        assert_eq!(
            out.bytes(),
            b"app     | Password: \napp     | ok\n",
            "ended, then continued on a fresh prefixed line"
        );
        assert_eq!(err.bytes(), b"sandbox | INFO ready\n");
        output.write(Source::AppErr, b"no newline at exit").unwrap();
        output.end_line(Source::AppErr).unwrap();
        output.end_line(Source::AppErr).unwrap();
        assert_eq!(
            err.bytes(),
            b"sandbox | INFO ready\napp     | no newline at exit\n"
        );
    }

    #[test]
    fn held_stdout_follows_the_first_line_in_order_and_stderr_is_not_held() {
        let (output, out, err) = screen(false, false);
        output.hold_stdout(1024);
        output.write(Source::AppOut, b"listening").unwrap();
        output.write(Source::AppErr, b"warn\n").unwrap();
        output.write(Source::AppOut, b" soon\nnext\n").unwrap();
        output.write(Source::Sandbox, b"log\n").unwrap();
        assert_eq!(out.bytes(), b"", "nothing before the ready line");
        assert_eq!(err.bytes(), b"app     | warn\nsandbox | log\n");
        output.release(Some(b"{\"event\":\"ready\"}\n")).unwrap();
        output.write(Source::AppOut, b"after\n").unwrap();
        assert_eq!(
            out.bytes(),
            b"{\"event\":\"ready\"}\napp     | listening soon\napp     | next\napp     | after\n"
        );
    }

    #[test]
    fn held_stdout_past_its_cap_is_dropped_counted_and_reported() {
        let (output, out, err) = screen(false, false);
        output.hold_stdout(24);
        output.write(Source::AppOut, b"0123456789\n").unwrap();
        output.write(Source::AppOut, b"abcdefghij\n").unwrap();
        output.write(Source::AppOut, b"x\n").unwrap();
        output.release(Some(b"R\n")).unwrap();
        assert_eq!(
            out.bytes(),
            b"R\napp     | 0123456789\n",
            "kept whole, in order"
        );
        let err = String::from_utf8(err.bytes()).unwrap();
        assert!(
            err.starts_with("sandbox | 33 bytes of the app's stdout were dropped"),
            "{err}"
        );
        output.write(Source::AppOut, b"later\n").unwrap();
        assert!(
            out.bytes().ends_with(b"app     | later\n"),
            "no longer held"
        );
    }

    #[test]
    fn a_release_without_a_first_line_writes_what_was_held() {
        let (output, out, _) = screen(false, false);
        output.hold_stdout(1024);
        output.write(Source::AppOut, b"bye\n").unwrap();
        output.release(None).unwrap();
        assert_eq!(out.bytes(), b"app     | bye\n");
    }

    #[test]
    fn bytes_pass_through_undecoded() {
        let (output, out, _) = output(false);
        output.write(Source::AppOut, b"\xff\xfe caf\xc3").unwrap();
        output.write(Source::AppOut, b"\xa9\r\n").unwrap();
        assert_eq!(out.bytes(), b"app     | \xff\xfe caf\xc3\xa9\r\n");
    }

    #[test]
    fn colour_only_where_asked_and_never_on_the_plain_line() {
        let (output, out, err) = output(true);
        output
            .write(Source::Plain, b"{\"event\":\"ready\"}\n")
            .unwrap();
        output.write(Source::AppOut, b"hi\n").unwrap();
        output.write(Source::Sandbox, b"up\n").unwrap();
        assert_eq!(
            out.bytes(),
            b"{\"event\":\"ready\"}\n\x1b[36mapp     | \x1b[0mhi\n".to_vec()
        );
        assert_eq!(err.bytes(), b"\x1b[35msandbox | \x1b[0mup\n".to_vec());
        let (output, out, _) = self::output(false);
        output.write(Source::AppOut, b"hi\n").unwrap();
        assert!(!out.bytes().contains(&0x1b), "no ANSI when not a terminal");
    }
}
