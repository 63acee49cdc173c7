//! An unknown person, a bad configuration, an unwritable state directory: clear errors.

use super::run;

#[test]
fn unknown_person_and_bad_config_are_clear_errors() {
    let state = tempfile::tempdir().unwrap();
    let state_path = state.path().to_str().unwrap();
    let (ok, _, err) = run(&["token", "--as", "nobody", "--state", state_path]);
    assert!(!ok);
    assert!(err.contains("nobody") && err.contains("ada"), "{err}");

    let file = state.path().join("bad.toml");
    std::fs::write(&file, "[organization]\nslug = \"acme\"\nfavourite = 1\n").unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(
        err.contains("bad.toml:3:") && err.contains("favourite"),
        "{err}"
    );

    std::fs::write(&file, "[ports]\nedge = -1\n").unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(err.contains("bad.toml:2:"), "{err}");

    let dup = "[[people]]\nsub = \"u1\"\n[[people]]\nsub = \"u1\"\n";
    std::fs::write(&file, dup).unwrap();
    let (ok, _, err) = run(&[
        "env",
        "--config",
        file.to_str().unwrap(),
        "--state",
        state_path,
    ]);
    assert!(!ok);
    assert!(
        err.contains("duplicate person") && err.contains("u1"),
        "{err}"
    );

    let (ok, _, err) = run(&[
        "env",
        "--config",
        "/no/such/file.toml",
        "--state",
        state_path,
    ]);
    assert!(!ok && err.contains("/no/such/file.toml"), "{err}");
}

#[test]
fn unwritable_state_directory_names_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("a-file");
    std::fs::write(&blocker, "").unwrap();
    let state = blocker.join("state");
    let (ok, _, err) = run(&["env", "--state", state.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains(state.to_str().unwrap()), "{err}");
}
