//! The control API's own errors, `{"code","message"}` with a 4xx naming what is at fault, and
//! the JSON reading that names the field: an unknown field, a wrong type, a missing one.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// Every way the control API refuses a request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: the body or a query parameter is not what the endpoint takes.
    #[error("{0}")]
    Invalid(String),
    /// 400: a fault rule that cannot be applied.
    #[error("{0}")]
    BadFault(String),
    /// 403: the request came from another machine.
    #[error("the test-control API answers only on loopback; {0} is not a loopback address")]
    NotLoopback(String),
    /// 403: a web page of another origin sent it (a drive-by form, a page of another local
    /// server, or DNS rebinding).
    #[error(
        "the test-control API refuses requests for or from {0}: only clients on this machine \
         addressing 127.0.0.1, localhost or [::1], and of web pages only the console on this \
         listener, may use it"
    )]
    ForeignOrigin(String),
    /// 415: a body that does not say it is JSON (`None`: no Content-Type at all).
    #[error(
        "{}; the test-control API reads JSON bodies only: send Content-Type: application/json \
         (curl --json '…')",
        what_content_type(.0)
    )]
    UnsupportedMediaType(Option<String>),
    /// 413: a body past the API's limit.
    #[error("the body is larger than the test-control API's limit of {0} bytes")]
    TooLarge(usize),
    /// 404: no such person.
    #[error("no person is called {0:?} (GET /sandbox/v1/people lists them)")]
    UnknownPerson(String),
    /// 404: no live platform session has this sid.
    #[error("no live platform session has sid {0:?} (GET /sandbox/v1/sessions lists them)")]
    UnknownSession(String),
    /// 404: no fault rule has this id.
    #[error("no fault rule has id {0:?} (GET /sandbox/v1/faults lists them)")]
    UnknownFault(String),
    /// 404: not an endpoint of the API.
    #[error("{0} is not an endpoint of the test-control API")]
    NotFound(String),
    /// 405: an endpoint asked with a method it does not take.
    #[error("{method} is not how {path} is used")]
    MethodNotAllowed { method: String, path: String },
    /// 409: the person exists already.
    #[error("{0}")]
    Conflict(String),
    /// 503: the console's event streams are at their cap.
    #[error(
        "{0} event streams are open already, the most the test-control API serves at once; \
         close one (or read GET /sandbox/v1/events with a cursor)"
    )]
    TooManyStreams(usize),
    /// 502: QueryMesh did not answer a listing the API asked it for.
    #[error("QueryMesh did not answer the listing: {0}")]
    QueryMesh(String),
    /// 500: the identity keys (rotated, or restored by `reset`) could not be saved in the
    /// state directory.
    #[error("the identity keys could not be saved: {0}")]
    KeysNotSaved(String),
}

/// What a refused body said it was, for [`ApiError::UnsupportedMediaType`].
fn what_content_type(content_type: &Option<String>) -> String {
    match content_type {
        Some(content_type) => format!("the body's Content-Type is {content_type:?}"),
        None => "the request has a body but no Content-Type".to_string(),
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::Invalid(_) | Self::BadFault(_) => StatusCode::BAD_REQUEST,
            Self::NotLoopback(_) | Self::ForeignOrigin(_) => StatusCode::FORBIDDEN,
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType(_) => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::UnknownPerson(_)
            | Self::UnknownSession(_)
            | Self::UnknownFault(_)
            | Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::TooManyStreams(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::QueryMesh(_) => StatusCode::BAD_GATEWAY,
            Self::KeysNotSaved(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            Self::Invalid(_) => "INVALID_REQUEST",
            Self::BadFault(_) => "INVALID_FAULT",
            Self::NotLoopback(_) => "NOT_LOOPBACK",
            Self::ForeignOrigin(_) => "FOREIGN_ORIGIN",
            Self::TooLarge(_) => "BODY_TOO_LARGE",
            Self::UnsupportedMediaType(_) => "UNSUPPORTED_MEDIA_TYPE",
            Self::UnknownPerson(_) => "UNKNOWN_PERSON",
            Self::UnknownSession(_) => "UNKNOWN_SESSION",
            Self::UnknownFault(_) => "UNKNOWN_FAULT",
            Self::NotFound(_) => "NOT_FOUND",
            Self::MethodNotAllowed { .. } => "METHOD_NOT_ALLOWED",
            Self::Conflict(_) => "CONFLICT",
            Self::TooManyStreams(_) => "TOO_MANY_STREAMS",
            Self::QueryMesh(_) => "QUERYMESH_FAILED",
            Self::KeysNotSaved(_) => "KEYS_NOT_SAVED",
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "code": self.code(), "message": self.to_string() });
        let mut response = (self.status(), Json(body)).into_response();
        // RFC 9110 §15.5.16: a 415 may name the media types that would have been accepted.
        if matches!(self, Self::UnsupportedMediaType(_)) {
            response.headers_mut().insert(
                axum::http::header::ACCEPT,
                axum::http::HeaderValue::from_static("application/json"),
            );
        }
        response
    }
}

/// A request's body, read as bytes; a body past the limit or that cannot be read is the API's
/// own error (axum's rejection would be plain text).
pub struct Body(pub Bytes);

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        Bytes::from_request(request, state)
            .await
            .map(Body)
            .map_err(|e| {
                if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                    ApiError::TooLarge(super::MAX_BODY_BYTES)
                } else {
                    ApiError::Invalid(format!("the body could not be read: {e}"))
                }
            })
    }
}

/// A request's one path parameter (`{sid}`, `{sub}`, `{id}`); one that cannot be decoded (not
/// UTF-8 once percent-decoded) is the API's own error (axum's rejection would be plain text).
pub struct PathParam(pub String);

impl<S: Send + Sync> FromRequestParts<S> for PathParam {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        Path::<String>::from_request_parts(parts, state)
            .await
            .map(|Path(value)| PathParam(value))
            .map_err(|e| ApiError::Invalid(format!("the path parameter is not valid: {e}")))
    }
}

/// A request body as a JSON object, its fields checked against `allowed` (an empty body is
/// `{}`, so `curl -X POST` works for the endpoints whose fields are all optional).
pub struct Fields {
    map: Map<String, Value>,
    /// `name.` for a nested object's fields, so errors name the whole path.
    prefix: String,
}

impl Fields {
    pub fn parse(body: &[u8], allowed: &[&str]) -> Result<Self, ApiError> {
        let map = if body.iter().all(u8::is_ascii_whitespace) {
            Map::new()
        } else {
            match serde_json::from_slice::<Value>(body) {
                Ok(Value::Object(map)) => map,
                Ok(other) => {
                    return Err(ApiError::Invalid(format!(
                        "the body must be a JSON object, not {}",
                        kind_of(&other)
                    )));
                }
                Err(e) => return Err(ApiError::Invalid(format!("the body is not JSON: {e}"))),
            }
        };
        Self::from_map(map, allowed, "")
    }

    /// The object `value` of field `name`, its fields checked against `allowed`.
    pub fn nested(name: &str, value: Value, allowed: &[&str]) -> Result<Self, ApiError> {
        match value {
            Value::Object(map) => Self::from_map(map, allowed, &format!("{name}.")),
            other => Err(ApiError::Invalid(format!(
                "field `{name}` must be an object, not {}",
                kind_of(&other)
            ))),
        }
    }

    fn from_map(map: Map<String, Value>, allowed: &[&str], prefix: &str) -> Result<Self, ApiError> {
        if let Some(unknown) = map.keys().find(|k| !allowed.contains(&k.as_str())) {
            return Err(ApiError::Invalid(format!(
                "unknown field `{prefix}{unknown}`; the fields are {}",
                allowed
                    .iter()
                    .map(|f| format!("`{prefix}{f}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(Self {
            map,
            prefix: prefix.to_string(),
        })
    }

    pub fn has(&self, name: &str) -> bool {
        self.map.contains_key(name)
    }

    /// Field `name` as a `T`, if present (a JSON null counts as absent).
    pub fn get<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, ApiError> {
        match self.map.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(value) => serde_json::from_value(value.clone())
                .map(Some)
                .map_err(|e| {
                    ApiError::Invalid(format!(
                        "field `{}{name}`: {e} (got {})",
                        self.prefix,
                        kind_of(value)
                    ))
                }),
        }
    }

    /// Field `name`'s raw JSON, if present.
    pub fn raw(&self, name: &str) -> Option<Value> {
        self.map.get(name).filter(|v| !v.is_null()).cloned()
    }

    pub fn into_map(self) -> Map<String, Value> {
        self.map
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A request's query parameters, checked against `allowed`; each at most once.
pub struct QueryParams {
    pairs: Vec<(String, String)>,
}

impl QueryParams {
    pub fn parse(query: Option<&str>, allowed: &[&str]) -> Result<Self, ApiError> {
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.unwrap_or("").as_bytes())
            .map(|(k, v)| (k.into_owned(), v.into_owned()))
            .collect();
        for (i, (name, _)) in pairs.iter().enumerate() {
            if !allowed.contains(&name.as_str()) {
                return Err(ApiError::Invalid(if allowed.is_empty() {
                    format!("unknown query parameter `{name}`: this endpoint takes none")
                } else {
                    format!(
                        "unknown query parameter `{name}`; the parameters are {}",
                        allowed.join(", ")
                    )
                }));
            }
            if pairs[..i].iter().any(|(n, _)| n == name) {
                return Err(ApiError::Invalid(format!(
                    "query parameter `{name}` is given more than once"
                )));
            }
        }
        Ok(Self { pairs })
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Parameter `name` as a number, if present.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.get(name)
            .map(|v| {
                v.parse().map_err(|_| {
                    ApiError::Invalid(format!(
                        "query parameter `{name}` must be a whole number, not {v:?}"
                    ))
                })
            })
            .transpose()
    }
}
