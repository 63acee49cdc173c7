//! The two layers resolved key by key into a [`Config`]: the developer's value when their file
//! has the key, else the built-in one; a `[[people]]` list replaces the built-in one whole.

use std::path::PathBuf;

use super::layer::ConfigLayer;
use super::{
    AppConfig, BUILTIN_CONFIG, BrokerConfig, Config, ConfigError, EventsConfig, IamConfig,
    IdentityConfig, OrganizationConfig, PortsConfig, QueryMeshConfig,
};

/// The developer's `section.key` when their layer has it, else the built-in layer's.
macro_rules! either {
    ($user:ident, $builtin:ident, $section:ident . $key:ident) => {
        $user
            .$section
            .as_ref()
            .and_then(|s| s.$key.clone())
            .or_else(|| $builtin.$section.as_ref().and_then(|s| s.$key.clone()))
    };
}

/// Takes each key from the developer's layer when present, else from the built-in one.
macro_rules! pick {
    ($user:ident, $builtin:ident, $origin:ident, $section:ident . $key:ident) => {
        match either!($user, $builtin, $section.$key) {
            Some(v) => v,
            None => {
                return Err(ConfigError::Invalid {
                    origin: $origin.to_string(),
                    message: concat!(
                        "missing key `",
                        stringify!($section),
                        ".",
                        stringify!($key),
                        "`"
                    )
                    .to_string(),
                })
            }
        }
    };
}

impl Config {
    pub(super) fn from_layers(user: ConfigLayer, origin: &str) -> Result<Self, ConfigError> {
        let builtin = ConfigLayer::parse(BUILTIN_CONFIG, "built-in defaults")?;
        let o = origin;
        let config = Config {
            organization: OrganizationConfig {
                id: pick!(user, builtin, o, organization.id),
                slug: pick!(user, builtin, o, organization.slug),
                name: pick!(user, builtin, o, organization.name),
            },
            app: AppConfig {
                id: pick!(user, builtin, o, app.id),
                url: either!(user, builtin, app.url).filter(|u| !u.is_empty()),
            },
            identity: IdentityConfig {
                issuer: pick!(user, builtin, o, identity.issuer),
            },
            ports: PortsConfig {
                edge: pick!(user, builtin, o, ports.edge),
                broker: pick!(user, builtin, o, ports.broker),
                iam: pick!(user, builtin, o, ports.iam),
                querymesh: pick!(user, builtin, o, ports.querymesh),
            },
            iam: IamConfig {
                sso_session_hours: pick!(user, builtin, o, iam.sso_session_hours),
            },
            querymesh: QueryMeshConfig {
                configured: pick!(user, builtin, o, querymesh.configured),
                enabled: pick!(user, builtin, o, querymesh.enabled),
                scope: pick!(user, builtin, o, querymesh.scope),
                url: either!(user, builtin, querymesh.url).filter(|u| !u.is_empty()),
                ca_file: either!(user, builtin, querymesh.ca_file)
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from),
                query_time_limit_secs: pick!(user, builtin, o, querymesh.query_time_limit_secs),
                max_running_queries_per_person: pick!(
                    user,
                    builtin,
                    o,
                    querymesh.max_running_queries_per_person
                ),
                max_queued_queries_per_person: pick!(
                    user,
                    builtin,
                    o,
                    querymesh.max_queued_queries_per_person
                ),
                access_control: either!(user, builtin, querymesh.access_control)
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from),
                resource_groups: either!(user, builtin, querymesh.resource_groups)
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from),
                catalogs: either!(user, builtin, querymesh.catalogs).unwrap_or_default(),
                query_max_memory_mb: pick!(user, builtin, o, querymesh.query_max_memory_mb),
                max_memory_mb: pick!(user, builtin, o, querymesh.max_memory_mb),
            },
            broker: BrokerConfig {
                max_concurrent_queries: pick!(user, builtin, o, broker.max_concurrent_queries),
                max_concurrent_queries_per_person: pick!(
                    user,
                    builtin,
                    o,
                    broker.max_concurrent_queries_per_person
                ),
                queries_per_minute_per_person: pick!(
                    user,
                    builtin,
                    o,
                    broker.queries_per_minute_per_person
                ),
                limits: either!(user, builtin, broker.limits).unwrap_or_default(),
                max_answer_mb: pick!(user, builtin, o, broker.max_answer_mb),
                querymesh_timeout_secs: pick!(user, builtin, o, broker.querymesh_timeout_secs),
            },
            events: EventsConfig {
                capacity: pick!(user, builtin, o, events.capacity),
                file: either!(user, builtin, events.file)
                    .filter(|p| !p.is_empty())
                    .map(PathBuf::from),
            },
            people: user.people.or(builtin.people).unwrap_or_default(),
            state_dir: None,
            listeners: crate::listener::Limits::default(),
        };
        config.validate(origin)?;
        Ok(config)
    }
}
