//! A connection's I/O with bytes already read in front of it: what the listener's own HTTP/1.1
//! ([`super::http1`]) read and did not answer is read again by hyper, which serves the rest
//! of the connection.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::{Buf, Bytes};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

pub(super) struct Rewind<T> {
    before: Bytes,
    inner: T,
}

impl<T> Rewind<T> {
    pub(super) fn new(before: Bytes, inner: T) -> Self {
        Self { before, inner }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Rewind<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        if !self.before.is_empty() {
            let n = self.before.len().min(buf.remaining());
            buf.put_slice(&self.before[..n]);
            self.before.advance(n);
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Rewind<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

    use super::*;

    #[tokio::test]
    async fn the_bytes_before_come_first_then_the_connection() {
        let (mut client, server) = tokio::io::duplex(64);
        let mut rewound = Rewind::new(Bytes::from_static(b"GET / HT"), server);
        tokio::io::AsyncWriteExt::write_all(&mut client, b"TP/1.1\r\n\r\n")
            .await
            .unwrap();
        drop(client);
        let mut all = Vec::new();
        rewound.read_to_end(&mut all).await.unwrap();
        assert_eq!(all, b"GET / HTTP/1.1\r\n\r\n");
    }
}
