//! `GET /realms/{slug}/account`: who this browser is signed in as, and a way out. While the
//! SSO lasts, sign-in skips the page; this is where a developer ends it to be someone else.

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;

use super::signin_page;
use super::{IamState, Realm};

pub(super) async fn account(_: Realm, State(iam): State<IamState>, headers: HeaderMap) -> Response {
    let session = iam.inner.sso.by_cookie(&headers, iam.now());
    signin_page::account_page(&iam, session.as_ref())
}
