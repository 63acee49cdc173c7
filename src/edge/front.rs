//! What each edge thread serves: the app's paths go straight to the proxy, on hyper without
//! the router, and only the rest (the platform's `/.nnumbers/` paths, and paths spelled so
//! that some reading might be one) through axum's router, which normalises and routes them.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::http::{Request, Response};
use futures_util::future::Either;
use http_body_util::Either as BodyEither;
use tokio::net::TcpStream;

use super::proxy::{self, Peer};
use super::upstream::Reply;
use super::{EdgeState, reserved, router};
use crate::listener::{ClientBody, Handler, Handshake};

/// One edge thread's handler: its state (with its own connections to the app) and its router.
#[derive(Clone)]
pub struct EdgeFront {
    state: Arc<EdgeState>,
    router: Router,
}

impl EdgeFront {
    pub fn new(state: EdgeState) -> Self {
        Self {
            router: router(state.clone()),
            state: Arc::new(state),
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
