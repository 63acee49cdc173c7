//! What the sign-in page posts: a person's card, "Continue as", or a custom person.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::authorize::complete;
use super::error::IamError;
use super::params::Params;
use super::signin_page::{self, CustomForm, SignInPage};
use super::{IamState, Realm};
use crate::config::Person;

/// Keycloak's limit on a username; a `sub` longer than this is not a real one.
const MAX_SUB_LEN: usize = 255;

pub(super) async fn authenticate(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, IamError> {
    let form = Params::parse(&body)?;
    let now = iam.now();
    let id = form
        .get("auth_request")
        .ok_or(IamError::AuthRequestExpired)?;
    iam.inner
        .pending
        .get(id, now)
        .ok_or(IamError::AuthRequestExpired)?;

    let is_custom = form.get("custom") == Some("1");
    let chosen = if is_custom {
        custom_person(&iam, &form)
    } else {
        match form.get("person") {
            Some(sub) => iam
                .person(sub)
                .ok_or_else(|| format!("Nobody with sub {sub:?} is in this organization.")),
            None => Err("Choose a person to sign in as.".to_string()),
        }
    };
    let person = match chosen {
        Ok(person) => person,
        Err(message) => {
            // The page again, with the reason and what was typed; no code is issued.
            let current = iam.inner.sso.by_cookie(&headers, now);
            let custom = is_custom.then(|| CustomForm::from_params(&form));
            let page = signin_page::render(
                &iam,
                SignInPage {
                    auth_request: id,
                    signed_in: current.as_ref().map(|s| &s.person),
                    error: Some(&message),
                    custom: custom.as_ref(),
                },
            );
            return Ok((StatusCode::BAD_REQUEST, page).into_response());
        }
    };

    let request = iam
        .inner
        .pending
        .take(id, now)
        .ok_or(IamError::AuthRequestExpired)?;
    if is_custom {
        iam.remember_custom_person(person.clone());
    }
    // The same person again ("Continue as") stays in their SSO session; anyone else starts a
    // new one, and the browser's cookie moves to it.
    let current = iam
        .inner
        .sso
        .by_cookie(&headers, now)
        .filter(|s| s.person == person)
        .and_then(|s| iam.inner.sso.reauthenticated(&s.id, now));
    Ok(match current {
        Some(session) => complete(&iam, request, &session, None),
        None => {
            let (cookie, session) = iam.inner.sso.start(person, now, iam.sso_lifetime_secs());
            complete(&iam, request, &session, Some(&cookie))
        }
    })
}

/// The custom form's person, or what is wrong with it (in words for the page).
fn custom_person(iam: &IamState, form: &Params) -> Result<Person, String> {
    let field = |name: &str| form.get(name).map(str::trim).filter(|v| !v.is_empty());
    let sub = field("sub").ok_or("A custom person needs a sub (their subject identifier).")?;
    if sub.len() > MAX_SUB_LEN || sub.chars().any(char::is_control) {
        return Err(format!(
            "The sub must be at most {MAX_SUB_LEN} characters, without control characters."
        ));
    }
    if let Some(configured) = iam.shared().config.people.iter().find(|p| p.sub == sub) {
        return Err(format!(
            "The sub {sub:?} belongs to {}, a configured person: choose their card, or another sub.",
            configured.display_name()
        ));
    }
    let email = field("email").map(str::to_string);
    if let Some(email) = &email
        && !email.contains('@')
    {
        return Err(format!("{email:?} is not an email address."));
    }
    let verified = form.get("email_verified") == Some("true");
    if verified && email.is_none() {
        return Err("Email verified needs an email address.".into());
    }
    Ok(Person {
        sub: sub.to_string(),
        name: field("name").map(str::to_string),
        email_verified: email.as_ref().map(|_| verified),
        email,
        preferred_username: field("preferred_username").map(str::to_string),
        groups: field("groups")
            .unwrap_or_default()
            .split(',')
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .map(str::to_string)
            .collect(),
        attributes: Default::default(),
    })
}
