use super::*;

/// tpch.tiny's: below it tpchgen repeats some partsupp keys (as dbgen does), which the
/// primary key refuses.
const SCALE: f64 = 0.01;
const CHUNK_ROWS: u64 = 5_000;

fn small() -> Options {
    Options {
        chunk_rows: CHUNK_ROWS,
        ..Options::default()
    }
}

fn quiet(_: &Report<'_>) {}

/// Rows of `table` in the file at `path` that tpch.tiny's (the build's single-part
/// tpchgen run, at the same scale) does not have, and the other way round, and the
/// difference of their counts: (missing, extra, count difference).
fn compare_with_tiny(path: &Path, table: &str) -> (i64, i64, i64) {
    let dir = tempfile::tempdir().expect("temp dir");
    let tiny = super::super::ensure_file(dir.path()).expect("tiny");
    let conn = Connection::open(&tiny).expect("opens");
    conn.execute("ATTACH DATABASE ?1 AS generated", [path.to_string_lossy()])
        .expect("attaches");
    let count = |sql: String| -> i64 { conn.query_row(&sql, [], |r| r.get(0)).expect("counts") };
    let (a, b) = (
        format!("main.\"{table}\""),
        format!("generated.\"{table}\""),
    );
    (
        count(format!(
            "SELECT count(*) FROM (SELECT * FROM {a} EXCEPT SELECT * FROM {b})"
        )),
        count(format!(
            "SELECT count(*) FROM (SELECT * FROM {b} EXCEPT SELECT * FROM {a})"
        )),
        count(format!("SELECT count(*) FROM {b}")) - count(format!("SELECT count(*) FROM {a}")),
    )
}

/// Generated in chunks at tiny's scale, the file holds exactly tiny's rows.
fn assert_same_as_tpchgen(path: &Path) {
    for table in schema::TABLES {
        assert_eq!(
            compare_with_tiny(path, table.name),
            (0, 0, 0),
            "{}: (missing, extra, count difference)",
            table.name
        );
    }
}

#[test]
fn schema_names_are_read_as_trinos_tpch_connector_reads_them() {
    assert_eq!(scale_of("tiny"), Some(0.01));
    assert_eq!(scale_of("sf1"), Some(1.0));
    assert_eq!(scale_of("sf10"), Some(10.0));
    assert_eq!(scale_of("sf0.1"), Some(0.1));
    assert_eq!(scale_of("sf1e3"), Some(1000.0));
    for refused in [
        "sf", "sf0", "sf-1", "sfinf", "sfnan", "sf1/2", "sf 1", "x1", "sf1x",
    ] {
        assert_eq!(scale_of(refused), None, "{refused}");
    }
    for listed in LISTED_SCHEMAS {
        assert!(scale_of(listed).is_some(), "{listed}");
    }
}

#[test]
fn chunked_generation_writes_exactly_tpchgens_rows_and_marks_them_complete() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("tpch").join("sf1.sqlite");
    let mut reports = 0;
    let outcome =
        generate_at_scale(&file, SCALE, &small(), &mut |_| reports += 1).expect("generates");
    let expected: u64 = schema::TABLES
        .iter()
        .map(|t| Chunk::generate(t.name, SCALE, 1, 1).expect("table").len() as u64)
        .sum();
    assert!(
        matches!(&outcome, Outcome::Generated { path, rows, earlier, .. }
            if *path == file && *rows == expected && earlier.is_zero()),
        "{outcome:?}"
    );
    assert!(reports > 0);
    assert!(
        plan(SCALE, CHUNK_ROWS).len() > schema::TABLES.len(),
        "several chunks"
    );
    assert_same_as_tpchgen(&file);
    assert!(is_complete(&file).expect("reads"));
    assert!(!partial_file(&file).exists(), "renamed into place");
    // Indexed and analysed like tiny, so the engine plans the same joins.
    let conn = Connection::open(&file).expect("opens");
    let indexes: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .expect("counts");
    assert_eq!(indexes, schema::INDEXES.len() as i64);
    let analysed: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_stat1", [], |r| r.get(0))
        .expect("statistics");
    assert!(analysed > 0);
}

#[test]
fn an_interrupted_generation_resumes_after_its_last_chunk_without_duplicates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let chunks = plan(SCALE, CHUNK_ROWS).len();
    let stopped = generate_at_scale(
        &file,
        SCALE,
        &Options {
            chunk_limit: Some(3),
            ..small()
        },
        &mut quiet,
    )
    .expect("stops");
    assert!(
        matches!(stopped, Outcome::Stopped { chunks_done: 3, chunks: c, .. } if c == chunks),
        "{stopped:?}"
    );
    assert!(
        !file.exists(),
        "an unfinished schema is never under its name"
    );
    assert!(partial_file(&file).exists());
    // A second stop further on, then the rest.
    let again = generate_at_scale(
        &file,
        SCALE,
        &Options {
            chunk_limit: Some(chunks - 5),
            ..small()
        },
        &mut quiet,
    )
    .expect("stops");
    assert!(
        matches!(again, Outcome::Stopped { chunks_done, chunks: c, .. }
            if chunks_done == chunks - 2 && c == chunks),
        "{again:?}"
    );
    let mut first_rows = None;
    let done = generate_at_scale(&file, SCALE, &small(), &mut |r| {
        first_rows.get_or_insert(r.rows);
    })
    .expect("finishes");
    assert!(matches!(done, Outcome::Generated { .. }), "{done:?}");
    assert!(
        first_rows.is_some_and(|rows| rows > 0),
        "the resumed run counts the rows already written"
    );
    assert_same_as_tpchgen(&file);
}

#[test]
fn a_cancelled_chunk_is_undone_and_written_again_on_the_next_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    // Cancelled inside lineitem's first chunk (~20,000 rows), at its first progress step.
    let options = Options {
        cancel: Some(cancel),
        chunk_rows: 20_000,
        ..Options::default()
    };
    let stopped = generate_at_scale(&file, SCALE, &options, &mut |r| {
        if r.table == "lineitem" && r.rows_this_run > 0 {
            cancel.store(true, Ordering::Relaxed);
        }
    })
    .expect("stops");
    assert!(matches!(stopped, Outcome::Stopped { .. }), "{stopped:?}");
    let conn = Connection::open(partial_file(&file)).expect("opens");
    let lineitems: i64 = conn
        .query_row("SELECT count(*) FROM lineitem", [], |r| r.get(0))
        .expect("counts");
    let recorded: i64 = conn
        .query_row(
            &format!("SELECT count(*) FROM \"{CHUNKS}\" WHERE tbl = 'lineitem'"),
            [],
            |r| r.get(0),
        )
        .expect("counts");
    assert_eq!(
        (lineitems, recorded),
        (0, 0),
        "the chunk in flight is rolled back"
    );
    drop(conn);
    cancel.store(false, Ordering::Relaxed);
    generate_at_scale(&file, SCALE, &options, &mut quiet).expect("finishes");
    assert_same_as_tpchgen(&file);
}

#[test]
fn a_complete_schema_is_left_alone_unless_forced() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    generate_at_scale(&file, SCALE, &small(), &mut quiet).expect("generates");
    let modified = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
    assert_eq!(
        generate_at_scale(&file, SCALE, &small(), &mut quiet).expect("answers"),
        Outcome::AlreadyComplete(file.clone())
    );
    assert_eq!(
        std::fs::metadata(&file).and_then(|m| m.modified()).ok(),
        modified
    );
    let forced = Options {
        force: true,
        ..small()
    };
    let again = generate_at_scale(&file, SCALE, &forced, &mut quiet).expect("regenerates");
    assert!(matches!(again, Outcome::Generated { .. }), "{again:?}");
    assert_same_as_tpchgen(&file);
    // Some other file under the name is refused, not overwritten.
    std::fs::write(&file, b"not a generation").expect("writes");
    assert!(matches!(
        generate_at_scale(&file, SCALE, &small(), &mut quiet),
        Err(GenerateError::NotOurs(_))
    ));
}

#[test]
fn a_second_generation_of_the_same_schema_is_refused_while_one_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let _running =
        open_partial(&partial_file(&file), &fingerprint(SCALE, CHUNK_ROWS), false).expect("opens");
    assert!(matches!(
        generate_at_scale(&file, SCALE, &small(), &mut quiet),
        Err(GenerateError::Busy(_))
    ));
}

#[test]
fn tiny_and_names_that_are_not_schemas_are_refused_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert!(matches!(
        generate(dir.path(), "tiny", &small(), &mut quiet),
        Err(GenerateError::Tiny)
    ));
    assert!(matches!(
        generate(dir.path(), "sf0.001", &small(), &mut quiet),
        Err(GenerateError::RepeatedKeys(_))
    ));
    let refused = generate(dir.path(), "sf../x", &small(), &mut quiet).expect_err("refused");
    assert!(
        refused
            .to_string()
            .contains("\"sf../x\" is not a tpch schema"),
        "{refused}"
    );
    assert!(
        !schema_file(dir.path(), "sf../x").exists(),
        "nothing written"
    );
}

/// The time of a generation is recorded with its work, so the final time counts every run:
/// earlier runs' recorded time plus this one's.
#[test]
fn the_elapsed_time_of_a_resumed_generation_counts_every_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let limited = Options {
        chunk_limit: Some(4),
        ..small()
    };
    let Outcome::Stopped { elapsed: first, .. } =
        generate_at_scale(&file, SCALE, &limited, &mut quiet).expect("stops")
    else {
        panic!("stopped by the limit");
    };
    assert!(!first.is_zero());
    let Outcome::Stopped {
        elapsed: second, ..
    } = generate_at_scale(&file, SCALE, &limited, &mut quiet).expect("stops")
    else {
        panic!("stopped by the limit");
    };
    assert!(second > first, "{second:?} after {first:?}");
    let started = Instant::now();
    let done = generate_at_scale(&file, SCALE, &small(), &mut quiet).expect("finishes");
    let this_run = started.elapsed();
    let Outcome::Generated {
        elapsed, earlier, ..
    } = done
    else {
        panic!("{done:?}");
    };
    // Recorded in milliseconds.
    let ms = |d: Duration| d.as_millis();
    assert_eq!(ms(earlier), ms(second), "what the earlier runs recorded");
    assert!(
        elapsed >= earlier + this_run / 2 && elapsed <= earlier + this_run,
        "{elapsed:?} = {earlier:?} + ~{this_run:?}"
    );
}

/// One percentage covers rows and indexes: the work reported never goes back, the index
/// phase reports its share as it goes, and the total is reached only at the end.
#[test]
fn progress_covers_the_indexes_and_only_grows() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let mut reports: Vec<(Stage, u64, u64)> = Vec::new();
    generate_at_scale(&file, SCALE, &small(), &mut |r| {
        reports.push((r.stage, r.work, r.total_work));
    })
    .expect("generates");
    let (_, last_rows_work, total) = *reports
        .iter()
        .rev()
        .find(|(stage, ..)| *stage == Stage::Rows)
        .expect("rows reported");
    assert!(
        (last_rows_work as f64) < total as f64 * 0.9,
        "the rows are not all the work: {last_rows_work} of {total}"
    );
    let indexing: Vec<_> = reports.iter().filter(|r| r.0 == Stage::Indexes).collect();
    assert!(indexing.len() >= schema::INDEXES.len(), "{indexing:?}");
    for pair in reports.windows(2) {
        assert!(pair[1].1 >= pair[0].1, "work went back: {pair:?}");
    }
    let (stage, work, total) = *reports.last().expect("reports");
    assert_eq!(stage, Stage::Statistics);
    assert!(
        work < total && work as f64 > total as f64 * 0.9,
        "{work} of {total}"
    );
}

/// Ctrl-C while an index is being built stops that statement (SQLite's progress handler),
/// not only at the next index: the index is not there, and the next run builds it and
/// finishes.
#[test]
fn a_cancel_during_an_index_build_stops_it_and_the_next_run_finishes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("sf1.sqlite");
    let cancel: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let options = Options {
        cancel: Some(cancel),
        ..small()
    };
    let first_index = schema::INDEXES[0]
        .split_whitespace()
        .nth(2)
        .expect("a name");
    // Set as lineitem's first index starts: only the statement itself can notice.
    let stopped = generate_at_scale(&file, SCALE, &options, &mut |r| {
        if r.stage == Stage::Indexes && r.table == first_index {
            cancel.store(true, Ordering::Relaxed);
        }
    })
    .expect("stops");
    assert!(
        matches!(stopped, Outcome::Stopped { chunks_done, chunks, .. } if chunks_done == chunks),
        "{stopped:?}"
    );
    let conn = Connection::open(partial_file(&file)).expect("opens");
    let indexes: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?1",
            [first_index],
            |r| r.get(0),
        )
        .expect("counts");
    assert_eq!(indexes, 0, "the interrupted index build was rolled back");
    drop(conn);
    cancel.store(false, Ordering::Relaxed);
    let done = generate_at_scale(&file, SCALE, &options, &mut quiet).expect("finishes");
    assert!(matches!(done, Outcome::Generated { .. }), "{done:?}");
    assert_same_as_tpchgen(&file);
}
