//! EXPLAIN: the statement is analysed as if it ran (its errors at its own positions, its
//! reads checked), and the answer is Trino's shape — one `Query Plan` varchar row, or one
//! `Valid` boolean row for `EXPLAIN (TYPE VALIDATE)` (docs sql/explain: "EXPLAIN (TYPE
//! VALIDATE) SELECT …" answers `Valid: true`). The plans of constant rows, a tpch.tiny
//! table's columns, a count per key of one (docs sql/explain's own example) and SHOW CATALOGS
//! are Trino 476's, character for character: each expected text below is its answer. Any
//! other statement's plan is the stand-in's own (explain_beyond_trinos_shapes.rs).

use serde_json::json;

use zero_sandbox::querymesh::engine::Engine;

use crate::support::engine::{engine, error, ok};

/// `sql` answers one `Query Plan` row holding `expected`, typed as Trino types it: a varchar
/// as long as the text.
fn assert_plan(engine: &Engine, sql: &str, expected: &str) {
    let a = ok(engine, sql);
    assert_eq!(a.names, vec!["Query Plan"], "{sql}");
    assert_eq!(
        a.types,
        vec![format!("varchar({})", expected.chars().count())],
        "{sql}"
    );
    assert_eq!(a.rows, vec![vec![json!(expected)]], "{sql}");
}

#[test]
fn constant_rows_are_trinos_values_node() {
    let engine = engine();
    // Trino 476: EXPLAIN SELECT 1 (varchar(400))
    assert_plan(
        &engine,
        "EXPLAIN SELECT 1",
        r#"Trino version: 476
Fragment 0 [SINGLE]
    Output layout: [expr]
    Output partitioning: SINGLE []
    Output[columnNames = [_col0]]
    │   Layout: [expr:integer]
    │   Estimates: {rows: 1 (5B), cpu: 0, memory: 0B, network: 0B}
    │   _col0 := expr
    └─ Values[]
           Layout: [expr:integer]
           Estimates: {rows: 1 (5B), cpu: 0, memory: 0B, network: 0B}
           (integer '1')

"#,
    );
    // Trino 476: EXPLAIN (FORMAT JSON, TYPE DISTRIBUTED) SELECT 1 AS x (varchar(819))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT JSON, TYPE DISTRIBUTED) SELECT 1 AS x",
        r#"{
  "0" : {
    "id" : "5",
    "name" : "Output",
    "descriptor" : {
      "columnNames" : "[x]"
    },
    "outputs" : [ {
      "type" : "integer",
      "name" : "expr"
    } ],
    "details" : [ "x := expr" ],
    "estimates" : [ {
      "outputRowCount" : 1.0,
      "outputSizeInBytes" : 5.0,
      "cpuCost" : 0.0,
      "memoryCost" : 0.0,
      "networkCost" : 0.0
    } ],
    "children" : [ {
      "id" : "0",
      "name" : "Values",
      "descriptor" : { },
      "outputs" : [ {
        "type" : "integer",
        "name" : "expr"
      } ],
      "details" : [ "(integer '1')" ],
      "estimates" : [ {
        "outputRowCount" : 1.0,
        "outputSizeInBytes" : 5.0,
        "cpuCost" : 0.0,
        "memoryCost" : 0.0,
        "networkCost" : 0.0
      } ],
      "children" : [ ]
    } ]
  }
}"#,
    );
    // Trino 476: EXPLAIN VALUES (1, 'a'), (2, NULL) (varchar(546))
    assert_plan(
        &engine,
        "EXPLAIN VALUES (1, 'a'), (2, NULL)",
        r#"Trino version: 476
Fragment 0 [SINGLE]
    Output layout: [field, field_0]
    Output partitioning: SINGLE []
    Output[columnNames = [_col0, _col1]]
    │   Layout: [field:integer, field_0:varchar(1)]
    │   Estimates: {rows: 2 (70B), cpu: 0, memory: 0B, network: 0B}
    │   _col0 := field
    │   _col1 := field_0
    └─ Values[]
           Layout: [field:integer, field_0:varchar(1)]
           Estimates: {rows: 2 (70B), cpu: 0, memory: 0B, network: 0B}
           (integer '1', varchar(1) 'a')
           (integer '2', null::varchar(1))

"#,
    );
    // Trino 476: EXPLAIN (FORMAT GRAPHVIZ) SELECT 1 (varchar(280))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT GRAPHVIZ) SELECT 1",
        r#"digraph distributed_plan {
subgraph cluster_0 {
label = "SINGLE"
plannode_1[label="{Output[_col0]}", style="rounded, filled", shape=record, fillcolor=white];
plannode_2[label="{Values}", style="rounded, filled", shape=record, fillcolor=deepskyblue];
}
plannode_1 -> plannode_2;
}
"#,
    );
    // Trino 476: EXPLAIN (TYPE LOGICAL, FORMAT GRAPHVIZ) VALUES 1, 2 (varchar(288))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE LOGICAL, FORMAT GRAPHVIZ) VALUES 1, 2",
        r#"digraph logical_plan {
subgraph cluster_graphviz_plan {
label = "SINGLE"
plannode_1[label="{Output[_col0]}", style="rounded, filled", shape=record, fillcolor=white];
plannode_2[label="{Values}", style="rounded, filled", shape=record, fillcolor=deepskyblue];
}
plannode_1 -> plannode_2;
}
"#,
    );
}

#[test]
fn values_in_from_are_the_same_values_node() {
    let engine = engine();
    // Trino 476: EXPLAIN SELECT * FROM (VALUES 1, 2) t(x) (varchar(423))
    assert_plan(
        &engine,
        "EXPLAIN SELECT * FROM (VALUES 1, 2) t(x)",
        r#"Trino version: 476
Fragment 0 [SINGLE]
    Output layout: [field]
    Output partitioning: SINGLE []
    Output[columnNames = [x]]
    │   Layout: [field:integer]
    │   Estimates: {rows: 2 (10B), cpu: 0, memory: 0B, network: 0B}
    │   x := field
    └─ Values[]
           Layout: [field:integer]
           Estimates: {rows: 2 (10B), cpu: 0, memory: 0B, network: 0B}
           (integer '1')
           (integer '2')

"#,
    );
}

#[test]
fn constants_print_as_trino_prints_them_in_a_plan() {
    let engine = engine();
    let a = ok(
        &engine,
        "EXPLAIN SELECT .5, 007.50, 1E0, -0.0, 1.0E-4, 0.001, 9999999.0E0, 10000000.0E0, \
         2147483648, -2147483648, '', 'héllo', 00, 'it''s', true, NULL",
    );
    let plan = a.rows[0][0].as_str().unwrap_or_default();
    // Trino 476's Values row for the same literals.
    let row = "(decimal(1,1) '0.5', decimal(3,2) '7.50', double '1.0', decimal(1,1) '0.0', \
               double '1.0E-4', decimal(3,3) '0.001', double '9999999.0', double '1.0E7', \
               bigint '2147483648', integer '-2147483648', varchar(0) '', varchar(5) 'héllo', \
               integer '0', varchar(4) 'it's', boolean 'true', null::unknown)";
    assert!(plan.contains(row), "{plan}");
}

#[test]
fn a_tables_columns_are_trinos_table_scan() {
    let engine = engine();
    // Trino 476: EXPLAIN SELECT orderstatus FROM orders (varchar(524))
    assert_plan(
        &engine,
        "EXPLAIN SELECT orderstatus FROM orders",
        r#"Trino version: 476
Fragment 0 [tpch:orders:15000]
    Output layout: [orderstatus]
    Output partitioning: SINGLE []
    Output[columnNames = [orderstatus]]
    │   Layout: [orderstatus:varchar(1)]
    │   Estimates: {rows: 15000 (73.25kB), cpu: 0, memory: 0B, network: 0B}
    └─ TableScan[table = tpch:tiny:orders]
           Layout: [orderstatus:varchar(1)]
           Estimates: {rows: 15000 (73.25kB), cpu: 73.25k, memory: 0B, network: 0B}
           orderstatus := tpch:orderstatus
               :: [[F], [O], [P]]

"#,
    );
    // Trino 476: EXPLAIN (TYPE LOGICAL) SELECT n.name AS nation FROM tpch.tiny.nation n (varchar(335))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE LOGICAL) SELECT n.name AS nation FROM tpch.tiny.nation n",
        r#"Trino version: 476
Output[columnNames = [nation]]
│   Layout: [name:varchar(25)]
│   Estimates: {rows: 25 (302B), cpu: 0, memory: 0B, network: 0B}
│   nation := name
└─ TableScan[table = tpch:tiny:nation]
       Layout: [name:varchar(25)]
       Estimates: {rows: 25 (302B), cpu: 302, memory: 0B, network: 0B}
       name := tpch:name
"#,
    );
    // Trino 476: EXPLAIN (FORMAT JSON, TYPE LOGICAL) SELECT nationkey FROM nation (varchar(803))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT JSON, TYPE LOGICAL) SELECT nationkey FROM nation",
        r#"{
  "id" : "5",
  "name" : "Output",
  "descriptor" : {
    "columnNames" : "[nationkey]"
  },
  "outputs" : [ {
    "type" : "bigint",
    "name" : "nationkey"
  } ],
  "details" : [ ],
  "estimates" : [ {
    "outputRowCount" : 25.0,
    "outputSizeInBytes" : 225.0,
    "cpuCost" : 0.0,
    "memoryCost" : 0.0,
    "networkCost" : 0.0
  } ],
  "children" : [ {
    "id" : "0",
    "name" : "TableScan",
    "descriptor" : {
      "table" : "tpch:tiny:nation"
    },
    "outputs" : [ {
      "type" : "bigint",
      "name" : "nationkey"
    } ],
    "details" : [ "nationkey := tpch:nationkey" ],
    "estimates" : [ {
      "outputRowCount" : 25.0,
      "outputSizeInBytes" : 225.0,
      "cpuCost" : 225.0,
      "memoryCost" : 0.0,
      "networkCost" : 0.0
    } ],
    "children" : [ ]
  } ]
}"#,
    );
    // Trino 476: EXPLAIN (FORMAT GRAPHVIZ) SELECT orderkey FROM lineitem (varchar(317))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT GRAPHVIZ) SELECT orderkey FROM lineitem",
        r#"digraph distributed_plan {
subgraph cluster_0 {
label = "tpch:orders:15000"
plannode_1[label="{Output[orderkey]}", style="rounded, filled", shape=record, fillcolor=white];
plannode_2[label="{TableScan[tpch:tiny:lineitem]}", style="rounded, filled", shape=record, fillcolor=deepskyblue];
}
plannode_1 -> plannode_2;
}
"#,
    );
}

/// Trino prints a scan's assignments in a Java hash map's order, which the stand-in follows
/// (explain/assignment_order.rs): the same as the Trino these texts were taken from.
#[test]
fn a_scans_assignments_are_in_trinos_hash_order() {
    let engine = engine();
    // Trino 476: EXPLAIN SELECT name, regionkey FROM tpch.tiny.nation (varchar(521))
    assert_plan(
        &engine,
        "EXPLAIN SELECT name, regionkey FROM tpch.tiny.nation",
        r#"Trino version: 476
Fragment 0 [SOURCE]
    Output layout: [name, regionkey]
    Output partitioning: SINGLE []
    Output[columnNames = [name, regionkey]]
    │   Layout: [name:varchar(25), regionkey:bigint]
    │   Estimates: {rows: 25 (527B), cpu: 0, memory: 0B, network: 0B}
    └─ TableScan[table = tpch:tiny:nation]
           Layout: [name:varchar(25), regionkey:bigint]
           Estimates: {rows: 25 (527B), cpu: 527, memory: 0B, network: 0B}
           regionkey := tpch:regionkey
           name := tpch:name

"#,
    );
    // Trino 476: EXPLAIN SELECT * FROM orders (varchar(1319))
    assert_plan(
        &engine,
        "EXPLAIN SELECT * FROM orders",
        r#"Trino version: 476
Fragment 0 [tpch:orders:15000]
    Output layout: [orderkey, custkey, orderstatus, totalprice, orderdate, orderpriority, clerk, shippriority, comment]
    Output partitioning: SINGLE []
    Output[columnNames = [orderkey, custkey, orderstatus, totalprice, orderdate, orderpriority, clerk, shippriority, comment]]
    │   Layout: [orderkey:bigint, custkey:bigint, orderstatus:varchar(1), totalprice:double, orderdate:date, orderpriority:varchar(15), clerk:varchar(15), shippriority:integer, comment:varchar(79)]
    │   Estimates: {rows: 15000 (1.52MB), cpu: 0, memory: 0B, network: 0B}
    └─ TableScan[table = tpch:tiny:orders]
           Layout: [orderkey:bigint, custkey:bigint, orderstatus:varchar(1), totalprice:double, orderdate:date, orderpriority:varchar(15), clerk:varchar(15), shippriority:integer, comment:varchar(79)]
           Estimates: {rows: 15000 (1.52MB), cpu: 1.52M, memory: 0B, network: 0B}
           shippriority := tpch:shippriority
           orderpriority := tpch:orderpriority
           orderdate := tpch:orderdate
           comment := tpch:comment
           orderstatus := tpch:orderstatus
               :: [[F], [O], [P]]
           orderkey := tpch:orderkey
           custkey := tpch:custkey
           totalprice := tpch:totalprice
           clerk := tpch:clerk

"#,
    );
    // Trino 476: EXPLAIN (FORMAT JSON) SELECT name AS n, name, regionkey AS r FROM nation (varchar(1132))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT JSON) SELECT name AS n, name, regionkey AS r FROM nation",
        r#"{
  "0" : {
    "id" : "5",
    "name" : "Output",
    "descriptor" : {
      "columnNames" : "[n, name, r]"
    },
    "outputs" : [ {
      "type" : "varchar(25)",
      "name" : "name"
    }, {
      "type" : "varchar(25)",
      "name" : "name"
    }, {
      "type" : "bigint",
      "name" : "regionkey"
    } ],
    "details" : [ "n := name", "r := regionkey" ],
    "estimates" : [ {
      "outputRowCount" : 25.0,
      "outputSizeInBytes" : 829.0,
      "cpuCost" : 0.0,
      "memoryCost" : 0.0,
      "networkCost" : 0.0
    } ],
    "children" : [ {
      "id" : "0",
      "name" : "TableScan",
      "descriptor" : {
        "table" : "tpch:tiny:nation"
      },
      "outputs" : [ {
        "type" : "varchar(25)",
        "name" : "name"
      }, {
        "type" : "bigint",
        "name" : "regionkey"
      } ],
      "details" : [ "regionkey := tpch:regionkey", "name := tpch:name" ],
      "estimates" : [ {
        "outputRowCount" : 25.0,
        "outputSizeInBytes" : 527.0,
        "cpuCost" : 527.0,
        "memoryCost" : 0.0,
        "networkCost" : 0.0
      } ],
      "children" : [ ]
    } ]
  }
}"#,
    );
}

#[test]
fn the_io_plan_is_trinos_tables_and_estimates() {
    let engine = engine();
    // Trino 476: EXPLAIN (TYPE IO, FORMAT JSON) SELECT * FROM tpch.tiny.nation (varchar(583))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE IO, FORMAT JSON) SELECT * FROM tpch.tiny.nation",
        r#"{
  "inputTableColumnInfos" : [ {
    "table" : {
      "catalog" : "tpch",
      "schemaTable" : {
        "schema" : "tiny",
        "table" : "nation"
      }
    },
    "constraint" : {
      "none" : false,
      "columnConstraints" : [ ]
    },
    "estimate" : {
      "outputRowCount" : 25.0,
      "outputSizeInBytes" : 2734.0,
      "cpuCost" : 2734.0,
      "maxMemory" : 0.0,
      "networkCost" : 0.0
    }
  } ],
  "estimate" : {
    "outputRowCount" : 25.0,
    "outputSizeInBytes" : 2734.0,
    "cpuCost" : 2734.0,
    "maxMemory" : 0.0,
    "networkCost" : 0.0
  }
}"#,
    );
    // Trino 476: EXPLAIN (TYPE IO) SELECT container, type FROM part (varchar(1405))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE IO) SELECT container, type FROM part",
        r#"{
  "inputTableColumnInfos" : [ {
    "table" : {
      "catalog" : "tpch",
      "schemaTable" : {
        "schema" : "tiny",
        "table" : "part"
      }
    },
    "constraint" : {
      "none" : false,
      "columnConstraints" : [ {
        "columnName" : "container",
        "type" : "varchar(10)",
        "domain" : {
          "nullsAllowed" : false,
          "ranges" : [ {
            "low" : {
              "value" : "JUMBO BAG",
              "bound" : "EXACTLY"
            },
            "high" : {
              "value" : "WRAP PKG",
              "bound" : "EXACTLY"
            }
          } ]
        }
      }, {
        "columnName" : "type",
        "type" : "varchar(25)",
        "domain" : {
          "nullsAllowed" : false,
          "ranges" : [ {
            "low" : {
              "value" : "ECONOMY ANODIZED BRASS",
              "bound" : "EXACTLY"
            },
            "high" : {
              "value" : "STANDARD POLISHED TIN",
              "bound" : "EXACTLY"
            }
          } ]
        }
      } ]
    },
    "estimate" : {
      "outputRowCount" : 2000.0,
      "outputSizeInBytes" : 23393.0,
      "cpuCost" : 23393.0,
      "maxMemory" : 0.0,
      "networkCost" : 0.0
    }
  } ],
  "estimate" : {
    "outputRowCount" : 2000.0,
    "outputSizeInBytes" : 23393.0,
    "cpuCost" : 23393.0,
    "maxMemory" : 0.0,
    "networkCost" : 0.0
  }
}"#,
    );
    // Trino 476: EXPLAIN (TYPE IO, FORMAT JSON) SELECT regionkey, count(*) FROM nation GROUP BY 1 (varchar(581))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE IO, FORMAT JSON) SELECT regionkey, count(*) FROM nation GROUP BY 1",
        r#"{
  "inputTableColumnInfos" : [ {
    "table" : {
      "catalog" : "tpch",
      "schemaTable" : {
        "schema" : "tiny",
        "table" : "nation"
      }
    },
    "constraint" : {
      "none" : false,
      "columnConstraints" : [ ]
    },
    "estimate" : {
      "outputRowCount" : 25.0,
      "outputSizeInBytes" : 225.0,
      "cpuCost" : 225.0,
      "maxMemory" : 0.0,
      "networkCost" : 0.0
    }
  } ],
  "estimate" : {
    "outputRowCount" : 5.0,
    "outputSizeInBytes" : 90.0,
    "cpuCost" : "NaN",
    "maxMemory" : "NaN",
    "networkCost" : "NaN"
  }
}"#,
    );
}

#[test]
fn a_count_per_key_is_trinos_two_step_aggregation() {
    let engine = engine();
    // Trino 476: EXPLAIN (TYPE LOGICAL) SELECT regionkey, count(*) FROM nation GROUP BY 1 (varchar(1220))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE LOGICAL) SELECT regionkey, count(*) FROM nation GROUP BY 1",
        r#"Trino version: 476
Output[columnNames = [regionkey, _col1]]
│   Layout: [regionkey:bigint, count:bigint]
│   Estimates: {rows: 5 (90B), cpu: 0, memory: 0B, network: 0B}
│   _col1 := count
└─ Aggregate[type = FINAL, keys = [regionkey]]
   │   Layout: [regionkey:bigint, count:bigint]
   │   Estimates: {rows: 5 (90B), cpu: 450, memory: 90B, network: 0B}
   │   count := count(count_0)
   └─ LocalExchange[partitioning = HASH, arguments = [regionkey::bigint]]
      │   Layout: [regionkey:bigint, count_0:bigint]
      │   Estimates: {rows: 25 (450B), cpu: 450, memory: 0B, network: 0B}
      └─ RemoteExchange[type = REPARTITION]
         │   Layout: [regionkey:bigint, count_0:bigint]
         │   Estimates: {rows: 25 (450B), cpu: 450, memory: 0B, network: 450B}
         └─ Aggregate[type = PARTIAL, keys = [regionkey]]
            │   Layout: [regionkey:bigint, count_0:bigint]
            │   Estimates: {rows: 25 (450B), cpu: ?, memory: ?, network: ?}
            │   count_0 := count(*)
            └─ TableScan[table = tpch:tiny:nation]
                   Layout: [regionkey:bigint]
                   Estimates: {rows: 25 (225B), cpu: 225, memory: 0B, network: 0B}
                   regionkey := tpch:regionkey
"#,
    );
    // Trino 476: EXPLAIN SELECT regionkey, count(*) FROM nation GROUP BY 1 (varchar(1327))
    assert_plan(
        &engine,
        "EXPLAIN SELECT regionkey, count(*) FROM nation GROUP BY 1",
        r#"Trino version: 476
Fragment 0 [HASH]
    Output layout: [regionkey, count]
    Output partitioning: SINGLE []
    Output[columnNames = [regionkey, _col1]]
    │   Layout: [regionkey:bigint, count:bigint]
    │   Estimates: {rows: 5 (90B), cpu: 0, memory: 0B, network: 0B}
    │   _col1 := count
    └─ Aggregate[type = FINAL, keys = [regionkey]]
       │   Layout: [regionkey:bigint, count:bigint]
       │   Estimates: {rows: 5 (90B), cpu: 450, memory: 90B, network: 0B}
       │   count := count(count_0)
       └─ LocalExchange[partitioning = HASH, arguments = [regionkey::bigint]]
          │   Layout: [regionkey:bigint, count_0:bigint]
          │   Estimates: {rows: 25 (450B), cpu: 450, memory: 0B, network: 0B}
          └─ RemoteSource[sourceFragmentIds = [1]]
                 Layout: [regionkey:bigint, count_0:bigint]

Fragment 1 [SOURCE]
    Output layout: [regionkey, count_0]
    Output partitioning: HASH [regionkey]
    Aggregate[type = PARTIAL, keys = [regionkey]]
    │   Layout: [regionkey:bigint, count_0:bigint]
    │   Estimates: {rows: 25 (450B), cpu: ?, memory: ?, network: ?}
    │   count_0 := count(*)
    └─ TableScan[table = tpch:tiny:nation]
           Layout: [regionkey:bigint]
           Estimates: {rows: 25 (225B), cpu: 225, memory: 0B, network: 0B}
           regionkey := tpch:regionkey

"#,
    );
    // Trino 476: EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT orderstatus, count(*) AS n FROM orders GROUP BY orderstatus (varchar(3287))
    assert_plan(
        &engine,
        "EXPLAIN (TYPE DISTRIBUTED, FORMAT JSON) SELECT orderstatus, count(*) AS n FROM orders GROUP BY orderstatus",
        r#"{
  "0" : {
    "id" : "9",
    "name" : "Output",
    "descriptor" : {
      "columnNames" : "[orderstatus, n]"
    },
    "outputs" : [ {
      "type" : "varchar(1)",
      "name" : "orderstatus"
    }, {
      "type" : "bigint",
      "name" : "count"
    } ],
    "details" : [ "n := count" ],
    "estimates" : [ {
      "outputRowCount" : 3.0,
      "outputSizeInBytes" : 42.0006,
      "cpuCost" : 0.0,
      "memoryCost" : 0.0,
      "networkCost" : 0.0
    } ],
    "children" : [ {
      "id" : "4",
      "name" : "Aggregate",
      "descriptor" : {
        "type" : "FINAL",
        "keys" : "[orderstatus]",
        "hash" : "[]"
      },
      "outputs" : [ {
        "type" : "varchar(1)",
        "name" : "orderstatus"
      }, {
        "type" : "bigint",
        "name" : "count"
      } ],
      "details" : [ "count := count(count_0)" ],
      "estimates" : [ {
        "outputRowCount" : 3.0,
        "outputSizeInBytes" : 42.0006,
        "cpuCost" : 210003.0,
        "memoryCost" : 42.0006,
        "networkCost" : 0.0
      } ],
      "children" : [ {
        "id" : "186",
        "name" : "LocalExchange",
        "descriptor" : {
          "partitioning" : "HASH",
          "isReplicateNullsAndAny" : "",
          "hashColumn" : "[]",
          "arguments" : "[orderstatus::varchar(1)]"
        },
        "outputs" : [ {
          "type" : "varchar(1)",
          "name" : "orderstatus"
        }, {
          "type" : "bigint",
          "name" : "count_0"
        } ],
        "details" : [ ],
        "estimates" : [ {
          "outputRowCount" : 15000.0,
          "outputSizeInBytes" : 210003.0,
          "cpuCost" : 210003.0,
          "memoryCost" : 0.0,
          "networkCost" : 0.0
        } ],
        "children" : [ {
          "id" : "192",
          "name" : "RemoteSource",
          "descriptor" : {
            "sourceFragmentIds" : "[1]"
          },
          "outputs" : [ {
            "type" : "varchar(1)",
            "name" : "orderstatus"
          }, {
            "type" : "bigint",
            "name" : "count_0"
          } ],
          "details" : [ ],
          "estimates" : [ ],
          "children" : [ ]
        } ]
      } ]
    } ]
  },
  "1" : {
    "id" : "190",
    "name" : "Aggregate",
    "descriptor" : {
      "type" : "PARTIAL",
      "keys" : "[orderstatus]",
      "hash" : "[]"
    },
    "outputs" : [ {
      "type" : "varchar(1)",
      "name" : "orderstatus"
    }, {
      "type" : "bigint",
      "name" : "count_0"
    } ],
    "details" : [ "count_0 := count(*)" ],
    "estimates" : [ {
      "outputRowCount" : 15000.0,
      "outputSizeInBytes" : 210003.0,
      "cpuCost" : "NaN",
      "memoryCost" : "NaN",
      "networkCost" : "NaN"
    } ],
    "children" : [ {
      "id" : "0",
      "name" : "TableScan",
      "descriptor" : {
        "table" : "tpch:tiny:orders"
      },
      "outputs" : [ {
        "type" : "varchar(1)",
        "name" : "orderstatus"
      } ],
      "details" : [ "orderstatus := tpch:orderstatus", "    :: [[F], [O], [P]]" ],
      "estimates" : [ {
        "outputRowCount" : 15000.0,
        "outputSizeInBytes" : 75003.0,
        "cpuCost" : 75003.0,
        "memoryCost" : 0.0,
        "networkCost" : 0.0
      } ],
      "children" : [ ]
    } ]
  }
}"#,
    );
    // Trino 476: EXPLAIN (FORMAT GRAPHVIZ) SELECT count(*), regionkey FROM nation GROUP BY regionkey (varchar(941))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT GRAPHVIZ) SELECT count(*), regionkey FROM nation GROUP BY regionkey",
        r#"digraph distributed_plan {
subgraph cluster_0 {
label = "HASH"
plannode_1[label="{Output[_col0, regionkey]}", style="rounded, filled", shape=record, fillcolor=white];
plannode_2[label="{Aggregate[FINAL]|count::[bigint] := count(count_0)\n}", style="rounded, filled", shape=record, fillcolor=chartreuse3];
plannode_3[label="{ExchangeNode[REPARTITION]|regionkey::bigint}", style="rounded, filled", shape=record, fillcolor=gold];
plannode_4[label="{Exchange 1:N}", style="rounded, filled", shape=record, fillcolor=gold];
}
plannode_1 -> plannode_2;
plannode_2 -> plannode_3;
plannode_3 -> plannode_4;
plannode_4 -> plannode_5;
subgraph cluster_1 {
label = "SOURCE"
plannode_5[label="{Aggregate[PARTIAL]|count_0::[bigint] := count(*)\n}", style="rounded, filled", shape=record, fillcolor=chartreuse3];
plannode_6[label="{TableScan[tpch:tiny:nation]}", style="rounded, filled", shape=record, fillcolor=deepskyblue];
}
plannode_5 -> plannode_6;
}
"#,
    );
}

#[test]
fn show_catalogs_is_trinos_sorted_values() {
    let engine = engine();
    // Trino 476: EXPLAIN SHOW CATALOGS (varchar(1103))
    assert_plan(
        &engine,
        "EXPLAIN SHOW CATALOGS",
        r#"Trino version: 476
Fragment 0 [SINGLE]
    Output layout: [field]
    Output partitioning: SINGLE []
    Output[columnNames = [Catalog]]
    │   Layout: [field:varchar(6)]
    │   Estimates: {rows: 2 (110B), cpu: 0, memory: 0B, network: 0B}
    │   Catalog := field
    └─ RemoteMerge[sourceFragmentIds = [1]]
           Layout: [field:varchar(6)]

Fragment 1 [ROUND_ROBIN]
    Output layout: [field]
    Output partitioning: SINGLE []
    LocalMerge[orderBy = [field ASC NULLS LAST]]
    │   Layout: [field:varchar(6)]
    │   Estimates: {rows: 2 (110B), cpu: 0, memory: 0B, network: 0B}
    └─ PartialSort[orderBy = [field ASC NULLS LAST]]
       │   Layout: [field:varchar(6)]
       │   Estimates: {rows: 2 (110B), cpu: ?, memory: ?, network: ?}
       └─ RemoteSource[sourceFragmentIds = [2]]
              Layout: [field:varchar(6)]

Fragment 2 [SINGLE]
    Output layout: [field]
    Output partitioning: ROUND_ROBIN []
    Values[]
        Layout: [field:varchar(6)]
        Estimates: {rows: 2 (110B), cpu: 0, memory: 0B, network: 0B}
        (varchar(6) 'system')
        (varchar(6) 'tpch')

"#,
    );
    // Trino 476: EXPLAIN (FORMAT GRAPHVIZ) SHOW CATALOGS (varchar(876))
    assert_plan(
        &engine,
        "EXPLAIN (FORMAT GRAPHVIZ) SHOW CATALOGS",
        r#"digraph distributed_plan {
subgraph cluster_0 {
label = "SINGLE"
plannode_1[label="{Output[Catalog]}", style="rounded, filled", shape=record, fillcolor=white];
plannode_2[label="{Merge 1:N}", style="rounded, filled", shape=record, fillcolor=gold];
}
plannode_1 -> plannode_2;
plannode_2 -> plannode_3;
subgraph cluster_1 {
label = "ROUND_ROBIN"
plannode_3[label="{ExchangeNode[GATHER]|field::varchar(6)}", style="rounded, filled", shape=record, fillcolor=gold];
plannode_4[label="{Sort[field::[varchar(6)]]}", style="rounded, filled", shape=record, fillcolor=aliceblue];
plannode_5[label="{Exchange 1:N}", style="rounded, filled", shape=record, fillcolor=gold];
}
plannode_3 -> plannode_4;
plannode_4 -> plannode_5;
plannode_5 -> plannode_6;
subgraph cluster_2 {
label = "SINGLE"
plannode_6[label="{Values}", style="rounded, filled", shape=record, fillcolor=deepskyblue];
}
}
"#,
    );
}

/// The first FORMAT and the first TYPE count (Trino 476).
#[test]
fn the_first_of_each_option_counts() {
    let engine = engine();
    let plan = |sql: &str| ok(&engine, sql).rows;
    assert_eq!(
        plan("EXPLAIN (TYPE IO, TYPE LOGICAL) SELECT 1"),
        plan("EXPLAIN (TYPE IO) SELECT 1")
    );
    assert_eq!(
        plan("EXPLAIN (FORMAT JSON, FORMAT TEXT, TYPE LOGICAL) SELECT 1"),
        plan("EXPLAIN (FORMAT JSON, TYPE LOGICAL) SELECT 1")
    );
    assert_eq!(
        plan("EXPLAIN (TYPE VALIDATE, TYPE LOGICAL) SELECT 1"),
        vec![vec![json!(true)]]
    );
}

#[test]
fn the_explained_statement_keeps_its_errors_and_positions() {
    let engine = engine();
    let a = ok(&engine, "EXPLAIN (TYPE VALIDATE) SELECT 1");
    assert_eq!(
        (a.names[0].as_str(), a.types[0].as_str()),
        ("Valid", "boolean")
    );
    assert_eq!(a.rows, vec![vec![json!(true)]]);
    assert_eq!(
        error(&engine, "EXPLAIN SELECT nosuch FROM tpch.tiny.nation"),
        "COLUMN_NOT_FOUND: line 1:16: Column 'nosuch' cannot be resolved"
    );
    assert_eq!(
        error(&engine, "EXPLAIN (TYPE VALIDATE)\n  SELECT nosuch"),
        "COLUMN_NOT_FOUND: line 2:10: Column 'nosuch' cannot be resolved"
    );
    assert_eq!(
        error(&engine, "EXPLAIN (FORMAT GRAPHVIZ) SELECT nosuch"),
        "COLUMN_NOT_FOUND: line 1:34: Column 'nosuch' cannot be resolved"
    );
    assert!(
        error(&engine, "EXPLAIN ANALYZE SELECT 1")
            .starts_with("NOT_SUPPORTED: line 1:9: EXPLAIN ANALYZE"),
    );
    assert_eq!(
        error(&engine, "EXPLAIN (FORMAT XML) SELECT 1"),
        "SYNTAX_ERROR: line 1:17: mismatched input 'XML'. Expecting: 'GRAPHVIZ', 'JSON', 'TEXT'"
    );
    assert_eq!(
        error(&engine, "EXPLAIN"),
        "SYNTAX_ERROR: line 1:8: mismatched input '<EOF>'. Expecting: 'SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE'"
    );
}
