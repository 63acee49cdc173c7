//! `GET/POST/DELETE people`: people added while running keep the sub they were given.

use serde_json::json;

use super::{Control, assert_api_error, query};
use crate::support;

#[tokio::test]
async fn an_added_person_keeps_the_sub_chosen_and_signs_in_like_a_configured_one() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let (status, people) = control.get("/people").await;
    assert_eq!(status, 200);
    let configured = people["people"].as_array().expect("people").len();
    assert_eq!(configured, sandbox.config().people.len());
    assert_eq!(people["people"][0]["configured"], true);

    let (status, added) = control
        .post(
            "/people",
            json!({
                "sub": "0b7f3c1e-0000-4000-8000-000000000001",
                "name": "Edsger", "preferred_username": "edsger",
                "groups": ["analysts"], "attributes": { "region": "EUROPE" },
            }),
        )
        .await;
    assert_eq!(status, 201, "{added}");
    assert_eq!(added["configured"], false);
    let session = control.session("edsger").await;
    assert_eq!(session["sub"], "0b7f3c1e-0000-4000-8000-000000000001");
    assert_eq!(query(&sandbox, &session).await, (200, "OK".into()));
    let (_, token) = control
        .post("/querymesh-tokens", json!({ "person": "edsger" }))
        .await;
    assert_eq!(token["user"], "0b7f3c1e-0000-4000-8000-000000000001");

    // Without a sub: a new one.
    let (status, anonymous) = control.post("/people", json!({ "name": "No Sub" })).await;
    assert_eq!(status, 201);
    assert!(
        anonymous["sub"].as_str().is_some_and(|s| s.len() == 36),
        "{anonymous}"
    );
    assert_eq!(
        control.get("/people").await.1["people"]
            .as_array()
            .unwrap()
            .len(),
        configured + 2
    );

    // Removing a person ends their sessions.
    let (status, removed) = control
        .delete("/people/0b7f3c1e-0000-4000-8000-000000000001")
        .await;
    assert_eq!((status, removed["sessions_ended"].as_u64()), (200, Some(1)));
    assert_eq!(
        query(&sandbox, &session).await,
        (401, "USER_SESSION_REQUIRED".into())
    );
    assert_api_error(
        &control
            .post("/sessions", json!({ "person": "edsger" }))
            .await,
        404,
        "UNKNOWN_PERSON",
        "edsger",
    );
}

#[tokio::test]
async fn the_errors_of_people_name_what_is_wrong() {
    let sandbox = support::start().await;
    let control = Control::of(&sandbox);
    let ada = sandbox.config().person("ada").expect("ada").sub.clone();
    let cases = [
        (json!({ "sub": ada }), 409, "CONFLICT", ada.as_str()),
        (
            json!({ "sub": "new", "preferred_username": "ada" }),
            409,
            "CONFLICT",
            "ada",
        ),
        (json!({ "sub": "" }), 400, "INVALID_REQUEST", "`sub`"),
        (
            json!({ "sub": "x", "email_verified": true }),
            400,
            "INVALID_REQUEST",
            "`email_verified`",
        ),
        (
            json!({ "sub": "x", "attributes": { "a": 1 } }),
            400,
            "INVALID_REQUEST",
            "`attributes`",
        ),
        (
            json!({ "sub": "x", "nickname": "y" }),
            400,
            "INVALID_REQUEST",
            "`nickname`",
        ),
        (
            json!({ "sub": "x".repeat(300) }),
            400,
            "INVALID_REQUEST",
            "`sub`",
        ),
    ];
    for (body, status, code, names) in cases {
        assert_api_error(&control.post("/people", body).await, status, code, names);
    }
    assert_api_error(
        &control.delete("/people/nobody").await,
        404,
        "UNKNOWN_PERSON",
        "nobody",
    );
    assert_eq!(
        control.get("/people").await.1["people"]
            .as_array()
            .unwrap()
            .len(),
        sandbox.config().people.len()
    );
}
