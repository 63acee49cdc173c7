//! Generates tpch.tiny at build time, so no start of the sandbox ever pays for it.
//!
//! tpchgen draws every comment from dbgen's 300 MB text pool, which takes about a second to
//! build and stays allocated; doing it here means the binary carries a finished, indexed
//! SQLite image (deflated, ~5 MB) instead, written out in milliseconds on first use
//! (src/querymesh/engine/tpch/mod.rs). Generated rows are identical to Trino's tpch connector at
//! scale factor 0.01 (trino-facts.md "tpch.tiny").

use std::path::{Path, PathBuf};

use rusqlite::{Connection, params};
use tpchgen::generators::{
    CustomerGenerator, LineItemGenerator, NationGenerator, OrderGenerator, PartGenerator,
    PartSuppGenerator, RegionGenerator, SupplierGenerator,
};

#[allow(dead_code)]
#[path = "src/querymesh/engine/tpch/schema.rs"]
mod schema;

const SCALE: f64 = 0.01;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/querymesh/engine/tpch/schema.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let image = generate_image(&out_dir).unwrap_or_else(|e| panic!("generating tpch.tiny: {e}"));
    let deflated = miniz_oxide::deflate::compress_to_vec(&image, 6);
    write(&out_dir.join("tpch-tiny.sqlite.deflate"), &deflated);
    // The digest names the file at run time, so a state directory never reuses an image an
    // older build generated with a different layout.
    write(
        &out_dir.join("tpch_image.rs"),
        format!(
            "/// Bytes of the SQLite image once inflated.\n\
             pub const IMAGE_BYTES: usize = {};\n\
             /// FNV-1a of the image, naming the file it is written to.\n\
             pub const IMAGE_DIGEST: &str = \"{:016x}\";\n",
            image.len(),
            fnv1a(&image)
        )
        .as_bytes(),
    );
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

/// Generates in memory (several times faster than on disk) and returns the vacuumed file.
fn generate_image(out_dir: &Path) -> rusqlite::Result<Vec<u8>> {
    let mut conn = Connection::open_in_memory()?;
    let tx = conn.transaction()?;
    for table in schema::TABLES {
        tx.execute_batch(&schema::create_table(table))?;
    }
    fill(&tx)?;
    for index in schema::INDEXES {
        tx.execute_batch(index)?;
    }
    tx.commit()?;
    // Planner statistics travel with the image, so the key joins use the indexes.
    conn.execute_batch("ANALYZE")?;
    let file = out_dir.join("tpch-tiny.sqlite");
    let _ = std::fs::remove_file(&file);
    conn.execute("VACUUM INTO ?1", [file.to_string_lossy()])?;
    let image =
        std::fs::read(&file).unwrap_or_else(|e| panic!("reading back {}: {e}", file.display()));
    let _ = std::fs::remove_file(&file);
    Ok(image)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Inserts every row; the column order is schema::TABLES's.
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
