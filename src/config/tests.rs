use super::*;

#[test]
fn builtin_covers_the_optional_claims() {
    let c = Config::builtin();
    assert_eq!(c.ports.edge, 4000);
    assert!(c.people.iter().any(|p| p.profile.email.is_some()
        && p.profile.email_verified == Some(true)
        && p.profile.name.is_some()
        && p.profile.preferred_username.is_some()));
    assert!(c.people.iter().any(|p| p.profile.email.is_none()));
    assert!(
        c.people
            .iter()
            .any(|p| p.profile.email_verified == Some(false))
    );
    assert!(
        c.people
            .iter()
            .any(|p| p.groups.iter().any(|g| g == "admins"))
    );
}

#[test]
fn user_keys_override_and_sections_merge() {
    let c = Config::from_toml("[querymesh]\nenabled = false\n", "t.toml").unwrap();
    assert!(!c.querymesh.enabled);
    assert!(c.querymesh.configured);
    assert_eq!(c.organization.slug, "acme");
}

#[test]
fn unknown_key_names_file_line_and_key() {
    let e = Config::from_toml("[app]\nid = \"x\"\ncolour = 1\n", "my.toml").unwrap_err();
    let msg = e.to_string();
    assert!(msg.starts_with("my.toml:3:"), "{msg}");
    assert!(msg.contains("colour"), "{msg}");
}

#[test]
fn wrong_type_names_line() {
    let e = Config::from_toml("[ports]\nedge = \"high\"\n", "my.toml").unwrap_err();
    assert!(e.to_string().starts_with("my.toml:2:"), "{e}");
}

#[test]
fn duplicate_person_is_refused() {
    let text = "[[people]]\nsub = \"a\"\n[[people]]\nsub = \"a\"\n";
    let e = Config::from_toml(text, "my.toml").unwrap_err();
    assert!(e.to_string().contains("duplicate person"), "{e}");
}

#[test]
fn broker_limit_rules_are_read_and_checked() {
    let text = "[broker]\nqueries_per_minute_per_person = 5\n[[broker.limits]]\nname = \"a\"\ngroups = [\"analysts\"]\nconcurrent_queries = 0\n";
    let c = Config::from_toml(text, "my.toml").unwrap();
    assert_eq!(c.broker.limits[0].concurrent_queries, Some(0));
    assert_eq!(c.broker.default_allowances().queries_per_minute, 5);
    for (text, names) in [
        (
            "[[broker.limits]]\nname = \"a\"\nqueries_per_minute = 1\n",
            "covers nobody",
        ),
        (
            "[[broker.limits]]\nname = \"a\"\ngroups = [\"x\"]\n",
            "allows nothing",
        ),
        (
            "[[broker.limits]]\nname = \"a\"\ngroups = [\"x\"]\nqpm = 1\n",
            "qpm",
        ),
    ] {
        let e = Config::from_toml(text, "my.toml").unwrap_err().to_string();
        assert!(e.starts_with("my.toml"), "{e}");
        assert!(e.contains(names), "{names:?} not in {e}");
    }
}

#[test]
fn events_capacity_is_bounded_and_the_file_is_a_path() {
    let c = Config::builtin();
    assert_eq!((c.events.capacity, c.events.file.as_ref()), (10_000, None));
    let c = Config::from_toml("[events]\ncapacity = 5\nfile = \"e.jsonl\"\n", "t.toml").unwrap();
    assert_eq!(c.events.capacity, 5);
    assert_eq!(
        c.events.file.as_deref(),
        Some(std::path::Path::new("e.jsonl"))
    );
    for bad in ["0", "1000001"] {
        let e = Config::from_toml(&format!("[events]\ncapacity = {bad}\n"), "t.toml").unwrap_err();
        assert!(
            e.to_string()
                .contains("`events.capacity` must be from 1 to 1000000"),
            "{e}"
        );
    }
}

#[test]
fn the_engines_defaults_are_the_builtin_configuration() {
    // The engine's own tests open it with EngineConfig::default(), the product with its
    // [querymesh] section: the two must not drift apart.
    assert_eq!(
        Config::builtin().querymesh.engine(),
        querymesh_engine::EngineConfig::default()
    );
}
