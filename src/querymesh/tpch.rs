//! tpch.tiny: the rows of Trino's tpch connector at scale factor 0.01, generated with the
//! `tpchgen` crate into SQLite under the connector's simplified column names and Trino types
//! (trino-facts.md "tpch.tiny"). Dates are stored as TEXT `YYYY-MM-DD` so they compare and
//! index correctly; doubles as REAL.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{Connection, params};
use tpchgen::generators::{
    CustomerGenerator, LineItemGenerator, NationGenerator, OrderGenerator, PartGenerator,
    PartSuppGenerator, RegionGenerator, SupplierGenerator,
};

use super::catalog::{ColumnMeta, TableMeta};
use super::types::TrinoType;

/// The SQLite schema name tpch.tiny is attached under.
pub const ATTACH_NAME: &str = "tpch_tiny";
/// Bump when the stored layout changes so an old file in the state directory is not reused.
pub const FILE_NAME: &str = "tpch-tiny-v1.sqlite";
const SCALE: f64 = 0.01;

/// (table, [(column, type)]) in `SELECT *` order.
pub fn tables() -> Vec<(&'static str, Vec<(&'static str, TrinoType)>)> {
    use TrinoType::{BigInt, Date, Double, Integer};
    let v = |n: u32| TrinoType::Varchar(Some(n));
    vec![
        (
            "nation",
            vec![
                ("nationkey", BigInt),
                ("name", v(25)),
                ("regionkey", BigInt),
                ("comment", v(152)),
            ],
        ),
        (
            "region",
            vec![("regionkey", BigInt), ("name", v(25)), ("comment", v(152))],
        ),
        (
            "part",
            vec![
                ("partkey", BigInt),
                ("name", v(55)),
                ("mfgr", v(25)),
                ("brand", v(10)),
                ("type", v(25)),
                ("size", Integer),
                ("container", v(10)),
                ("retailprice", Double),
                ("comment", v(23)),
            ],
        ),
        (
            "supplier",
            vec![
                ("suppkey", BigInt),
                ("name", v(25)),
                ("address", v(40)),
                ("nationkey", BigInt),
                ("phone", v(15)),
                ("acctbal", Double),
                ("comment", v(101)),
            ],
        ),
        (
            "partsupp",
            vec![
                ("partkey", BigInt),
                ("suppkey", BigInt),
                ("availqty", Integer),
                ("supplycost", Double),
                ("comment", v(199)),
            ],
        ),
        (
            "customer",
            vec![
                ("custkey", BigInt),
                ("name", v(25)),
                ("address", v(40)),
                ("nationkey", BigInt),
                ("phone", v(15)),
                ("acctbal", Double),
                ("mktsegment", v(10)),
                ("comment", v(117)),
            ],
        ),
        (
            "orders",
            vec![
                ("orderkey", BigInt),
                ("custkey", BigInt),
                ("orderstatus", v(1)),
                ("totalprice", Double),
                ("orderdate", Date),
                ("orderpriority", v(15)),
                ("clerk", v(15)),
                ("shippriority", Integer),
                ("comment", v(79)),
            ],
        ),
        (
            "lineitem",
            vec![
                ("orderkey", BigInt),
                ("partkey", BigInt),
                ("suppkey", BigInt),
                ("linenumber", Integer),
                ("quantity", Double),
                ("extendedprice", Double),
                ("discount", Double),
                ("tax", Double),
                ("returnflag", v(1)),
                ("linestatus", v(1)),
                ("shipdate", Date),
                ("commitdate", Date),
                ("receiptdate", Date),
                ("shipinstruct", v(25)),
                ("shipmode", v(10)),
                ("comment", v(44)),
            ],
        ),
    ]
}

/// The catalog entries for tpch.tiny.
pub fn table_metas() -> Vec<TableMeta> {
    tables()
        .into_iter()
        .map(|(name, columns)| TableMeta {
            catalog: "tpch".into(),
            schema: "tiny".into(),
            name: name.into(),
            columns: columns
                .into_iter()
                .map(|(c, ty)| ColumnMeta {
                    name: c.into(),
                    ty,
                    nullable: false,
                })
                .collect(),
            sqlite_name: format!("\"{ATTACH_NAME}\".\"{name}\""),
        })
        .collect()
}

/// Keys and the foreign keys the TPC-H joins use, so joins are index lookups.
const INDEXES: &[&str] = &[
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

fn sqlite_type(ty: &TrinoType) -> &'static str {
    match ty {
        t if t.is_integral() => "INTEGER",
        TrinoType::Double => "REAL",
        _ => "TEXT",
    }
}

fn primary_key(table: &str) -> &'static str {
    match table {
        "nation" => "nationkey",
        "region" => "regionkey",
        "part" => "partkey",
        "supplier" => "suppkey",
        "partsupp" => "partkey, suppkey",
        "customer" => "custkey",
        "orders" => "orderkey",
        _ => "orderkey, linenumber",
    }
}

/// Creates the tables and fills them on `conn` (a fresh, empty database), in one transaction.
pub fn generate(conn: &mut Connection) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    for (name, columns) in tables() {
        let cols: Vec<String> = columns
            .iter()
            .map(|(c, ty)| format!("\"{c}\" {} NOT NULL", sqlite_type(ty)))
            .collect();
        tx.execute_batch(&format!(
            "CREATE TABLE \"{name}\" ({}, PRIMARY KEY ({})) WITHOUT ROWID",
            cols.join(", "),
            primary_key(name)
        ))?;
    }
    fill(&tx)?;
    for index in INDEXES {
        tx.execute_batch(index)?;
    }
    tx.commit()?;
    conn.execute_batch("ANALYZE")
}

fn fill(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    let mut s = tx.prepare("INSERT INTO nation VALUES (?1, ?2, ?3, ?4)")?;
    for n in NationGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![n.n_nationkey, n.n_name, n.n_regionkey, n.n_comment])?;
    }
    let mut s = tx.prepare("INSERT INTO region VALUES (?1, ?2, ?3)")?;
    for r in RegionGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![r.r_regionkey, r.r_name, r.r_comment])?;
    }
    let mut s = tx.prepare("INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")?;
    for p in PartGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            p.p_partkey,
            p.p_name.to_string(),
            p.p_mfgr.to_string(),
            p.p_brand.to_string(),
            p.p_type,
            p.p_size,
            p.p_container,
            p.p_retailprice.as_f64(),
            p.p_comment
        ])?;
    }
    let mut s = tx.prepare("INSERT INTO supplier VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)")?;
    for r in SupplierGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            r.s_suppkey,
            r.s_name.to_string(),
            r.s_address.to_string(),
            r.s_nationkey,
            r.s_phone.to_string(),
            r.s_acctbal.as_f64(),
            r.s_comment
        ])?;
    }
    let mut s = tx.prepare("INSERT INTO partsupp VALUES (?1, ?2, ?3, ?4, ?5)")?;
    for r in PartSuppGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            r.ps_partkey,
            r.ps_suppkey,
            r.ps_availqty,
            r.ps_supplycost.as_f64(),
            r.ps_comment
        ])?;
    }
    let mut s = tx.prepare("INSERT INTO customer VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)")?;
    for r in CustomerGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            r.c_custkey,
            r.c_name.to_string(),
            r.c_address.to_string(),
            r.c_nationkey,
            r.c_phone.to_string(),
            r.c_acctbal.as_f64(),
            r.c_mktsegment,
            r.c_comment
        ])?;
    }
    let mut s = tx.prepare("INSERT INTO orders VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")?;
    for r in OrderGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            r.o_orderkey,
            r.o_custkey,
            r.o_orderstatus.as_str(),
            r.o_totalprice.as_f64(),
            r.o_orderdate.to_string(),
            r.o_orderpriority,
            r.o_clerk.to_string(),
            r.o_shippriority,
            r.o_comment
        ])?;
    }
    let mut s = tx.prepare(
        "INSERT INTO lineitem VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?;
    for r in LineItemGenerator::new(SCALE, 1, 1).iter() {
        s.execute(params![
            r.l_orderkey,
            r.l_partkey,
            r.l_suppkey,
            r.l_linenumber,
            r.l_quantity as f64,
            r.l_extendedprice.as_f64(),
            r.l_discount.as_f64(),
            r.l_tax.as_f64(),
            r.l_returnflag,
            r.l_linestatus,
            r.l_shipdate.to_string(),
            r.l_commitdate.to_string(),
            r.l_receiptdate.to_string(),
            r.l_shipinstruct,
            r.l_shipmode,
            r.l_comment
        ])?;
    }
    Ok(())
}

/// The generated file in `state_dir`, generating it first if it is missing: written to a
/// temporary name and renamed, so a crash never leaves a half-filled file to be reused.
///
/// Generation costs about a second and ~300 MB of memory that stays allocated (tpchgen builds
/// dbgen's 300 MB text pool in a static), which is why it happens once per directory.
pub fn ensure_file(state_dir: &Path) -> Result<PathBuf, String> {
    static GENERATING: Mutex<()> = Mutex::new(());
    let path = state_dir.join(FILE_NAME);
    if path.is_file() {
        return Ok(path);
    }
    // Engines opened at once in one process (tests) generate once, not once each.
    let _one_at_a_time = GENERATING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if path.is_file() {
        return Ok(path);
    }
    std::fs::create_dir_all(state_dir)
        .map_err(|e| format!("cannot create {}: {e}", state_dir.display()))?;
    let temp = state_dir.join(format!("{FILE_NAME}.{}.tmp", uuid::Uuid::new_v4()));
    // Generating in memory and writing the finished database out in one pass is several
    // times faster than inserting into (and indexing) the file directly.
    let result = (|| {
        let mut conn = Connection::open_in_memory()?;
        generate(&mut conn)?;
        conn.execute("VACUUM INTO ?1", [temp.to_string_lossy()])
    })();
    if let Err(e) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(format!("generating tpch.tiny failed: {e}"));
    }
    std::fs::rename(&temp, &path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        format!("cannot store {}: {e}", path.display())
    })?;
    Ok(path)
}
