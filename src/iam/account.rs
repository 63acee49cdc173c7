//! `GET /realms/{slug}/account`: who this browser is signed in as, and a way out. While the
//! SSO lasts, sign-in skips the page; this is where a developer ends it to be someone else.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

use super::signin_page::{esc, fill, hue, initials, page, template};
use super::sso::SsoSession;
use super::{IamState, Realm};

pub(super) async fn account(_: Realm, State(iam): State<IamState>, headers: HeaderMap) -> Response {
    let session = iam.inner.sso.by_cookie(&headers, iam.now());
    account_page(&iam, session.as_ref())
}

/// The page that asks before a sign-out nobody proved came from the IAM's own pages (OIDC
/// RP-Initiated Logout §2: without an `id_token_hint` the OP should ask, as Keycloak does).
/// `keep` are the request's parameters to carry through (post_logout_redirect_uri, state…).
pub(super) fn logout_confirmation(
    iam: &IamState,
    session: &SsoSession,
    keep: &[(&str, &str)],
) -> Response {
    let org_name = &iam.parts().organization.name;
    let person = &session.person;
    let hidden: String = keep
        .iter()
        .map(|(name, value)| {
            format!(
                r#"<input type="hidden" name="{}" value="{}">"#,
                esc(name),
                esc(value)
            )
        })
        .collect();
    let body = fill(
        template("logout-confirm.html"),
        &[
            ("hue", &hue(&person.sub).to_string()),
            ("initials", &esc(&initials(person.display_name()))),
            ("name", &esc(person.display_name())),
            (
                "contact",
                &esc(person.profile.email.as_deref().unwrap_or(&person.sub)),
            ),
            ("logout", &esc(&iam.end_session_path())),
            ("confirm", &esc(&session.logout_code)),
            ("hidden", &hidden),
            ("org_name", &esc(org_name)),
        ],
    );
    let content = fill(
        template("account.html"),
        &[("org_name", &esc(org_name)), ("body", &body)],
    );
    page(
        StatusCode::OK,
        "Sign out",
        Some((org_name, iam.slug())),
        &content,
    )
}

/// The account page: the SSO session's person and "Sign out", or that nobody is signed in.
fn account_page(iam: &IamState, session: Option<&SsoSession>) -> Response {
    let org_name = &iam.parts().organization.name;
    let body = match session {
        Some(session) => {
            let person = &session.person;
            let minutes_left = session.expires_at.saturating_sub(iam.now()) / 60;
            fill(
                template("account-signed-in.html"),
                &[
                    ("hue", &hue(&person.sub).to_string()),
                    ("initials", &esc(&initials(person.display_name()))),
                    ("name", &esc(person.display_name())),
                    (
                        "contact",
                        &esc(person.profile.email.as_deref().unwrap_or(&person.sub)),
                    ),
                    ("hours", &(minutes_left / 60).to_string()),
                    ("minutes", &(minutes_left % 60).to_string()),
                    ("logout", &esc(&iam.end_session_path())),
                    ("confirm", &esc(&session.logout_code)),
                    ("org_name", &esc(org_name)),
                ],
            )
        }
        None => fill(
            template("account-signed-out.html"),
            &[("org_name", &esc(org_name))],
        ),
    };
    let content = fill(
        template("account.html"),
        &[("org_name", &esc(org_name)), ("body", &body)],
    );
    page(
        StatusCode::OK,
        "Account",
        Some((org_name, iam.slug())),
        &content,
    )
}
