//! The app's address: the reserved `/.nnumbers/` paths and the reverse proxy to the app.

use std::sync::Arc;

use axum::Router;

use crate::sandbox::Shared;

#[derive(Clone)]
pub struct EdgeState {
    #[allow(dead_code)]
    shared: Arc<Shared>,
}

impl EdgeState {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

pub fn router(state: EdgeState) -> Router {
    Router::new().with_state(state)
}
