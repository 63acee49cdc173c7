//! The listener's own HTTP/1.1 for the common case, as nginx serves a connection from its own
//! event loop: the connection's task reads and parses each request head (`httparse`, as hyper
//! does), asks the handler for the answer and writes its head and body straight to the
//! socket. hyper's server dispatcher moved each request and response through its own state
//! machine and buffers, and woke the task once more per request; for the edge's proxied
//! requests it was the last general-purpose layer left.
//!
//! Only what is simple is answered here: HTTP/1.1 requests in origin form without a body
//! (no `Content-Length` but `0`, no `Transfer-Encoding`), without `Expect` or `Upgrade`, one
//! `Host` at most, that the handler takes ([`Handler::call_own`]). Anything else — a head
//! httparse refuses or that is still incomplete past [`MAX_OWN_HEAD`], HTTP/1.0, a request
//! with a body, `CONNECT`, an upgrade, a path the handler routes — and the connection, with the
//! bytes already read, goes to hyper for the rest of its life ([`super::rewind`]): hyper then
//! answers exactly as it did before this loop existed (400 for a malformed head, 431 for one
//! too large, RFC 9112 §6.3's framing of request bodies, `100 Continue`, upgrades). A request
//! smuggled through two framings (RFC 9112 §6.1, §11.2) never reaches this loop's answer: any
//! `Transfer-Encoding`, and any `Content-Length` but a lone `0`, hands over.
//!
//! Requests are answered one after another in the order they came (pipelining, RFC 9112 §9.3.2),
//! each response written whole before the next head is parsed. The response is framed as
//! hyper frames it (RFC 9112 §6.3, §7.1): no body for `HEAD`, 204 and 304; a length when the
//! body knows it; else chunked. Its `Date` is added when missing (RFC 9110 §6.6.1), and
//! `Connection: close` when it is the connection's last.
//!
//! The connection's deadlines stay its [`super::connection`]'s: this loop marks each request
//! started and finished on the connection's `Activity`, and says when it is waiting for a new
//! request with nothing read ([`Turn`]), when closing loses nothing.

use std::io::Write as _;
use std::mem::MaybeUninit;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use axum::http::{
    HeaderMap, HeaderName, HeaderValue, Method, Request, Response, StatusCode, Uri, Version, header,
};
use bytes::{Buf, Bytes, BytesMut};
use futures_util::FutureExt;
use http_body_util::BodyExt;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::Handler;
use super::activity::Activity;
use super::places::Places;

/// hyper's limit of header fields (more is its 431).
const MAX_FIELDS: usize = 100;
/// A head still incomplete at this size goes to hyper, which reads on up to its own limit
/// (about 400 KB) and answers 431 past it. Browsers' heads, cookies included, are a few KB.
pub(super) const MAX_OWN_HEAD: usize = 16 * 1024;
/// How much room each read of the client is given.
const READ_SIZE: usize = 8 * 1024;

/// How the loop ended.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Ended {
    /// The connection is done: the client closed it, failed, asked to close, or the
    /// connection was told to close.
    Closed,
    /// The next request is not one for this loop: hyper serves the connection from the bytes
    /// still unanswered on.
    HandOver,
}

/// What the connection's task and its own loop tell each other between polls.
#[derive(Default)]
pub(super) struct Turn {
    /// Finish the response under way, say it is the last, and close.
    pub(super) last: AtomicBool,
    /// Waiting for a request with nothing of it read: the connection may close at once.
    pub(super) waiting: AtomicBool,
}

/// One connection's own loop; borrowed from its [`super::connection`] task, which polls it
/// beside the connection's deadlines.
pub(super) struct Own<'a, Io, S, I> {
    pub(super) io: &'a mut Io,
    /// Read from the client and not yet answered: what hyper reads first on a hand-over.
    pub(super) read: &'a mut BytesMut,
    pub(super) handler: &'a S,
    pub(super) info: &'a I,
    pub(super) activity: &'a Arc<Activity>,
    pub(super) places: &'a Arc<Places>,
    pub(super) turn: &'a Turn,
}

impl<Io, S, I> Own<'_, Io, S, I>
where
    Io: AsyncRead + AsyncWrite + Unpin,
    S: Handler<I>,
{
    pub(super) async fn run(mut self) -> Ended {
        loop {
            let head = match self.next_head().await {
                Next::Head(head) => head,
                Next::HandOver => return Ended::HandOver,
                Next::Closed => return Ended::Closed,
            };
            let method = head.request.method().clone();
            let Some(answer) = self.handler.call_own(head.request, self.info) else {
                // hyper reads the head again.
                put_back(self.read, &head.bytes);
                return Ended::HandOver;
            };
            drop(head.bytes);
            let in_flight = self.activity.request_started(self.places.clone());
            crate::heap::request_started();
            // The client's bytes ahead of their answer (pipelined) are the next head: a
            // partial one is timed as a head, not as idleness, once this answer is out.
            let response = match self.answer_ready(answer).await {
                Some(response) => response,
                None => return Ended::Closed,
            };
            let last = !head.keep_alive || self.turn.last.load(Ordering::Relaxed);
            let kept = self.respond(&method, response, last).await;
            drop(in_flight);
            if !kept {
                let _ = self.io.shutdown().await;
                return Ended::Closed;
            }
            if !self.read.is_empty() {
                self.activity.bytes_arrived(self.places);
            }
        }
    }

    /// The next request head this loop answers, or why there is none.
    async fn next_head(&mut self) -> Next {
        loop {
            if self.read.is_empty() {
                if self.turn.last.load(Ordering::Relaxed) {
                    return Next::Closed;
                }
                self.turn.waiting.store(true, Ordering::Relaxed);
                let more = self.read_more().await;
                self.turn.waiting.store(false, Ordering::Relaxed);
                if !more {
                    return Next::Closed;
                }
                continue;
            }
            match parse(self.read) {
                Parsed::Head(head) => return Next::Head(head),
                Parsed::Hyper => return Next::HandOver,
                Parsed::Partial if self.read.len() >= MAX_OWN_HEAD => return Next::HandOver,
                // A client closing mid-head gets no answer, as from hyper.
                Parsed::Partial => {
                    if !self.read_more().await {
                        return Next::Closed;
                    }
                }
            }
        }
    }

    /// Reads what the client sent; false once it closed or failed.
    async fn read_more(&mut self) -> bool {
        self.read.reserve(READ_SIZE);
        matches!(self.io.read_buf(self.read).await, Ok(n) if n > 0)
    }

    /// The handler's answer, or `None` if the client went away first: as hyper does, the
    /// request is then abandoned (its exchange with the app dropped). Bytes the client sends
    /// meanwhile are kept for the next request.
    async fn answer_ready<F: Future<Output = Response<S::Body>>>(
        &mut self,
        answer: F,
    ) -> Option<Response<S::Body>> {
        let mut answer = std::pin::pin!(answer);
        loop {
            let watching = self.read.is_empty();
            tokio::select! {
                biased;
                response = answer.as_mut() => return Some(response),
                more = self.read_more(), if watching => {
                    if !more {
                        return None;
                    }
                }
            }
        }
    }

    /// Writes `response`; whether the connection may serve another request.
    async fn respond(&mut self, method: &Method, response: Response<S::Body>, last: bool) -> bool {
        let (parts, body) = response.into_parts();
        let known = if http_body::Body::is_end_stream(&body) {
            Some(0)
        } else {
            http_body::Body::size_hint(&body).exact()
        };
        // What is not yet written: the head, then each piece's framing.
        let mut out = Vec::with_capacity(128 + parts.headers.len() * 48);
        let Some(framed) = encode_head(&mut out, method, parts.status, &parts.headers, known, last)
        else {
            return false;
        };
        let last = last || framed.last;
        let mut framing = framed.body;
        if framing == BodyFraming::None {
            return self.io.write_all(&out).await.is_ok() && !last;
        }
        let mut body = std::pin::pin!(body);
        loop {
            // The head goes out with the body's first piece when that is already there (most
            // answers: one write), else at once (a stream whose first event comes later).
            let frame = if out.is_empty() {
                match self.next_frame(body.as_mut()).await {
                    Some(frame) => frame,
                    None => return false,
                }
            } else {
                match body.frame().now_or_never() {
                    Some(frame) => frame.map(|frame| frame.map_err(drop)),
                    None => {
                        if self.io.write_all(&out).await.is_err() {
                            return false;
                        }
                        out.clear();
                        continue;
                    }
                }
            };
            let data = match frame {
                Some(Ok(frame)) => match frame.into_data() {
                    Ok(data) => data,
                    // Trailers are not relayed (hyper relays them only when declared).
                    Err(_) => continue,
                },
                // The body failed: what was written stays written, and the connection is
                // closed without the body's end, so the client sees it cut short.
                Some(Err(_)) => {
                    let _ = self.io.write_all(&out).await;
                    return false;
                }
                None => {
                    let Some(end) = framing.end() else {
                        // Short of its length: cut short.
                        let _ = self.io.write_all(&out).await;
                        return false;
                    };
                    out.extend_from_slice(end);
                    return self.io.write_all(&out).await.is_ok() && !last;
                }
            };
            let Some(after) = framing.piece(&data, &mut out) else {
                // Past its length: hyper fails the connection too.
                return false;
            };
            let ended = http_body::Body::is_end_stream(&*body);
            let end = match ended {
                true => framing.end().unwrap_or_default(),
                false => b"",
            };
            let mut pieces = Buf::chain(&out[..], &data[..]).chain(after).chain(end);
            if self.io.write_all_buf(&mut pieces).await.is_err() {
                return false;
            }
            out.clear();
            if ended {
                return framing.complete() && !last;
            }
        }
    }

    /// The body's next frame, or `None` if the client went away meanwhile (a stream whose
    /// reader left is not relayed until its next event).
    async fn next_frame(
        &mut self,
        mut body: std::pin::Pin<&mut S::Body>,
    ) -> Option<Option<Result<http_body::Frame<Bytes>, ()>>> {
        loop {
            let watching = self.read.is_empty();
            tokio::select! {
                biased;
                frame = body.frame() => return Some(frame.map(|frame| frame.map_err(drop))),
                more = self.read_more(), if watching => {
                    if !more {
                        return None;
                    }
                }
            }
        }
    }
}

// Moved once per request; boxing the head would cost an allocation per request instead.
#[allow(clippy::large_enum_variant)]
enum Next {
    Head(Head),
    HandOver,
    Closed,
}

/// A request head this loop answers.
#[derive(Debug)]
struct Head {
    request: Request<()>,
    /// The head as read, for hyper if the handler leaves the request to it.
    bytes: Bytes,
    /// HTTP/1.1 and no `Connection: close` (RFC 9112 §9.3).
    keep_alive: bool,
}

#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // as `Next`
enum Parsed {
    Partial,
    Head(Head),
    /// Not one for this loop: hyper answers it.
    Hyper,
}

/// Where one field is in the head.
#[derive(Clone, Default)]
struct Field {
    name: Range<usize>,
    value: Range<usize>,
}

/// Parses the request head at the start of `read`; a head this loop answers is taken out of
/// it, anything else left for hyper to read.
fn parse(read: &mut BytesMut) -> Parsed {
    let mut slots = [const { MaybeUninit::<httparse::Header<'_>>::uninit() }; MAX_FIELDS];
    let mut fields: [Field; MAX_FIELDS] = std::array::from_fn(|_| Field::default());
    let mut parsed = httparse::Request::new(&mut []);
    let buf: &[u8] = read;
    let len = match parsed.parse_with_uninit_headers(buf, &mut slots) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Parsed::Partial,
        Err(_) => return Parsed::Hyper,
    };
    let (Some(method), Some(path), Some(1)) = (parsed.method, parsed.path, parsed.version) else {
        return Parsed::Hyper;
    };
    let Ok(method) = Method::from_bytes(method.as_bytes()) else {
        return Parsed::Hyper;
    };
    if method == Method::CONNECT || !path.starts_with('/') {
        return Parsed::Hyper;
    }
    let offset = |part: &[u8]| {
        let start = part.as_ptr() as usize - buf.as_ptr() as usize;
        start..start + part.len()
    };
    let path = offset(path.as_bytes());
    let mut keep_alive = true;
    let mut hosts = 0;
    let count = parsed.headers.len();
    for (field, at) in parsed.headers.iter().zip(fields.iter_mut()) {
        let name = field.name.as_bytes();
        let value = field.value;
        if name.eq_ignore_ascii_case(b"content-length") {
            // RFC 9112 §6.3: a lone zero length is no body; any other length is one.
            if value != b"0" {
                return Parsed::Hyper;
            }
        } else if name.eq_ignore_ascii_case(b"transfer-encoding")
            || name.eq_ignore_ascii_case(b"expect")
            || name.eq_ignore_ascii_case(b"upgrade")
        {
            return Parsed::Hyper;
        } else if name.eq_ignore_ascii_case(b"host") {
            hosts += 1;
        } else if name.eq_ignore_ascii_case(b"connection") && has_token(value, b"close") {
            keep_alive = false;
        }
        *at = Field {
            name: offset(name),
            value: offset(value),
        };
    }
    // RFC 9112 §3.2: a request with several Host fields is invalid; hyper's answer stays.
    let lengths = parsed
        .headers
        .iter()
        .filter(|f| f.name.eq_ignore_ascii_case("content-length"))
        .count();
    if hosts > 1 || lengths > 1 {
        return Parsed::Hyper;
    }
    let head = read.split_to(len).freeze();
    match build(&head, method, path, &fields[..count], keep_alive) {
        Some(head) => Parsed::Head(head),
        None => {
            // Put back for hyper, which refuses it in its own words.
            put_back(read, &head);
            Parsed::Hyper
        }
    }
}

/// Puts `head` back in front of what is still to be read.
fn put_back(read: &mut BytesMut, head: &[u8]) {
    let mut back = BytesMut::with_capacity(head.len() + read.len());
    back.extend_from_slice(head);
    back.extend_from_slice(read);
    *read = back;
}

/// The request of a parsed head, its values sharing the head's bytes.
fn build(
    head: &Bytes,
    method: Method,
    path: Range<usize>,
    fields: &[Field],
    keep_alive: bool,
) -> Option<Head> {
    let uri = Uri::from_maybe_shared(head.slice(path)).ok()?;
    let mut headers = HeaderMap::with_capacity(fields.len());
    for field in fields {
        let name = HeaderName::from_bytes(&head[field.name.clone()]).ok()?;
        let value = HeaderValue::from_maybe_shared(head.slice(field.value.clone())).ok()?;
        headers.append(name, value);
    }
    let mut request = Request::new(());
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.version_mut() = Version::HTTP_11;
    *request.headers_mut() = headers;
    Some(Head {
        request,
        bytes: head.clone(),
        keep_alive,
    })
}

/// Whether a comma-separated field value lists `token` (any letter case).
fn has_token(value: &[u8], token: &[u8]) -> bool {
    value
        .split(|&b| b == b',')
        .any(|t| t.trim_ascii().eq_ignore_ascii_case(token))
}

/// How a response's body goes on the wire.
#[derive(Debug, PartialEq, Eq)]
enum BodyFraming {
    /// Nothing (`HEAD`, 204, 304, or an empty body).
    None,
    /// This many bytes still to come.
    Length(u64),
    Chunked,
}

impl BodyFraming {
    /// Frames one piece of data: the chunk-size line into `out`, and what follows the data;
    /// `None` if it is more than the length said.
    fn piece(&mut self, data: &Bytes, out: &mut Vec<u8>) -> Option<&'static [u8]> {
        match self {
            Self::None => None,
            Self::Length(left) => {
                *left = left.checked_sub(data.len() as u64)?;
                Some(b"")
            }
            // An empty chunk would end the body.
            Self::Chunked if data.is_empty() => Some(b""),
            Self::Chunked => {
                let _ = write!(out, "{:x}\r\n", data.len());
                Some(b"\r\n")
            }
        }
    }

    /// What ends the body once its last piece is out; `None` if it is short of its length.
    fn end(&self) -> Option<&'static [u8]> {
        match self {
            Self::None | Self::Length(0) => Some(b""),
            Self::Length(_) => None,
            Self::Chunked => Some(b"0\r\n\r\n"),
        }
    }

    /// Whether the body was written to its end (its last piece carried it).
    fn complete(&self) -> bool {
        !matches!(self, Self::Length(left) if *left > 0)
    }
}

/// The framing [`encode_head`] chose, and whether the response itself asked to close.
struct Framed {
    body: BodyFraming,
    last: bool,
}

/// Writes the response head into `out` as hyper's server does; `None` for a response this
/// loop cannot send (a 1xx, or a `Content-Length` that is no length).
fn encode_head(
    out: &mut Vec<u8>,
    method: &Method,
    status: StatusCode,
    headers: &HeaderMap,
    known: Option<u64>,
    last: bool,
) -> Option<Framed> {
    if status.is_informational() {
        return None;
    }
    if status == StatusCode::OK {
        out.extend_from_slice(b"HTTP/1.1 200 OK\r\n");
    } else {
        out.extend_from_slice(b"HTTP/1.1 ");
        out.extend_from_slice(status.as_str().as_bytes());
        out.push(b' ');
        out.extend_from_slice(status.canonical_reason().unwrap_or("<none>").as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    // RFC 9110 §6.4.1: no content for HEAD, 204 and 304; §8.6: no length on 204 (nor 304,
    // whose length would be the selected representation's, which hyper leaves out too).
    let no_body = method == Method::HEAD
        || status == StatusCode::NO_CONTENT
        || status == StatusCode::NOT_MODIFIED;
    let may_have_length = status != StatusCode::NO_CONTENT && status != StatusCode::NOT_MODIFIED;
    let mut length: Option<u64> = None;
    let mut date = false;
    let mut closes = false;
    for (name, value) in headers {
        if name == header::CONTENT_LENGTH {
            if !may_have_length || length.is_some() {
                continue;
            }
            // An empty body with a length: kept only for HEAD (the GET's length).
            if known == Some(0) && method != Method::HEAD {
                continue;
            }
            let n = match known {
                Some(n) if method != Method::HEAD => n,
                _ => std::str::from_utf8(value.as_bytes()).ok()?.parse().ok()?,
            };
            length = Some(n);
        } else if name == header::TRANSFER_ENCODING {
            // This loop frames the body itself.
            continue;
        } else if name == header::DATE {
            date = true;
        } else if name == header::CONNECTION && has_token(value.as_bytes(), b"close") {
            closes = true;
        }
        out.extend_from_slice(name.as_str().as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    let body = match (length, known) {
        _ if no_body => {
            if method == Method::HEAD
                && length.is_none()
                && may_have_length
                && let Some(n) = known.filter(|n| *n > 0)
            {
                write_length(out, n);
            }
            BodyFraming::None
        }
        (Some(0), _) | (None, Some(0)) => {
            if length.is_none() {
                out.extend_from_slice(b"content-length: 0\r\n");
            }
            BodyFraming::None
        }
        (Some(n), _) => BodyFraming::Length(n),
        (None, Some(n)) => {
            write_length(out, n);
            BodyFraming::Length(n)
        }
        (None, None) => {
            out.extend_from_slice(b"transfer-encoding: chunked\r\n");
            BodyFraming::Chunked
        }
    };
    if last && !closes {
        out.extend_from_slice(b"connection: close\r\n");
    }
    if !date {
        out.extend_from_slice(b"date: ");
        date::extend(out);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    Some(Framed { body, last: closes })
}

fn write_length(out: &mut Vec<u8>, n: u64) {
    let _ = write!(out, "content-length: {n}\r\n");
}

/// The `Date` of responses, formatted once a second per thread (RFC 9110 §5.6.7's IMF-fixdate).
mod date {
    use std::cell::RefCell;
    use std::time::{SystemTime, UNIX_EPOCH};

    thread_local! {
        static NOW: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
    }

    pub(super) fn extend(out: &mut Vec<u8>) {
        let now = SystemTime::now();
        let second = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        NOW.with_borrow_mut(|(at, text)| {
            if *at != second || text.is_empty() {
                *at = second;
                *text = httpdate::fmt_http_date(now);
            }
            out.extend_from_slice(text.as_bytes());
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &[u8]) -> (Parsed, BytesMut) {
        let mut read = BytesMut::from(text);
        (parse(&mut read), read)
    }

    fn head(text: &str) -> Head {
        match parsed(text.as_bytes()) {
            (Parsed::Head(head), rest) => {
                assert!(rest.is_empty(), "{rest:?}");
                head
            }
            (other, _) => panic!("not answered here: {other:?}"),
        }
    }

    fn handed_over(text: &[u8]) -> bool {
        let (parsed, rest) = parsed(text);
        // hyper reads the whole head again.
        matches!(parsed, Parsed::Hyper) && &rest[..] == text
    }

    #[test]
    fn a_plain_request_is_parsed_with_its_fields_and_its_connection() {
        let got = head("GET /a?b=1 HTTP/1.1\r\nHost: app\r\nX-A: 1\r\nx-a: 2\r\n\r\n");
        assert_eq!(got.request.method(), Method::GET);
        assert_eq!(got.request.uri(), "/a?b=1");
        assert_eq!(got.request.headers()["host"], "app");
        let all: Vec<_> = got.request.headers().get_all("x-a").iter().collect();
        assert_eq!(all, ["1", "2"]);
        assert!(got.keep_alive);
        assert!(!head("GET / HTTP/1.1\r\nConnection: keep-alive, Close\r\n\r\n").keep_alive);
        assert!(head("DELETE /x HTTP/1.1\r\nContent-Length: 0\r\n\r\n").keep_alive);
    }

    #[test]
    fn pipelined_heads_come_out_one_at_a_time() {
        let (first, rest) = parsed(b"GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\nGET /3 HT");
        assert!(matches!(first, Parsed::Head(ref h) if h.request.uri() == "/1"));
        let mut read = rest;
        assert!(matches!(parse(&mut read), Parsed::Head(ref h) if h.request.uri() == "/2"));
        assert!(matches!(parse(&mut read), Parsed::Partial));
        assert_eq!(&read[..], b"GET /3 HT");
    }

    #[test]
    fn anything_but_a_plain_body_less_request_goes_to_hyper_untouched() {
        for text in [
            // A body, in either framing, or both (RFC 9112 §6.1: smuggling).
            &b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello"[..],
            b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: +0\r\n\r\n",
            b"GET / HTTP/1.1\r\nTransfer-Encoding: identity\r\n\r\n",
            b"PUT / HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            b"GET /ws HTTP/1.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
            b"GET / HTTP/1.0\r\n\r\n",
            b"CONNECT host:443 HTTP/1.1\r\nHost: host:443\r\n\r\n",
            b"OPTIONS * HTTP/1.1\r\n\r\n",
            b"GET http://app/ HTTP/1.1\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            // Malformed: obs-fold (RFC 9112 §5.2), a space before the colon (§5.1), no
            // version, a bare LF in a value, a control character.
            b"GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n",
            b"GET / HTTP/1.1\r\nHost : a\r\n\r\n",
            b"GET /\r\n\r\n",
            b"GET / HTTP/1.1\r\nX-A: a\x00b\r\n\r\n",
            b"GET / HTTP/2.0\r\n\r\n",
        ] {
            assert!(handed_over(text), "{}", String::from_utf8_lossy(text));
        }
        let many: String = (0..=MAX_FIELDS).map(|i| format!("x-{i}: y\r\n")).collect();
        assert!(handed_over(
            format!("GET / HTTP/1.1\r\n{many}\r\n").as_bytes()
        ));
    }

    fn encoded(
        method: Method,
        status: StatusCode,
        fields: &[(&str, &str)],
        known: Option<u64>,
        last: bool,
    ) -> (String, BodyFraming) {
        let mut headers = HeaderMap::new();
        for (name, value) in fields {
            headers.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        let mut out = Vec::new();
        let framed = encode_head(&mut out, &method, status, &headers, known, last).unwrap();
        let text = String::from_utf8(out).unwrap();
        // The Date is today's; the rest is checked exactly.
        let (before, after) = text.split_once("date: ").unwrap();
        let (_, after) = after.split_once("\r\n").unwrap();
        (format!("{before}{after}"), framed.body)
    }

    #[test]
    fn a_response_head_is_framed_as_hyper_frames_it() {
        let ok = StatusCode::OK;
        let get = Method::GET;
        assert_eq!(
            encoded(
                get.clone(),
                ok,
                &[("content-type", "text/plain")],
                Some(5),
                false
            ),
            (
                "HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\ncontent-length: 5\r\n\r\n".into(),
                BodyFraming::Length(5)
            )
        );
        assert_eq!(
            encoded(get.clone(), ok, &[("content-length", "5")], None, false),
            (
                "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n".into(),
                BodyFraming::Length(5)
            )
        );
        assert_eq!(
            encoded(get.clone(), ok, &[], None, true),
            (
                "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n".into(),
                BodyFraming::Chunked
            )
        );
        assert_eq!(
            encoded(get.clone(), ok, &[], Some(0), false),
            (
                "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n".into(),
                BodyFraming::None
            )
        );
        // HEAD keeps the GET's length and sends no body.
        assert_eq!(
            encoded(Method::HEAD, ok, &[("content-length", "5")], Some(0), false),
            (
                "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\n".into(),
                BodyFraming::None
            )
        );
        // 304 and 204: no body, no length.
        assert_eq!(
            encoded(
                get.clone(),
                StatusCode::NOT_MODIFIED,
                &[("content-length", "5"), ("etag", "\"x\"")],
                Some(0),
                false
            ),
            (
                "HTTP/1.1 304 Not Modified\r\netag: \"x\"\r\n\r\n".into(),
                BodyFraming::None
            )
        );
        assert_eq!(
            encoded(get, StatusCode::NO_CONTENT, &[], Some(0), false).0,
            "HTTP/1.1 204 No Content\r\n\r\n"
        );
    }

    #[test]
    fn chunks_and_lengths_frame_each_piece() {
        let mut out = Vec::new();
        let mut chunked = BodyFraming::Chunked;
        let after = chunked.piece(&Bytes::from_static(b"hello, world"), &mut out);
        assert_eq!((&out[..], after), (&b"c\r\n"[..], Some(&b"\r\n"[..])));
        assert_eq!(chunked.end(), Some(&b"0\r\n\r\n"[..]));
        out.clear();
        assert_eq!(chunked.piece(&Bytes::new(), &mut out), Some(&b""[..]));
        assert!(out.is_empty(), "an empty piece is no last chunk");
        let mut length = BodyFraming::Length(3);
        assert!(length.piece(&Bytes::from_static(b"ab"), &mut out).is_some());
        assert_eq!(length.end(), None, "short of its length");
        assert!(
            length.piece(&Bytes::from_static(b"cd"), &mut out).is_none(),
            "past it"
        );
    }
}
