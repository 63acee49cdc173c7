//! The organization's IAM: a Keycloak-shaped OpenID provider under `/realms/{org_slug}`.

use std::sync::Arc;

use axum::Router;

use crate::sandbox::Shared;

#[derive(Clone)]
pub struct IamState {
    #[allow(dead_code)]
    shared: Arc<Shared>,
}

impl IamState {
    pub fn new(shared: Arc<Shared>) -> Self {
        Self { shared }
    }
}

pub fn router(state: IamState) -> Router {
    Router::new().with_state(state)
}
