//! The edge's own HTTP/1.1 exchange with a plain-HTTP app, for the requests most apps get: no
//! body and no upgrade. hyper's client connection runs in a task of its own and talks to the
//! request's task through a channel for the request, another for the response and a third
//! for its body; here the request's own task writes the head, reads the answer and relays its
//! body, as nginx's one event loop does. Requests with a body, upgrades and HTTPS apps keep
//! hyper's client ([`super::app_pool`]).
//!
//! Framing follows RFC 9112 §6.3: no body for `HEAD`, 1xx, 204 and 304; chunked when the last
//! transfer coding is; else `Content-Length`; else until the app closes. A connection is kept
//! only when the app said nothing against it (HTTP/1.1, no `Connection: close`) and its body
//! was read to its end.

use std::task::{Context, Poll, ready};

use axum::BoxError;
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, header};
use bytes::{Buf, Bytes, BytesMut};
use http_body::SizeHint;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The most a response head may take (hyper's default buffer is 400 KB; apps' heads are a
/// few hundred bytes, cookies included).
const MAX_HEAD: usize = 64 * 1024;
/// The most header fields a response head may have (hyper's client allows as many).
const MAX_FIELDS: usize = 100;
/// How much is read from the app at a time.
const READ_SIZE: usize = 16 * 1024;

/// One connection to the app, with what was read from it and not yet used.
pub struct AppConnection {
    stream: TcpStream,
    read: BytesMut,
}

/// Why an exchange failed, and whether anything of the response had arrived: a request on a
/// reused connection that got nothing back may be sent again on a new one.
#[derive(Debug)]
pub struct ExchangeError {
    pub reason: String,
    pub nothing_back: bool,
}

impl ExchangeError {
    fn new(reason: impl Into<String>, nothing_back: bool) -> Self {
        Self {
            reason: reason.into(),
            nothing_back,
        }
    }
}

/// How the response's body is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Framing {
    Empty,
    Length(u64),
    Chunked(Chunk),
    UntilClose,
}

/// Where a chunked body is (RFC 9112 §7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chunk {
    /// Before a chunk-size line.
    Size,
    /// Inside a chunk's data, this much left.
    Data(u64),
    /// After a chunk's data, before its CRLF.
    DataEnd,
    /// After the last chunk: trailer lines until an empty one.
    Trailers,
}

impl AppConnection {
    pub async fn connect(addr: &str) -> std::io::Result<Self> {
        let stream = TcpStream::connect(addr).await?;
        let _ = stream.set_nodelay(true);
        Ok(Self {
            stream,
            read: BytesMut::new(),
        })
    }

    /// Whether the connection still looks usable while idle: the app has neither closed it
    /// nor sent anything unasked.
    pub fn looks_open(&self) -> bool {
        let mut probe = [0u8; 1];
        matches!(
            self.stream.try_read(&mut probe),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock
        )
    }

    /// Sends a body-less request's `head` and reads the response head; its body follows from
    /// the returned [`Relay`], which holds the connection until the body's end.
    pub async fn exchange(
        mut self,
        method: &Method,
        head: &[u8],
    ) -> Result<(Response<()>, Relay), ExchangeError> {
        self.stream
            .write_all(head)
            .await
            .map_err(|e| ExchangeError::new(format!("sending the request: {e}"), true))?;
        loop {
            if let Some((response, used, keep_alive)) = parse_head(&self.read)? {
                self.read.advance(used);
                // 1xx are interim (RFC 9110 §15.2): the final answer follows. (A 101 answers
                // only an upgrade, which never comes this way.)
                if response.status().is_informational() {
                    continue;
                }
                let framing = framing(method, &response)?;
                let relay = Relay {
                    keep_alive: keep_alive && framing != Framing::UntilClose,
                    connection: Some(self),
                    framing,
                    failed: None,
                };
                return Ok((response, relay));
            }
            if self.read.len() >= MAX_HEAD {
                let reason = format!("the app's response head is over {MAX_HEAD} bytes");
                return Err(ExchangeError::new(reason, false));
            }
            let nothing_back = self.read.is_empty();
            self.read.reserve(READ_SIZE);
            match self.stream.read_buf(&mut self.read).await {
                Ok(0) => {
                    let reason = "the app closed the connection before answering";
                    return Err(ExchangeError::new(reason, nothing_back));
                }
                Ok(_) => {}
                Err(e) => {
                    let reason = format!("reading the app's answer: {e}");
                    return Err(ExchangeError::new(reason, nothing_back));
                }
            }
        }
    }

    /// Reads more into `read`; `Ok(0)` is the app closing.
    fn poll_read_more(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<usize>> {
        self.read.reserve(READ_SIZE);
        loop {
            ready!(self.stream.poll_read_ready(cx))?;
            match self.stream.try_read_buf(&mut self.read) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => continue,
                done => return Poll::Ready(done),
            }
        }
    }
}

/// A response's body as it arrives on the app's connection.
pub struct Relay {
    connection: Option<AppConnection>,
    framing: Framing,
    keep_alive: bool,
    /// A failure met after data was handed on, reported at the next poll: hyper's server
    /// aborts the connection at a body error without writing what it has buffered, so the
    /// browser would see a closed connection instead of a `200` cut short. One `Pending`
    /// between lets it flush the head and the data first.
    failed: Option<BoxError>,
}

impl Relay {
    /// The connection, once the body was read to its end, if the app allows it to be kept
    /// and sent nothing past the body: bytes no request asked for would be read as the next
    /// request's answer.
    pub fn reusable(&mut self) -> Option<AppConnection> {
        let clean = self.connection.as_ref().is_some_and(|c| c.read.is_empty());
        if self.is_end_stream() && self.keep_alive && clean {
            self.connection.take()
        } else {
            None
        }
    }

    pub fn is_end_stream(&self) -> bool {
        self.framing == Framing::Empty
    }

    pub fn size_hint(&self) -> SizeHint {
        match self.framing {
            Framing::Empty => SizeHint::with_exact(0),
            Framing::Length(n) => SizeHint::with_exact(n),
            Framing::Chunked(_) | Framing::UntilClose => SizeHint::default(),
        }
    }

    /// The next piece of the body; `None` at its end.
    pub fn poll_data(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, BoxError>>> {
        if let Some(failure) = self.failed.take() {
            return Poll::Ready(Some(Err(failure)));
        }
        match self.poll_relay(cx) {
            Poll::Ready(Some(Err(failure))) => {
                self.failed = Some(failure);
                cx.waker().wake_by_ref();
                Poll::Pending
            }
            other => other,
        }
    }

    fn poll_relay(&mut self, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, BoxError>>> {
        loop {
            let Some(connection) = self.connection.as_mut() else {
                return Poll::Ready(None);
            };
            let read = &mut connection.read;
            match self.framing {
                Framing::Empty => return Poll::Ready(None),
                Framing::Length(left) if !read.is_empty() => {
                    let data = take_up_to(read, left);
                    let left = left - data.len() as u64;
                    self.framing = if left == 0 {
                        Framing::Empty
                    } else {
                        Framing::Length(left)
                    };
                    return Poll::Ready(Some(Ok(data)));
                }
                Framing::UntilClose if !read.is_empty() => {
                    return Poll::Ready(Some(Ok(read.split().freeze())));
                }
                Framing::Chunked(at) => match step_chunked(at, read) {
                    Ok(Step::Data(data, next)) => {
                        self.framing = Framing::Chunked(next);
                        return Poll::Ready(Some(Ok(data)));
                    }
                    Ok(Step::Moved(next)) => {
                        self.framing = Framing::Chunked(next);
                        continue;
                    }
                    Ok(Step::Ended) => {
                        self.framing = Framing::Empty;
                        return Poll::Ready(None);
                    }
                    Ok(Step::NeedMore) => {}
                    Err(reason) => {
                        self.connection = None;
                        return Poll::Ready(Some(Err(reason.into())));
                    }
                },
                Framing::Length(_) | Framing::UntilClose => {}
            }
            match ready!(connection.poll_read_more(cx)) {
                Ok(0) if self.framing == Framing::UntilClose => {
                    self.framing = Framing::Empty;
                    self.connection = None;
                    return Poll::Ready(None);
                }
                Ok(0) => {
                    self.connection = None;
                    let reason = "the app closed the connection before the body's end";
                    return Poll::Ready(Some(Err(reason.into())));
                }
                Ok(_) => {}
                Err(e) => {
                    self.connection = None;
                    return Poll::Ready(Some(Err(e.into())));
                }
            }
        }
    }
}

/// Up to `left` bytes from the front of `read`.
fn take_up_to(read: &mut BytesMut, left: u64) -> Bytes {
    let take = usize::try_from(left).map_or(read.len(), |left| left.min(read.len()));
    read.split_to(take).freeze()
}

/// What one step through a chunked body found.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Data(Bytes, Chunk),
    Moved(Chunk),
    Ended,
    NeedMore,
}

/// The longest chunk-size line (with its extensions) or trailer line accepted.
const MAX_CHUNK_LINE: usize = 8 * 1024;

/// One step through a chunked body in `read` from `at` (RFC 9112 §7.1).
fn step_chunked(at: Chunk, read: &mut BytesMut) -> Result<Step, String> {
    let line_end = |read: &BytesMut| read.windows(2).position(|w| w == b"\r\n");
    match at {
        Chunk::Size => {
            let Some(end) = line_end(read) else {
                return more_unless_too_long(read);
            };
            let line = read.split_to(end + 2);
            let digits = line[..end]
                .split(|&b| b == b';')
                .next()
                .unwrap_or_default()
                .trim_ascii();
            let size = std::str::from_utf8(digits)
                .ok()
                .filter(|d| !d.is_empty() && d.len() <= 15)
                .and_then(|d| u64::from_str_radix(d, 16).ok())
                .ok_or("the app's chunked body has a malformed chunk size")?;
            Ok(Step::Moved(if size == 0 {
                Chunk::Trailers
            } else {
                Chunk::Data(size)
            }))
        }
        Chunk::Data(left) => {
            if read.is_empty() {
                return Ok(Step::NeedMore);
            }
            let data = take_up_to(read, left);
            let left = left - data.len() as u64;
            let next = if left == 0 {
                Chunk::DataEnd
            } else {
                Chunk::Data(left)
            };
            Ok(Step::Data(data, next))
        }
        Chunk::DataEnd => {
            if read.len() < 2 {
                return Ok(Step::NeedMore);
            }
            if &read[..2] != b"\r\n" {
                return Err("the app's chunked body lacks the CRLF after a chunk".into());
            }
            read.advance(2);
            Ok(Step::Moved(Chunk::Size))
        }
        Chunk::Trailers => {
            let Some(end) = line_end(read) else {
                return more_unless_too_long(read);
            };
            read.advance(end + 2);
            Ok(if end == 0 {
                Step::Ended
            } else {
                Step::Moved(Chunk::Trailers)
            })
        }
    }
}

fn more_unless_too_long(read: &BytesMut) -> Result<Step, String> {
    if read.len() > MAX_CHUNK_LINE {
        Err("the app's chunked body has a line over 8 KiB".into())
    } else {
        Ok(Step::NeedMore)
    }
}

/// The request head for the app: `method target HTTP/1.1`, then `headers`.
pub fn request_head(method: &Method, target: &str, headers: &HeaderMap) -> Vec<u8> {
    let mut head = Vec::with_capacity(256 + headers.len() * 64);
    head.extend_from_slice(method.as_str().as_bytes());
    head.push(b' ');
    head.extend_from_slice(target.as_bytes());
    head.extend_from_slice(b" HTTP/1.1\r\n");
    for (name, value) in headers {
        head.extend_from_slice(name.as_str().as_bytes());
        head.extend_from_slice(b": ");
        head.extend_from_slice(value.as_bytes());
        head.extend_from_slice(b"\r\n");
    }
    // A request whose method carries content says it has none, as hyper's client does: some
    // servers answer `411 Length Required` otherwise (RFC 9110 §8.6 asks for it).
    let carries_content = [Method::POST, Method::PUT, Method::PATCH].contains(method);
    if carries_content && !headers.contains_key(header::CONTENT_LENGTH) {
        head.extend_from_slice(b"content-length: 0\r\n");
    }
    head.extend_from_slice(b"\r\n");
    head
}

/// The response head at the start of `read`, if whole: the response, the bytes it took and
/// whether the app allows the connection to be kept.
fn parse_head(read: &[u8]) -> Result<Option<(Response<()>, usize, bool)>, ExchangeError> {
    let mut fields = [httparse::EMPTY_HEADER; MAX_FIELDS];
    let mut parsed = httparse::Response::new(&mut fields);
    let used = match parsed.parse(read) {
        Ok(httparse::Status::Complete(used)) => used,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(e) => {
            return Err(ExchangeError::new(
                format!("the app's response head is malformed: {e}"),
                false,
            ));
        }
    };
    let malformed = |what: &str| ExchangeError::new(format!("the app's response {what}"), false);
    let status = parsed
        .code
        .and_then(|code| StatusCode::from_u16(code).ok())
        .ok_or_else(|| malformed("has no valid status"))?;
    let mut headers = HeaderMap::with_capacity(parsed.headers.len());
    let mut keep_alive = parsed.version == Some(1);
    for field in parsed.headers.iter() {
        let name = HeaderName::from_bytes(field.name.as_bytes())
            .map_err(|_| malformed("has a malformed header name"))?;
        let value = HeaderValue::from_bytes(field.value)
            .map_err(|_| malformed("has a malformed header value"))?;
        if name == header::CONNECTION
            && value
                .as_bytes()
                .split(|&b| b == b',')
                .any(|t| t.trim_ascii().eq_ignore_ascii_case(b"close"))
        {
            keep_alive = false;
        }
        headers.append(name, value);
    }
    let mut response = Response::new(());
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    Ok(Some((response, used, keep_alive)))
}

fn framing(method: &Method, response: &Response<()>) -> Result<Framing, ExchangeError> {
    let status = response.status();
    if method == Method::HEAD
        || status.is_informational()
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED
    {
        return Ok(Framing::Empty);
    }
    let headers = response.headers();
    if let Some(last) = headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .next_back()
    {
        let chunked = last
            .as_bytes()
            .rsplit(|&b| b == b',')
            .next()
            .is_some_and(|c| c.trim_ascii().eq_ignore_ascii_case(b"chunked"));
        return Ok(if chunked {
            Framing::Chunked(Chunk::Size)
        } else {
            Framing::UntilClose
        });
    }
    let mut lengths = headers.get_all(header::CONTENT_LENGTH).iter();
    let Some(first) = lengths.next() else {
        return Ok(Framing::UntilClose);
    };
    let length = |v: &HeaderValue| -> Option<u64> { v.to_str().ok()?.trim().parse().ok() };
    let n = length(first).ok_or_else(|| {
        ExchangeError::new("the app's response has an invalid Content-Length", false)
    })?;
    if lengths.any(|other| length(other) != Some(n)) {
        return Err(ExchangeError::new(
            "the app's response has conflicting Content-Length fields",
            false,
        ));
    }
    Ok(if n == 0 {
        Framing::Empty
    } else {
        Framing::Length(n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Response<()> {
        match parse_head(text.as_bytes()) {
            Ok(Some((response, used, _))) => {
                assert_eq!(used, text.len());
                response
            }
            other => panic!("not a whole head: {:?}", other.map(|h| h.map(|(r, ..)| r))),
        }
    }

    fn keep_alive(text: &str) -> bool {
        matches!(parse_head(text.as_bytes()), Ok(Some((_, _, true))))
    }

    /// Decodes `wire` fed `step` bytes at a time, as reads may split it anywhere.
    fn decode_chunked(wire: &[u8], step: usize) -> Result<Vec<u8>, String> {
        let mut read = BytesMut::new();
        let mut at = Chunk::Size;
        let mut body = Vec::new();
        let mut fed = 0;
        loop {
            match step_chunked(at, &mut read)? {
                Step::Data(data, next) => {
                    body.extend_from_slice(&data);
                    at = next;
                }
                Step::Moved(next) => at = next,
                Step::Ended => return Ok(body),
                Step::NeedMore => {
                    if fed == wire.len() {
                        return Err("the body ended early".into());
                    }
                    let end = (fed + step).min(wire.len());
                    read.extend_from_slice(&wire[fed..end]);
                    fed = end;
                }
            }
        }
    }

    #[test]
    fn a_chunked_body_decodes_however_the_reads_split_it() {
        // RFC 9112 §7.1: sizes in hex, extensions after `;`, trailer fields after the last.
        let wire =
            b"5;ext=1\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nx-trailer: t\r\n\r\n";
        for step in 1..=wire.len() {
            assert_eq!(
                decode_chunked(wire, step).as_deref(),
                Ok(&b"helloabcdefghijklmnopqrstuvwxyz"[..]),
                "reads of {step} bytes"
            );
        }
    }

    #[test]
    fn a_malformed_chunked_body_is_an_error_naming_what_is_wrong() {
        for (wire, problem) in [
            (&b"zz\r\nhello\r\n0\r\n\r\n"[..], "chunk size"),
            (b"\r\n", "chunk size"),
            (b"1ffffffffffffffff\r\n", "chunk size"),
            (b"5\r\nhelloXX0\r\n\r\n", "CRLF"),
        ] {
            let error = decode_chunked(wire, wire.len()).expect_err("malformed");
            assert!(error.contains(problem), "{error}");
        }
        let endless_line = vec![b'1'; MAX_CHUNK_LINE + 2];
        let error = decode_chunked(&endless_line, endless_line.len()).expect_err("too long");
        assert!(error.contains("8 KiB"), "{error}");
    }

    #[test]
    fn the_body_is_framed_as_rfc_9112_section_6_3_says() {
        let get = &Method::GET;
        let framing_of = |method: &Method, text: &str| framing(method, &head(text));
        let ok = "HTTP/1.1 200 OK\r\n";
        assert_eq!(
            framing_of(get, &format!("{ok}content-length: 5\r\n\r\n")).ok(),
            Some(Framing::Length(5))
        );
        assert_eq!(
            framing_of(get, &format!("{ok}content-length: 0\r\n\r\n")).ok(),
            Some(Framing::Empty)
        );
        assert_eq!(
            framing_of(&Method::HEAD, &format!("{ok}content-length: 5\r\n\r\n")).ok(),
            Some(Framing::Empty)
        );
        assert_eq!(
            framing_of(get, "HTTP/1.1 204 No Content\r\n\r\n").ok(),
            Some(Framing::Empty)
        );
        assert_eq!(
            framing_of(
                get,
                "HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n"
            )
            .ok(),
            Some(Framing::Empty)
        );
        assert_eq!(
            framing_of(
                get,
                &format!("{ok}transfer-encoding: chunked\r\ncontent-length: 5\r\n\r\n")
            )
            .ok(),
            Some(Framing::Chunked(Chunk::Size)),
            "chunked wins over a length"
        );
        assert_eq!(
            framing_of(get, &format!("{ok}transfer-encoding: gzip\r\n\r\n")).ok(),
            Some(Framing::UntilClose)
        );
        assert_eq!(
            framing_of(get, &format!("{ok}\r\n")).ok(),
            Some(Framing::UntilClose)
        );
        assert_eq!(
            framing_of(
                get,
                &format!("{ok}content-length: 5\r\ncontent-length: 5\r\n\r\n")
            )
            .ok(),
            Some(Framing::Length(5))
        );
        for bad in [
            "content-length: 5\r\ncontent-length: 6",
            "content-length: five",
            "content-length: -1",
        ] {
            let error = framing_of(get, &format!("{ok}{bad}\r\n\r\n")).expect_err(bad);
            assert!(error.reason.contains("Content-Length"), "{}", error.reason);
        }
    }

    #[test]
    fn a_connection_is_kept_only_when_the_app_allows_it() {
        assert!(keep_alive("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"));
        assert!(keep_alive(
            "HTTP/1.1 200 OK\r\nconnection: keep-alive\r\n\r\n"
        ));
        assert!(!keep_alive(
            "HTTP/1.1 200 OK\r\nconnection: Keep-Alive, Close\r\n\r\n"
        ));
        assert!(!keep_alive("HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n"));
    }

    #[test]
    fn a_partial_head_waits_and_a_malformed_one_is_refused() {
        assert!(matches!(
            parse_head(b"HTTP/1.1 200 OK\r\ncontent-le"),
            Ok(None)
        ));
        for bad in [
            &b"HTTP/1.1 2000 OK\r\n\r\n"[..],
            b"HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n",
            b"<html>\r\n\r\n",
        ] {
            let error = parse_head(bad).map(|_| ()).expect_err("malformed");
            assert!(
                error.reason.contains("the app's response"),
                "{}",
                error.reason
            );
            assert!(!error.nothing_back);
        }
        let many: String = (0..=MAX_FIELDS).map(|i| format!("x-{i}: y\r\n")).collect();
        let error = parse_head(format!("HTTP/1.1 200 OK\r\n{many}\r\n").as_bytes())
            .map(|_| ())
            .expect_err("too many");
        assert!(error.reason.contains("malformed"), "{}", error.reason);
    }

    #[test]
    fn the_request_head_is_the_method_the_target_and_the_fields() {
        let mut headers = HeaderMap::new();
        headers.insert(header::HOST, HeaderValue::from_static("app:3000"));
        headers.append("x-a", HeaderValue::from_static("1"));
        headers.append("x-a", HeaderValue::from_static("2"));
        let head = request_head(&Method::GET, "/p?q=1", &headers);
        assert_eq!(
            String::from_utf8(head).unwrap(),
            "GET /p?q=1 HTTP/1.1\r\nhost: app:3000\r\nx-a: 1\r\nx-a: 2\r\n\r\n"
        );
        let head = request_head(&Method::POST, "/form", &HeaderMap::new());
        assert_eq!(
            String::from_utf8(head).unwrap(),
            "POST /form HTTP/1.1\r\ncontent-length: 0\r\n\r\n"
        );
    }
}
