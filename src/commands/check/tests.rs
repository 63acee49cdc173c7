use super::*;

fn answer(status: u16, body: &str) -> Answer {
    Answer {
        status,
        body: Bytes::from(body.to_string()),
    }
}

fn baseline(anonymous: Answer, valid: Answer) -> Baseline {
    Baseline::new(
        [anonymous.clone(), anonymous],
        [valid.clone(), valid],
        &["sub-1234".into(), "ada".into(), "x".into()],
    )
}

#[test]
fn an_answer_naming_the_person_is_a_person_whatever_else_differs() {
    let b = baseline(
        answer(200, "hello stranger"),
        answer(200, "hello ada, exp 100"),
    );
    assert_eq!(
        b.markers,
        vec!["ada".to_string()],
        "x is too short to mean anything"
    );
    assert_eq!(b.cannot_judge(true), None);
    assert_eq!(b.judge(&answer(200, "hello ada, exp 40")), Verdict::Person);
    assert_eq!(b.judge(&answer(200, "hello stranger")), Verdict::Anonymous);
    assert_eq!(b.judge(&answer(401, "bad identity")), Verdict::Refused);
    assert_eq!(b.judge(&answer(500, "hello ada")), Verdict::ServerError);
    assert_eq!(b.judge(&answer(200, "something else")), Verdict::Other);
}

#[test]
fn without_a_name_the_status_tells_when_it_differs() {
    let b = baseline(answer(302, ""), answer(200, "your page"));
    assert!(b.markers.is_empty());
    assert_eq!(b.cannot_judge(true), None);
    assert_eq!(b.judge(&answer(200, "your page")), Verdict::Person);
    assert_eq!(b.judge(&answer(200, "a page")), Verdict::Person);
    assert_eq!(b.judge(&answer(302, "")), Verdict::Anonymous);
    assert_eq!(b.judge(&answer(403, "")), Verdict::Refused);
}

#[test]
fn same_status_and_no_name_compares_whole_stable_bodies() {
    let b = baseline(answer(200, "signed in: no"), answer(200, "signed in: yes"));
    assert_eq!(b.cannot_judge(true), None);
    assert_eq!(b.judge(&answer(200, "signed in: yes")), Verdict::Person);
    assert_eq!(b.judge(&answer(200, "signed in: maybe")), Verdict::Other);
}

#[test]
fn it_refuses_to_judge_what_it_cannot_tell_apart() {
    let same = baseline(answer(200, "ok"), answer(200, "ok"));
    assert!(same.cannot_judge(true).is_some());
    let refused = baseline(answer(401, "no"), answer(401, "no, bad key"));
    let why = refused.cannot_judge(true).unwrap_or_default();
    assert!(why.contains("401") && why.contains("trust"), "{why}");
    // Bodies that change on their own, same status, no name: nothing to compare.
    let unstable = Baseline::new(
        [answer(200, "t=1"), answer(200, "t=2")],
        [answer(200, "t=3 in"), answer(200, "t=4 in")],
        &["ada".into()],
    );
    assert!(unstable.cannot_judge(true).is_some());
}

/// Issue 30: a refusal the app passes on from the broker is named, not blamed on keys.
#[test]
fn a_refused_valid_identity_is_explained_by_the_code_the_app_passed_on() {
    let refused = |body: &str, live: bool| {
        baseline(answer(401, "{}"), answer(401, body))
            .cannot_judge(live)
            .unwrap_or_default()
    };
    let no_session = r#"{"code":"USER_SESSION_REQUIRED","message":"no session"}"#;
    let why = refused(no_session, false);
    assert!(
        why.contains("USER_SESSION_REQUIRED")
            && why.contains("no sandbox runs on this state directory")
            && !why.contains("trust"),
        "{why}"
    );
    let why = refused(no_session, true);
    assert!(
        why.contains("USER_SESSION_REQUIRED") && why.contains("NNUMBERS_BROKER_URL"),
        "{why}"
    );
    let why = refused(r#"{"code":"IDENTITY_ASSERTION_INVALID"}"#, true);
    assert!(why.contains("trust") && why.contains("keys"), "{why}");
    let why = refused(r#"{"code":"QUERYMESH_NOT_ENABLED"}"#, true);
    assert!(
        why.contains("QUERYMESH_NOT_ENABLED") && !why.contains("trust"),
        "{why}"
    );
    let why = refused("denied", false);
    assert!(
        why.contains("trust") && why.contains("no sandbox runs"),
        "{why}"
    );
}

#[test]
fn each_probe_breaks_one_check_and_is_refused_by_the_platform_verifier() {
    use crate::identity::{KeyRing, unix_now, verify_identity};
    let config = Config::builtin();
    let issuer = IdentityIssuer {
        keys: KeyRing::ephemeral(),
        audience: Audience::from_config(&config),
        iam_issuer: "http://127.0.0.1:1/realms/acme".into(),
    };
    let ada = config.person("ada").expect("ada is configured");
    let claims = issuer.claims(ada, "sid-1");
    let valid = issuer.sign(&claims);
    let published = issuer.keys.published();
    let now = unix_now();
    assert!(verify_identity(&valid, &published, &issuer.audience, now).is_ok());
    let probes = forgeries(&issuer.keys.current(), &KeyPair::generate(), &claims);
    assert_eq!(probes.len(), 13);
    assert_eq!(probes.iter().filter(|p| p.strict).count(), 3);
    for probe in probes {
        assert!(
            verify_identity(&probe.identity, &published, &issuer.audience, now).is_err(),
            "{} verifies",
            probe.name
        );
    }
}
