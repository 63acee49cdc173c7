//! `querymesh/tables` and `querymesh/policies`: what QueryMesh holds, as a person sees it, and
//! the data policies in force. The listing is asked of QueryMesh the way any Trino client asks
//! (`SHOW CATALOGS`, then each catalog's `information_schema.columns`), with an IAM token minted
//! for the person, so policies shape it exactly as they shape the person's queries — and it
//! works the same against a real Trino.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::http::Uri;
use serde_json::{Value, json};

use super::ControlState;
use super::error::{ApiError, QueryParams};
use crate::broker::{AnswerLimits, OnBehalfOf, QueryOutcome, Refusal, TrinoClient};
use crate::config::Person;

/// The most rows a listing brings back per catalog: far past any developer's schema.
const MAX_LISTING_ROWS: usize = 20_000;
/// A listing's answers are small; a few MiB is plenty.
const LISTING_MIB: u32 = 16;

/// The Trino client the listings go through, made once for the control API.
pub fn client(
    http: crate::http::HttpClient,
    querymesh_url: &str,
    timeout_secs: u32,
) -> Option<TrinoClient> {
    TrinoClient::new(
        http,
        querymesh_url,
        Duration::from_secs(u64::from(timeout_secs.max(1))),
        AnswerLimits::from_mib(LISTING_MIB),
    )
    .ok()
}

/// `GET querymesh/tables?person=<sub|username>`: catalogs → schemas → tables → columns and
/// types, as that person sees them. Without `person`, as the first configured person (every
/// table, when no access-control file is configured); the answer names whom.
pub async fn tables(State(state): State<ControlState>, uri: Uri) -> Result<Json<Value>, ApiError> {
    let params = QueryParams::parse(uri.query(), &["person"])?;
    let parts = &state.parts;
    let person: Person = match params.get("person") {
        Some(handle) => parts
            .people
            .find(handle)
            .ok_or_else(|| ApiError::UnknownPerson(handle.to_string()))?,
        None => parts.people.list().into_iter().next().ok_or_else(|| {
            ApiError::Invalid(
                "no person is configured: give `person` (POST people adds one)".into(),
            )
        })?,
    };
    let trino = state
        .trino
        .as_ref()
        .ok_or_else(|| ApiError::QueryMesh(format!("{} is not a URL", parts.querymesh_url)))?;
    let token = crate::iam::querymesh_access_token(
        &parts.iam_keys.current(),
        &parts.realm_url,
        &person,
        parts.clock.now(),
    );
    let as_person = OnBehalfOf {
        access_token: &token,
        user: &person.sub,
    };
    let run = |sql: String| {
        let as_person = &as_person;
        async move { trino.query(&sql, as_person, MAX_LISTING_ROWS).await }
    };
    let catalogs = run("SHOW CATALOGS".into()).await.map_err(refused)?;
    let mut listing = Vec::new();
    for catalog in catalogs.rows.iter().filter_map(|r| r.first()?.as_str()) {
        if catalog == "system" {
            continue;
        }
        let sql = format!(
            "SELECT table_schema, table_name, column_name, data_type \
             FROM \"{}\".information_schema.columns \
             WHERE table_schema <> 'information_schema' \
             ORDER BY table_schema, table_name, ordinal_position",
            catalog.replace('"', "\"\"")
        );
        // A catalog the person may not read is listed empty, with why.
        match run(sql).await {
            Ok(columns) => listing.push(catalog_json(catalog, &columns)),
            Err(refusal) => listing.push(json!({
                "name": catalog,
                "schemas": [],
                "refused": { "code": refusal.code(), "message": refusal.message() },
            })),
        }
    }
    Ok(Json(json!({
        "person": { "sub": person.sub, "preferred_username": person.profile.preferred_username },
        "catalogs": listing,
    })))
}

fn refused(refusal: Refusal) -> ApiError {
    ApiError::QueryMesh(format!("{}: {}", refusal.code(), refusal.message()))
}

/// One catalog's rows (schema, table, column, type) nested as schemas → tables → columns.
fn catalog_json(catalog: &str, columns: &QueryOutcome) -> Value {
    let mut schemas: BTreeMap<&str, BTreeMap<&str, Vec<Value>>> = BTreeMap::new();
    for row in &columns.rows {
        let cell = |i: usize| row.get(i).and_then(Value::as_str).unwrap_or_default();
        schemas
            .entry(cell(0))
            .or_default()
            .entry(cell(1))
            .or_default()
            .push(json!({ "name": cell(2), "type": cell(3) }));
    }
    let schemas: Vec<Value> = schemas
        .into_iter()
        .map(|(schema, tables)| {
            let tables: Vec<Value> = tables
                .into_iter()
                .map(|(table, columns)| json!({ "name": table, "columns": columns }))
                .collect();
            json!({ "name": schema, "tables": tables })
        })
        .collect();
    json!({ "name": catalog, "schemas": schemas })
}

/// `GET querymesh/policies`: the access-control file as QueryMesh loaded it at start (its path,
/// its rules, and in words what each restricting rule takes away from whom; `null` when none
/// is configured: everyone may read everything), and the stand-in's per-person query limits.
/// The broker's limits are `GET limits`. Read from the file, never by querying as anyone.
pub async fn policies(State(state): State<ControlState>) -> Json<Value> {
    let querymesh = &state.parts.config.querymesh;
    let people = state.parts.people.list();
    let access_control = querymesh.access_control.as_ref().map(|path| {
        let restrictions = state
            .parts
            .data_policies
            .as_deref()
            .map(|p| p.restrictions_json(&people))
            .unwrap_or_else(|| json!([]));
        json!({
            "path": path.display().to_string(),
            "rules": state.access_rules.as_ref(),
            "restrictions": restrictions,
        })
    });
    Json(json!({
        "access_control": access_control,
        "querymesh_limits": {
            "query_time_limit_secs": querymesh.query_time_limit_secs,
            "max_running_queries_per_person": querymesh.max_running_queries_per_person,
            "max_queued_queries_per_person": querymesh.max_queued_queries_per_person,
        },
    }))
}

/// The access-control file's rules, read once when the control API starts (QueryMesh read the
/// same file then; it refuses to start on one it cannot read).
pub fn load_rules(path: Option<&std::path::Path>) -> Value {
    let Some(path) = path else {
        return Value::Null;
    };
    crate::querymesh::engine::access::read_rules(path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or(Value::Null)
}
