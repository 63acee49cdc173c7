//! The organization's people: [`Person`] as the IAM knows them, their optional [`Profile`]
//! claims, and the `[[people]]` entry as written in the configuration (the profile inline).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The person's optional profile claims, each present only when the person has it: the same
/// keys in the configuration, the signed identity, the IAM's tokens and the edge's session.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email_verified: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_username: Option<String>,
}

impl Profile {
    /// The claims as published: `email_verified` speaks of an email, so without one it is
    /// left out (OIDC Core §5.1 pairs it with `email`).
    pub fn published(&self) -> Self {
        Self {
            email_verified: self.email.as_ref().and(self.email_verified),
            ..self.clone()
        }
    }
}

/// A person of the organization, as the IAM knows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(from = "PersonEntry", into = "PersonEntry")]
pub struct Person {
    pub sub: String,
    pub profile: Profile,
    pub groups: Vec<String>,
    /// Free-form attributes (department, title, …) that data policies may use.
    pub attributes: BTreeMap<String, String>,
}

/// A `[[people]]` entry as written: the profile's keys inline. Spelled out rather than
/// `#[serde(flatten)]`, which cannot refuse unknown keys and loses the line of an error.
#[derive(Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct PersonEntry {
    sub: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    email_verified: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preferred_username: Option<String>,
    #[serde(default)]
    groups: Vec<String>,
    #[serde(default)]
    attributes: BTreeMap<String, String>,
}

impl From<PersonEntry> for Person {
    fn from(e: PersonEntry) -> Self {
        let profile = Profile {
            name: e.name,
            email: e.email,
            email_verified: e.email_verified,
            preferred_username: e.preferred_username,
        };
        Self {
            sub: e.sub,
            profile,
            groups: e.groups,
            attributes: e.attributes,
        }
    }
}

impl From<Person> for PersonEntry {
    fn from(p: Person) -> Self {
        let Profile {
            name,
            email,
            email_verified,
            preferred_username,
        } = p.profile;
        Self {
            sub: p.sub,
            name,
            email,
            email_verified,
            preferred_username,
            groups: p.groups,
            attributes: p.attributes,
        }
    }
}

impl Person {
    /// Whether `handle` names this person: their sub, preferred_username, email or name.
    pub fn is_called(&self, handle: &str) -> bool {
        let same =
            |v: &Option<String>| v.as_deref().is_some_and(|v| v.eq_ignore_ascii_case(handle));
        self.sub == handle
            || same(&self.profile.preferred_username)
            || same(&self.profile.email)
            || same(&self.profile.name)
    }

    /// What to call the person in pages and messages.
    pub fn display_name(&self) -> &str {
        let p = &self.profile;
        p.name
            .as_deref()
            .or(p.preferred_username.as_deref())
            .or(p.email.as_deref())
            .unwrap_or(&self.sub)
    }
}
