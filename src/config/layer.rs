//! One file's view of the configuration ([`ConfigLayer`]): every key optional, unknown keys
//! refused, and a parse error placed at its line and column in *that* file.

use serde::Deserialize;

use super::{CatalogSource, ConfigError, LimitRule, Person};

/// One file's view of the configuration: every key optional, unknown keys refused.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigLayer {
    pub(super) organization: Option<OrganizationLayer>,
    pub(super) app: Option<AppLayer>,
    pub(super) identity: Option<IdentityLayer>,
    pub(super) ports: Option<PortsLayer>,
    pub(super) iam: Option<IamLayer>,
    pub(super) querymesh: Option<QueryMeshLayer>,
    pub(super) broker: Option<BrokerLayer>,
    pub(super) events: Option<EventsLayer>,
    pub(super) people: Option<Vec<Person>>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct OrganizationLayer {
    pub(super) id: Option<String>,
    pub(super) slug: Option<String>,
    pub(super) name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct AppLayer {
    pub(super) id: Option<String>,
    pub(super) url: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct IdentityLayer {
    pub(super) issuer: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PortsLayer {
    pub(super) edge: Option<u16>,
    pub(super) broker: Option<u16>,
    pub(super) iam: Option<u16>,
    pub(super) querymesh: Option<u16>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct IamLayer {
    pub(super) sso_session_hours: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct QueryMeshLayer {
    pub(super) configured: Option<bool>,
    pub(super) enabled: Option<bool>,
    pub(super) scope: Option<bool>,
    pub(super) url: Option<String>,
    pub(super) ca_file: Option<String>,
    pub(super) query_time_limit_secs: Option<u32>,
    pub(super) max_running_queries_per_person: Option<u32>,
    pub(super) max_queued_queries_per_person: Option<u32>,
    pub(super) access_control: Option<String>,
    pub(super) resource_groups: Option<String>,
    pub(super) catalogs: Option<Vec<CatalogSource>>,
    pub(super) query_max_memory_mb: Option<u32>,
    pub(super) max_memory_mb: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BrokerLayer {
    pub(super) max_concurrent_queries: Option<u32>,
    pub(super) max_concurrent_queries_per_person: Option<u32>,
    pub(super) queries_per_minute_per_person: Option<u32>,
    pub(super) limits: Option<Vec<LimitRule>>,
    pub(super) max_answer_mb: Option<u32>,
    pub(super) querymesh_timeout_secs: Option<u32>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EventsLayer {
    pub(super) capacity: Option<u64>,
    pub(super) file: Option<String>,
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
