//! End-session (OpenID Connect RP-Initiated Logout 1.0 §2): ends the IAM's SSO session — and
//! the platform sessions born of it — then returns to the application or says so on a page.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;

use super::account;
use super::error::{IamError, found};
use super::mint::{self, ID_TYP, IdClaims};
use super::params::{Params, form_body};
use super::signin_page;
use super::sso;
use super::{IamState, Realm, is_known_client};
use crate::oidc::EDGE_CLIENT_ID;
use crate::platform::{NewEvent, Source};

pub(super) async fn end_session_get(
    _: Realm,
    State(iam): State<IamState>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
) -> Result<Response, IamError> {
    let params = Params::parse(query.unwrap_or_default().as_bytes())?;
    end_session(&iam, &params, &headers)
}

pub(super) async fn end_session_post(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, IamError> {
    let body = form_body(body)?;
    let params = Params::parse(&body)?;
    end_session(&iam, &params, &headers)
}

fn end_session(iam: &IamState, params: &Params, headers: &HeaderMap) -> Result<Response, IamError> {
    let now = iam.now();
    // Everything is checked before anything ends or anyone is redirected.
    if let Some(client_id) = params.get("client_id")
        && !is_known_client(client_id)
    {
        return Err(IamError::UnknownClient(client_id.to_string()));
    }
    let hinted = match params.get("id_token_hint") {
        // §2: an expired hint is still a valid hint.
        Some(hint) => {
            let claims: IdClaims = mint::verify(iam.parts(), hint, ID_TYP, now, false)
                .map_err(IamError::IdTokenHintInvalid)?;
            if claims.aud != EDGE_CLIENT_ID {
                return Err(IamError::IdTokenHintInvalid(
                    "it was issued to another client".into(),
                ));
            }
            Some(claims.sid)
        }
        None => None,
    };
    let redirect = match params.get("post_logout_redirect_uri") {
        Some(uri)
            if iam.is_edge_origin(uri)
                && !uri.contains('#')
                && HeaderValue::from_str(uri).is_ok() =>
        {
            Some(uri)
        }
        Some(uri) => return Err(IamError::LogoutRedirectRefused(uri.to_string())),
        None => None,
    };

    let from_cookie = iam.inner.sso.by_cookie(headers, now);
    if hinted.is_none()
        && let Some(session) = &from_cookie
        && params.get("confirm") != Some(session.logout_code.as_str())
    {
        // Nothing proves the person asked: ask them, ending nothing yet.
        let keep: Vec<(&str, &str)> = ["post_logout_redirect_uri", "state", "client_id"]
            .into_iter()
            .filter_map(|name| params.get(name).map(|value| (name, value)))
            .collect();
        return Ok(account::logout_confirmation(iam, session, &keep));
    }
    let from_cookie = from_cookie.map(|s| s.id);
    for id in from_cookie
        .iter()
        .chain(hinted.iter().filter(|h| Some(*h) != from_cookie.as_ref()))
    {
        // Keycloak's LOGOUT: one per SSO session ended, before the platform sessions it ends.
        if let Some(session) = iam.inner.sso.get(id, now) {
            iam.parts().journal.record(
                NewEvent::new(Source::Iam, "LOGOUT")
                    .of_person(&session.person.sub)
                    .outcome("OK"),
            );
        }
        iam.end_sso_session_because(id, "signed out of the IAM");
    }

    let mut response = match redirect {
        Some(uri) => {
            let mut location = uri.to_string();
            if let Some(state) = params.get("state") {
                let separator = if uri.contains('?') { '&' } else { '?' };
                let query = form_urlencoded::Serializer::new(String::new())
                    .append_pair("state", state)
                    .finish();
                location = format!("{location}{separator}{query}");
            }
            found(&location)
        }
        None => signin_page::message_page(
            StatusCode::OK,
            Some((&iam.parts().organization.name, iam.slug())),
            "You have signed out",
            &format!(
                "Your single sign-on with {} has ended, and so have the application sessions started from it.",
                iam.parts().organization.name
            ),
            "The next sign-in will ask who you are.",
        ),
    };
    if let Ok(value) = HeaderValue::from_str(&sso::clear_cookie(iam.slug())) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    Ok(response)
}
