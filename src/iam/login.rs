//! What the sign-in page posts: a person's card, "Continue as", or a custom person.

use axum::body::Bytes;
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};

use super::authorize::complete;
use super::error::IamError;
use super::params::{Params, form_body};
use super::signin_page::{self, CustomForm, SignInPage};
use super::{IamState, Realm};
use crate::config::{Person, Profile};
use crate::platform::{NewEvent, Source};

/// Keycloak's limit on a user's username, email, names and attribute values: a longer value
/// is not one a real account has, and every one of them travels in the identity header,
/// which the app's HTTP server caps (8–64 kB is common).
const MAX_FIELD_CHARS: usize = 255;
/// Groups travel in the IAM's tokens; a hundred is far more than a test person needs.
const MAX_GROUPS: usize = 100;

pub(super) async fn authenticate(
    _: Realm,
    State(iam): State<IamState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, IamError> {
    let body = form_body(body)?;
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
    // Keycloak's LOGIN_ERROR `error` values: an unknown user, or what was given not
    // checking out as one (org.keycloak.events.Errors).
    let chosen = if is_custom {
        custom_person(&iam, &form).map_err(|m| ("invalid_user_credentials", m))
    } else {
        match form.get("person") {
            Some(sub) => iam.person(sub).ok_or_else(|| {
                (
                    "user_not_found",
                    format!("Nobody with sub {sub:?} is in this organization."),
                )
            }),
            None => Err((
                "invalid_user_credentials",
                "Choose a person to sign in as.".to_string(),
            )),
        }
    };
    let person = match chosen {
        Ok(person) => person,
        Err((error, message)) => {
            iam.parts().journal.record(
                NewEvent::new(Source::Iam, "LOGIN_ERROR")
                    .outcome(error)
                    .details(serde_json::json!({ "error": error })),
            );
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
    // new one, and the browser's cookie moves to it. Either is a LOGIN (`complete` records it).
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
    for (label, name) in [
        ("sub", "sub"),
        ("name", "name"),
        ("email", "email"),
        ("username", "preferred_username"),
    ] {
        if let Some(value) = field(name) {
            check_length(label, value)?;
        }
    }
    if let Some(configured) = iam.parts().people.iter().find(|p| p.sub == sub) {
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
    let groups: Vec<String> = field("groups")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .map(str::to_string)
        .collect();
    if groups.len() > MAX_GROUPS {
        return Err(format!(
            "A custom person can have at most {MAX_GROUPS} groups; {} were given.",
            groups.len()
        ));
    }
    for group in &groups {
        check_length("group name", group)?;
    }
    Ok(Person {
        sub: sub.to_string(),
        profile: Profile {
            name: field("name").map(str::to_string),
            email_verified: email.as_ref().map(|_| verified),
            email,
            preferred_username: field("preferred_username").map(str::to_string),
        },
        groups,
        attributes: Default::default(),
    })
}

/// A field within Keycloak's length, and free of control characters (which no name has and a
/// page or log would show misleadingly).
fn check_length(label: &str, value: &str) -> Result<(), String> {
    let chars = value.chars().count();
    if chars > MAX_FIELD_CHARS || value.chars().any(char::is_control) {
        return Err(format!(
            "The {label} must be at most {MAX_FIELD_CHARS} characters, without control characters ({chars} were given)."
        ));
    }
    Ok(())
}
