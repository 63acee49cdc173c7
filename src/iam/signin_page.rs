//! The sign-in page and the IAM's other pages, rendered from the templates in `web/signin`
//! (embedded in the binary). Every value put into a page is HTML-escaped here.

use axum::extract::Path;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use include_dir::{Dir, include_dir};

use super::IamState;
use super::error::IamError;
use super::params::Params;
use crate::config::Person;

static WEB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/web/signin");

/// Where the page's stylesheet and script are served from.
pub(super) const ASSETS_PATH: &str = "/resources/signin";

/// The page's scripts and styles come only from the IAM itself; it is never framed.
const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

/// What the sign-in page shows.
pub(super) struct SignInPage<'a> {
    /// The pending authorization request every form posts back.
    pub auth_request: &'a str,
    /// The person of the browser's SSO session, offered as "Continue as".
    pub signed_in: Option<&'a Person>,
    pub error: Option<&'a str>,
    /// What was typed into the custom form, to show it again with the error.
    pub custom: Option<&'a CustomForm>,
}

/// The custom person form's fields as typed.
#[derive(Default)]
pub(super) struct CustomForm {
    sub: String,
    name: String,
    email: String,
    email_verified: bool,
    preferred_username: String,
    groups: String,
}

impl CustomForm {
    pub(super) fn from_params(form: &Params) -> Self {
        let text = |name| form.get(name).unwrap_or_default().to_string();
        Self {
            sub: text("sub"),
            name: text("name"),
            email: text("email"),
            email_verified: form.get("email_verified") == Some("true"),
            preferred_username: text("preferred_username"),
            groups: text("groups"),
        }
    }
}

pub(super) fn template(name: &str) -> &'static str {
    WEB.get_file(name)
        .and_then(|f| f.contents_utf8())
        .unwrap_or_default()
}

/// Replaces each `{{key}}` of the template with its value in one pass, so text inside a value
/// is never taken for a placeholder; values are already escaped or trusted fragments.
pub(super) fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() * 2);
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            out.push_str(&rest[start..]);
            return out;
        };
        let key = &after[..end];
        match values.iter().find(|(k, _)| *k == key) {
            Some((_, value)) => out.push_str(value),
            None => out.push_str(&rest[start..start + 2 + end + 2]),
        }
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    out
}

pub(super) use crate::html::escape as esc;

/// A complete page with the IAM's headers: never cached, never framed.
/// `org_name` is `None` on pages that cannot know the organization (errors); the others link
/// to the account page, where the SSO can be ended.
pub(super) fn page(
    status: StatusCode,
    title: &str,
    org: Option<(&str, &str)>,
    content: &str,
) -> Response {
    let org_name = org.map(|(name, _)| name);
    let account_link = org
        .map(|(_, slug)| {
            format!(
                r#" · <a href="/realms/{}/account">Your account</a>"#,
                esc(slug)
            )
        })
        .unwrap_or_default();
    let brand_mark = org_name
        .map(|name| {
            format!(
                r#"<span class="brand-mark" aria-hidden="true">{}</span>"#,
                esc(&initials(name))
            )
        })
        .unwrap_or_default();
    let html = fill(
        template("layout.html"),
        &[
            ("title", &esc(title)),
            ("org_name", &esc(org_name.unwrap_or("Organization sign-in"))),
            ("brand_mark", &brand_mark),
            ("account_link", &account_link),
            ("assets", ASSETS_PATH),
            ("content", content),
        ],
    );
    let mut response = (status, Html(html)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    response
}

/// The sign-in page: a card per person, "Continue as" when signed in, the custom form.
pub(super) fn render(iam: &IamState, view: SignInPage<'_>) -> Response {
    let org_name = &iam.parts().organization.name;
    let action = esc(&format!(
        "/realms/{}/login-actions/authenticate",
        iam.slug()
    ));
    let auth_request = esc(view.auth_request);
    let cards: String = iam
        .people()
        .iter()
        .map(|p| person_card(iam, p, &action, &auth_request))
        .collect();
    let continue_as = view
        .signed_in
        .map(|p| {
            fill(
                template("continue.html"),
                &[
                    ("action", &action),
                    ("auth_request", &auth_request),
                    ("sub", &esc(&p.sub)),
                    ("name", &esc(p.display_name())),
                    ("initials", &esc(&initials(p.display_name()))),
                    ("hue", &hue(&p.sub).to_string()),
                    ("org_name", &esc(org_name)),
                ],
            )
        })
        .unwrap_or_default();
    // A custom person's problem is said inside that form, where the person is looking.
    let alert = view
        .error
        .map(|e| {
            format!(
                r#"<p class="alert" role="alert" id="signin-error">{}</p>"#,
                esc(e)
            )
        })
        .unwrap_or_default();
    let (error, custom_error) = if view.custom.is_some() {
        (String::new(), alert)
    } else {
        (alert, String::new())
    };
    let empty = CustomForm::default();
    let custom = view.custom.unwrap_or(&empty);
    let people_heading = if view.signed_in.is_some() {
        "Use another account"
    } else {
        "Choose who you are"
    };
    let content = fill(
        template("signin.html"),
        &[
            ("org_name", &esc(org_name)),
            ("error", &error),
            ("custom_error", &custom_error),
            ("continue", &continue_as),
            ("people_heading", people_heading),
            ("cards", &cards),
            ("action", &action),
            ("auth_request", &auth_request),
            (
                "custom_open",
                if view.custom.is_some() { "open" } else { "" },
            ),
            ("custom_sub", &esc(&custom.sub)),
            ("custom_name", &esc(&custom.name)),
            ("custom_email", &esc(&custom.email)),
            (
                "custom_verified",
                if custom.email_verified { "checked" } else { "" },
            ),
            ("custom_username", &esc(&custom.preferred_username)),
            ("custom_groups", &esc(&custom.groups)),
        ],
    );
    page(
        StatusCode::OK,
        "Sign in",
        Some((org_name, iam.slug())),
        &content,
    )
}

fn person_card(iam: &IamState, person: &Person, action: &str, auth_request: &str) -> String {
    let email = match (&person.profile.email, person.profile.email_verified) {
        (Some(email), Some(true)) => format!(
            r#"{}<span class="verified" title="Email verified">verified</span>"#,
            esc(email)
        ),
        (Some(email), _) => format!(
            r#"{}<span class="unverified" title="Email not verified">unverified</span>"#,
            esc(email)
        ),
        (None, _) => r#"<span class="muted">No email address</span>"#.to_string(),
    };
    let groups: String = person
        .groups
        .iter()
        .map(|g| format!(r#"<span class="group">{}</span>"#, esc(g)))
        .collect();
    // What the data policies take away from them, said where they are chosen: otherwise a
    // person who sees fewer rows than Trino would show looks like a bug in the app.
    let policy: String = iam
        .parts()
        .data_policies
        .as_deref()
        .map(|policies| policies.for_person(person))
        .unwrap_or_default()
        .iter()
        .map(|r| {
            format!(
                r#"<span class="policy">Data policy: {} — {}</span>"#,
                esc(&r.tables),
                esc(&r.effects.join(", "))
            )
        })
        .collect();
    fill(
        template("person-card.html"),
        &[
            ("action", action),
            ("auth_request", auth_request),
            ("sub", &esc(&person.sub)),
            ("name", &esc(person.display_name())),
            ("initials", &esc(&initials(person.display_name()))),
            ("hue", &hue(&person.sub).to_string()),
            ("email", &email),
            ("groups", &groups),
            ("policy", &policy),
        ],
    )
}

/// A page that only says something: errors before any redirect is safe, "signed out".
pub(super) fn message_page(
    status: StatusCode,
    org: Option<(&str, &str)>,
    title: &str,
    detail: &str,
    hint: &str,
) -> Response {
    let content = fill(
        template("message.html"),
        &[
            ("title", &esc(title)),
            ("detail", &esc(&sentence(detail))),
            ("hint", &esc(hint)),
            ("kind", if status.is_success() { "ok" } else { "problem" }),
        ],
    );
    page(status, title, org, &content)
}

/// `detail` with a capital first letter and a full stop, as a page shows it.
fn sentence(detail: &str) -> String {
    let mut chars = detail.chars();
    let mut text: String = chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default();
    if !text.ends_with(['.', '!', '?']) {
        text.push('.');
    }
    text
}

/// Up to two initials of a name, for the avatar: of its words before anything that does not
/// start with a letter or a digit ("Dana (demo policy)" is "D", not "D(").
pub(super) fn initials(name: &str) -> String {
    name.split_whitespace()
        .filter_map(|w| w.chars().next())
        .take_while(|c| c.is_alphanumeric())
        .take(2)
        .flat_map(char::to_uppercase)
        .collect()
}

/// One of eight avatar colours, stable for a sub.
pub(super) fn hue(sub: &str) -> u32 {
    sub.bytes()
        .fold(0u32, |h, b| h.wrapping_mul(31).wrapping_add(u32::from(b)))
        % 8
}

/// The page's stylesheet and script.
pub(super) async fn asset(Path(file): Path<String>) -> Result<Response, IamError> {
    let content_type = match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        _ => return Err(IamError::NotFound),
    };
    let body = WEB.get_file(&file).ok_or(IamError::NotFound)?.contents();
    Ok((
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "public, max-age=300"),
        ],
        body,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_template_is_embedded() {
        for name in [
            "layout.html",
            "signin.html",
            "person-card.html",
            "continue.html",
            "message.html",
            "account.html",
            "account-signed-in.html",
            "account-signed-out.html",
            "signin.css",
            "signin.js",
        ] {
            assert!(!template(name).is_empty(), "web/signin/{name} is missing");
        }
    }

    #[test]
    fn escaping_and_initials() {
        assert_eq!(
            esc(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
        assert_eq!(initials("Ada Lovelace"), "AL");
        assert_eq!(sentence("no such client"), "No such client.");
        assert_eq!(initials("grace"), "G");
        assert_eq!(initials("Dana (demo policy)"), "D");
        assert!(hue("abc") < 8);
        assert_eq!(
            fill("{{a}}-{{b}}-{{c}}", &[("a", "{{b}}"), ("b", "2")]),
            "{{b}}-2-{{c}}"
        );
    }
}
