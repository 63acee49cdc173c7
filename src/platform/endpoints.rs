//! Where each component listens: known once the assembler has bound every listener.

use std::net::SocketAddr;

use serde::Serialize;

/// Where each component listens.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Endpoints {
    pub edge: SocketAddr,
    pub broker: SocketAddr,
    pub iam: SocketAddr,
    pub querymesh: SocketAddr,
}

impl Endpoints {
    pub fn edge_url(&self) -> String {
        format!("http://{}", self.edge)
    }
    pub fn broker_url(&self) -> String {
        format!("http://{}", self.broker)
    }
    /// The test-control API's base URL, on the broker's listener.
    pub fn control_url(&self) -> String {
        format!("http://{}/sandbox/v1", self.broker)
    }
    /// The console's URL, on the broker's listener beside the API it drives.
    pub fn console_url(&self) -> String {
        format!("http://{}/sandbox/", self.broker)
    }
    pub fn iam_url(&self) -> String {
        format!("http://{}", self.iam)
    }
    pub fn querymesh_url(&self) -> String {
        format!("http://{}", self.querymesh)
    }

    /// The IAM realm `org_slug`'s URL: the issuer of its tokens and the identity's `iam` claim.
    pub fn realm_url(&self, org_slug: &str) -> String {
        format!("{}/realms/{org_slug}", self.iam_url())
    }
}
