//! What each edge thread serves: the app's paths go straight to the proxy — a body-less
//! request on the listener's own HTTP/1.1, any other on hyper — without the router, and only
//! the rest (the platform's `/.nnumbers/` paths, and paths spelled so that some reading might
//! be one) through axum's router on hyper, which normalises and routes them.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{Request, Response};
use futures_util::future::Either;
use http_body_util::Either as BodyEither;
use tokio::net::TcpStream;

use super::proxy::{self, Peer};
use super::upstream::Reply;
use super::{EdgeState, reserved, router};
use crate::listener::{ClientBody, Handler, Handshake};

/// Set to `0`, the edge serves every request on hyper, as before its own HTTP/1.1: the
/// comparison for benchmarks, and a way back should a client meet a difference.
pub const OWN_HTTP1_VARIABLE: &str = "ZERO_SANDBOX_EDGE_OWN_HTTP1";

/// One edge thread's handler: its state (with its own connections to the app) and its router.
#[derive(Clone)]
pub struct EdgeFront {
    state: Arc<EdgeState>,
    router: Router,
    /// Whether plain body-less requests are answered on the listener's own HTTP/1.1.
    own_http1: bool,
}

impl EdgeFront {
    pub fn new(state: EdgeState) -> Self {
        Self {
            router: router(state.clone()),
            state: Arc::new(state),
            own_http1: std::env::var_os(OWN_HTTP1_VARIABLE).is_none_or(|v| v != "0"),
        }
    }
}

impl Handler<Peer> for EdgeFront {
    type Body = Reply;

    fn call(
        &self,
        request: Request<ClientBody>,
        peer: &Peer,
    ) -> impl Future<Output = Response<Reply>> + Send + 'static + use<> {
        // A plain path is its own normal form and no reading of it is a platform path
        // (`reserved::is_plain`, held to the full check by a property test): the router
        // would only hand it to its fallback, the proxy.
        if reserved::is_plain(request.uri().path()) {
            let state = self.state.clone();
            let peer = peer.clone();
            Either::Left(async move {
                proxy::forward(&state, request.map(BodyEither::Left), Some(&peer)).await
            })
        } else {
            let routed = Handler::call(&self.router, request, peer);
            Either::Right(async move { routed.await.map(BodyEither::Right) })
        }
    }

    fn own_http1(&self) -> bool {
        self.own_http1
    }

    /// The proxy's phases for a plain path, as [`Self::call`]; a platform path goes to hyper
    /// and the router.
    fn call_own(
        &self,
        request: Request<()>,
        peer: &Peer,
    ) -> Option<impl Future<Output = Response<Reply>> + Send + 'static + use<>> {
        if !reserved::is_plain(request.uri().path()) {
            return None;
        }
        let state = self.state.clone();
        let peer = peer.clone();
        Some(async move {
            let request = request.map(|()| BodyEither::Right(Body::empty()));
            proxy::forward(&state, request, Some(&peer)).await
        })
    }
}

/// Plain TCP, as `listener::Plain`, with the peer's `X-Forwarded-For` made once per
/// connection.
#[derive(Clone, Copy, Debug)]
pub struct EdgeHandshake;

impl Handshake for EdgeHandshake {
    type Io = TcpStream;
    type Info = Peer;

    async fn handshake(&self, tcp: TcpStream, peer: SocketAddr) -> Option<(TcpStream, Peer)> {
        Some((tcp, Peer::new(peer)))
    }
}
