//! The `NNUMBERS_*` environment an app runs with: printed by `zero-sandbox env`, given to the
//! app by `zero-sandbox run`, and all the built-in demo app is built from.

use serde::Serialize;

use crate::config::Config;
use crate::identity::KeyRing;

/// The `NNUMBERS_*` environment an app runs with.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SandboxEnv {
    #[serde(rename = "NNUMBERS_APP_ID")]
    pub app_id: String,
    #[serde(rename = "NNUMBERS_ORG_ID")]
    pub org_id: String,
    #[serde(rename = "NNUMBERS_IDENTITY_ISSUER")]
    pub identity_issuer: String,
    /// The JWKS JSON itself.
    #[serde(rename = "NNUMBERS_IDENTITY_JWKS")]
    pub identity_jwks: String,
    #[serde(rename = "NNUMBERS_BROKER_URL")]
    pub broker_url: String,
}

impl SandboxEnv {
    pub fn new(config: &Config, keys: &KeyRing, broker_url: &str) -> Self {
        Self {
            app_id: config.app.id.clone(),
            org_id: config.organization.id.clone(),
            identity_issuer: config.identity.issuer.clone(),
            identity_jwks: keys.jwks().to_json(),
            broker_url: broker_url.to_string(),
        }
    }

    pub fn vars(&self) -> [(&'static str, &str); 5] {
        [
            ("NNUMBERS_APP_ID", &self.app_id),
            ("NNUMBERS_ORG_ID", &self.org_id),
            ("NNUMBERS_IDENTITY_ISSUER", &self.identity_issuer),
            ("NNUMBERS_IDENTITY_JWKS", &self.identity_jwks),
            ("NNUMBERS_BROKER_URL", &self.broker_url),
        ]
    }

    /// `KEY='value'` lines; single quotes keep the JWKS JSON intact for dotenv parsers.
    pub fn to_dotenv(&self) -> String {
        self.vars()
            .iter()
            .map(|(k, v)| format!("{k}={}\n", shell_quote(v)))
            .collect()
    }

    pub fn to_shell(&self) -> String {
        self.vars()
            .iter()
            .map(|(k, v)| format!("export {k}={}\n", shell_quote(v)))
            .collect()
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

fn shell_quote(value: &str) -> String {
    format!("'{}'", value.replace('\'', r"'\''"))
}
