//! Request parameters from a query string or a form body, each at most once
//! (RFC 6749 §3.1, §3.2: "parameters MUST NOT be included more than once").

use std::collections::HashMap;

use super::error::IamError;

#[derive(Debug, Default)]
pub(super) struct Params {
    values: HashMap<String, String>,
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
        Ok(Self { values })
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
