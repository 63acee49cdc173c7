//! The HTTP side of the statement protocol: `POST /v1/statement`, `GET`/`DELETE` on a
//! `nextUri`, the `infoUri` page and `/v1/info`.
//!
//! As in Trino, only the POST authenticates: the `nextUri` of a query holds a random slug,
//! which is what entitles its holder to the results (Trino's executing resource is public).
//! A query that fails — refused SQL, denied access, cancelled, past its time limit — is an
//! HTTP 200 QueryResults with `error`; HTTP errors are for requests that are not queries.

use std::collections::HashMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::Extensions;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::QueryMeshState;
use super::auth::{AuthError, WWW_AUTHENTICATE};
use super::executor::PageError;
use super::executor::resource_groups::{Criteria, query_type};
use super::legacy_datetime;
use super::prepared_statements::{self, Command};
use crate::platform::{NewEvent, Source};
use crate::querymesh::engine::User;
use crate::querymesh::engine::access::{AccessControl, Viewer};
use crate::querymesh::engine::error::{ErrorName, TrinoError};
use crate::querymesh::engine::sql::describe::Described;
use crate::querymesh::engine::sql::use_schema::SessionUpdate;
use crate::querymesh::engine::{Engine, Prepared, SessionContext};

pub const USER_HEADER: &str = "x-trino-user";
/// The session time zone (an IANA id or an offset); the engine checks it.
pub const TIME_ZONE_HEADER: &str = "x-trino-time-zone";
/// What the client understands; `PARAMETRIC_DATETIME` decides how times are written.
const CLIENT_CAPABILITIES_HEADER: &str = "x-trino-client-capabilities";
pub const CATALOG_HEADER: &str = "x-trino-catalog";
pub const SCHEMA_HEADER: &str = "x-trino-schema";
pub const SESSION_HEADER: &str = "x-trino-session";
/// Response headers of USE: the client sets its session catalog / schema to the value.
pub const SET_CATALOG_HEADER: &str = "x-trino-set-catalog";
pub const SET_SCHEMA_HEADER: &str = "x-trino-set-schema";
pub const SET_SESSION_HEADER: &str = "x-trino-set-session";
pub const CLEAR_SESSION_HEADER: &str = "x-trino-clear-session";
pub const SET_ROLE_HEADER: &str = "x-trino-set-role";

/// Trino's `query.max-length` default: a longer query text is refused. Trino counts Java
/// characters, that is UTF-16 code units.
pub const MAX_QUERY_CHARS: usize = 1_000_000;
/// The largest statement body read: [`MAX_QUERY_CHARS`] UTF-16 units take at most three
/// UTF-8 bytes each (a four-byte character is two units).
pub const MAX_BODY_BYTES: usize = 3 * MAX_QUERY_CHARS;

/// A request the protocol refuses outright, mapped once to its HTTP answer.
#[derive(Debug, thiserror::Error)]
pub enum StatementError {
    #[error(transparent)]
    Auth(#[from] AuthError),
    #[error("{0}")]
    BadRequest(&'static str),
    #[error("{0}")]
    TooLarge(String),
    #[error("Access Denied: the query belongs to another user")]
    Forbidden,
    #[error("Query not found")]
    NotFound,
    #[error("Query results are no longer available")]
    Gone,
}

impl IntoResponse for StatementError {
    fn into_response(self) -> Response {
        let message = self.to_string();
        let plain = |status: StatusCode| {
            (
                status,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                message,
            )
                .into_response()
        };
        match self {
            // The keys could not be fetched: not the client's fault, and retryable.
            Self::Auth(AuthError::KeysUnavailable(_)) => {
                tracing::warn!(error = %self, "cannot authenticate");
                plain(StatusCode::SERVICE_UNAVAILABLE)
            }
            // RFC 6750 §3: a refused bearer token is 401 with WWW-Authenticate.
            Self::Auth(_) => {
                let mut response = plain(StatusCode::UNAUTHORIZED);
                response.headers_mut().insert(
                    header::WWW_AUTHENTICATE,
                    HeaderValue::from_static(WWW_AUTHENTICATE),
                );
                response
            }
            Self::BadRequest(_) => plain(StatusCode::BAD_REQUEST),
            Self::TooLarge(_) => plain(StatusCode::PAYLOAD_TOO_LARGE),
            Self::Forbidden => plain(StatusCode::FORBIDDEN),
            Self::NotFound => plain(StatusCode::NOT_FOUND),
            Self::Gone => plain(StatusCode::GONE),
        }
    }
}

impl From<PageError> for StatementError {
    fn from(e: PageError) -> Self {
        match e {
            PageError::NotFound => Self::NotFound,
            PageError::Gone => Self::Gone,
        }
    }
}

fn json_body(body: impl Into<axum::body::Body>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        body.into(),
    )
        .into_response()
}

/// `POST /v1/statement`: authenticates, analyses, checks the data policies, starts the query.
pub async fn post_statement(
    State(state): State<QueryMeshState>,
    headers: HeaderMap,
    extensions: Extensions,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, StatementError> {
    let principal = state.auth().authenticate(&headers).await?;
    let body = body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => StatementError::TooLarge(format!(
            "Query text exceeds the maximum length ({MAX_QUERY_CHARS})"
        )),
        _ => StatementError::BadRequest("the SQL statement could not be read"),
    })?;
    let sql = std::str::from_utf8(&body)
        .map_err(|_| StatementError::BadRequest("SQL statement is not UTF-8"))?;
    // Trino refuses only an empty body here (`isNullOrEmpty`); blank text is parsed and fails
    // as a query with SYNTAX_ERROR.
    if sql.is_empty() {
        return Err(StatementError::BadRequest("SQL statement is empty"));
    }
    let base = state.base_url(&headers, &extensions);
    let executor = state.executor();
    let id = executor.new_query_id();
    let refused = |error: TrinoError| {
        tracing::info!(
            query_id = %id,
            principal = %principal.name,
            state = "FAILED",
            error = error.name.name_and_code().0,
            "query refused"
        );
        if error.name == ErrorName::PermissionDenied {
            // A governance decision: which object the policy refused (Trino's message names it,
            // never the statement).
            state.journal().record(
                NewEvent::new(Source::QueryMesh, "POLICY_DENIED")
                    .of_person(principal.name.clone())
                    .outcome("PERMISSION_DENIED")
                    .details(serde_json::json!({"query_id": id, "reason": error.message()})),
            );
        }
        let query = executor.submit_failed(id.clone(), principal.name.clone(), error);
        query.set_text(sql);
        json_body(query.first_response(&base))
    };
    check_session_header(&headers)?;
    // Trino's `QueryCreatedEvent`: the query exists (and has its id) from here on, refused or
    // run; never its text.
    state.journal().record(
        NewEvent::new(Source::QueryMesh, "QUERY_CREATED")
            .of_person(principal.name.clone())
            .outcome("QUEUED")
            .details(serde_json::json!({ "query_id": id, "user": principal.name })),
    );
    // Trino's query.max-length, counted in UTF-16 units as Java does; a failed query, not an
    // HTTP error.
    let length = sql.encode_utf16().count();
    if length > MAX_QUERY_CHARS {
        return Ok(refused(TrinoError::new(
            ErrorName::QueryTextTooLarge,
            format!("Query text length ({length}) exceeds the maximum length ({MAX_QUERY_CHARS})"),
        )));
    }
    if let Err(error) = check_session_user(&headers, &principal) {
        return Ok(refused(error));
    }
    let held = prepared_statements::held(&headers).ok_or(StatementError::BadRequest(
        prepared_statements::INVALID_HEADER,
    ))?;
    let session = || SessionContext {
        viewer: Viewer::of(state.access(), &principal),
        user: Some(principal.name.clone()),
        groups: principal.groups.clone(),
        ..session_context(&headers)
    };
    let (engine, access) = (executor.engine(), state.access());
    let planned = match resolve_prepared_statements(engine, sql, &held) {
        Err(error) => Err(error),
        Ok(Resolved::Done(done, told)) => Ok((done, Some(told))),
        Ok(Resolved::Plan(sql)) => {
            authorized_plan(engine, access, &principal, &sql, &session()).map(|p| (p, None))
        }
        Ok(Resolved::Describe(statement, described)) => engine
            .describe(&statement, described, &session())
            .and_then(|prepared| authorized(access, &principal, prepared))
            .map(|p| (p, None)),
    };
    let (prepared, told) = match planned {
        Ok(planned) => planned,
        Err(error) => return Ok(refused(error)),
    };
    let update = prepared.session_update.clone();
    let criteria = selection_criteria(&headers, &principal, sql, &held);
    let capabilities = headers
        .get(CLIENT_CAPABILITIES_HEADER)
        .and_then(|v| v.to_str().ok());
    let query = executor.submit_for_client(
        id.clone(),
        sql,
        prepared,
        &criteria,
        legacy_datetime::parametric(capabilities),
    );
    let mut changes = HeaderMap::new();
    if let Some(update) = update {
        set_session_headers(&mut changes, &update);
    }
    if let Some((name, Ok(value))) = told.map(|(name, v)| (name, HeaderValue::from_str(&v))) {
        changes.insert(name, value);
    }
    if !changes.is_empty() {
        query.set_session_changes(changes);
    }
    Ok(json_body(query.first_response(&base)))
}

/// What the resource groups' selectors match a query by (Trino's `SelectionCriteria`): its
/// user and their groups, `X-Trino-Source`, `X-Trino-Client-Tags` (comma-separated) and the
/// statement's query type (an EXECUTE's is its prepared statement's).
fn selection_criteria(
    headers: &HeaderMap,
    principal: &User,
    sql: &str,
    held: &HashMap<String, String>,
) -> Criteria {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    };
    let statement = match prepared_statements::recognize(sql) {
        Some(Ok(Command::Execute { name, .. })) => held.get(&name).map_or(sql, String::as_str),
        _ => sql,
    };
    Criteria {
        user: principal.name.clone(),
        groups: principal.groups.clone(),
        source: header("x-trino-source").map(str::to_string),
        client_tags: header("x-trino-client-tags")
            .map(|tags| {
                tags.split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default(),
        query_type: query_type(statement),
    }
}

/// A statement once the prepared-statement commands are dealt with.
enum Resolved<'a> {
    /// PREPARE or DEALLOCATE PREPARE: answered without running anything, with the header
    /// that tells the client what to hold from now on.
    Done(Arc<Prepared>, (&'static str, String)),
    /// What to plan: the request's own SQL, or the statement an EXECUTE names, bound.
    Plan(std::borrow::Cow<'a, str>),
    /// DESCRIBE OUTPUT or INPUT of the statement a client holds.
    Describe(String, Described),
}

fn resolve_prepared_statements<'a>(
    engine: &Engine,
    sql: &'a str,
    held: &HashMap<String, String>,
) -> Result<Resolved<'a>, TrinoError> {
    match prepared_statements::recognize(sql) {
        None => Ok(Resolved::Plan(sql.into())),
        Some(Err(error)) => Err(error),
        Some(Ok(Command::Prepare { name, statement })) => {
            // Trino only parses the statement here; planning waits for EXECUTE.
            if let Some(error) = syntax_error_of(engine, &statement) {
                return Err(error);
            }
            let added = prepared_statements::added_header(&name, &statement);
            Ok(Resolved::Done(
                Arc::new(Prepared::done("PREPARE")),
                (prepared_statements::ADDED_PREPARE_HEADER, added),
            ))
        }
        Some(Ok(Command::Deallocate { name })) => {
            if !held.contains_key(&name) {
                return Err(prepared_statements::not_found(&name));
            }
            let deallocated = prepared_statements::deallocated_header(&name);
            Ok(Resolved::Done(
                Arc::new(Prepared::done("DEALLOCATE")),
                (prepared_statements::DEALLOCATED_PREPARE_HEADER, deallocated),
            ))
        }
        Some(Ok(Command::Describe { name, described })) => match held.get(&name) {
            Some(statement) => Ok(Resolved::Describe(statement.clone(), described)),
            None => Err(prepared_statements::not_found(&name)),
        },
        Some(Ok(Command::Execute { name, using })) => match held.get(&name) {
            Some(statement) => Ok(Resolved::Plan(
                prepared_statements::as_execute_immediate(statement, &using).into(),
            )),
            None => Err(prepared_statements::not_found(&name)),
        },
    }
}

/// The SYNTAX_ERROR `statement` has, if any: each `?` bound to NULL, it is planned, and only
/// a syntax error counts (Trino's PREPARE parses but does not analyse).
fn syntax_error_of(engine: &Engine, statement: &str) -> Option<TrinoError> {
    let parameters = prepared_statements::placeholders(statement);
    let using = if parameters == 0 {
        String::new()
    } else {
        format!("USING {}", vec!["NULL"; parameters].join(", "))
    };
    let bound = prepared_statements::as_execute_immediate(statement, &using);
    match engine.prepare(&bound, &SessionContext::default()) {
        Err(error) if error.name == ErrorName::SyntaxError => Some(error),
        _ => None,
    }
}

/// A session change, as Trino's statement resource sends it: USE as `X-Trino-Set-Catalog`
/// (only when the statement named a catalog) and `X-Trino-Set-Schema`; SET SESSION as
/// `X-Trino-Set-Session: name=value` (the value URL-encoded), RESET SESSION as
/// `X-Trino-Clear-Session: name`.
fn set_session_headers(headers: &mut HeaderMap, update: &SessionUpdate) {
    let pairs: Vec<(&str, String)> = match update {
        SessionUpdate::Use { catalog, schema } => catalog
            .iter()
            .map(|c| (SET_CATALOG_HEADER, c.clone()))
            .chain([(SET_SCHEMA_HEADER, schema.clone())])
            .collect(),
        SessionUpdate::SetProperty { name, value } => vec![(
            SET_SESSION_HEADER,
            format!(
                "{name}={}",
                form_urlencoded::byte_serialize(value.as_bytes()).collect::<String>()
            ),
        )],
        SessionUpdate::ResetProperty { name } => vec![(CLEAR_SESSION_HEADER, name.clone())],
        SessionUpdate::SetRole { role } => vec![(SET_ROLE_HEADER, format!("system={role}"))],
        SessionUpdate::Nothing { .. } => Vec::new(),
    };
    for (name, value) in pairs {
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(name, value);
        }
    }
}

/// The session properties of `X-Trino-Session` headers (`name=value, …`, values
/// URL-encoded), already checked by [`check_session_header`].
fn session_properties(headers: &HeaderMap) -> Vec<(String, String)> {
    let mut properties = Vec::new();
    for value in headers.get_all(SESSION_HEADER) {
        let Ok(value) = value.to_str() else { continue };
        for property in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            if let Some((name, value)) = property.split_once('=') {
                let decoded: String = form_urlencoded::parse(format!("v={value}").as_bytes())
                    .next()
                    .map(|(_, v)| v.into_owned())
                    .unwrap_or_default();
                properties.push((name.trim().to_string(), decoded));
            }
        }
    }
    properties
}

/// The plan of `sql` (the engine's cached one when it has it) if `principal` may read every
/// table and column it reads. The rules are checked for every request, never remembered with
/// the plan: a plan another person's query left in the cache gives nobody their access.
fn authorized_plan(
    engine: &Engine,
    access: &AccessControl,
    principal: &User,
    sql: &str,
    session: &SessionContext,
) -> Result<Arc<Prepared>, TrinoError> {
    authorized(access, principal, engine.prepare(sql, session)?)
}

/// `prepared` if `principal` may read every table and column it reads (DESCRIBE OUTPUT and
/// INPUT need what running the statement they describe needs, as in Trino).
fn authorized(
    access: &AccessControl,
    principal: &User,
    prepared: Arc<Prepared>,
) -> Result<Arc<Prepared>, TrinoError> {
    access.check_select(principal, &prepared.reads)?;
    Ok(prepared)
}

/// `X-Trino-Session: name=value, catalog.name=value, …` (every such header) must parse as
/// Trino parses it, or the request is a 400 as in Trino. Which names exist is checked by
/// SET SESSION (sql/session.rs); SHOW SESSION shows what the client sent.
fn check_session_header(headers: &HeaderMap) -> Result<(), StatementError> {
    const INVALID: &str = "Invalid X-Trino-Session header";
    for value in headers.get_all(SESSION_HEADER) {
        let value = value
            .to_str()
            .map_err(|_| StatementError::BadRequest(INVALID))?;
        for property in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, _) = property
                .split_once('=')
                .ok_or(StatementError::BadRequest(INVALID))?;
            let name = name.trim();
            if name.is_empty() || name.split('.').count() > 2 {
                return Err(StatementError::BadRequest(INVALID));
            }
        }
    }
    Ok(())
}

/// Trino runs a query as `X-Trino-User` only if the principal may impersonate that user; the
/// sandbox grants no impersonation, so any other user is refused as Trino refuses it.
fn check_session_user(headers: &HeaderMap, principal: &User) -> Result<(), TrinoError> {
    match headers.get(USER_HEADER).map(HeaderValue::to_str) {
        None => Ok(()),
        Some(Ok(user)) if user.is_empty() || user == principal.name => Ok(()),
        Some(user) => Err(TrinoError::new(
            ErrorName::PermissionDenied,
            format!(
                "Access Denied: User {} cannot impersonate user {}",
                principal.name,
                user.unwrap_or("(not readable)")
            ),
        )),
    }
}

fn session_context(headers: &HeaderMap) -> SessionContext {
    let value = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_string)
    };
    SessionContext {
        catalog: value(CATALOG_HEADER),
        schema: value(SCHEMA_HEADER),
        properties: session_properties(headers),
        user: None,
        groups: Vec::new(),
        viewer: None,
        time_zone: value(TIME_ZONE_HEADER),
    }
}

/// `GET {nextUri}`: the next page, or the same page again for a repeated token.
pub async fn get_page(
    State(state): State<QueryMeshState>,
    Path((id, slug, token)): Path<(String, String, String)>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Result<Response, StatementError> {
    let token: u64 = token.parse().map_err(|_| StatementError::NotFound)?;
    let query = state
        .executor()
        .find(&id, &slug)
        .ok_or(StatementError::NotFound)?;
    let body = query
        .page(token, &state.base_url(&headers, &extensions))
        .await?;
    let mut response = json_body(Bytes::from_owner(ArcStr(body)));
    if let Some(changes) = query.session_changes_with_page() {
        response.headers_mut().extend(changes.clone());
    }
    Ok(response)
}

/// `DELETE {nextUri}`: cancels the query and interrupts SQLite; 204 as Trino answers.
pub async fn delete_query(
    State(state): State<QueryMeshState>,
    Path((id, slug, token)): Path<(String, String, String)>,
) -> Result<StatusCode, StatementError> {
    // Trino's token is a number in the path: anything else matches no resource.
    token.parse::<u64>().map_err(|_| StatementError::NotFound)?;
    let query = state
        .executor()
        .find(&id, &slug)
        .ok_or(StatementError::NotFound)?;
    query.cancel();
    tracing::info!(query_id = %query.id, "query canceled by the client");
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /v1/query/{id}`: Trino's QueryResource cancel, for a client that holds only the
/// query id (the broker cancels this way when it has no nextUri it trusts). Unlike the
/// `nextUri`, this authenticates; the owner may kill the query (Trino always lets the owner),
/// anyone else is 403. An unknown or forgotten id is 204, as in Trino.
pub async fn kill_query(
    State(state): State<QueryMeshState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<StatusCode, StatementError> {
    let principal = state.auth().authenticate(&headers).await?;
    if let Some(query) = state.executor().find_by_id(&id) {
        if query.owner() != principal.name {
            return Err(StatementError::Forbidden);
        }
        query.cancel();
        tracing::info!(query_id = %query.id, "query canceled by its owner by id");
    }
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /v1/query/{id}`: what Trino's query resource tells a query's owner about it.
pub async fn query_info(
    State(state): State<QueryMeshState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extensions: Extensions,
) -> Result<Response, StatementError> {
    let principal = state.auth().authenticate(&headers).await?;
    let query = state
        .executor()
        .find_by_id(&id)
        .ok_or(StatementError::NotFound)?;
    if query.owner() != principal.name {
        return Err(StatementError::Forbidden);
    }
    let info = query.info(&state.base_url(&headers, &extensions));
    Ok(axum::Json(info).into_response())
}

/// `GET /ui/query.html?{id}`: the `infoUri` of a query.
pub async fn info_page(
    State(state): State<QueryMeshState>,
    RawQuery(id): RawQuery,
) -> Result<Response, StatementError> {
    let query = id
        .and_then(|id| state.executor().find_by_id(&id))
        .ok_or(StatementError::NotFound)?;
    Ok((
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        query.info_page(),
    )
        .into_response())
}

/// `GET /v1/info`: what clients read to see a coordinator is up.
pub async fn server_info() -> Response {
    json_body(
        json!({
            "nodeVersion": {"version": concat!("zero-sandbox-", env!("CARGO_PKG_VERSION"))},
            "environment": "zero-sandbox",
            "coordinator": true,
            "starting": false,
        })
        .to_string(),
    )
}

/// Lets a shared page body go out without copying it.
struct ArcStr(std::sync::Arc<str>);

impl AsRef<[u8]> for ArcStr {
    fn as_ref(&self) -> &[u8] {
        self.0.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str = r#"{
        "tables": [
            {"group": "analysts", "table": "customer", "privileges": ["SELECT"],
             "columns": [{"name": "phone", "allow": false}]},
            {"group": "analysts", "privileges": ["SELECT"]},
            {"table": "region", "privileges": ["SELECT"]}
        ]
    }"#;

    fn person(name: &str, group: &str) -> User {
        User {
            name: name.into(),
            groups: vec![group.into()],
        }
    }

    #[test]
    fn a_plan_cached_for_one_person_gives_another_no_access() {
        let engine = Engine::open(&crate::Config::builtin().querymesh.engine(), None)
            .expect("the engine opens");
        let access = AccessControl::parse(RULES).expect("rules");
        let session = SessionContext {
            catalog: Some("tpch".into()),
            schema: Some("tiny".into()),
            ..SessionContext::default()
        };
        let (ada, grace) = (person("ada", "analysts"), person("grace", "engineering"));
        let plan = |who: &User, sql: &str| authorized_plan(&engine, &access, who, sql, &session);
        let nation = "SELECT name FROM nation";
        // Grace is denied before and after Ada's query put the plan in the cache.
        for _ in 0..2 {
            let denied = plan(&grace, nation).expect_err("denied");
            assert_eq!(denied.name, ErrorName::PermissionDenied);
            assert_eq!(
                denied.message(),
                "Access Denied: Cannot select from table tpch.tiny.nation"
            );
            let warmed = plan(&ada, nation).expect("ada may read nation");
            assert_eq!(warmed.columns[0].name, "name");
        }
        // Ada's own denial (a column) holds however the cache was warmed.
        let phone = "SELECT phone FROM customer";
        let name = "SELECT name FROM customer";
        assert!(plan(&ada, name).is_ok());
        for _ in 0..2 {
            assert_eq!(
                plan(&ada, phone).expect_err("denied").name,
                ErrorName::PermissionDenied
            );
        }
        assert!(plan(&grace, "SELECT name FROM region").is_ok());
        assert!(plan(&grace, name).is_err());
    }

    #[test]
    fn a_filtered_plan_cached_for_one_person_is_never_anothers() {
        let engine = Engine::open(&crate::Config::builtin().querymesh.engine(), None)
            .expect("the engine opens");
        let access = AccessControl::parse(
            r#"{"tables": [
                {"group": "analysts", "table": "nation", "privileges": ["SELECT"],
                 "filter": "regionkey = 1", "columns": [{"name": "name", "mask": "'x'"}]},
                {"privileges": ["SELECT"]}
            ]}"#,
        )
        .expect("rules");
        let access = Arc::new(access);
        let (ada, grace) = (person("ada", "analysts"), person("grace", "engineering"));
        let plan = |who: &User| {
            let session = SessionContext {
                catalog: Some("tpch".into()),
                schema: Some("tiny".into()),
                user: Some(who.name.clone()),
                viewer: Viewer::of(&access, who),
                ..SessionContext::default()
            };
            authorized_plan(&engine, &access, who, "SELECT name FROM nation", &session)
                .expect("plans")
        };
        for _ in 0..2 {
            let (filtered, whole) = (plan(&ada), plan(&grace));
            assert!(!Arc::ptr_eq(&filtered, &whole));
            assert_eq!(filtered.reads[0].filters, ["tables[0]"]);
            assert_eq!(filtered.reads[0].masks, ["name"]);
            assert!(whole.reads[0].filters.is_empty() && whole.reads[0].masks.is_empty());
            assert_eq!(filtered.columns, whole.columns);
        }
    }
}
