//! `sessions`, `querymesh-tokens` and `people`: signing people in without a browser, ending
//! their sessions as the app's logout or the IAM would, and the people themselves.

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

use super::error::{ApiError, Body, Fields, PathParam, QueryParams};
use super::{ControlState, event};
use crate::config::Person;
use crate::edge::cookie::SESSION_COOKIE;
use crate::edge::identity_header::identity_for;
use crate::platform::{Ending, NewEvent, PeopleError, Source};

/// The fields of a person, as `[[people]]` takes them.
const PERSON_FIELDS: [&str; 7] = [
    "sub",
    "name",
    "email",
    "email_verified",
    "preferred_username",
    "groups",
    "attributes",
];

/// The longest `sub` or profile value taken (the IAM's sign-in page takes as long).
const MAX_VALUE_CHARS: usize = 256;

/// A person from `fields` (the `[[people]]` keys), validated as the configuration validates
/// people; without a `sub`, a new random one.
fn person_from(fields: Fields, prefix: &str) -> Result<Person, ApiError> {
    // Each field's type first, so a wrong one is named.
    for name in ["sub", "name", "email", "preferred_username"] {
        fields.get::<String>(name)?;
    }
    fields.get::<bool>("email_verified")?;
    fields.get::<Vec<String>>("groups")?;
    fields.get::<std::collections::BTreeMap<String, String>>("attributes")?;
    let mut map = fields.into_map();
    map.retain(|_, v| !v.is_null());
    let sub = match map.remove("sub") {
        None | Some(Value::Null) => Value::String(uuid::Uuid::new_v4().to_string()),
        Some(sub) => sub,
    };
    map.insert("sub".into(), sub);
    let person: Person = serde_json::from_value(Value::Object(map))
        .map_err(|e| ApiError::Invalid(format!("{prefix}{e}")))?;
    let field = |name: &str| format!("field `{prefix}{name}`");
    if person.sub.trim().is_empty() {
        return Err(ApiError::Invalid(format!(
            "{} must not be empty",
            field("sub")
        )));
    }
    let profile = &person.profile;
    for (name, value) in [
        ("sub", Some(&person.sub)),
        ("name", profile.name.as_ref()),
        ("email", profile.email.as_ref()),
        ("preferred_username", profile.preferred_username.as_ref()),
    ] {
        if let Some(value) = value
            && value.chars().count() > MAX_VALUE_CHARS
        {
            return Err(ApiError::Invalid(format!(
                "{} is longer than {MAX_VALUE_CHARS} characters",
                field(name)
            )));
        }
    }
    if profile.email_verified.is_some() && profile.email.is_none() {
        return Err(ApiError::Invalid(format!(
            "{} is set but the person has no `email`",
            field("email_verified")
        )));
    }
    Ok(person)
}

fn person_json(state: &ControlState, person: &Person) -> Value {
    let mut value = serde_json::to_value(person).unwrap_or(Value::Null);
    if let Value::Object(map) = &mut value {
        map.insert(
            "configured".into(),
            state.parts.people.is_configured(&person.sub).into(),
        );
    }
    value
}

/// `POST sessions` {person} | {claims}: a signed-in platform session, exactly as a browser's
/// sign-in would leave it (an SSO session in the IAM, its tokens, the edge's cookie). With
/// `"handoff": true`, also a `handoff_url`: the edge's login path with a one-time code that
/// sets the cookie in whichever browser opens it within a minute (the console's "sign in as").
pub async fn create(State(state): State<ControlState>, uri: Uri, Body(body): Body) -> Response {
    match start_session(&state, &uri, &body) {
        Ok(answer) => (StatusCode::CREATED, Json(answer)).into_response(),
        Err(e) => e.into_response(),
    }
}

fn start_session(state: &ControlState, uri: &Uri, body: &[u8]) -> Result<Value, ApiError> {
    QueryParams::parse(uri.query(), &[])?;
    let fields = Fields::parse(body, &["person", "claims", "handoff"])?;
    let handoff = fields.get::<bool>("handoff")?.unwrap_or(false);
    let person = match (fields.get::<String>("person")?, fields.raw("claims")) {
        (Some(handle), None) => state
            .parts
            .people
            .find(&handle)
            .ok_or(ApiError::UnknownPerson(handle))?,
        (None, Some(claims)) => {
            person_from(Fields::nested("claims", claims, &PERSON_FIELDS)?, "claims.")?
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::Invalid(
                "give either `person` (a sub or username) or `claims` (an ad-hoc person), not both"
                    .into(),
            ));
        }
        (None, None) => {
            return Err(ApiError::Invalid(
                "field `person` (a sub or username) or `claims` (an ad-hoc person) is required"
                    .into(),
            ));
        }
    };
    let parts = &state.parts;
    let signed_in = parts.iam.sign_in_directly(person.clone());
    let (handle, sid) = parts.sessions.create(
        person.clone(),
        signed_in.tokens,
        Some(signed_in.sso_session),
    );
    let session = parts
        .sessions
        .get(&sid)
        .ok_or_else(|| ApiError::UnknownSession(sid.clone()))?;
    let identity = identity_for(&parts.identity, &parts.sessions, &session);
    let identity_expires_at = parts
        .sessions
        .get(&sid)
        .and_then(|s| s.cached_identity.map(|(_, exp)| exp));
    state.record(
        NewEvent::new(Source::Control, "SESSION_STARTED")
            .of_person(&person.sub)
            .in_session(&sid)
            .details(json!({ "via": "test-control API" })),
    );
    // `handoff`: a one-time link that opens the edge with this session's cookie set (the
    // console's "sign in as"); it goes through the edge's own sign-in path.
    let handoff_url = handoff.then(|| {
        let code = parts.sessions.offer_handoff(&handle);
        let query = form_urlencoded::Serializer::new(String::new())
            .append_pair("return_to", "/")
            .append_pair("handoff", &code)
            .finish();
        format!(
            "{}{}?{query}",
            parts.endpoints.edge_url(),
            crate::reserved_paths::LOGIN_PATH
        )
    });
    let mut answer = json!({
        "sid": sid,
        "sub": person.sub,
        "cookie": {
            "name": SESSION_COOKIE,
            "value": handle,
            "header": format!("{SESSION_COOKIE}={handle}"),
        },
        "identity": identity,
        "identity_expires_at": identity_expires_at,
        "sign_in_expires_at": signed_in.expires_at,
    });
    if let (Some(url), Value::Object(map)) = (handoff_url, &mut answer) {
        map.insert("handoff_url".into(), url.into());
    }
    Ok(answer)
}

/// `GET sessions`: the live platform sessions (never their cookies or tokens).
pub async fn list(State(state): State<ControlState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["sub"])?;
    let sub = params.get("sub");
    let mut sessions: Vec<_> = state
        .parts
        .sessions
        .list()
        .into_iter()
        .filter(|s| sub.is_none_or(|sub| s.person.sub == sub))
        .collect();
    sessions.sort_by(|a, b| (a.created_at, &a.sid).cmp(&(b.created_at, &b.sid)));
    let sessions: Vec<Value> = sessions
        .iter()
        .map(|s| {
            json!({
                "sid": s.sid,
                "sub": s.person.sub,
                "created_at": s.created_at,
                "sso_session": s.iam_session,
            })
        })
        .collect();
    Ok(Json(json!({ "sessions": sessions })))
}

/// `DELETE sessions/{sid}`: ends one session as the app's logout does; the IAM's sign-in goes
/// on.
pub async fn end(
    State(state): State<ControlState>,
    PathParam(sid): PathParam,
) -> Result<Json<Value>, ApiError> {
    let ending = Ending::new(Source::Control, "ended through the test-control API");
    if !state.parts.sessions.end_with(&sid, ending) {
        return Err(ApiError::UnknownSession(sid));
    }
    Ok(Json(json!({ "ended": 1 })))
}

/// `DELETE sessions?sub=`: ends the person's sign-in in the IAM, and with it every platform
/// session of theirs.
pub async fn end_of_person(
    State(state): State<ControlState>,
    uri: Uri,
) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["sub"])?;
    let sub = params.get("sub").ok_or_else(|| {
        ApiError::Invalid(
            "query parameter `sub` is required (DELETE sessions/{sid} ends one session; \
             POST reset ends them all)"
                .into(),
        )
    })?;
    let ended = end_person(&state, sub);
    Ok(Json(json!({ "ended": ended })))
}

/// Ends `sub`'s sign-in in the IAM and every platform session of theirs; returns how many
/// platform sessions ended.
pub(super) fn end_person(state: &ControlState, sub: &str) -> usize {
    let parts = &state.parts;
    // The platform sessions first, so their SESSION_ENDED says the control API ended them.
    let ended = parts.sessions.end_person(
        sub,
        Ending::new(Source::Control, "the person's sign-in was ended"),
    );
    parts.iam.end_sessions_of(sub);
    ended
}

/// `POST querymesh-tokens` {person}: an IAM access token for a Trino client pointed straight
/// at QueryMesh (what `zero-sandbox token --querymesh` prints, for this running sandbox).
pub async fn querymesh_token(
    State(state): State<ControlState>,
    Body(body): Body,
) -> Result<Json<Value>, ApiError> {
    let fields = Fields::parse(&body, &["person"])?;
    let handle: String = fields.get("person")?.ok_or_else(|| {
        ApiError::Invalid("field `person` (a sub or username) is required".into())
    })?;
    let parts = &state.parts;
    let person = parts
        .people
        .find(&handle)
        .ok_or(ApiError::UnknownPerson(handle))?;
    let token = crate::iam::querymesh_access_token(
        &parts.iam_keys.current(),
        &parts.realm_url,
        &person,
        parts.clock.now(),
    );
    state.record(event("QUERYMESH_TOKEN_ISSUED", json!({})).of_person(&person.sub));
    Ok(Json(json!({
        "access_token": token,
        "token_type": "Bearer",
        "expires_in": crate::iam::DIRECT_QUERYMESH_TOKEN_LIFETIME_SECS,
        "user": person.sub,
        "querymesh": parts.querymesh_url,
    })))
}

/// `GET people`.
pub async fn people(State(state): State<ControlState>) -> Json<Value> {
    let people: Vec<Value> = state
        .parts
        .people
        .list()
        .iter()
        .map(|p| person_json(&state, p))
        .collect();
    Json(json!({ "people": people }))
}

/// `POST people`: a person with the `sub` given (or a new one), validated as `[[people]]`.
pub async fn add_person(State(state): State<ControlState>, Body(body): Body) -> Response {
    let added = Fields::parse(&body, &PERSON_FIELDS)
        .and_then(|fields| person_from(fields, ""))
        .and_then(|person| {
            state
                .parts
                .people
                .add(person.clone())
                .map_err(|e| match e {
                    PeopleError::Full => ApiError::Invalid(e.to_string()),
                    other => ApiError::Conflict(other.to_string()),
                })?;
            Ok(person)
        });
    match added {
        Ok(person) => {
            state.record(event("PERSON_ADDED", json!({})).of_person(&person.sub));
            (StatusCode::CREATED, Json(person_json(&state, &person))).into_response()
        }
        Err(e) => e.into_response(),
    }
}

/// `DELETE people/{sub}`: the person goes, and their sign-in and sessions end with them.
pub async fn remove_person(
    State(state): State<ControlState>,
    PathParam(sub): PathParam,
) -> Result<Json<Value>, ApiError> {
    if !state.parts.people.remove(&sub) {
        return Err(ApiError::UnknownPerson(sub));
    }
    let ended = end_person(&state, &sub);
    state.record(event("PERSON_REMOVED", json!({ "sessions_ended": ended })).of_person(&sub));
    Ok(Json(json!({ "removed": sub, "sessions_ended": ended })))
}
