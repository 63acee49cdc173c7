//! `zero-sandbox tpch generate`: writes a schema into the state directory with plain progress
//! lines when stderr is not a terminal (the indexes included in the share), says so when it is
//! already complete, refuses what it cannot generate by name, and when interrupted prints the
//! exact command that resumes it; the final time counts every run.

use std::process::Command;

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
    assert_plain_progress(&err);

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

/// Redirected progress: whole lines, each with the generation's share; the indexes and the
/// statistics have lines of their own, and the share never goes back.
fn assert_plain_progress(err: &str) {
    assert!(
        !err.contains('\x1b') && !err.contains('\r'),
        "no escapes off a terminal: {err:?}"
    );
    let mut last = 0;
    for line in err.lines() {
        let share = line
            .strip_prefix("tpch.sf0.01: ")
            .and_then(|rest| rest.split_once('%'))
            .and_then(|(n, _)| n.trim().parse::<u32>().ok())
            .unwrap_or_else(|| panic!("not a progress line: {line:?} in {err}"));
        assert!(share >= last && share <= 100, "{err}");
        last = share;
    }
    for step in [
        "lineitem",
        "building index lineitem_part_supp",
        "collecting planner statistics",
    ] {
        assert!(err.lines().any(|l| l.contains(step)), "{step}: {err}");
    }
    assert!(err.lines().all(|l| l.contains("ETA ")), "{err}");
}

/// Interrupted (here by the hidden chunk limit, as Ctrl-C would), it prints the command that
/// continues it with every option it was given — `--state` first of all; running exactly that
/// continues, and the final time counts the earlier runs too.
#[test]
fn an_interrupted_generation_names_the_exact_command_that_resumes_it() {
    let state = tempfile::tempdir().expect("a state directory");
    let state_path = state.path().to_str().expect("UTF-8");
    let (ok, _, err) = run(&[
        "tpch",
        "generate",
        "sf0.01",
        "--state",
        state_path,
        "--chunk-rows",
        "5000",
        "--chunk-limit",
        "10",
        "--force",
    ]);
    assert!(!ok);
    let hint = |err: &str| -> String {
        let (_, after) = err
            .split_once("to continue, run:\n    ")
            .unwrap_or_else(|| panic!("no resume command: {err}"));
        after.lines().next().expect("the command").to_string()
    };
    let again = hint(&err);
    assert!(err.contains("interrupted after 10 of "), "{err}");
    assert_eq!(
        again,
        format!(
            "{} tpch generate sf0.01 --state {state_path} --chunk-rows 5000 --chunk-limit 10",
            crate::support::binary()
        ),
        "word for word, less --force (which would start over)"
    );
    assert!(!state.path().join("tpch/sf0.01.sqlite").exists());
    // Pasted into a shell until it finishes: the same command each time.
    let mut runs = 1;
    let out = loop {
        let out = Command::new("sh")
            .args(["-c", &again])
            .output()
            .expect("sh runs");
        runs += 1;
        let (out, err) = (
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
        if out.contains("generated in") {
            break out;
        }
        assert_eq!(hint(&err), again);
        assert!(runs < 10, "{err}");
    };
    assert!(runs >= 3, "resumed more than once: {runs}");
    assert!(out.contains("86805 rows"), "every run's rows: {out}");
    assert!(
        out.contains(" in all (") && out.contains(" in earlier runs)"),
        "{out}"
    );
}
