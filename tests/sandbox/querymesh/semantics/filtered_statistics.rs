//! `SHOW STATS FOR (SELECT … FROM table WHERE …)`: Trino's cost model's estimate of a filtered
//! tpch.tiny table (https://trino.io/docs/476/sql/show-stats.html; the arithmetic of
//! core/trino-main/.../cost: FilterStatsCalculator, ComparisonStatsCalculator, StatisticRange,
//! StatsNormalizer). Every expected answer here is Trino 476's, checked against it.

use serde_json::json;

use super::{check_errors, check_rows};
use crate::support::engine::engine;

/// Comparisons with literals: the kept range's share of the column's range (a text column's
/// share is its distinct values'), the other columns' distinct counts capped at the rows, data
/// sizes scaled; BETWEEN as its two comparisons; IN as its equalities summed; no row of a
/// value outside the range is Trino's zero estimate.
#[test]
fn a_filter_scales_the_tables_statistics_as_trinos_cost_model() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey = 1)",
                json!([
                    ["nationkey", null, 5.0, 0.0, null, "0", "24"],
                    ["name", 35.4, 5.0, 0.0, null, null, null],
                    ["regionkey", null, 1.0, 0.0, null, "1", "1"],
                    ["comment", 371.4, 5.0, 0.0, null, null, null],
                    [null, null, null, null, 5.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.region WHERE regionkey BETWEEN 1 AND 2)",
                json!([
                    ["regionkey", null, 1.25, 0.0, null, "1", "2"],
                    ["name", 8.5, 1.25, 0.0, null, null, null],
                    ["comment", 82.5, 1.25, 0.0, null, null, null],
                    [null, null, null, null, 1.25, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT regionkey, name FROM tpch.tiny.nation WHERE regionkey <> 1 ORDER BY name)",
                json!([
                    ["regionkey", null, 4.0, 0.0, null, "0", "4"],
                    ["name", 141.6, 20.0, 0.0, null, null, null],
                    [null, null, null, null, 20.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT name FROM tpch.tiny.nation WHERE name IN ('CHINA', 'PERU'))",
                json!([
                    ["name", 14.16, 2.0, 0.0, null, null, null],
                    [null, null, null, null, 2.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey IN (1, 2, 7))",
                json!([
                    ["regionkey", null, 2.0, 0.0, null, "1", "2"],
                    [null, null, null, null, 10.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE name < 'C')",
                json!([
                    ["nationkey", null, 12.5, 0.0, null, "0", "24"],
                    [null, null, null, null, 12.5, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT regionkey, comment FROM tpch.tiny.nation WHERE regionkey = 9)",
                json!([
                    ["regionkey", 0.0, 0.0, 1.0, null, null, null],
                    ["comment", 0.0, 0.0, 1.0, null, null, null],
                    [null, null, null, null, 0.0, null, null]
                ]),
            ),
        ],
    );
}

/// A conjunction: the terms on one column applied in turn, the columns' selectivities combined
/// with `filter_conjunction_independence_factor` (0.75: the second most selective to the power
/// 0.75), each column's statistics intersected (PlanNodeStatsEstimateMath).
#[test]
fn a_conjunction_is_estimated_as_correlated_terms() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT nationkey, name FROM tpch.tiny.nation WHERE regionkey = 1 AND nationkey < 10)",
                json!([
                    ["nationkey", null, 2.593054072035327, 0.0, null, "0", "10"],
                    [
                        "name",
                        18.358822830010116,
                        2.593054072035327,
                        0.0,
                        null,
                        null,
                        null
                    ],
                    [null, null, null, null, 2.593054072035327, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey > 3 AND nationkey < 10 AND regionkey = 2)",
                json!([
                    ["nationkey", null, 1.9844268888416006, 0.0, null, "3", "10"],
                    [null, null, null, null, 1.9844268888416006, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT orderdate, totalprice FROM tpch.tiny.orders WHERE orderdate >= DATE '1995-01-01' AND totalprice < 1000.5)",
                json!([
                    [
                        "orderdate",
                        null,
                        2.566923454057668,
                        0.0,
                        null,
                        "1995-01-01",
                        "1998-08-02"
                    ],
                    [
                        "totalprice",
                        null,
                        2.566923454057668,
                        0.0,
                        null,
                        "874.89",
                        "1000.5"
                    ],
                    [null, null, null, null, 2.566923454057668, null, null]
                ]),
            ),
        ],
    );
}

/// A term the cost model cannot estimate (BETWEEN of text: its bounds have no numeric value)
/// makes the estimate unknown alone, and 0.9 of the others' in a conjunction, each column's
/// statistics intersected with the unknown ones' (FilterStatsCalculator's
/// UNKNOWN_FILTER_COEFFICIENT); IN takes each value once; names are case-insensitive and a
/// table may have an alias.
#[test]
fn unknown_terms_duplicates_and_names_are_as_trinos() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT linestatus, returnflag FROM tpch.tiny.lineitem WHERE returnflag BETWEEN 'A' AND 'N')",
                json!([
                    ["linestatus", null, null, null, null, null, null],
                    ["returnflag", null, null, null, null, null, null],
                    [null, null, null, null, null, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT linestatus FROM tpch.tiny.lineitem WHERE returnflag BETWEEN 'A' AND 'N' AND quantity < 10)",
                json!([
                    ["linestatus", 0.3306122448979592, 0.5, 0.0, null, null, null],
                    [null, null, null, null, 9947.295918367348, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT name FROM tpch.tiny.nation AS n WHERE \"NAME\" IN ('PERU', 'PERU', 'CHINA'))",
                json!([
                    ["name", 14.16, 2.0, 0.0, null, null, null],
                    [null, null, null, null, 2.0, null, null]
                ]),
            ),
        ],
    );
}

/// What Trino's planner makes of a filter before it estimates it: equalities of one column
/// ORed are its IN list, consecutive integers in an IN list one range (DomainTranslator), an
/// integer column equal to a decimal with a fraction no row (UnwrapCastInComparison); the
/// system and information_schema tables have no statistics (unknown, nulls).
#[test]
fn the_planners_rewrites_come_before_the_estimate() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey = 1 OR regionkey = 2)",
                json!([
                    ["regionkey", null, 1.25, 0.0, null, "1", "2"],
                    [null, null, null, null, 6.25, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE (regionkey = 1 OR regionkey = 3) AND nationkey < 10)",
                json!([
                    ["regionkey", null, 2.0, 0.0, null, "1", "3"],
                    [null, null, null, null, 5.186108144070654, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT regionkey FROM tpch.tiny.nation WHERE regionkey IN (1, 2, 3))",
                json!([
                    ["regionkey", null, 2.5, 0.0, null, "1", "3"],
                    [null, null, null, null, 12.5, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey = 1.5)",
                json!([
                    ["nationkey", 0.0, 0.0, 1.0, null, null, null],
                    [null, null, null, null, 0.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey <> 1.5)",
                json!([
                    ["nationkey", null, null, null, null, null, null],
                    [null, null, null, null, null, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT node_id FROM system.runtime.nodes WHERE node_id = 'x')",
                json!([
                    ["node_id", null, null, null, null, null, null],
                    [null, null, null, null, null, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR tpch.information_schema.schemata",
                json!([
                    ["catalog_name", null, null, null, null, null, null],
                    ["schema_name", null, null, null, null, null, null],
                    [null, null, null, null, null, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey > 1.5)",
                json!([
                    ["nationkey", null, 22.916666666666664, 0.0, null, "2", "24"],
                    [null, null, null, null, 22.916666666666664, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT nationkey FROM tpch.tiny.nation WHERE nationkey <= 1.5)",
                json!([
                    ["nationkey", null, 2.083333333333333, 0.0, null, "0", "2"],
                    [null, null, null, null, 2.083333333333333, null, null]
                ]),
            ),
        ],
    );
}

/// A disjunction (FilterStatsCalculator.estimateLogicalOr): each term's estimate added to the
/// ones before it, less what both keep (PlanNodeStatsEstimateMath.subtractSubsetStats), capped
/// at the input; its columns one correlated group in a conjunction.
#[test]
fn a_disjunction_is_estimated_as_trinos() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT regionkey, nationkey FROM tpch.tiny.nation WHERE regionkey = 1 OR nationkey < 10)",
                json!([
                    ["regionkey", null, 5.0, 0.0, null, "0", "4"],
                    ["nationkey", null, 13.333333333333334, 0.0, null, "0", "24"],
                    [null, null, null, null, 13.333333333333334, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT name FROM tpch.tiny.nation WHERE (regionkey = 1 OR nationkey = 1) AND (regionkey = 2 OR nationkey = 5))",
                json!([
                    ["name", 17.7, 2.5, 0.0, null, null, null],
                    [null, null, null, null, 2.5, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT orderpriority, totalprice FROM tpch.tiny.orders WHERE orderpriority = '1-URGENT' OR totalprice > 400000)",
                json!([
                    [
                        "orderpriority",
                        13.16782882175316,
                        5.0,
                        0.0,
                        null,
                        null,
                        null
                    ],
                    [
                        "totalprice",
                        null,
                        4702.796007768986,
                        0.0,
                        null,
                        "874.89",
                        "466001.28"
                    ],
                    [null, null, null, null, 4702.796007768986, null, null]
                ]),
            ),
        ],
    );
}

/// The tpch connector takes a filter on `orders.orderstatus` itself and answers the statistics
/// of those statuses' rows, with no distinct counts but the status's (TpchMetadata,
/// StatisticsEstimator); one on `part.type` it takes without changing the statistics.
#[test]
fn the_tpch_connectors_own_filters_select_its_statistics() {
    check_rows(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT orderkey, orderstatus, clerk FROM tpch.tiny.orders WHERE orderstatus = 'F')",
                json!([
                    ["orderkey", null, null, 0.0, null, "3", "59975"],
                    ["orderstatus", 1.0, 1.0, 0.0, null, null, null],
                    ["clerk", 15000.0, null, 0.0, null, null, null],
                    [null, null, null, null, 7304.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT orderkey, orderstatus, clerk FROM tpch.tiny.orders WHERE orderstatus IN ('F', 'O') AND totalprice > 100000)",
                json!([
                    ["orderkey", null, null, 0.0, null, "1", "59975"],
                    [
                        "orderstatus",
                        1.5737712925727567,
                        2.0,
                        0.0,
                        null,
                        null,
                        null
                    ],
                    ["clerk", 23606.56938859135, null, 0.0, null, null, null],
                    [null, null, null, null, 11517.64520469372, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT orderkey, orderstatus FROM tpch.tiny.orders WHERE orderstatus = 'X')",
                json!([
                    ["orderkey", 0.0, 0.0, 1.0, null, null, null],
                    ["orderstatus", 0.0, 0.0, 1.0, null, null, null],
                    [null, null, null, null, 0.0, null, null]
                ]),
            ),
            (
                "SHOW STATS FOR (SELECT partkey, type FROM tpch.tiny.part WHERE type = 'STANDARD POLISHED TIN')",
                json!([
                    ["partkey", null, 2000.0, 0.0, null, "1", "2000"],
                    ["type", 3090.0, 150.0, 0.0, null, null, null],
                    [null, null, null, null, 2000.0, null, null]
                ]),
            ),
        ],
    );
}

/// The query is analysed as Trino analyses it (its errors are Trino's); a filter the stand-in
/// has no model for (an expression of a column) is refused rather than estimated otherwise
/// than Trino would.
#[test]
fn a_filter_without_a_model_is_refused_and_errors_are_the_querys() {
    check_errors(
        &engine(),
        &[
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nosuch = 1)",
                "COLUMN_NOT_FOUND: line 1:54: Column 'nosuch' cannot be resolved",
            ),
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey = 'x')",
                "TYPE_MISMATCH: ",
            ),
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE regionkey + 1 = 2)",
                "NOT_SUPPORTED: line 1:16: SHOW STATS FOR a query",
            ),
            // A query refused is analysed first: its errors are Trino's.
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nosuch = 1 OR nationkey = 2)",
                "COLUMN_NOT_FOUND: line 1:54: Column 'nosuch' cannot be resolved",
            ),
            (
                "SHOW STATS FOR (SELECT * FROM tpch.tiny.nation WHERE nationkey = 1 AND)",
                "SYNTAX_ERROR: line 1:71: ",
            ),
        ],
    );
}
