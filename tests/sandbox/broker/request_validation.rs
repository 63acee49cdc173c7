//! A body that is not a query in the spec's shape is VALIDATION_FAILED.

use super::{assert_refusal, post, session_for_ada};
use crate::support::{self};

#[tokio::test]
async fn bad_bodies_are_validation_failed() {
    let sandbox = support::start().await;
    let (identity, _) = session_for_ada(&sandbox);
    for body in [
        "{",
        "[]",
        "{}",
        r#"{"sql": ""}"#,
        r#"{"sql": "SELECT 1", "max_rows": 0}"#,
        r#"{"sql": "SELECT 1", "max_rows": 100001}"#,
    ] {
        assert_refusal(
            post(&sandbox, Some(&identity), body).await,
            400,
            "VALIDATION_FAILED",
        );
    }
}
