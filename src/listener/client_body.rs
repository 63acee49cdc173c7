//! A request body as every handler reads it: failing, as the client's fault, once the client
//! leaves it without a byte for [`super::Limits::body_read_timeout`] while it is waited for.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use hyper::body::Incoming;
use tokio::time::Sleep;

/// Why a request body could not be read: the client's fault, whoever reads it. The edge
/// looks for this in the error chain of a failed forward to tell it from the app's failure.
#[derive(Debug, thiserror::Error)]
pub enum ClientBodyError {
    #[error("no byte of the request body arrived for {} s", .0.as_secs_f64())]
    Stalled(Duration),
    /// hyper's error with its causes (its own message alone does not say what was wrong).
    #[error("the request body is malformed or was cut short: {0}")]
    Read(String),
}

/// The request body, failing once the client leaves it without a byte for the timeout while
/// it is being waited for.
pub struct ClientBody {
    inner: Incoming,
    timeout: Duration,
    /// Set while a read is pending; cleared by each frame.
    stall: Option<Pin<Box<Sleep>>>,
}

impl ClientBody {
    pub(super) fn new(inner: Incoming, timeout: Duration) -> Self {
        Self {
            inner,
            timeout,
            stall: None,
        }
    }
}

impl http_body::Body for ClientBody {
    type Data = Bytes;
    type Error = ClientBodyError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, ClientBodyError>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            self.stall = None;
            let read = |e: hyper::Error| ClientBodyError::Read(crate::http::describe(&e));
            return Poll::Ready(frame.map(|f| f.map_err(read)));
        }
        let timeout = self.timeout;
        let stall = self
            .stall
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        ready!(stall.as_mut().poll(cx));
        self.stall = None;
        Poll::Ready(Some(Err(ClientBodyError::Stalled(timeout))))
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}
