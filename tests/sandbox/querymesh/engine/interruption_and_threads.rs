//! An interrupted query reports INTERRUPTED; the engine and its plans cross threads.

use serde_json::json;
use zero_sandbox::querymesh::engine::{Engine, RunError};

use crate::support::engine::{engine, ok, tiny};

#[test]
fn an_interrupted_query_reports_interrupted() {
    let engine = engine();
    let prepared = engine
        .prepare("SELECT count(*) FROM lineitem a, lineitem b", &tiny())
        .expect("prepared");
    let conn = engine.connect().expect("a connection");
    let handle = conn.get_interrupt_handle();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = done.clone();
    let interrupter = std::thread::spawn(move || {
        while !stop.load(std::sync::atomic::Ordering::SeqCst) {
            handle.interrupt();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    });
    let result = prepared.run(&conn, &mut |_| true);
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    interrupter.join().expect("the interrupter ends");
    assert!(matches!(result, Err(RunError::Interrupted)), "{result:?}");
}

#[test]
fn the_engine_and_its_plans_cross_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Engine>();
    shareable::<zero_sandbox::querymesh::engine::Prepared>();
    let engine = std::sync::Arc::new(engine());
    let workers: Vec<_> = (0..4)
        .map(|_| {
            let engine = engine.clone();
            std::thread::spawn(move || ok(&engine, "SELECT count(*) FROM orders").rows)
        })
        .collect();
    for w in workers {
        assert_eq!(w.join().expect("a worker"), vec![vec![json!(15000)]]);
    }
}
