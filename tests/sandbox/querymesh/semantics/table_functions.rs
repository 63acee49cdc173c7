//! Trino's built-in table functions in FROM (docs functions/table: `sequence`,
//! `exclude_columns`; SequenceFunction / ExcludeColumnsFunction and their tests), SHOW
//! FUNCTIONS FROM a schema (docs sql/show-functions; ShowQueriesRewrite.visitShowFunctions),
//! and the listing's `current_groups()` and `parse_presto_data_size`. Each answer is the
//! pinned Trino 476's, asked of it.

use serde_json::json;
use zero_sandbox::querymesh::engine::SessionContext;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::{engine, ok, run_in, tiny};

#[test]
fn sequence_counts_from_start_to_the_last_reachable_value() {
    let engine = engine();
    check_rows(
        &engine,
        &[
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => 10, step => 3)) ORDER BY 1",
                json!([[1], [4], [7], [10]]),
            ),
            // START defaults to 0 and STEP to 1; positional arguments in declaration order.
            (
                "SELECT * FROM TABLE(sequence(stop => 2)) ORDER BY 1",
                json!([[0], [1], [2]]),
            ),
            (
                "SELECT * FROM TABLE(sequence(8, 14, 3)) ORDER BY 1",
                json!([[8], [11], [14]]),
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 20, stop => -5, step => -7)) ORDER BY 1",
                json!([[-1], [6], [13], [20]]),
            ),
            // start = stop: one row, whatever the step.
            (
                "SELECT * FROM TABLE(sequence(start => 3, stop => 3, step => -10))",
                json!([[3]]),
            ),
            // Near the end of bigint's range nothing overflows.
            (
                "SELECT * FROM TABLE(sequence(start => 9223372036854775800, stop => 9223372036854775807, step => 3)) ORDER BY 1",
                json!([
                    [9_223_372_036_854_775_800_i64],
                    [9_223_372_036_854_775_803_i64],
                    [9_223_372_036_854_775_806_i64]
                ]),
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => 2, step => 9223372036854775807))",
                json!([[1]]),
            ),
            // Names resolve case-insensitively, and as system.builtin's.
            (
                "SELECT * FROM TABLE(SYSTEM.BUILTIN.SEQUENCE(STOP => 1)) ORDER BY 1",
                json!([[0], [1]]),
            ),
            (
                "SELECT a.sequential_number, b.sequential_number FROM TABLE(sequence(stop => 1)) a CROSS JOIN TABLE(sequence(start => 5, stop => 6)) b ORDER BY 1, 2",
                json!([[0, 5], [0, 6], [1, 5], [1, 6]]),
            ),
        ],
    );
    check_values(
        &engine,
        &[
            (
                "SELECT sum(sequential_number) FROM TABLE(sequence(start => 1000000, stop => -2000000, step => -3))",
                "bigint",
                json!(-500_000_500_000_i64),
            ),
            (
                "SELECT count(*) FROM TABLE(sequence(start => 1, stop => 250000))",
                "bigint",
                json!(250_000),
            ),
        ],
    );
}

#[test]
fn a_table_functions_columns_and_aliases_are_trinos() {
    let engine = engine();
    let answer = ok(&engine, "SELECT * FROM TABLE(sequence(stop => 0))");
    assert_eq!(answer.names, vec!["sequential_number"]);
    assert_eq!(answer.types, vec!["bigint"]);
    // An unquoted column alias is upper-cased, as Trino 476 answers it.
    let aliased = ok(&engine, "SELECT * FROM TABLE(sequence(stop => 0)) AS s(n)");
    assert_eq!(aliased.names, vec!["N"]);
    let quoted = ok(
        &engine,
        "SELECT * FROM TABLE(sequence(stop => 0)) AS s(\"n\")",
    );
    assert_eq!(quoted.names, vec!["n"]);
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM TABLE(sequence(stop => 2)) AS s(a, b)",
                "MISMATCHED_COLUMN_ALIASES: line 1:15: Column alias list has 2 entries but table function has 1 proper columns",
            ),
            (
                "SELECT sequence.sequential_number FROM TABLE(sequence(stop => 2))",
                "COLUMN_NOT_FOUND: line 1:8: ",
            ),
        ],
    );
}

#[test]
fn sequences_arguments_are_checked_as_trino_checks_them() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => 5, step => -1))",
                "INVALID_FUNCTION_ARGUMENT: Step must be positive for sequence [1, 5]",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 5, stop => 1))",
                "INVALID_FUNCTION_ARGUMENT: Step must be negative for sequence [5, 1]",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 2, stop => 3, step => 0))",
                "INVALID_FUNCTION_ARGUMENT: Step must be positive for sequence [2, 3]",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => NULL, stop => 2))",
                "INVALID_FUNCTION_ARGUMENT: Start is null",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => NULL))",
                "INVALID_FUNCTION_ARGUMENT: Stop is null",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => 2, step => NULL))",
                "INVALID_FUNCTION_ARGUMENT: Step is null",
            ),
            (
                "SELECT * FROM TABLE(sequence(3))",
                "MISSING_ARGUMENT: line 1:30: Missing argument: STOP",
            ),
            (
                "SELECT * FROM TABLE(sequence())",
                "MISSING_ARGUMENT: line 1:21: Missing argument: STOP",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 'a', stop => 2))",
                "TYPE_MISMATCH: line 1:39: Cannot cast type varchar(1) to bigint",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1.5, stop => 2))",
                "TYPE_MISMATCH: line 1:39: Cannot cast type decimal(2",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => (SELECT 1), stop => 3))",
                "EXPRESSION_NOT_CONSTANT: line 1:39: Constant expression cannot contain a subquery",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, stop => 2, foo => 3))",
                "INVALID_FUNCTION_ARGUMENT: line 1:53: Unexpected argument name: FOO",
            ),
            (
                "SELECT * FROM TABLE(sequence(\"stop\" => 1))",
                "INVALID_FUNCTION_ARGUMENT: line 1:30: Unexpected argument name: stop",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, start => 2, stop => 3))",
                "INVALID_FUNCTION_ARGUMENT: line 1:42: Duplicate argument name: START",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => 1, 2))",
                "INVALID_ARGUMENTS: line 1:30: All arguments must be passed by name or all must be passed positionally",
            ),
            (
                "SELECT * FROM TABLE(sequence(1, 2, 3, 4))",
                "INVALID_ARGUMENTS: line 1:30: Too many arguments. Expected at most 3 arguments, got 4 arguments",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => TABLE(region), stop => 1))",
                "INVALID_FUNCTION_ARGUMENT: line 1:30: Invalid argument START. Expected expression, got table",
            ),
            (
                "SELECT * FROM TABLE(sequence(start => DESCRIPTOR(a), stop => 1))",
                "INVALID_FUNCTION_ARGUMENT: line 1:30: Invalid argument START. Expected expression, got descriptor",
            ),
            (
                "SELECT * FROM nation n, TABLE(sequence(stop => n.nationkey))",
                "COLUMN_NOT_FOUND: line 1:48: ",
            ),
        ],
    );
}

#[test]
fn unknown_table_functions_and_ones_outside_from_are_refused() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM TABLE(NoSuch(1))",
                "FUNCTION_NOT_FOUND: line 1:21: Table function 'nosuch' not registered",
            ),
            (
                "SELECT * FROM TABLE(abs(1))",
                "FUNCTION_NOT_FOUND: line 1:21: Table function 'abs' not registered",
            ),
            (
                "SELECT * FROM TABLE(tpch.tiny.sequence(stop => 2))",
                "FUNCTION_NOT_FOUND: line 1:21: Table function 'tpch.tiny.sequence' not registered",
            ),
            (
                "SELECT * FROM TABLE(builtin.sequence(stop => 2))",
                "FUNCTION_NOT_FOUND: line 1:21: Table function 'builtin.sequence' not registered",
            ),
            // Named arguments belong to a table function's invocation alone.
            (
                "SELECT sequence(start => 1, stop => 2)",
                "SYNTAX_ERROR: line 1:23: mismatched input '=>'",
            ),
            (
                "SELECT exclude_columns(1, 2)",
                "FUNCTION_NOT_FOUND: line 1:8: Function 'exclude_columns' not registered",
            ),
        ],
    );
}

#[test]
fn exclude_columns_keeps_the_inputs_other_columns_in_order() {
    let engine = engine();
    let answer = ok(
        &engine,
        "SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region), columns => DESCRIPTOR(comment))) ORDER BY regionkey",
    );
    assert_eq!(answer.names, vec!["regionkey", "name"]);
    assert_eq!(answer.types, vec!["bigint", "varchar(25)"]);
    assert_eq!(answer.rows[0], vec![json!(0), json!("AFRICA")]);
    check_rows(
        &engine,
        &[
            // Positional arguments; the descriptor's names match without regard to case.
            (
                "SELECT * FROM TABLE(exclude_columns(TABLE(tpch.tiny.region), DESCRIPTOR(Comment, NAME))) ORDER BY 1",
                json!([[0], [1], [2], [3], [4]]),
            ),
            // A query as the input, and every column of an excluded name.
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 7 x, 'b' y, true z), columns => DESCRIPTOR(y)))",
                json!([[7, true]]),
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(SELECT 1 p, 2 q, 3 p), columns => DESCRIPTOR(p)))",
                json!([[2]]),
            ),
            // A WITH query by name, and the input's own alias renaming its columns.
            (
                "WITH w AS (SELECT 1 k, 'v' v) SELECT * FROM TABLE(exclude_columns(input => TABLE(w), columns => DESCRIPTOR(k)))",
                json!([["v"]]),
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(tpch.tiny.region) r (k, n, c), columns => DESCRIPTOR(c))) WHERE k = 2",
                json!([[2, "ASIA"]]),
            ),
        ],
    );
}

#[test]
fn exclude_columns_refuses_as_trino_does() {
    let engine = engine();
    check_errors(
        &engine,
        &[
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(foo, bar)))",
                "INVALID_FUNCTION_ARGUMENT: Excluded columns: [foo, bar] not present in the table",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(regionkey, name, comment)))",
                "INVALID_FUNCTION_ARGUMENT: All columns are excluded",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR(regionkey bigint)))",
                "INVALID_FUNCTION_ARGUMENT: COLUMNS descriptor contains types",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => CAST(NULL AS DESCRIPTOR)))",
                "INVALID_FUNCTION_ARGUMENT: COLUMNS descriptor is null",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region), columns => DESCRIPTOR()))",
                "INVALID_FUNCTION_ARGUMENT: line 1:61: Invalid descriptor argument COLUMNS.",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region)))",
                "MISSING_ARGUMENT: line 1:37: Missing argument: COLUMNS",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(nosuch), columns => DESCRIPTOR(name)))",
                "TABLE_NOT_FOUND: line 1:46: Table 'tpch.tiny.nosuch' does not exist",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => 1, columns => DESCRIPTOR(name)))",
                "INVALID_FUNCTION_ARGUMENT: line 1:37: Invalid argument INPUT. Expected table, got expression",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region) PARTITION BY regionkey, columns => DESCRIPTOR(name)))",
                "INVALID_FUNCTION_ARGUMENT: line 1:37: Invalid argument INPUT. Partitioning specified for table argument with row semantics",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region) ORDER BY regionkey, columns => DESCRIPTOR(name)))",
                "INVALID_FUNCTION_ARGUMENT: line 1:37: Invalid argument INPUT. Ordering specified for table argument with row semantics",
            ),
            (
                "SELECT * FROM TABLE(exclude_columns(input => TABLE(region) KEEP WHEN EMPTY, columns => DESCRIPTOR(name)))",
                "INVALID_FUNCTION_ARGUMENT: line 1:60: Invalid argument INPUT. Empty behavior specified for table argument with row semantics",
            ),
        ],
    );
}

#[test]
fn show_functions_from_a_schema_lists_what_trino_lists() {
    let engine = engine();
    // system.builtin: the table functions, typed by the longest of their own values.
    let builtin = ok(&engine, "SHOW FUNCTIONS FROM system.builtin");
    assert_eq!(
        builtin.names,
        vec![
            "Function",
            "Return Type",
            "Argument Types",
            "Function Type",
            "Deterministic",
            "Description"
        ]
    );
    assert_eq!(
        builtin.types,
        vec![
            "varchar(15)",
            "varchar(7)",
            "varchar(22)",
            "varchar(5)",
            "boolean",
            "varchar(0)"
        ]
    );
    assert_eq!(
        json!(builtin.rows),
        json!([
            [
                "exclude_columns",
                "unknown",
                "unknown, unknown",
                "table",
                false,
                ""
            ],
            [
                "sequence",
                "unknown",
                "bigint, bigint, bigint",
                "table",
                false,
                ""
            ]
        ])
    );
    // LIKE filters after the types are fixed.
    let filtered = ok(&engine, "SHOW FUNCTIONS FROM system.builtin LIKE 'abs'");
    assert_eq!(filtered.types, builtin.types);
    assert!(filtered.rows.is_empty());
    // Any other schema, existing or not, has none: plain varchar columns, the pattern unread.
    for sql in [
        "SHOW FUNCTIONS FROM tpch.tiny",
        "SHOW FUNCTIONS FROM tiny",
        "SHOW FUNCTIONS FROM no_such_catalog.tiny",
        "SHOW FUNCTIONS FROM tpch.tiny LIKE 'x' ESCAPE 'ab'",
    ] {
        let empty = ok(&engine, sql);
        assert!(empty.rows.is_empty(), "{sql}");
        assert_eq!(
            empty.types,
            vec![
                "varchar", "varchar", "varchar", "varchar", "boolean", "varchar"
            ],
            "{sql}"
        );
    }
    check_errors(
        &engine,
        &[
            (
                "SHOW FUNCTIONS FROM a.b.c",
                "SYNTAX_ERROR: line 1:1: Too many parts in schema name: a.b.c",
            ),
            (
                "SHOW FUNCTIONS FROM system.builtin LIKE 'x' ESCAPE 'ab'",
                "INVALID_FUNCTION_ARGUMENT: Escape string must be a single character",
            ),
        ],
    );
    let no_catalog = SessionContext::default();
    let refused = run_in(&engine, &no_catalog, "SHOW FUNCTIONS FROM builtin").err();
    assert_eq!(
        refused.as_deref(),
        Some(
            "MISSING_CATALOG_NAME: line 1:1: Catalog must be specified when session catalog is not set"
        )
    );
}

#[test]
fn show_functions_lists_table_functions_twice_and_no_special_forms() {
    let engine = engine();
    // Once as global functions, once from the path's system.builtin.
    let table = ok(&engine, "SHOW FUNCTIONS LIKE 'exclude%'");
    assert_eq!(
        json!(table.rows),
        json!([
            [
                "exclude_columns",
                "unknown",
                "unknown, unknown",
                "table",
                false,
                ""
            ],
            [
                "exclude_columns",
                "unknown",
                "unknown, unknown",
                "table",
                false,
                ""
            ]
        ])
    );
    let sequences = ok(&engine, "SHOW FUNCTIONS LIKE 'sequence'");
    let kinds: Vec<_> = sequences.rows.iter().map(|r| r[3].clone()).collect();
    assert_eq!(
        kinds.iter().filter(|k| **k == json!("table")).count(),
        2,
        "{kinds:?}"
    );
    // current_timestamp and localtimestamp are special forms in Trino: not listed, still
    // answered.
    let current = ok(&engine, "SHOW FUNCTIONS LIKE 'current%'");
    let names: Vec<_> = current.rows.iter().map(|r| r[0].clone()).collect();
    assert!(names.contains(&json!("current_groups")), "{names:?}");
    assert!(!names.contains(&json!("current_timestamp")), "{names:?}");
    assert!(
        ok(&engine, "SHOW FUNCTIONS LIKE 'localtimestamp'")
            .rows
            .is_empty()
    );
    check_values(
        &engine,
        &[
            (
                "SELECT typeof(current_timestamp)",
                "varchar",
                json!("timestamp(3) with time zone"),
            ),
            (
                "SELECT typeof(localtimestamp)",
                "varchar",
                json!("timestamp(3)"),
            ),
            // current_time and localtime, and each at the precision asked (docs
            // functions/datetime.md; SqlBase.g4 `CURRENT_TIME ('(' precision ')')?`).
            (
                "SELECT typeof(current_time)",
                "varchar",
                json!("time(3) with time zone"),
            ),
            ("SELECT typeof(localtime(9))", "varchar", json!("time(9)")),
            (
                "SELECT typeof(current_timestamp(0))",
                "varchar",
                json!("timestamp(0) with time zone"),
            ),
            (
                "SELECT typeof(localtimestamp(12))",
                "varchar",
                json!("timestamp(12)"),
            ),
            // current_timestamp(0) is rounded, as Trino's is: within a second of the instant.
            (
                "SELECT abs(date_diff('millisecond', current_timestamp(0), current_timestamp)) <= 1000 AND localtime(0) IS NOT NULL",
                "boolean",
                json!(true),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT current_time(13)",
                "NUMERIC_VALUE_OUT_OF_RANGE: TIME WITH TIME ZONE precision must be in range [0, 12]: 13",
            ),
            (
                "SELECT localtimestamp(x) FROM (VALUES 1) t(x)",
                "SYNTAX_ERROR",
            ),
            ("SELECT now(3)", "FUNCTION_NOT_FOUND"),
        ],
    );
    // An alias of parse_data_size: Trino lists each row of an aliased name twice.
    let presto = ok(&engine, "SHOW FUNCTIONS LIKE 'parse_presto_data_size'");
    let row = json!([
        "parse_presto_data_size",
        "decimal(38,0)",
        "varchar(x)",
        "scalar",
        true,
        "Converts data size string to bytes"
    ]);
    assert_eq!(json!(presto.rows), json!([row, row]));
}

#[test]
fn current_groups_and_parse_presto_data_size_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // Trino 476 answers a user without groups with an empty array.
            ("SELECT current_groups()", "array(varchar)", json!([])),
            (
                "SELECT parse_presto_data_size('1.2MB')",
                "decimal(38, 0)",
                json!("1258291"),
            ),
            (
                "SELECT parse_presto_data_size('2.5kB')",
                "decimal(38, 0)",
                json!("2560"),
            ),
            (
                "SELECT try(parse_presto_data_size('x'))",
                "decimal(38, 0)",
                json!(null),
            ),
        ],
    );
    check_errors(
        &engine,
        &[(
            "SELECT parse_presto_data_size('x')",
            "INVALID_FUNCTION_ARGUMENT: Invalid data size: 'x'",
        )],
    );
    // The session user's groups, sorted; a plan is never shared across groups.
    let in_groups = |groups: &[&str]| SessionContext {
        user: Some("ana".into()),
        groups: groups.iter().map(|g| g.to_string()).collect(),
        ..tiny()
    };
    let sql = "SELECT current_groups()";
    let two = run_in(&engine, &in_groups(&["writers", "readers"]), sql).map(|a| json!(a.rows));
    assert_eq!(two, Ok(json!([[["readers", "writers"]]])));
    let none = run_in(&engine, &in_groups(&[]), sql).map(|a| json!(a.rows));
    assert_eq!(none, Ok(json!([[[]]])));
}
