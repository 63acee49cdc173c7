//! The checks a [`Config`] must pass, after the layers are resolved and again after
//! command-line flags changed it: each error names the key and says what it must be.

use std::collections::HashSet;

use super::{Config, ConfigError, MAX_EVENTS_CAPACITY, MIN_QUERY_MEMORY_MB};

impl Config {
    pub(super) fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let invalid = |message: String| ConfigError::Invalid {
            origin: origin.to_string(),
            message,
        };
        for (key, value) in [
            ("organization.id", &self.organization.id),
            ("organization.slug", &self.organization.slug),
            ("app.id", &self.app.id),
            ("identity.issuer", &self.identity.issuer),
        ] {
            if value.trim().is_empty() {
                return Err(invalid(format!("`{key}` must not be empty")));
            }
        }
        let slug_ok = self
            .organization
            .slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !slug_ok {
            return Err(invalid(format!(
                "`organization.slug` = {:?} may hold only a-z, 0-9 and '-' (it is part of URLs)",
                self.organization.slug
            )));
        }
        for (key, url) in [
            ("app.url", &self.app.url),
            ("querymesh.url", &self.querymesh.url),
        ] {
            if let Some(url) = url
                && !(url.starts_with("http://") || url.starts_with("https://"))
            {
                return Err(invalid(format!(
                    "`{key}` = {url:?} must be an http:// or https:// URL"
                )));
            }
        }
        if self.querymesh.query_time_limit_secs == 0 {
            return Err(invalid(
                "`querymesh.query_time_limit_secs` must be at least 1".into(),
            ));
        }
        // A query needs a few MiB to compile and read pages at all.
        if self.querymesh.query_max_memory_mb < MIN_QUERY_MEMORY_MB {
            return Err(invalid(format!(
                "`querymesh.query_max_memory_mb` must be at least {MIN_QUERY_MEMORY_MB}"
            )));
        }
        if self.querymesh.max_memory_mb < self.querymesh.query_max_memory_mb {
            return Err(invalid(format!(
                "`querymesh.max_memory_mb` ({}) must be at least `querymesh.query_max_memory_mb` ({})",
                self.querymesh.max_memory_mb, self.querymesh.query_max_memory_mb
            )));
        }
        for (key, value) in [
            (
                "broker.max_concurrent_queries",
                self.broker.max_concurrent_queries,
            ),
            (
                "broker.max_concurrent_queries_per_person",
                self.broker.max_concurrent_queries_per_person,
            ),
            ("broker.max_answer_mb", self.broker.max_answer_mb),
            (
                "querymesh.max_running_queries_per_person",
                self.querymesh.max_running_queries_per_person,
            ),
            (
                "querymesh.max_queued_queries_per_person",
                self.querymesh.max_queued_queries_per_person,
            ),
        ] {
            if value == 0 {
                return Err(invalid(format!("`{key}` must be at least 1")));
            }
        }
        super::limits::validate(
            &self.broker.default_allowances(),
            &self.broker.limits,
            "broker.limits",
        )
        .map_err(invalid)?;
        if self.broker.querymesh_timeout_secs == 0 {
            return Err(invalid(
                "`broker.querymesh_timeout_secs` must be at least 1".into(),
            ));
        }
        if !(1..=MAX_EVENTS_CAPACITY).contains(&self.events.capacity) {
            return Err(invalid(format!(
                "`events.capacity` must be from 1 to {MAX_EVENTS_CAPACITY}, not {}",
                self.events.capacity
            )));
        }
        if self.iam.sso_session_hours == 0 {
            return Err(invalid("`iam.sso_session_hours` must be at least 1".into()));
        }
        let mut subs = HashSet::new();
        for (i, person) in self.people.iter().enumerate() {
            if person.sub.trim().is_empty() {
                return Err(invalid(format!("people[{i}]: `sub` must not be empty")));
            }
            if !subs.insert(person.sub.as_str()) {
                return Err(invalid(format!(
                    "people[{i}]: duplicate person: sub {:?} is already used by an earlier person",
                    person.sub
                )));
            }
            if person.profile.email_verified.is_some() && person.profile.email.is_none() {
                return Err(invalid(format!(
                    "people[{i}] ({}): `email_verified` is set but the person has no `email`",
                    person.sub
                )));
            }
        }
        let mut usernames = HashSet::new();
        for (i, person) in self.people.iter().enumerate() {
            if let Some(u) = &person.profile.preferred_username
                && !usernames.insert(u.to_ascii_lowercase())
            {
                return Err(invalid(format!(
                    "people[{i}]: duplicate person: preferred_username {u:?} is already used"
                )));
            }
        }
        Ok(())
    }
}
