//! What a listener's connections serve: a [`Handler`] turns each request into its response.
//! An axum `Router` is one; the edge's front, which takes the app's paths past its router
//! straight to the proxy, is another.

use std::convert::Infallible;
use std::future::Future;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, Response};
use bytes::Bytes;
use tower_service::Service;

use super::ClientBody;

/// Serves one connection's requests; `I` is what its [`super::Handshake`] says about the
/// connection (the peer's address for plain TCP).
pub trait Handler<I>: Clone + Send + Sync + 'static {
    type Body: http_body::Body<Data = Bytes, Error: Into<axum::BoxError>> + Send + Unpin + 'static;

    fn call(
        &self,
        request: Request<ClientBody>,
        info: &I,
    ) -> impl Future<Output = Response<Self::Body>> + Send + 'static + use<Self, I>;
}

/// A router gets the connection's info as `ConnectInfo<I>`, as under `axum::serve`.
impl<I: Clone + Send + Sync + 'static> Handler<I> for Router {
    type Body = Body;

    fn call(
        &self,
        request: Request<ClientBody>,
        info: &I,
    ) -> impl Future<Output = Response<Body>> + Send + 'static + use<I> {
        let mut request = request.map(Body::new);
        request.extensions_mut().insert(ConnectInfo(info.clone()));
        let mut router = self.clone();
        async move {
            let answer: Result<Response<Body>, Infallible> =
                Service::call(&mut router, request).await;
            match answer {
                Ok(response) => response,
            }
        }
    }
}
