//! What `--help` says and what the README says agree, and both say what newcomers need: the
//! size and time of sf1, what the state directory holds, and every variable that overrides
//! the Python client's `verify=`.

use super::run;

const README: &str = include_str!("../../../README.md");

/// README and `tpch generate --help` give the same figure for sf1.
#[test]
fn tpch_help_and_the_readme_agree_on_sf1() {
    let (ok, help, err) = run(&["tpch", "generate", "--help"]);
    assert!(ok, "{err}");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let readme = README.split_whitespace().collect::<Vec<_>>().join(" ");
    let figure = "sf1 is 8.66 million rows, about 1.7 GB";
    assert!(help.contains(figure), "{help}");
    assert!(readme.contains(figure), "README: {figure}");
    let time = help
        .split_once("GB, ")
        .and_then(|(_, rest)| rest.split_once(" on "))
        .map(|(time, _)| time)
        .expect("a time in the help");
    assert!(
        readme.contains(&format!("GB, {time} on ")),
        "README: {time}"
    );
}

/// `--state`'s help names everything kept there, not only keys and tpch.tiny.
#[test]
fn the_state_option_says_what_the_directory_holds() {
    let (ok, help, err) = run(&["--help"]);
    assert!(ok, "{err}");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for held in [
        "signing keys",
        "tpch.tiny",
        "querymesh-ca.pem",
        "tpch/sf1.sqlite",
        "running.json",
    ] {
        assert!(help.contains(held), "{held}: {help}");
    }
}

/// The README's note on trusting QueryMesh's authority from Python names both variables that
/// `requests` prefers to `verify=`.
#[test]
fn the_ca_note_names_both_variables_requests_honours() {
    let readme = README.split_whitespace().collect::<Vec<_>>().join(" ");
    let note = readme
        .split_once("lets `REQUESTS_CA_BUNDLE` and `CURL_CA_BUNDLE` override `verify=`")
        .map(|(_, after)| after)
        .expect("the note names both");
    assert!(
        note.starts_with(": with either set, `verify` is ignored, so unset both"),
        "{note}"
    );
}
