//! `[querymesh] ca_file`: the broker trusts an organization's own authority for an `https://`
//! Trino, beside the system's roots. The Trino here is another sandbox's stand-in, whose port
//! serves TLS with a certificate from its own authority.

use super::{EXAMPLE, assert_refusal, post, session_for_ada};
use crate::support::{self, test_config};

/// A sandbox whose broker queries `querymesh` (another sandbox's stand-in, over HTTPS).
async fn broker_before(
    querymesh: &zero_sandbox::Sandbox,
    ca_file: Option<&std::path::Path>,
) -> zero_sandbox::Sandbox {
    let mut config = test_config();
    config.querymesh.url = Some(querymesh.querymesh_url().replace("http://", "https://"));
    config.querymesh.ca_file = ca_file.map(std::path::Path::to_path_buf);
    support::start_with(config).await
}

#[tokio::test]
async fn a_trino_certified_by_the_ca_file_authority_is_trusted() {
    let trino = support::start_with(test_config()).await;
    let dir = tempfile::tempdir().expect("a temporary directory");
    let ca_file = dir.path().join("org-ca.pem");
    std::fs::write(&ca_file, trino.querymesh_certificate_pem()).expect("written");
    let sandbox = broker_before(&trino, Some(&ca_file)).await;
    let (identity, _) = session_for_ada(&sandbox);
    // TLS held: the other sandbox's QueryMesh answered, refusing this IAM's token (401).
    assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        502,
        "QUERYMESH_IDENTITY_REJECTED",
    );
}

#[tokio::test]
async fn without_the_authority_the_certificate_is_refused_and_querymesh_unavailable() {
    let trino = support::start_with(test_config()).await;
    let sandbox = broker_before(&trino, None).await;
    let (identity, _) = session_for_ada(&sandbox);
    let message = assert_refusal(
        post(&sandbox, Some(&identity), EXAMPLE).await,
        503,
        "QUERYMESH_UNAVAILABLE",
    );
    assert!(message.contains("certificate"), "{message}");
}

#[tokio::test]
async fn a_ca_file_that_cannot_be_used_stops_the_start_naming_it() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let not_pem = dir.path().join("not-pem.pem");
    std::fs::write(&not_pem, "just text\n").expect("written");
    let broken = dir.path().join("broken.pem");
    std::fs::write(
        &broken,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .expect("written");
    for (path, expected) in [
        (dir.path().join("missing.pem"), "No such file"),
        (not_pem, "holds no PEM certificate"),
        (broken, "cannot be trusted"),
    ] {
        let mut config = test_config();
        config.querymesh.url = Some("https://127.0.0.1:9".into());
        config.querymesh.ca_file = Some(path.clone());
        let Err(error) = zero_sandbox::Sandbox::start(config).await else {
            panic!("started with {}", path.display());
        };
        let message = error.to_string();
        assert!(message.contains("querymesh.ca_file"), "{message}");
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains(expected), "{expected:?} not in {message}");
    }
}
