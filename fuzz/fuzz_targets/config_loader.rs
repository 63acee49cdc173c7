//! The configuration loader (`Config::from_toml`: TOML text over the built-in defaults, then
//! validated) on arbitrary text.
//!
//! What must hold: no panic; a refusal names where (the file's name, with line and column
//! for a TOML error) and what (a message after it); an accepted configuration validates again
//! unchanged (`revalidate`), as `up` does after the command line changed it.

#![no_main]

use libfuzzer_sys::fuzz_target;
use zero_sandbox::Config;
use zero_sandbox::config::ConfigError;

const ORIGIN: &str = "fuzz.toml";

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Config::from_toml(text, ORIGIN) {
        Ok(config) => {
            if let Err(e) = config.revalidate(ORIGIN) {
                panic!("accepted, then refused on revalidation: {e}");
            }
        }
        Err(error) => {
            let message = error.to_string();
            let problem = message
                .strip_prefix(ORIGIN)
                .unwrap_or_else(|| panic!("the refusal does not name the file: {message}"));
            if let ConfigError::Parse { line, column, .. } = &error {
                assert!(*line >= 1 && *column >= 1, "no position: {message}");
            }
            let what = problem
                .trim_start_matches([':', ' '])
                .trim_start_matches(|c: char| c.is_ascii_digit() || c == ':' || c == ' ');
            assert!(
                what.trim().len() >= 8,
                "the refusal does not say what is wrong: {message}"
            );
        }
    }
});
