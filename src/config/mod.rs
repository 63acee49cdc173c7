//! The sandbox's configuration: one validated [`Config`] built before anything runs.
//!
//! Two layers make it: the built-in defaults (`fixtures/zero-sandbox.toml`, embedded) and the
//! developer's `zero-sandbox.toml`. Each file is read as a [`ConfigLayer`] — every key optional,
//! unknown keys refused — so an error names the file, the line and the key of *that* file; the
//! layers are then resolved key by key (the developer's wins; a `[[people]]` list replaces the
//! built-in one as a whole) and the result is validated.
//!
//! # Layout
//!
//! - this file: [`Config`] and its sections, [`ConfigError`], and loading.
//! - `layer`: [`ConfigLayer`], one file's keys as written.
//! - `merge`: the layers resolved key by key.
//! - `validate`: the checks the result must pass.
//! - `people`: [`Person`] and their [`Profile`].

mod layer;
pub mod limits;
mod merge;
mod people;
mod validate;

#[cfg(test)]
mod tests;

use std::path::{Path, PathBuf};

use serde::Serialize;

pub use self::layer::ConfigLayer;
pub use self::limits::{DefaultAllowances, LimitRule};
pub use self::people::{Person, Profile};

/// The smallest `querymesh.query_max_memory_mb` accepted.
pub const MIN_QUERY_MEMORY_MB: u32 = 4;

/// The built-in defaults, also the documented example of every key.
pub const BUILTIN_CONFIG: &str = include_str!("../../fixtures/zero-sandbox.toml");

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
    pub events: EventsConfig,
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
    /// PEM certificates the broker trusts for an `https://` `url`, beside the system's roots:
    /// an organization's own authority, or one made for a local Trino.
    pub ca_file: Option<PathBuf>,
    pub query_time_limit_secs: u32,
    /// One person's queries running at once in the stand-in; more wait QUEUED, so one person's
    /// runaway queries never hold everyone's places (Trino's per-user resource group).
    pub max_running_queries_per_person: u32,
    /// One person's queries waiting at once; past it, QUERY_QUEUE_FULL.
    pub max_queued_queries_per_person: u32,
    /// Data policies in Trino's file-based access-control format; `None` allows everything.
    /// A relative path is read from the working directory.
    pub access_control: Option<PathBuf>,
    /// Trino's resource-groups file (`resource-groups.config-file`); `None` runs the per-person
    /// groups of `max_running_queries_per_person` / `max_queued_queries_per_person`.
    pub resource_groups: Option<PathBuf>,
    /// The developer's own data as more catalogs (`[[querymesh.catalogs]]`).
    pub catalogs: Vec<CatalogSource>,
    /// The memory one query may hold, in MiB (Trino's `query.max-memory-per-node`).
    pub query_max_memory_mb: u32,
    /// The memory all of the stand-in's queries may hold together, in MiB (the node's pool).
    pub max_memory_mb: u32,
}

/// A catalog.schema backed by a SQLite file or a folder of CSV files (the engine reads it).
pub use querymesh_engine::sources::CatalogSource;

#[derive(Debug, Clone, Serialize)]
pub struct BrokerConfig {
    pub max_concurrent_queries: u32,
    /// One person's share of `max_concurrent_queries`: past it, that person gets 503 while
    /// everyone else's queries still go through. The default `concurrent_queries` allowance
    /// of the per-person limits.
    pub max_concurrent_queries_per_person: u32,
    /// The default `queries_per_minute` allowance of one person; 0 is unlimited.
    pub queries_per_minute_per_person: u32,
    /// Rules covering people by sub, username or group (`[[broker.limits]]`), resolved with
    /// NYXDB's precedence against the defaults.
    pub limits: Vec<LimitRule>,
    /// The most of one query's answer the broker gathers, in MiB (past it: 422); eight times
    /// this is the most it gathers for everyone at once (past it: 503).
    pub max_answer_mb: u32,
    /// How long the broker waits for any one answer from QueryMesh.
    pub querymesh_timeout_secs: u32,
}

impl QueryMeshConfig {
    /// The engine's part of it.
    pub fn engine(&self) -> querymesh_engine::EngineConfig {
        querymesh_engine::EngineConfig {
            catalogs: self.catalogs.clone(),
            query_max_memory_mb: self.query_max_memory_mb,
            max_memory_mb: self.max_memory_mb,
        }
    }
}

impl BrokerConfig {
    /// The per-person allowances of someone no `[[broker.limits]]` rule covers.
    pub fn default_allowances(&self) -> DefaultAllowances {
        DefaultAllowances {
            concurrent_queries: self.max_concurrent_queries_per_person,
            queries_per_minute: self.queries_per_minute_per_person,
        }
    }
}

/// The most events `[events] capacity` may keep: a million small events is a few hundred MiB
/// at most, past which a journal would cost more than the sandbox it records.
pub const MAX_EVENTS_CAPACITY: u64 = 1_000_000;

/// `[events]`: the platform's event journal.
#[derive(Debug, Clone, Serialize)]
pub struct EventsConfig {
    /// Events kept in memory; past it the oldest go first (and are counted).
    pub capacity: u64,
    /// Every event also appended here as one JSON line. A relative path is opened from the
    /// working directory.
    pub file: Option<PathBuf>,
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

    /// Checks the configuration again after command-line flags changed it.
    pub fn revalidate(&self, origin: &str) -> Result<(), ConfigError> {
        self.validate(origin)
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
