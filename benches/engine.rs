//! The QueryMesh engine against SQLite itself: each of the 22 TPC-H queries through
//! `Engine::prepare` + `Prepared::run` next to its translated SQL run straight on the same
//! SQLite connection, and tpch.tiny's start-up cost. `Engine::prepare` analyses a text once
//! and then answers from its plan cache, so the runs measure the cache hit and Trino's
//! encoding; the first, uncached analysis and translation is printed on its own.
//!
//! `cargo bench --bench engine` prints one line per query; the issue asks for each within 2×.

use std::time::{Duration, Instant};

use zero_sandbox::Config;
use zero_sandbox::querymesh::engine::{Engine, SessionContext};

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let state = tempfile::tempdir().expect("a temporary state directory");
    let mut config = Config::builtin();
    config.state_dir = Some(state.path().to_path_buf());
    let started = Instant::now();
    let engine =
        Engine::open(&config.querymesh, config.state_dir.as_deref()).expect("the engine opens");
    println!(
        "start-up, generating tpch.tiny into the state directory: {:?}",
        started.elapsed()
    );
    let started = Instant::now();
    let engine_again = Engine::open(&config.querymesh, config.state_dir.as_deref())
        .expect("the engine opens again");
    println!(
        "start-up, reusing the generated file: {:?}",
        started.elapsed()
    );
    drop(engine_again);
    let started = Instant::now();
    let conn = engine.connect().expect("a connection");
    println!("connect (attach, functions): {:?}", started.elapsed());

    let session = SessionContext {
        catalog: Some("tpch".into()),
        schema: Some("tiny".into()),
        ..Default::default()
    };
    let runs = 31;
    let mut worst: f64 = 0.0;
    for n in 1..=22 {
        let sql =
            std::fs::read_to_string(format!("fixtures/tpch/queries/q{n}.sql")).expect("query text");
        let analysing = Instant::now();
        let sqlite_sql = engine
            .prepare(&sql, &session)
            .expect("prepares")
            .sqlite_sql()
            .unwrap_or_default()
            .to_string();
        let analysis = analysing.elapsed();
        let mut through_engine = Vec::new();
        let mut straight = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let prepared = engine.prepare(&sql, &session).expect("prepares");
            let mut rows = 0;
            prepared
                .run(&conn, &mut |_| {
                    rows += 1;
                    true
                })
                .expect("runs");
            through_engine.push(t.elapsed());

            let t = Instant::now();
            let mut stmt = conn.prepare_cached(&sqlite_sql).expect("SQLite prepares");
            let width = stmt.column_count();
            let mut result = stmt.query([]).expect("SQLite runs");
            while let Some(row) = result.next().expect("a row") {
                for i in 0..width {
                    let _ = row.get_ref(i).expect("a value");
                }
            }
            straight.push(t.elapsed());
        }
        let (e, s) = (median(through_engine), median(straight));
        let ratio = e.as_secs_f64() / s.as_secs_f64();
        worst = worst.max(ratio);
        println!(
            "q{n:<2} engine {e:>10.3?}  sqlite {s:>10.3?}  ratio {ratio:.2}  first analysis {analysis:>10.3?}"
        );
    }
    println!("worst ratio {worst:.2}");
}
