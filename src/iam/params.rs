//! Request parameters from a query string or a form body, each at most once
//! (RFC 6749 §3.1, §3.2: "parameters MUST NOT be included more than once").

use std::collections::HashMap;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;

use super::error::IamError;

/// The largest form body the sign-in, authorization and logout endpoints read (axum's
/// default, stated so the refusal can name it): a sign-in form with a custom person's
/// hundred groups stays far below it.
pub(super) const MAX_FORM_BYTES: usize = 2 * 1024 * 1024;

/// A form body as read, or the refusal as the realm's page: axum's own rejection is plain
/// text.
pub(super) fn form_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, IamError> {
    body.map_err(|rejection| match rejection.status() {
        StatusCode::PAYLOAD_TOO_LARGE => IamError::FormTooLarge(MAX_FORM_BYTES),
        _ => IamError::FormUnreadable(crate::http::describe(&rejection)),
    })
}

#[derive(Debug, Default)]
pub(super) struct Params {
    values: HashMap<String, String>,
    /// Names that came more than once (only from [`Params::parse_noting_repeats`]).
    repeated: Vec<String>,
}

impl Params {
    /// Parses `application/x-www-form-urlencoded` text; a repeated name is refused.
    pub(super) fn parse(encoded: &[u8]) -> Result<Self, IamError> {
        let mut values = HashMap::new();
        for (name, value) in form_urlencoded::parse(encoded) {
            if values
                .insert(name.to_string(), value.into_owned())
                .is_some()
            {
                return Err(IamError::RepeatedParameter(name.into_owned()));
            }
        }
        Ok(Self {
            values,
            repeated: Vec::new(),
        })
    }

    /// Like [`Params::parse`], but a repeated name is noted (first value kept) instead of
    /// refused: the authorization endpoint must first know whether its redirect URI can be
    /// trusted before it decides where the refusal goes (RFC 6749 §4.1.2.1).
    pub(super) fn parse_noting_repeats(encoded: &[u8]) -> Self {
        let mut params = Self::default();
        for (name, value) in form_urlencoded::parse(encoded) {
            if params.values.contains_key(name.as_ref()) {
                if !params.repeated.iter().any(|n| n == name.as_ref()) {
                    params.repeated.push(name.into_owned());
                }
            } else {
                params.values.insert(name.into_owned(), value.into_owned());
            }
        }
        params
    }

    /// Whether `name` came more than once.
    pub(super) fn is_repeated(&self, name: &str) -> bool {
        self.repeated.iter().any(|n| n == name)
    }

    /// The first name that came more than once.
    pub(super) fn first_repeated(&self) -> Option<&str> {
        self.repeated.first().map(String::as_str)
    }

    /// The parameter, `None` when absent or empty (RFC 6749 §3.1: "sent without a value
    /// MUST be treated as if they were omitted").
    pub(super) fn get(&self, name: &str) -> Option<&str> {
        self.values
            .get(name)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    pub(super) fn owned(&self, name: &str) -> Option<String> {
        self.get(name).map(str::to_string)
    }
}
