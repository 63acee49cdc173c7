# zero-sandbox recipes. `just` lists them.

default:
    @just --list

# Run the sandbox (the built-in demo app unless you pass --app URL)
run *ARGS:
    cargo run --release -- {{ARGS}}

# Run every test, as CI does
test:
    cargo test

fmt:
    cargo fmt --all

lint:
    cargo fmt --all -- --check
    cargo clippy --all-targets -- -D warnings

# Benchmarks for the speed targets (not part of the tests)
bench:
    cargo bench
