//! The QueryMesh stand-in: Trino's client protocol over SQLite with tpch.tiny built in.

pub mod catalog;
pub mod engine;
pub mod error;
pub mod sources;
pub mod sql;
pub mod tpch;
pub mod types;

use std::sync::Arc;

use axum::Router;

use crate::sandbox::Shared;

#[derive(Debug, thiserror::Error)]
pub enum StartError {}

#[derive(Clone)]
pub struct QueryMeshState {
    #[allow(dead_code)]
    shared: Arc<Shared>,
}

impl QueryMeshState {
    pub fn new(shared: Arc<Shared>) -> Result<Self, StartError> {
        Ok(Self { shared })
    }
}

pub fn router(state: QueryMeshState) -> Router {
    Router::new().with_state(state)
}
