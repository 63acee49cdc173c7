//! The QueryMesh switch, set while running or from the configuration.

use zero_sandbox::platform::Switch;

use super::{EXAMPLE, assert_refusal, post, session_for_ada};
use crate::support::{self, test_config};

#[tokio::test]
async fn switches_turn_querymesh_off_while_running() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    let switches = sandbox.switches();
    switches.set(Switch::QueryMeshEnabled, false);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "QUERYMESH_NOT_ENABLED",
    );
    assert!(message.contains("enabled = true"), "{message}");
    switches.set(Switch::QueryMeshConfigured, false);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "ORGANIZATION_INTEGRATION_NOT_CONFIGURED",
    );
}

#[tokio::test]
async fn switches_from_the_configuration() {
    let mut config = test_config();
    config.querymesh.enabled = false;
    let sandbox = support::start_with(config).await;
    let (identity, _) = session_for_ada(&sandbox);
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        409,
        "QUERYMESH_NOT_ENABLED",
    );
}
