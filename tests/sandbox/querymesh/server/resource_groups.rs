//! Trino's resource groups over the protocol: the example file of Trino's documentation
//! (docs/src/main/sphinx/admin/resource-groups.md, `resource-groups-example.json`, kept as
//! fixtures/resource-groups.json) accepted and enforced — a query past a group's
//! `hardConcurrencyLimit` waits QUEUED, past `maxQueued` it fails with QUERY_QUEUE_FULL — and
//! the selectors placing queries by user, user group, source and client tags, first match wins.

use reqwest::StatusCode;
use serde_json::Value;

use super::{ENDLESS, Mesh, config_with, error_of};

const DOC_EXAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/resource-groups.json");

fn doc_example() -> zero_sandbox::Config {
    config_with(&format!("[querymesh]\nresource_groups = {DOC_EXAMPLE:?}\n"))
}

impl Mesh {
    /// Posts `sql` as `user` (in `groups`) with an optional source and client tags.
    async fn post_placed(
        &self,
        user: &str,
        groups: &[&str],
        source: Option<&str>,
        tags: Option<&str>,
        sql: &str,
    ) -> Value {
        let token = self.sign(&self.claims(user, groups));
        let mut request = self
            .client
            .post(format!("{}/v1/statement", self.url()))
            .bearer_auth(token)
            .header("X-Trino-User", user)
            .body(sql.to_string());
        if let Some(source) = source {
            request = request.header("X-Trino-Source", source);
        }
        if let Some(tags) = tags {
            request = request.header("X-Trino-Client-Tags", tags);
        }
        let response = request.send().await.expect("the stand-in answers");
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.expect("a QueryResults")
    }

    /// `GET /v1/query/{id}` of a query as `user`.
    async fn query_info_as(&self, user: &str, groups: &[&str], id: &str) -> Value {
        let token = self.sign(&self.claims(user, groups));
        let response = self
            .client
            .get(format!("{}/v1/query/{id}", self.url()))
            .bearer_auth(token)
            .send()
            .await
            .expect("answers");
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.expect("a QueryInfo")
    }

    /// Follows a posted query's `nextUri` until it ends: its last page.
    async fn last_page(&self, first: Value) -> Value {
        let mut page = first;
        while let Some(next) = page["nextUri"].as_str().map(str::to_string) {
            page = self.get(&next).await;
        }
        page
    }

    /// Follows `nextUri` until the page says `state` (or the query ends).
    async fn until_state(&self, first: &Value, state: &str) -> Value {
        let mut page = first.clone();
        let deadline = std::time::Instant::now() + super::PATIENCE;
        while page["stats"]["state"] != state {
            assert!(
                std::time::Instant::now() < deadline,
                "never {state}: {page}"
            );
            let Some(next) = page["nextUri"].as_str().map(str::to_string) else {
                panic!("ended before {state}: {page}");
            };
            page = self.get(&next).await;
        }
        page
    }

    async fn cancel(&self, page: &Value) {
        if let Some(next) = page["nextUri"].as_str() {
            let deleted = self.client.delete(next).send().await.expect("answers");
            assert_eq!(deleted.status(), StatusCode::NO_CONTENT);
        }
    }
}

fn group_of(info: &Value) -> Vec<String> {
    info["resourceGroupId"]
        .as_array()
        .unwrap_or_else(|| panic!("no resourceGroupId: {info}"))
        .iter()
        .map(|s| s.as_str().expect("a name").to_string())
        .collect()
}

/// The doc's catch-all selector puts Ada in `global.adhoc.other.${USER}`: her own group runs
/// one query (`hardConcurrencyLimit: 1`), `other` queues one (`maxQueued: 1`), so her second
/// query waits and her third fails as Trino's `InternalResourceGroup.run` fails it — while
/// Grace, in her own `${USER}` group, still runs.
#[tokio::test]
async fn the_documentation_example_queues_past_the_hard_limit_and_fails_past_max_queued() {
    let mesh = Mesh::with(doc_example()).await;
    let first = mesh.post_placed("ada", &[], None, None, ENDLESS).await;
    let running = mesh.until_state(&first, "RUNNING").await;
    let info = mesh
        .query_info_as("ada", &[], first["id"].as_str().unwrap())
        .await;
    assert_eq!(group_of(&info), ["global", "adhoc", "other", "ada"]);

    let second = mesh.post_placed("ada", &[], None, None, ENDLESS).await;
    let second = mesh.get(second["nextUri"].as_str().unwrap()).await;
    assert_eq!(second["stats"]["state"], "QUEUED", "{second}");

    let third = mesh.post_placed("ada", &[], None, None, ENDLESS).await;
    let third = mesh.last_page(third).await;
    let error = error_of(std::slice::from_ref(&third));
    assert_eq!(error["errorName"], "QUERY_QUEUE_FULL", "{error}");
    assert_eq!(error["errorType"], "INSUFFICIENT_RESOURCES");
    assert_eq!(
        error["message"],
        r#"Too many queued queries for "global.adhoc.other.ada""#
    );
    // On record: NYXDB's governance_log fields, the group at its limit named.
    let page = mesh
        .sandbox
        .journal()
        .read(0, Some("LIMIT_EXCEEDED"), None, 10);
    let event = &serde_json::to_value(&page.events).unwrap()[0];
    assert_eq!(event["source"], "querymesh");
    assert_eq!(event["sub"], "ada");
    assert_eq!(event["outcome"], "QUERY_QUEUE_FULL");
    assert_eq!(event["details"]["dimension"], "resource_group");
    assert_eq!(event["details"]["group"], "global.adhoc.other.ada");
    assert_eq!(event["details"]["rule"], "global.adhoc");
    assert_eq!(event["details"]["allowed"], 1);
    assert_eq!(event["details"]["observed"], 1);

    // `${USER}` isolates people: Grace's query runs in her own group beside Ada's.
    let grace = mesh.post_placed("grace", &[], None, None, "SELECT 1").await;
    let grace = mesh.last_page(grace).await;
    assert_eq!(grace["stats"]["state"], "FINISHED", "{grace}");

    mesh.cancel(&running).await;
    mesh.cancel(&second).await;
}

/// The doc example's selectors, in order: `user` bob → `admin`; `userGroup` admin → `admin`;
/// a pipeline source's DDL → `global.data_definition`, its other queries per user; a BI tool's
/// source with the `hipri` tag → `global.adhoc.bi-${toolname}.${USER}`; else the catch-all.
#[tokio::test]
async fn selectors_place_queries_by_user_group_source_and_tags_first_match_wins() {
    let mesh = Mesh::with(doc_example()).await;
    for (user, groups, source, tags, sql, expected) in [
        (
            "bob",
            &[][..],
            Some("nightly-pipeline"),
            None,
            "SELECT 1",
            "admin",
        ),
        ("ada", &["admin"][..], None, None, "SELECT 1", "admin"),
        (
            "ada",
            &[][..],
            Some("nightly-pipeline"),
            None,
            "SHOW SCHEMAS FROM tpch",
            "global.pipeline.pipeline_ada",
        ),
        (
            "ada",
            &[][..],
            Some("nightly-pipeline"),
            None,
            "SELECT 1",
            "global.pipeline.pipeline_ada",
        ),
        (
            "kayla",
            &[][..],
            Some("jdbc#powerfulbi"),
            Some("hipri,fast"),
            "SELECT 1",
            "global.adhoc.bi-powerfulbi.kayla",
        ),
        (
            "kayla",
            &[][..],
            Some("jdbc#powerfulbi"),
            Some("fast"),
            "SELECT 1",
            "global.adhoc.other.kayla",
        ),
    ] {
        let first = mesh.post_placed(user, groups, source, tags, sql).await;
        let info = mesh
            .query_info_as(user, groups, first["id"].as_str().unwrap())
            .await;
        assert_eq!(
            group_of(&info).join("."),
            expected,
            "{user} {source:?} {tags:?}"
        );
        let last = mesh.last_page(first).await;
        assert_eq!(last["stats"]["state"], "FINISHED", "{last}");
    }
}

/// A query no selector matches fails as Trino's `QUERY_REJECTED`.
#[tokio::test]
async fn a_query_no_selector_matches_is_rejected() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("rg.json");
    std::fs::write(
        &path,
        r#"{"rootGroups": [{"name": "bi", "softMemoryLimit": "1GB",
            "hardConcurrencyLimit": 1, "maxQueued": 1}],
            "selectors": [{"source": "bi-tool", "group": "bi"}]}"#,
    )
    .expect("written");
    let mesh = Mesh::with(config_with(&format!(
        "[querymesh]\nresource_groups = {:?}\n",
        path.display().to_string()
    )))
    .await;
    let first = mesh.post_placed("ada", &[], None, None, "SELECT 1").await;
    let last = mesh.last_page(first).await;
    let error = error_of(std::slice::from_ref(&last));
    assert_eq!(error["errorName"], "QUERY_REJECTED", "{error}");
    assert_eq!(error["message"], "Query did not match any selection rule");
    let placed = mesh
        .post_placed("ada", &[], Some("bi-tool"), None, "SELECT 1")
        .await;
    assert_eq!(mesh.last_page(placed).await["stats"]["state"], "FINISHED");
}

/// A file the stand-in cannot use stops the start, naming the problem.
#[tokio::test]
async fn a_resource_groups_file_with_a_problem_is_refused_at_start() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (text, names) in [
        (
            r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 1,
                "maxQueued": 1, "maxQueud": 2}], "selectors": [{"group": "g"}]}"#,
            "unknown field `maxQueud`",
        ),
        (
            r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 1,
                "maxQueued": 1}], "selectors": [{"user": "[ada", "group": "g"}]}"#,
            "selectors[0]: `user` \"[ada\" is not a valid regular expression",
        ),
        (
            r#"{"rootGroups": [{"name": "g", "softMemoryLimit": "1GB", "hardConcurrencyLimit": 1,
                "maxQueued": 1}], "selectors": [{"group": "global.g"}]}"#,
            "selector refers to nonexistent group: global",
        ),
    ] {
        let path = dir.path().join("rg.json");
        std::fs::write(&path, text).expect("written");
        let config = config_with(&format!(
            "[querymesh]\nresource_groups = {:?}\n",
            path.display().to_string()
        ));
        let Err(error) = zero_sandbox::Sandbox::start(config).await else {
            panic!("started with {text}");
        };
        let message = error.to_string();
        assert!(message.contains("resource groups"), "{message}");
        assert!(message.contains(names), "{names:?} not in {message}");
    }
}
