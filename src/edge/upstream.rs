//! The bodies the edge passes through, without boxing them: the browser's request body on its
//! way to the app ([`ToApp`]) and the app's response body, or the edge's own, on its way back
//! ([`Reply`]).

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::BoxError;
use axum::body::Body;
use bytes::Bytes;
use http_body::{Frame, SizeHint};

use super::app_pool::AppBody;
use crate::listener::ClientBody;

/// A request body for the app: the browser's, as the listener hands it over (the app's paths),
/// or as the router does (a path spelled unusually, which goes through the router first).
pub enum ToApp {
    Direct(ClientBody),
    Routed(Body),
}

impl http_body::Body for ToApp {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            Self::Direct(body) => Pin::new(body).poll_frame(cx).map_err(Into::into),
            Self::Routed(body) => Pin::new(body).poll_frame(cx).map_err(Into::into),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Self::Direct(body) => body.is_end_stream(),
            Self::Routed(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Self::Direct(body) => body.size_hint(),
            Self::Routed(body) => body.size_hint(),
        }
    }
}

/// A response body for the browser: the app's, streamed as it comes, or one of the edge's own
/// (its pages, the router's answers).
pub enum Reply {
    App(AppBody),
    Edge(Body),
}

impl From<Body> for Reply {
    fn from(body: Body) -> Self {
        Self::Edge(body)
    }
}

impl http_body::Body for Reply {
    type Data = Bytes;
    type Error = BoxError;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, BoxError>>> {
        match self.get_mut() {
            Self::App(body) => Pin::new(body).poll_frame(cx).map_err(Into::into),
            Self::Edge(body) => Pin::new(body).poll_frame(cx).map_err(Into::into),
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Self::App(body) => body.is_end_stream(),
            Self::Edge(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match self {
            Self::App(body) => body.size_hint(),
            Self::Edge(body) => body.size_hint(),
        }
    }
}
