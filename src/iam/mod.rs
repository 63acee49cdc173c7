//! The organization's IAM: a Keycloak-shaped OpenID provider under `/realms/{org_slug}`.
//!
//! # Layout
//!
//! - `discovery`: the realm's OpenID configuration and its keys (`certs`).
//! - `authorize`: the authorization endpoint (code + PKCE, the SSO shortcut) and
//!   `login`: what the sign-in page posts back.
//! - `signin_page`: the page itself, rendered from the templates in `web/signin`.
//! - `token_endpoint`: the token endpoint (code and refresh grants); `mint` mints and checks JWTs.
//! - `userinfo`, `logout` (end-session), `account` (who is signed in, and signing out).
//! - State: `sso` (SSO sessions, their cookie and refresh tokens), `codes`
//!   (authorization codes), `pending` (authorization requests waiting for the page).
//! - `error`: every refusal, mapped once to a page, a redirect or OAuth JSON.
//! - Helpers: `pkce` (S256), `params` (each parameter at most once); the time is the
//!   platform's [`Clock`], which tests move forward.
//!
//! [`IamState`] is cheap to clone (one `Arc`): the sandbox keeps a handle to reach the internal
//! API ([`IamState::end_sessions_of`], [`IamState::end_sso_session`]).

mod account;
mod authorize;
mod codes;
mod discovery;
mod error;
mod login;
mod logout;
mod mint;
mod params;
mod pending;
mod pkce;
mod signin_page;
mod sso;
mod token_endpoint;
mod userinfo;

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, FromRequestParts, Path, State};
use axum::http::Uri;
use axum::http::request::Parts;
use axum::routing::{get, post};

use crate::config::{IamConfig, OrganizationConfig, Person};
use crate::identity::KeyRing;
use crate::oidc::{CALLBACK_PATH, EDGE_CLIENT_ID};
use crate::platform::{
    Clock, Ending, IamTokens, Journal, NewEvent, SessionStore, Source, Switches,
};

pub use error::IamError;
pub use mint::{DIRECT_QUERYMESH_TOKEN_LIFETIME_SECS, querymesh_access_token};

use codes::CodeStore;
use pending::PendingRequests;
use sso::SsoStore;

/// What the IAM is built from: `[iam]`, the organization and its people, its own keys, and
/// the platform handles it uses — never the identity key.
pub struct IamParts {
    pub config: IamConfig,
    /// The realm's name (its slug) and the name its pages show.
    pub organization: OrganizationConfig,
    /// The people the sign-in page offers.
    pub people: Vec<Person>,
    /// The realm's URL: the issuer of its tokens.
    pub realm_url: String,
    /// The edge's port: its callback is the one registered redirect URI, its origin where
    /// sign-out may return.
    pub edge_port: u16,
    /// The IAM's own signing keys.
    pub keys: KeyRing,
    /// Whether the realm grants the QueryMesh scope ([`crate::platform::Switch::QueryMeshScope`]).
    pub switches: Switches,
    /// Platform sessions end with the SSO session they were born of.
    pub sessions: SessionStore,
    /// The platform's clock, which tests move to reach expiry.
    pub clock: Clock,
    /// Sign-ins and sign-outs go on record here (Keycloak's event names).
    pub journal: Journal,
    /// The data policies in force, in words: a person's card says what they take away from
    /// them (`None`: a real Trino's policies, unknown here).
    pub data_policies: Option<std::sync::Arc<crate::data_policies::DataPolicies>>,
}

/// A sign-in made without the page, for the test-control API: the SSO session it started and
/// the tokens the token endpoint would have given the edge for it.
pub struct DirectSignIn {
    pub sso_session: String,
    pub tokens: IamTokens,
    /// When the SSO session ends (unix seconds, the platform clock).
    pub expires_at: u64,
}

/// The organization IAM, shared by its handlers.
#[derive(Clone)]
pub struct IamState {
    inner: Arc<Inner>,
}

struct Inner {
    parts: IamParts,
    sso: SsoStore,
    codes: CodeStore,
    pending: PendingRequests,
    /// People typed into the sign-in page's custom form: in the IAM's memory only, shown as
    /// cards until the sandbox stops, the latest [`MAX_CUSTOM_PEOPLE`] of them.
    custom_people: Mutex<CustomPeople>,
}

/// Custom people remembered for the sign-in page's cards; past this many the one added first
/// is forgotten (its sessions go on: they hold their own copy of the person).
const MAX_CUSTOM_PEOPLE: usize = 100;

#[derive(Default)]
struct CustomPeople {
    added: u64,
    /// By sub: (when added, the person).
    people: BTreeMap<String, (u64, Person)>,
}

impl IamState {
    pub fn new(parts: IamParts) -> Self {
        Self {
            inner: Arc::new(Inner {
                parts,
                sso: SsoStore::default(),
                codes: CodeStore::default(),
                pending: PendingRequests::default(),
                custom_people: Mutex::new(CustomPeople::default()),
            }),
        }
    }

    fn parts(&self) -> &IamParts {
        &self.inner.parts
    }

    fn now(&self) -> u64 {
        self.inner.parts.clock.now()
    }

    /// How long an SSO session lasts (`iam.sso_session_hours`).
    fn sso_lifetime_secs(&self) -> u64 {
        u64::from(self.parts().config.sso_session_hours) * 3600
    }

    fn realm_url(&self) -> String {
        self.parts().realm_url.clone()
    }

    fn slug(&self) -> &str {
        &self.parts().organization.slug
    }

    /// The redirect URIs registered for the edge client: its callback, on either loopback name.
    fn allowed_redirect_uris(&self) -> [String; 2] {
        let port = self.parts().edge_port;
        [
            format!("http://127.0.0.1:{port}{CALLBACK_PATH}"),
            format!("http://localhost:{port}{CALLBACK_PATH}"),
        ]
    }

    fn end_session_path(&self) -> String {
        format!("/realms/{}/protocol/openid-connect/logout", self.slug())
    }

    /// Whether `uri` is on the edge's origin (either loopback name): where sign-out may return.
    fn is_edge_origin(&self, uri: &str) -> bool {
        let port = self.parts().edge_port;
        [
            format!("http://127.0.0.1:{port}"),
            format!("http://localhost:{port}"),
        ]
        .iter()
        .any(|origin| {
            uri.strip_prefix(origin.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        })
    }

    /// Every person the page offers: the configured ones, then the custom ones of this run.
    fn people(&self) -> Vec<Person> {
        let mut people = self.parts().people.clone();
        let custom = self
            .inner
            .custom_people
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        people.extend(custom.people.values().map(|(_, p)| p.clone()));
        people
    }

    fn person(&self, sub: &str) -> Option<Person> {
        self.people().into_iter().find(|p| p.sub == sub)
    }

    fn remember_custom_person(&self, person: Person) {
        let mut custom = self
            .inner
            .custom_people
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        custom.added += 1;
        let added = custom.added;
        let people = &mut custom.people;
        if !people.contains_key(&person.sub)
            && people.len() >= MAX_CUSTOM_PEOPLE
            && let Some(first) = people
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(sub, _)| sub.clone())
        {
            people.remove(&first);
        }
        people.insert(person.sub.clone(), (added, person));
    }

    /// Ends every SSO session of the person `sub` — and the platform sessions born of them —
    /// and revokes their offline tokens (as an administrator's "sign out" and "revoke" do in
    /// Keycloak); returns how many SSO sessions ended. For the test-control API and the console.
    pub fn end_sessions_of(&self, sub: &str) -> usize {
        self.inner.sso.revoke_offline(Some(sub));
        self.inner
            .sso
            .session_ids_of(sub)
            .iter()
            .filter(|id| self.end_sso_session_because(id, "the person's sign-in was ended"))
            .count()
    }

    /// Signs `person` in as the sign-in page and the code exchange would, in one step: an SSO
    /// session, a refresh token for the edge's client, and an access and ID token. For the
    /// test-control API's `POST sessions`, so its sessions refresh and end like a browser's.
    pub fn sign_in_directly(&self, person: Person) -> DirectSignIn {
        let now = self.now();
        let sub = person.sub.clone();
        let (_cookie, session) = self.inner.sso.start(person, now, self.sso_lifetime_secs());
        let refresh_token = self.inner.sso.issue_refresh_token(sso::RefreshGrant {
            client_id: EDGE_CLIENT_ID.to_string(),
            sso_session: session.id.clone(),
            offline: None,
        });
        let minted = mint::mint(self.parts(), &session, None, false, now);
        self.parts().journal.record(
            NewEvent::new(Source::Iam, "LOGIN")
                .of_person(sub)
                .outcome("OK")
                .details(serde_json::json!({ "via": "test-control API" })),
        );
        DirectSignIn {
            sso_session: session.id.clone(),
            tokens: IamTokens {
                access_token: minted.access_token,
                access_expires_at: now + mint::ACCESS_TOKEN_LIFETIME_SECS,
                refresh_token: Some(refresh_token),
                id_token: Some(minted.id_token),
            },
            expires_at: session.expires_at,
        }
    }

    /// Ends every SSO session (and so every platform session born of one) and revokes every
    /// offline token; returns how many sessions ended.
    pub fn end_all_sessions(&self) -> usize {
        self.inner.sso.revoke_offline(None);
        self.inner
            .sso
            .all_session_ids()
            .iter()
            .filter(|id| self.end_sso_session_because(id, "reset"))
            .count()
    }

    /// Ends one SSO session: its refresh tokens stop working, the next authorization shows the
    /// page again, and every platform session born of it ends. Returns whether it existed.
    pub fn end_sso_session(&self, sso_session_id: &str) -> bool {
        self.end_sso_session_because(sso_session_id, "the IAM's sign-in ended")
    }

    /// [`Self::end_sso_session`], `why` saying so in the platform sessions' `SESSION_ENDED`.
    pub fn end_sso_session_because(&self, sso_session_id: &str, why: &'static str) -> bool {
        let existed = self.inner.sso.end(sso_session_id);
        self.parts()
            .sessions
            .end_iam_session(sso_session_id, Ending::new(Source::Iam, why));
        existed
    }

    /// Moves the IAM's clock forward, so tests can live through code, token and SSO expiry
    /// without waiting. Tokens minted afterwards carry the moved clock's times.
    pub fn advance_clock(&self, by: Duration) {
        self.inner.parts.clock.advance(by);
    }
}

/// The realm a request names; any other slug is Keycloak's 404 `Realm does not exist`.
struct Realm;

impl FromRequestParts<IamState> for Realm {
    type Rejection = IamError;

    async fn from_request_parts(parts: &mut Parts, state: &IamState) -> Result<Self, IamError> {
        let Path(params) = Path::<Vec<(String, String)>>::from_request_parts(parts, state)
            .await
            .map_err(|_| IamError::UnknownRealm)?;
        match params.iter().find(|(name, _)| name == "realm") {
            Some((_, slug)) if slug == state.slug() => Ok(Realm),
            _ => Err(IamError::UnknownRealm),
        }
    }
}

pub fn router(state: IamState) -> Router {
    let oidc = "/realms/{realm}/protocol/openid-connect";
    Router::new()
        .route("/realms/{realm}", get(discovery::realm_info))
        .route(
            "/realms/{realm}/.well-known/openid-configuration",
            get(discovery::openid_configuration),
        )
        .route(
            &format!("{oidc}/auth"),
            get(authorize::authorize_get).post(authorize::authorize_post),
        )
        .route(
            "/realms/{realm}/login-actions/authenticate",
            post(login::authenticate),
        )
        .route(&format!("{oidc}/token"), post(token_endpoint::token))
        .route(&format!("{oidc}/certs"), get(discovery::certs))
        .route(
            &format!("{oidc}/userinfo"),
            get(userinfo::userinfo).post(userinfo::userinfo),
        )
        .route(
            &format!("{oidc}/logout"),
            get(logout::end_session_get).post(logout::end_session_post),
        )
        .route("/realms/{realm}/account", get(account::account))
        .route("/resources/signin/{file}", get(signin_page::asset))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(params::MAX_FORM_BYTES))
        .with_state(state)
}

/// Any other path: under `/realms/` another realm is Keycloak's JSON 404, else a page.
async fn not_found(State(iam): State<IamState>, uri: Uri) -> IamError {
    let realm = uri
        .path()
        .strip_prefix("/realms/")
        .map(|rest| rest.split('/').next().unwrap_or_default());
    match realm {
        Some(slug) if slug != iam.slug() => IamError::UnknownRealm,
        _ => IamError::NotFound,
    }
}

/// The one client this realm knows.
fn is_known_client(client_id: &str) -> bool {
    client_id == EDGE_CLIENT_ID
}
