//! The broker's refusal table (runtime-protocol, "The Broker, from Inside the Cluster"), once:
//! each refusal knows its status, its code and what the developer should do about it here.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use crate::reserved_paths::LOGIN_PATH;

/// Every way the broker refuses a query. The `String`s carry the specific cause; the code's
/// standing advice is appended by [`Refusal::message`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// 400: no SQL, max_rows outside 1–100,000, or not JSON.
    ValidationFailed(String),
    /// 413: a body over the broker's limit (bytes). The spec's table gives VALIDATION_FAILED
    /// for a bad request and 400 for bad fields; a body too large to read keeps HTTP's own
    /// status (RFC 9110 §15.5.14), which clients and proxies know, in the spec's shape.
    BodyTooLarge(usize),
    /// 401: no identity, or the session of who signed in ended.
    UserSessionRequired(String),
    /// 401: the identity does not check out.
    IdentityAssertionInvalid(String),
    /// 409: the organization has no QueryMesh configured, or it is off.
    OrganizationIntegrationNotConfigured,
    /// 409: the app's querymesh capability is off.
    QueryMeshNotEnabled,
    /// 502: QueryMesh did not accept the person's token.
    QueryMeshIdentityRejected(String),
    /// 403: the organization's data policies denied the query.
    QueryMeshAccessDenied(String),
    /// 422: QueryMesh refused the query, or the result went past max_rows.
    QueryRefused(String),
    /// 502: QueryMesh answered outside the protocol or pointed outside its address.
    QueryMeshProtocol(String),
    /// 503: QueryMesh did not answer, is busy, or the platform is at its query limit.
    QueryMeshUnavailable(String),
    /// 503: the broker has no identity keys available right now.
    ApplicationIdentityNotReady,
}

/// Every code of the spec's refusal table, with the statuses it comes with: what a fault rule
/// of the test-control API may ask the broker to answer.
pub const INJECTABLE_CODES: [(&str, &[u16]); 10] = [
    ("VALIDATION_FAILED", &[400, 413]),
    ("USER_SESSION_REQUIRED", &[401]),
    ("IDENTITY_ASSERTION_INVALID", &[401]),
    ("ORGANIZATION_INTEGRATION_NOT_CONFIGURED", &[409]),
    ("QUERYMESH_NOT_ENABLED", &[409]),
    ("QUERYMESH_IDENTITY_REJECTED", &[502]),
    ("QUERYMESH_ACCESS_DENIED", &[403]),
    ("QUERYMESH_QUERY_FAILED", &[422, 502]),
    ("QUERYMESH_UNAVAILABLE", &[503]),
    ("APPLICATION_IDENTITY_NOT_READY", &[503]),
];

impl Refusal {
    /// The refusal a fault rule asks for: `code` of the spec's table, with `status` for a code
    /// that has two (the first one otherwise). `None` for a code or status not in the table.
    pub fn injected(code: &str, status: Option<u16>, rule: u64) -> Option<Self> {
        let (_, statuses) = INJECTABLE_CODES.iter().find(|(c, _)| *c == code)?;
        let status = status.unwrap_or(statuses[0]);
        if !statuses.contains(&status) {
            return None;
        }
        let cause = format!("fault rule {rule} of the test-control API");
        Some(match (code, status) {
            ("VALIDATION_FAILED", 413) => {
                Self::BodyTooLarge(crate::broker::request::MAX_BODY_BYTES)
            }
            ("VALIDATION_FAILED", _) => Self::ValidationFailed(cause),
            ("USER_SESSION_REQUIRED", _) => Self::UserSessionRequired(cause),
            ("IDENTITY_ASSERTION_INVALID", _) => Self::IdentityAssertionInvalid(cause),
            ("ORGANIZATION_INTEGRATION_NOT_CONFIGURED", _) => {
                Self::OrganizationIntegrationNotConfigured
            }
            ("QUERYMESH_NOT_ENABLED", _) => Self::QueryMeshNotEnabled,
            ("QUERYMESH_IDENTITY_REJECTED", _) => Self::QueryMeshIdentityRejected(cause),
            ("QUERYMESH_ACCESS_DENIED", _) => Self::QueryMeshAccessDenied(cause),
            ("QUERYMESH_QUERY_FAILED", 502) => Self::QueryMeshProtocol(cause),
            ("QUERYMESH_QUERY_FAILED", _) => Self::QueryRefused(cause),
            ("QUERYMESH_UNAVAILABLE", _) => Self::QueryMeshUnavailable(cause),
            _ => Self::ApplicationIdentityNotReady,
        })
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::ValidationFailed(_) => StatusCode::BAD_REQUEST,
            Self::BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UserSessionRequired(_) | Self::IdentityAssertionInvalid(_) => {
                StatusCode::UNAUTHORIZED
            }
            Self::OrganizationIntegrationNotConfigured | Self::QueryMeshNotEnabled => {
                StatusCode::CONFLICT
            }
            Self::QueryMeshIdentityRejected(_) | Self::QueryMeshProtocol(_) => {
                StatusCode::BAD_GATEWAY
            }
            Self::QueryMeshAccessDenied(_) => StatusCode::FORBIDDEN,
            Self::QueryRefused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::QueryMeshUnavailable(_) | Self::ApplicationIdentityNotReady => {
                StatusCode::SERVICE_UNAVAILABLE
            }
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::ValidationFailed(_) | Self::BodyTooLarge(_) => "VALIDATION_FAILED",
            Self::UserSessionRequired(_) => "USER_SESSION_REQUIRED",
            Self::IdentityAssertionInvalid(_) => "IDENTITY_ASSERTION_INVALID",
            Self::OrganizationIntegrationNotConfigured => "ORGANIZATION_INTEGRATION_NOT_CONFIGURED",
            Self::QueryMeshNotEnabled => "QUERYMESH_NOT_ENABLED",
            Self::QueryMeshIdentityRejected(_) => "QUERYMESH_IDENTITY_REJECTED",
            Self::QueryMeshAccessDenied(_) => "QUERYMESH_ACCESS_DENIED",
            Self::QueryRefused(_) | Self::QueryMeshProtocol(_) => "QUERYMESH_QUERY_FAILED",
            Self::QueryMeshUnavailable(_) => "QUERYMESH_UNAVAILABLE",
            Self::ApplicationIdentityNotReady => "APPLICATION_IDENTITY_NOT_READY",
        }
    }

    /// The cause, then what to do — the spec's "What to do", adapted to the sandbox.
    pub fn message(&self) -> String {
        match self {
            Self::ValidationFailed(cause) => format!("{cause}. Fix the request and repeat."),
            Self::BodyTooLarge(limit) => format!(
                "The body is larger than the broker's limit of {limit} bytes ({} MiB). Fix the \
                 request and repeat.",
                limit / (1024 * 1024)
            ),
            Self::UserSessionRequired(cause) => format!(
                "{cause}. Take the person to sign-in ({LOGIN_PATH}) and repeat."
            ),
            Self::IdentityAssertionInvalid(cause) => format!(
                "The identity does not check out: {cause}. Send the X-NNumbers-Identity the edge \
                 handed this request, unchanged; never treat such a request as a person."
            ),
            Self::OrganizationIntegrationNotConfigured => "The organization has no QueryMesh \
                 integration, or it is off. In the sandbox: set `configured = true` under \
                 [querymesh] in zero-sandbox.toml (or turn it back on through the test-control API)."
                .into(),
            Self::QueryMeshNotEnabled => "The app's querymesh capability is off. On the platform: \
                 `zero services enable querymesh <service>` (takes effect immediately); in the \
                 sandbox: set `enabled = true` under [querymesh] in zero-sandbox.toml."
                .into(),
            Self::QueryMeshIdentityRejected(cause) => format!(
                "QueryMesh did not accept the token of who signed in ({cause}). The realm lacks \
                 the scope QueryMesh requires: the platform administration fixes it (in the \
                 sandbox: `scope = true` under [querymesh]); signing in again does not help."
            ),
            Self::QueryMeshAccessDenied(cause) => format!(
                "{cause}. The organization's data policies deny this query to this person: ask \
                 the data administrator for access (in the sandbox: the QueryMesh access-control rules)."
            ),
            Self::QueryRefused(cause) => format!("{cause}. Check the query and repeat."),
            Self::QueryMeshProtocol(cause) => format!(
                "{cause}. Talk to whoever administers the QueryMesh (in the sandbox: check \
                 [querymesh] url)."
            ),
            Self::QueryMeshUnavailable(cause) => format!("{cause}. Repeat in a moment."),
            Self::ApplicationIdentityNotReady => "The broker has no identity keys available right \
                 now. Repeat; if it persists, `zero services doctor organization-iam <service>` \
                 (in the sandbox: restart it, or check its state directory)."
                .into(),
        }
    }
}

#[derive(Serialize)]
struct RefusalBody {
    code: &'static str,
    message: String,
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let body = RefusalBody {
            code: self.code(),
            message: self.message(),
        };
        (self.status(), Json(body)).into_response()
    }
}
