//! What unit tests share: the property tests' configuration.

use proptest::test_runner::{Config, RngSeed};

/// `cases` cases from a fixed seed, so `cargo test` is deterministic and bounded in time;
/// `PROPTEST_CASES` and `PROPTEST_RNG_SEED` still override either to explore further.
pub fn proptest_config(cases: u32) -> Config {
    let from_env = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            from_env.cases
        } else {
            cases
        },
        rng_seed: if std::env::var_os("PROPTEST_RNG_SEED").is_some() {
            from_env.rng_seed
        } else {
            RngSeed::Fixed(0x5a4e_0b0c)
        },
        // A failure prints its minimal input; nothing is written into the source tree.
        failure_persistence: None,
        ..from_env
    }
}
