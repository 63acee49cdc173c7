//! The sandbox's configuration: one validated [`Config`] built before anything runs.
//!
//! Two layers make it: the built-in defaults (`fixtures/zero-sandbox.toml`, embedded) and the
//! developer's `zero-sandbox.toml`. Each file is read as a [`ConfigLayer`] — every key optional,
//! unknown keys refused — so an error names the file, the line and the key of *that* file; the
//! layers are then resolved key by key (the developer's wins; a `[[people]]` list replaces the
//! built-in one as a whole) and the result is validated.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The built-in defaults, also the documented example of every key.
/// The smallest `querymesh.query_max_memory_mb` accepted.
pub const MIN_QUERY_MEMORY_MB: u32 = 4;

pub const BUILTIN_CONFIG: &str = include_str!("../fixtures/zero-sandbox.toml");

/// The file looked for in the working directory when no `--config` is given.
pub const DEFAULT_CONFIG_FILE: &str = "zero-sandbox.toml";

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{origin}:{line}:{column}: {message}")]
    Parse {
        origin: String,
        line: usize,
        column: usize,
        message: String,
    },
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: String },
}

#[derive(Debug, Clone, Serialize)]
pub struct Config {
    pub organization: OrganizationConfig,
    pub app: AppConfig,
    pub identity: IdentityConfig,
    pub ports: PortsConfig,
    pub iam: IamConfig,
    pub querymesh: QueryMeshConfig,
    pub broker: BrokerConfig,
    pub people: Vec<Person>,
    /// Where keys are kept between runs; `None` keeps them in memory only (`--ephemeral`).
    pub state_dir: Option<PathBuf>,
    /// Every listener's timeouts and connection cap; not read from the file, tests shorten them.
    #[serde(skip)]
    pub listeners: crate::listener::Limits,
}

#[derive(Debug, Clone, Serialize)]
pub struct OrganizationConfig {
    /// `org` of every identity and NNUMBERS_ORG_ID.
    pub id: String,
    /// `org_slug`, and the IAM realm's name (`/realms/{slug}`).
    pub slug: String,
    pub name: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct AppConfig {
    /// `aud` of every identity and NNUMBERS_APP_ID.
    pub id: String,
    /// The app under development; `None` serves the built-in demo app.
    pub url: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct IdentityConfig {
    /// `iss` of every identity and NNUMBERS_IDENTITY_ISSUER; independent of ports so an app's
    /// saved environment survives restarts.
    pub issuer: String,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct PortsConfig {
    pub edge: u16,
    pub broker: u16,
    pub iam: u16,
    pub querymesh: u16,
}

#[derive(Debug, Clone, Serialize)]
pub struct IamConfig {
    pub sso_session_hours: u32,
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryMeshConfig {
    /// The organization has a QueryMesh integration at all.
    pub configured: bool,
    /// The app's querymesh capability is on.
    pub enabled: bool,
    /// The realm grants the QueryMesh scope in access tokens.
    pub scope: bool,
    /// A real Trino to use instead of the built-in stand-in.
    pub url: Option<String>,
    pub query_time_limit_secs: u32,
    /// One person's queries running at once in the stand-in; more wait QUEUED, so one person's
    /// runaway queries never hold everyone's places (Trino's per-user resource group).
    pub max_running_queries_per_person: u32,
    /// One person's queries waiting at once; past it, QUERY_QUEUE_FULL.
    pub max_queued_queries_per_person: u32,
    /// Data policies in Trino's file-based access-control format; `None` allows everything.
    /// A relative path is read from the working directory.
    pub access_control: Option<PathBuf>,
    /// The developer's own data as more catalogs (`[[querymesh.catalogs]]`).
    pub catalogs: Vec<CatalogSource>,
    /// The memory one query may hold, in MiB (Trino's `query.max-memory-per-node`).
    pub query_max_memory_mb: u32,
    /// The memory all of the stand-in's queries may hold together, in MiB (the node's pool).
    pub max_memory_mb: u32,
}

/// A catalog.schema backed by a SQLite file or a folder of CSV files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogSource {
    pub catalog: String,
    pub schema: String,
    /// A SQLite database file, attached read-only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sqlite: Option<PathBuf>,
    /// A folder of `*.csv` files with a header row, one table per file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csv_dir: Option<PathBuf>,
    /// Declared Trino types, `"table.column" = "double"`; other columns are inferred.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub types: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BrokerConfig {
    pub max_concurrent_queries: u32,
    /// One person's share of `max_concurrent_queries`: past it, that person gets 503 while
    /// everyone else's queries still go through.
    pub max_concurrent_queries_per_person: u32,
    /// The most of one query's answer the broker gathers, in MiB (past it: 422); eight times
    /// this is the most it gathers for everyone at once (past it: 503).
    pub max_answer_mb: u32,
    /// How long the broker waits for any one answer from QueryMesh.
    pub querymesh_timeout_secs: u32,
}

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

/// One file's view of the configuration: every key optional, unknown keys refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigLayer {
    organization: Option<OrganizationLayer>,
    app: Option<AppLayer>,
    identity: Option<IdentityLayer>,
    ports: Option<PortsLayer>,
    iam: Option<IamLayer>,
    querymesh: Option<QueryMeshLayer>,
    broker: Option<BrokerLayer>,
    people: Option<Vec<Person>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct OrganizationLayer {
    id: Option<String>,
    slug: Option<String>,
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AppLayer {
    id: Option<String>,
    url: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct IdentityLayer {
    issuer: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PortsLayer {
    edge: Option<u16>,
    broker: Option<u16>,
    iam: Option<u16>,
    querymesh: Option<u16>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct IamLayer {
    sso_session_hours: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryMeshLayer {
    configured: Option<bool>,
    enabled: Option<bool>,
    scope: Option<bool>,
    url: Option<String>,
    query_time_limit_secs: Option<u32>,
    max_running_queries_per_person: Option<u32>,
    max_queued_queries_per_person: Option<u32>,
    access_control: Option<String>,
    catalogs: Option<Vec<CatalogSource>>,
    query_max_memory_mb: Option<u32>,
    max_memory_mb: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct BrokerLayer {
    max_concurrent_queries: Option<u32>,
    max_concurrent_queries_per_person: Option<u32>,
    max_answer_mb: Option<u32>,
    querymesh_timeout_secs: Option<u32>,
}

impl ConfigLayer {
    /// Parses one TOML document; `origin` (a path, or "built-in defaults") prefixes errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, ConfigError> {
        toml::from_str(text).map_err(|e| {
            let (line, column) = e
                .span()
                .map(|span| line_and_column(text, span.start))
                .unwrap_or((1, 1));
            ConfigError::Parse {
                origin: origin.to_string(),
                line,
                column,
                message: e.message().trim_end().to_string(),
            }
        })
    }
}

fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.chars().rev().take_while(|c| *c != '\n').count() + 1;
    (line, column)
}

/// Takes each key from the developer's layer when present, else from the built-in one.
macro_rules! pick {
    ($user:expr, $builtin:expr, $origin:expr, $section:literal, $key:ident) => {
        match (
            $user.as_ref().and_then(|s| s.$key.clone()),
            $builtin.as_ref().and_then(|s| s.$key.clone()),
        ) {
            (Some(v), _) | (None, Some(v)) => v,
            (None, None) => {
                return Err(ConfigError::Invalid {
                    origin: $origin.to_string(),
                    message: concat!("missing key `", $section, ".", stringify!($key), "`")
                        .to_string(),
                })
            }
        }
    };
}

impl Config {
    /// The built-in configuration alone.
    pub fn builtin() -> Self {
        match Self::from_layers(ConfigLayer::default(), "built-in defaults") {
            Ok(config) => config,
            // The fixture is part of the binary and covered by a unit test.
            Err(e) => panic!("the built-in configuration is invalid: {e}"),
        }
    }

    /// Reads `path` (or `zero-sandbox.toml` in the working directory when it exists) over the
    /// built-in defaults.
    pub fn load(path: Option<&Path>) -> Result<Self, ConfigError> {
        let path = match path {
            Some(p) => p.to_path_buf(),
            None => {
                let default = PathBuf::from(DEFAULT_CONFIG_FILE);
                if !default.exists() {
                    return Ok(Self::builtin());
                }
                default
            }
        };
        let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
            path: path.clone(),
            source,
        })?;
        Self::from_toml(&text, &path.display().to_string())
    }

    /// Resolves `text` over the built-in defaults; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, ConfigError> {
        Self::from_layers(ConfigLayer::parse(text, origin)?, origin)
    }

    fn from_layers(user: ConfigLayer, origin: &str) -> Result<Self, ConfigError> {
        let builtin = ConfigLayer::parse(BUILTIN_CONFIG, "built-in defaults")?;
        let o = origin;
        let config = Config {
            organization: OrganizationConfig {
                id: pick!(
                    user.organization,
                    builtin.organization,
                    o,
                    "organization",
                    id
                ),
                slug: pick!(
                    user.organization,
                    builtin.organization,
                    o,
                    "organization",
                    slug
                ),
                name: pick!(
                    user.organization,
                    builtin.organization,
                    o,
                    "organization",
                    name
                ),
            },
            app: AppConfig {
                id: pick!(user.app, builtin.app, o, "app", id),
                url: user
                    .app
                    .as_ref()
                    .and_then(|a| a.url.clone())
                    .or_else(|| builtin.app.as_ref().and_then(|a| a.url.clone()))
                    .filter(|u| !u.is_empty()),
            },
            identity: IdentityConfig {
                issuer: pick!(user.identity, builtin.identity, o, "identity", issuer),
            },
            ports: PortsConfig {
                edge: pick!(user.ports, builtin.ports, o, "ports", edge),
                broker: pick!(user.ports, builtin.ports, o, "ports", broker),
                iam: pick!(user.ports, builtin.ports, o, "ports", iam),
                querymesh: pick!(user.ports, builtin.ports, o, "ports", querymesh),
            },
            iam: IamConfig {
                sso_session_hours: pick!(user.iam, builtin.iam, o, "iam", sso_session_hours),
            },
            querymesh: QueryMeshConfig {
                configured: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    configured
                ),
                enabled: pick!(user.querymesh, builtin.querymesh, o, "querymesh", enabled),
                scope: pick!(user.querymesh, builtin.querymesh, o, "querymesh", scope),
                url: user
                    .querymesh
                    .as_ref()
                    .and_then(|q| q.url.clone())
                    .or_else(|| builtin.querymesh.as_ref().and_then(|q| q.url.clone()))
                    .filter(|u| !u.is_empty()),
                query_time_limit_secs: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    query_time_limit_secs
                ),
                max_running_queries_per_person: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    max_running_queries_per_person
                ),
                max_queued_queries_per_person: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    max_queued_queries_per_person
                ),
                access_control: user
                    .querymesh
                    .as_ref()
                    .and_then(|q| q.access_control.clone())
                    .or_else(|| {
                        builtin
                            .querymesh
                            .as_ref()
                            .and_then(|q| q.access_control.clone())
                    })
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from),
                catalogs: user
                    .querymesh
                    .as_ref()
                    .and_then(|q| q.catalogs.clone())
                    .or_else(|| builtin.querymesh.as_ref().and_then(|q| q.catalogs.clone()))
                    .unwrap_or_default(),
                query_max_memory_mb: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    query_max_memory_mb
                ),
                max_memory_mb: pick!(
                    user.querymesh,
                    builtin.querymesh,
                    o,
                    "querymesh",
                    max_memory_mb
                ),
            },
            broker: BrokerConfig {
                max_concurrent_queries: pick!(
                    user.broker,
                    builtin.broker,
                    o,
                    "broker",
                    max_concurrent_queries
                ),
                max_concurrent_queries_per_person: pick!(
                    user.broker,
                    builtin.broker,
                    o,
                    "broker",
                    max_concurrent_queries_per_person
                ),
                max_answer_mb: pick!(user.broker, builtin.broker, o, "broker", max_answer_mb),
                querymesh_timeout_secs: pick!(
                    user.broker,
                    builtin.broker,
                    o,
                    "broker",
                    querymesh_timeout_secs
                ),
            },
            people: user.people.or(builtin.people).unwrap_or_default(),
            state_dir: None,
            listeners: crate::listener::Limits::default(),
        };
        config.validate(origin)?;
        Ok(config)
    }

    /// Checks the configuration again after command-line flags changed it.
    pub fn revalidate(&self, origin: &str) -> Result<(), ConfigError> {
        self.validate(origin)
    }

    fn validate(&self, origin: &str) -> Result<(), ConfigError> {
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
        if self.broker.querymesh_timeout_secs == 0 {
            return Err(invalid(
                "`broker.querymesh_timeout_secs` must be at least 1".into(),
            ));
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

    /// Every listener on port 0: what tests and fixture users want.
    pub fn with_ephemeral_ports(mut self) -> Self {
        self.ports = PortsConfig {
            edge: 0,
            broker: 0,
            iam: 0,
            querymesh: 0,
        };
        self
    }

    /// The person `handle` names (sub, preferred_username, email or name).
    pub fn person(&self, handle: &str) -> Option<&Person> {
        self.people
            .iter()
            .find(|p| p.sub == handle)
            .or_else(|| self.people.iter().find(|p| p.is_called(handle)))
    }
}

/// The default state directory: the user's data directory.
pub fn default_state_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("zero-sandbox"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_covers_the_optional_claims() {
        let c = Config::builtin();
        assert_eq!(c.ports.edge, 4000);
        assert!(c.people.iter().any(|p| p.profile.email.is_some()
            && p.profile.email_verified == Some(true)
            && p.profile.name.is_some()
            && p.profile.preferred_username.is_some()));
        assert!(c.people.iter().any(|p| p.profile.email.is_none()));
        assert!(
            c.people
                .iter()
                .any(|p| p.profile.email_verified == Some(false))
        );
        assert!(
            c.people
                .iter()
                .any(|p| p.groups.iter().any(|g| g == "admins"))
        );
    }

    #[test]
    fn user_keys_override_and_sections_merge() {
        let c = Config::from_toml("[querymesh]\nenabled = false\n", "t.toml").unwrap();
        assert!(!c.querymesh.enabled);
        assert!(c.querymesh.configured);
        assert_eq!(c.organization.slug, "acme");
    }

    #[test]
    fn unknown_key_names_file_line_and_key() {
        let e = Config::from_toml("[app]\nid = \"x\"\ncolour = 1\n", "my.toml").unwrap_err();
        let msg = e.to_string();
        assert!(msg.starts_with("my.toml:3:"), "{msg}");
        assert!(msg.contains("colour"), "{msg}");
    }

    #[test]
    fn wrong_type_names_line() {
        let e = Config::from_toml("[ports]\nedge = \"high\"\n", "my.toml").unwrap_err();
        assert!(e.to_string().starts_with("my.toml:2:"), "{e}");
    }

    #[test]
    fn duplicate_person_is_refused() {
        let text = "[[people]]\nsub = \"a\"\n[[people]]\nsub = \"a\"\n";
        let e = Config::from_toml(text, "my.toml").unwrap_err();
        assert!(e.to_string().contains("duplicate person"), "{e}");
    }
}
