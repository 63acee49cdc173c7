//! Cancelling a query: DELETE on its nextUri, or by id by its owner.

use reqwest::StatusCode;
use serde_json::Value;

use super::{ENDLESS, Mesh};

#[tokio::test]
async fn delete_cancels_the_query() {
    let mesh = Mesh::start().await;
    let response = mesh.post(ENDLESS, &mesh.token()).await;
    let first: Value = response.json().await.expect("json");
    let next = first["nextUri"].as_str().expect("nextUri").to_string();

    let (prefix, _token) = next.rsplit_once('/').expect("a token");
    let (query, _slug) = prefix.rsplit_once('/').expect("a slug");
    for uri in [format!("{prefix}/x"), format!("{query}/wrongslug/1")] {
        let response = mesh.client.delete(&uri).send().await.expect("answers");
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{uri}");
    }
    let deleted = mesh.client.delete(&next).send().await.expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);

    // Before its client comes for the error, system.runtime.queries shows how it ended (the
    // two-target suite watches a cancel there).
    let id = first["id"].as_str().expect("an id");
    let listed = mesh
        .run(&format!(
            "SELECT state, error_type, error_code FROM system.runtime.queries WHERE query_id = '{id}'"
        ))
        .await;
    assert_eq!(
        super::rows(&listed),
        [serde_json::json!(["FAILED", "USER_ERROR", "USER_CANCELED"])]
    );

    let page = mesh.get(&next).await;
    assert_eq!(page["stats"]["state"], "FAILED");
    assert_eq!(page["error"]["errorName"], "USER_CANCELED");
    assert_eq!(page["error"]["message"], "Query was canceled");
    assert!(page.get("nextUri").is_none());
}

/// Trino's `DELETE /v1/query/{id}`, which the broker uses when it holds no trusted nextUri.
#[tokio::test]
async fn a_query_is_cancelled_by_id_by_its_owner() {
    let mesh = Mesh::start().await;
    let first: Value = mesh
        .post(ENDLESS, &mesh.token())
        .await
        .json()
        .await
        .expect("json");
    let id = first["id"].as_str().expect("an id");
    let by_id = format!("{}/v1/query/{id}", mesh.url());

    let anonymous = mesh.client.delete(&by_id).send().await.expect("answers");
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let grace = mesh.sign(&mesh.claims("grace", &[]));
    let other = mesh
        .client
        .delete(&by_id)
        .bearer_auth(grace)
        .send()
        .await
        .expect("answers");
    assert_eq!(other.status(), StatusCode::FORBIDDEN);

    let deleted = mesh
        .client
        .delete(&by_id)
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers");
    assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
    let page = mesh.get(first["nextUri"].as_str().expect("nextUri")).await;
    assert_eq!(page["error"]["errorName"], "USER_CANCELED", "{page}");

    let unknown = format!("{}/v1/query/20260101_000000_00000_xxxxx", mesh.url());
    let response = mesh
        .client
        .delete(&unknown)
        .bearer_auth(mesh.token())
        .send()
        .await
        .expect("answers");
    assert_eq!(
        response.status(),
        StatusCode::NO_CONTENT,
        "an unknown id, as in Trino"
    );
}
