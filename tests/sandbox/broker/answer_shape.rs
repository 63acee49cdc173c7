//! A query the broker runs answers in the spec's shape, with the person's own token.

use serde_json::json;

use super::{ACCESS_TOKEN, EXAMPLE, config_with_fake, post, session_for_ada};
use crate::support::fake_trino::{Behaviour, FakeTrino};
use crate::support::{self};

#[tokio::test]
async fn success_has_the_spec_shape_and_uses_the_persons_token() {
    let fake = FakeTrino::start(Behaviour::Rows(
        vec![
            ("name", "varchar(25)", "varchar"),
            ("regionkey", "bigint", "bigint"),
        ],
        vec![json!(["BRAZIL", 1])],
    ))
    .await;
    let sandbox = support::start_with(config_with_fake(&fake)).await;
    let (identity, _) = session_for_ada(&sandbox);
    let (status, body) = post(&sandbox, Some(&identity), EXAMPLE).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body,
        json!({"columns": [{"name": "name", "type": "varchar"}, {"name": "regionkey", "type": "bigint"}],
               "rows": [["BRAZIL", 1]]})
    );
    let seen = fake.seen();
    let (_, path, headers) = &seen.requests[0];
    assert_eq!(path, "/v1/statement");
    assert_eq!(
        headers["authorization"],
        format!("Bearer {ACCESS_TOKEN}").as_str()
    );
    let ada = sandbox.config().person("ada").unwrap().sub.clone();
    assert_eq!(headers["x-trino-user"], ada.as_str());
    assert!(
        headers.get("x-nnumbers-identity").is_none(),
        "the identity stays in the platform"
    );
    assert_eq!(
        seen.bodies[0],
        "SELECT name, regionkey FROM tpch.tiny.nation"
    );
}
