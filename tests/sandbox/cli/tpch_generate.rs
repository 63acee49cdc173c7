//! `zero-sandbox tpch generate`: writes a schema into the state directory with plain progress
//! lines when stderr is not a terminal, says so when it is already complete, and refuses
//! what it cannot generate by name.

use super::run;

#[test]
fn tpch_generate_writes_reports_and_refuses_clearly() {
    let state = tempfile::tempdir().expect("a state directory");
    let state_path = state.path().to_str().expect("UTF-8");
    // sf0.01: tiny's scale, a few seconds.
    let (ok, out, err) = run(&["tpch", "generate", "sf0.01", "--state", state_path]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("tpch.sf0.01 generated in ") && out.contains("86805 rows"),
        "{out}"
    );
    assert!(state.path().join("tpch/sf0.01.sqlite").exists());
    assert!(
        err.lines().any(|l| l.starts_with("tpch.sf0.01: lineitem")),
        "{err}"
    );
    assert!(!err.contains('\x1b'), "no escapes off a terminal: {err:?}");

    let (ok, out, err) = run(&["tpch", "generate", "sf0.01", "--state", state_path]);
    assert!(ok, "{err}");
    assert!(out.contains("already generated"), "{out}");

    for (args, expected) in [
        (&["tpch", "generate", "tiny"][..], "tpch.tiny is built in"),
        (
            &["tpch", "generate", "big"][..],
            "\"big\" is not a tpch schema",
        ),
        (
            &["tpch", "generate", "sf1", "--ephemeral"][..],
            "leave out --ephemeral",
        ),
    ] {
        let mut args = args.to_vec();
        if !args.contains(&"--ephemeral") {
            args.extend(["--state", state_path]);
        }
        let (ok, _, err) = run(&args);
        assert!(!ok, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
}
