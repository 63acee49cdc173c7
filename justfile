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

# Every speed figure in one Markdown table, each beside its goal (benches/table.rs; not part
# of the tests). The edge rows need wrk and nginx: `apt-get install -y nginx wrk`.
bench:
    cargo bench --bench table

# Each benchmark on its own, with its details (`cargo bench --bench NAME` runs one)
bench-each:
    cargo bench --bench startup --bench edge --bench broker --bench querymesh --bench engine --bench fairness

# The parity suite: every statement of tests/parity/corpus against the release build and a real
# Trino 476 (started with scripts/trino unless one runs; needs Java 25 and Maven, see the
# README), rewriting docs/parity.md and tests/parity/record.json
parity:
    cargo build --release
    scripts/trino url >/dev/null 2>&1 || scripts/trino start >/dev/null
    python3 scripts/parity.py

# The parity ratchet, as CI runs it: the debug build against the committed record; fails if a
# statement that passed there fails now
parity-check:
    cargo build
    scripts/trino url >/dev/null 2>&1 || scripts/trino start >/dev/null
    python3 scripts/parity.py --check --binary target/debug/zero-sandbox

# The two-target suite (tests/real_trino): the broker's every outcome and Trino's own clients
# against the stand-in and against a real Trino 476 secured as an organization's (HTTPS, JWT from
# the IAM's JWKS, file-based access control, resource groups), started and stopped by the suite.
# Needs what `just parity` needs, and `pip install pytest cryptography "trino[sqlalchemy]" pandas`.
real-trino:
    cargo build
    python3 -m pytest tests/real_trino

# Circles of files that import each other through crate::/super:: paths, per crate (issue 27's
# measure; `--max N` fails past N files, `--list` names them)
cycles *ARGS:
    python3 scripts/module_cycles.py {{ARGS}}

# Where the QueryMesh analysis still writes SQL text instead of building the SQLite expression
# tree (issue 27's measure; `--all` lists every file, `--max N` fails past N places)
sql-text *ARGS:
    python3 scripts/sql_text.py {{ARGS}}
