//! The app's address: the reserved `/.nnumbers/` paths and the reverse proxy to the app.
//!
//! # Layout
//!
//! - [`auth`]: the spec's reserved paths (login, callback, logout, session, context), with
//!   [`pending`] (sign-ins in flight), [`return_to`], [`origin`] and [`id_token`].
//! - [`proxy`]: everything else goes to the app, with the header hygiene of the spec and the
//!   identity of [`identity_header`] for whoever [`visitor`] finds signed in.
//! - [`cookie`]: the platform session cookie; [`error`] and [`app_down`]: the edge's own pages.

mod app_down;
pub mod auth;
pub mod cookie;
mod error;
mod id_token;
pub mod identity_header;
mod origin;
mod pending;
mod proxy;
pub mod reserved;
mod return_to;
mod visitor;

use std::sync::Arc;

use axum::Router;
use axum::routing::{get, post};

use crate::oidc::CALLBACK_PATH;
use crate::sandbox::Shared;

#[derive(Clone)]
pub struct EdgeState {
    shared: Arc<Shared>,
    pending: pending::PendingLogins,
}

impl EdgeState {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self {
            shared,
            pending: pending::PendingLogins::default(),
        }
    }
}

pub fn router(state: EdgeState) -> Router {
    Router::new()
        .route(auth::LOGIN_PATH, get(auth::login))
        .route(CALLBACK_PATH, get(auth::callback))
        .route(auth::LOGOUT_PATH, post(auth::logout))
        .route(auth::SESSION_PATH, get(auth::session))
        .route(auth::CONTEXT_PATH, get(auth::context))
        .fallback(proxy::forward)
        .with_state(state)
}
