//! The eight tables of Trino's tpch connector as the stand-in stores them: the connector's
//! simplified column names (`nationkey`, not `n_nationkey`) and Trino types (trino-facts.md
//! "tpch.tiny"). Shared by the build script, which generates tpch.tiny into SQLite with
//! these definitions, and by the engine, which reports the Trino types.

/// The Trino types tpch.tiny uses; each maps to one SQLite storage class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnType {
    BigInt,
    Integer,
    Double,
    /// Stored as TEXT `YYYY-MM-DD`, which orders and indexes like the date.
    Date,
    Varchar(u32),
}

impl ColumnType {
    pub fn sqlite_type(self) -> &'static str {
        match self {
            Self::BigInt | Self::Integer => "INTEGER",
            Self::Double => "REAL",
            Self::Date | Self::Varchar(_) => "TEXT",
        }
    }
}

pub struct TableSchema {
    pub name: &'static str,
    /// In `SELECT *` order.
    pub columns: &'static [(&'static str, ColumnType)],
    pub primary_key: &'static [&'static str],
}

use ColumnType::{BigInt, Date, Double, Integer, Varchar};

pub const TABLES: &[TableSchema] = &[
    TableSchema {
        name: "nation",
        columns: &[
            ("nationkey", BigInt),
            ("name", Varchar(25)),
            ("regionkey", BigInt),
            ("comment", Varchar(152)),
        ],
        primary_key: &["nationkey"],
    },
    TableSchema {
        name: "region",
        columns: &[
            ("regionkey", BigInt),
            ("name", Varchar(25)),
            ("comment", Varchar(152)),
        ],
        primary_key: &["regionkey"],
    },
    TableSchema {
        name: "part",
        columns: &[
            ("partkey", BigInt),
            ("name", Varchar(55)),
            ("mfgr", Varchar(25)),
            ("brand", Varchar(10)),
            ("type", Varchar(25)),
            ("size", Integer),
            ("container", Varchar(10)),
            ("retailprice", Double),
            ("comment", Varchar(23)),
        ],
        primary_key: &["partkey"],
    },
    TableSchema {
        name: "supplier",
        columns: &[
            ("suppkey", BigInt),
            ("name", Varchar(25)),
            ("address", Varchar(40)),
            ("nationkey", BigInt),
            ("phone", Varchar(15)),
            ("acctbal", Double),
            ("comment", Varchar(101)),
        ],
        primary_key: &["suppkey"],
    },
    TableSchema {
        name: "partsupp",
        columns: &[
            ("partkey", BigInt),
            ("suppkey", BigInt),
            ("availqty", Integer),
            ("supplycost", Double),
            ("comment", Varchar(199)),
        ],
        primary_key: &["partkey", "suppkey"],
    },
    TableSchema {
        name: "customer",
        columns: &[
            ("custkey", BigInt),
            ("name", Varchar(25)),
            ("address", Varchar(40)),
            ("nationkey", BigInt),
            ("phone", Varchar(15)),
            ("acctbal", Double),
            ("mktsegment", Varchar(10)),
            ("comment", Varchar(117)),
        ],
        primary_key: &["custkey"],
    },
    TableSchema {
        name: "orders",
        columns: &[
            ("orderkey", BigInt),
            ("custkey", BigInt),
            ("orderstatus", Varchar(1)),
            ("totalprice", Double),
            ("orderdate", Date),
            ("orderpriority", Varchar(15)),
            ("clerk", Varchar(15)),
            ("shippriority", Integer),
            ("comment", Varchar(79)),
        ],
        primary_key: &["orderkey"],
    },
    TableSchema {
        name: "lineitem",
        columns: &[
            ("orderkey", BigInt),
            ("partkey", BigInt),
            ("suppkey", BigInt),
            ("linenumber", Integer),
            ("quantity", Double),
            ("extendedprice", Double),
            ("discount", Double),
            ("tax", Double),
            ("returnflag", Varchar(1)),
            ("linestatus", Varchar(1)),
            ("shipdate", Date),
            ("commitdate", Date),
            ("receiptdate", Date),
            ("shipinstruct", Varchar(25)),
            ("shipmode", Varchar(10)),
            ("comment", Varchar(44)),
        ],
        primary_key: &["orderkey", "linenumber"],
    },
];

/// The foreign keys the TPC-H joins use, indexed so joins are lookups.
pub const INDEXES: &[&str] = &[
    "CREATE INDEX lineitem_part_supp ON lineitem(partkey, suppkey)",
    "CREATE INDEX lineitem_supp ON lineitem(suppkey)",
    "CREATE INDEX lineitem_shipdate ON lineitem(shipdate)",
    "CREATE INDEX orders_cust ON orders(custkey)",
    "CREATE INDEX orders_date ON orders(orderdate)",
    "CREATE INDEX customer_nation ON customer(nationkey)",
    "CREATE INDEX supplier_nation ON supplier(nationkey)",
    "CREATE INDEX partsupp_supp ON partsupp(suppkey)",
    "CREATE INDEX nation_region ON nation(regionkey)",
];

/// `CREATE TABLE` for `table`: every column NOT NULL, clustered on its primary key.
pub fn create_table(table: &TableSchema) -> String {
    let columns: Vec<String> = table
        .columns
        .iter()
        .map(|(name, ty)| format!("\"{name}\" {} NOT NULL", ty.sqlite_type()))
        .collect();
    format!(
        "CREATE TABLE \"{}\" ({}, PRIMARY KEY ({})) WITHOUT ROWID",
        table.name,
        columns.join(", "),
        table.primary_key.join(", ")
    )
}
