//! Generates tpch.tiny at build time, so no start of the sandbox ever pays for it.
//!
//! tpchgen draws every comment from dbgen's 300 MB text pool, which takes about a second to
//! build and stays allocated; doing it here means the binary carries a finished, indexed
//! SQLite image (deflated, ~5 MB) instead, written out in milliseconds on first use
//! (src/tpch/mod.rs). Generated rows are identical to Trino's tpch connector at
//! scale factor 0.01 (trino-facts.md "tpch.tiny").

use std::path::{Path, PathBuf};

use rusqlite::Connection;

#[allow(dead_code)]
#[path = "src/tpch/schema.rs"]
mod schema;

/// The rows as SQLite rows, shared with `tpch generate` (src/tpch/generate.rs).
#[allow(dead_code)]
#[path = "src/tpch/rows.rs"]
mod rows;

const SCALE: f64 = 0.01;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/tpch/schema.rs");
    println!("cargo::rerun-if-changed=src/tpch/rows.rs");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let (image, statistics) =
        generate_image(&out_dir).unwrap_or_else(|e| panic!("generating tpch.tiny: {e}"));
    write(&out_dir.join("tpch_statistics.rs"), statistics.as_bytes());
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

/// Generates in memory (several times faster than on disk) and returns the vacuumed file and
/// the tables' statistics as Rust source.
fn generate_image(out_dir: &Path) -> rusqlite::Result<(Vec<u8>, String)> {
    let mut conn = Connection::open_in_memory()?;
    let tx = conn.transaction()?;
    for table in schema::TABLES {
        tx.execute_batch(&schema::create_table(table))?;
    }
    fill(&tx)?;
    for index in schema::INDEXES {
        tx.execute_batch(index)?;
    }
    let statistics = statistics(&tx)?;
    tx.commit()?;
    // Planner statistics travel with the image, so the key joins use the indexes.
    conn.execute_batch("ANALYZE")?;
    let file = out_dir.join("tpch-tiny.sqlite");
    let _ = std::fs::remove_file(&file);
    conn.execute("VACUUM INTO ?1", [file.to_string_lossy()])?;
    let image =
        std::fs::read(&file).unwrap_or_else(|e| panic!("reading back {}: {e}", file.display()));
    let _ = std::fs::remove_file(&file);
    Ok((image, statistics))
}

/// What Trino's cost model knows of tpch.tiny before a query runs (its tpch connector's
/// statistics): each table's row count, each column's distinct values and each text column's
/// data size, the summed length of its distinct values (SHOW STATS reports the same, computed
/// then by a query). No column of tpch holds a null. EXPLAIN prints estimates from these
/// while planning (src/sql/statements/explain/).
fn statistics(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<String> {
    let mut out = String::from(
        "/// (table, row count, [(column, distinct values, data size or NaN)]) of tpch.tiny,\n\
         /// from build.rs.\n\
         pub const TINY_STATISTICS: &[Table] = &[\n",
    );
    for table in schema::TABLES {
        let rows: i64 = tx.query_row(
            &format!("SELECT count(*) FROM \"{}\"", table.name),
            [],
            |r| r.get(0),
        )?;
        out.push_str(&format!("    (\"{}\", {rows}.0, &[", table.name));
        for (column, ty) in table.columns {
            let (distinct, size): (i64, i64) = tx.query_row(
                &format!(
                    "SELECT count(*), sum(length(v)) FROM (SELECT DISTINCT \"{column}\" AS v \
                     FROM \"{}\")",
                    table.name
                ),
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let size = match ty {
                schema::ColumnType::Varchar(_) => format!("{size}.0"),
                _ => "f64::NAN".into(),
            };
            out.push_str(&format!("(\"{column}\", {distinct}.0, {size}), "));
        }
        out.push_str("]),\n");
    }
    out.push_str("];\n");
    Ok(out)
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Inserts every table's rows, each in one part.
fn fill(tx: &rusqlite::Transaction<'_>) -> rusqlite::Result<()> {
    for table in schema::TABLES {
        let chunk = rows::Chunk::generate(table.name, SCALE, 1, 1)
            .unwrap_or_else(|| panic!("tpchgen has no table {}", table.name));
        chunk.insert(tx, &mut |_| Ok(()))?;
    }
    Ok(())
}
