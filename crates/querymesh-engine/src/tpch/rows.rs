//! tpchgen's rows as SQLite rows, in the column order of [`super::schema::TABLES`]: one
//! definition shared by the build script (tpch.tiny, in one part) and `tpch generate`
//! (sf<N>, in many parts, on other threads than the one writing).
//!
//! A part `k` of `n` is tpchgen's own split of a table (`Generator::new(scale, k, n)`): the
//! parts in order are the rows of the whole table in key order, identical to Trino's, so
//! each part appends to the end of the table's clustered index.

use rusqlite::{Connection, params};

use tpchgen::generators::{
    Customer, CustomerGenerator, LineItem, LineItemGenerator, Nation, NationGenerator, Order,
    OrderGenerator, Part, PartGenerator, PartSupp, PartSuppGenerator, Region, RegionGenerator,
    Supplier, SupplierGenerator,
};

use super::schema::{TABLES, TableSchema};

/// How many rows pass between two calls of an insert's progress callback.
pub const PROGRESS_STEP: u64 = 8192;

/// One part of one table's rows, generated and not yet written.
pub enum Chunk {
    Nation(Vec<Nation<'static>>),
    Region(Vec<Region<'static>>),
    Part(Vec<Part<'static>>),
    Supplier(Vec<Supplier>),
    PartSupp(Vec<PartSupp<'static>>),
    Customer(Vec<Customer<'static>>),
    Orders(Vec<Order<'static>>),
    LineItem(Vec<LineItem<'static>>),
}

/// Rows of `table` at `scale` (lineitem's is an estimate: one to seven lines per order,
/// four on average).
pub fn estimated_rows(table: &str, scale: f64) -> u64 {
    let count = match table {
        "nation" => 25,
        "region" => 5,
        "part" => PartGenerator::calculate_row_count(scale, 1, 1),
        "supplier" => SupplierGenerator::calculate_row_count(scale, 1, 1),
        // Counted in parts, four suppliers each.
        "partsupp" => PartSuppGenerator::calculate_row_count(scale, 1, 1).saturating_mul(4),
        "customer" => CustomerGenerator::calculate_row_count(scale, 1, 1),
        "orders" => OrderGenerator::calculate_row_count(scale, 1, 1),
        "lineitem" => OrderGenerator::calculate_row_count(scale, 1, 1).saturating_mul(4),
        _ => 0,
    };
    u64::try_from(count).unwrap_or(0)
}

impl Chunk {
    /// Part `part` of `parts` (1-based) of `table` at `scale`; `None` for a table tpch does
    /// not have. nation and region do not scale: ask for them in one part.
    pub fn generate(table: &str, scale: f64, part: i32, parts: i32) -> Option<Self> {
        Some(match table {
            "nation" => Self::Nation(NationGenerator::new(scale, part, parts).iter().collect()),
            "region" => Self::Region(RegionGenerator::new(scale, part, parts).iter().collect()),
            "part" => Self::Part(PartGenerator::new(scale, part, parts).iter().collect()),
            "supplier" => {
                Self::Supplier(SupplierGenerator::new(scale, part, parts).iter().collect())
            }
            "partsupp" => {
                Self::PartSupp(PartSuppGenerator::new(scale, part, parts).iter().collect())
            }
            "customer" => {
                Self::Customer(CustomerGenerator::new(scale, part, parts).iter().collect())
            }
            "orders" => Self::Orders(OrderGenerator::new(scale, part, parts).iter().collect()),
            "lineitem" => {
                Self::LineItem(LineItemGenerator::new(scale, part, parts).iter().collect())
            }
            _ => return None,
        })
    }

    /// The table this chunk belongs to.
    pub fn table(&self) -> &'static str {
        match self {
            Self::Nation(_) => "nation",
            Self::Region(_) => "region",
            Self::Part(_) => "part",
            Self::Supplier(_) => "supplier",
            Self::PartSupp(_) => "partsupp",
            Self::Customer(_) => "customer",
            Self::Orders(_) => "orders",
            Self::LineItem(_) => "lineitem",
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn len(&self) -> usize {
        match self {
            Self::Nation(r) => r.len(),
            Self::Region(r) => r.len(),
            Self::Part(r) => r.len(),
            Self::Supplier(r) => r.len(),
            Self::PartSupp(r) => r.len(),
            Self::Customer(r) => r.len(),
            Self::Orders(r) => r.len(),
            Self::LineItem(r) => r.len(),
        }
    }

    /// Inserts every row on `conn`, in the caller's transaction, with one prepared statement;
    /// calls `progress` with the rows written so far every [`PROGRESS_STEP`] rows, and stops
    /// with its error when it returns one (a cancel).
    pub fn insert(
        &self,
        conn: &Connection,
        progress: &mut dyn FnMut(u64) -> rusqlite::Result<()>,
    ) -> rusqlite::Result<()> {
        let table = TABLES
            .iter()
            .find(|t| t.name == self.table())
            .ok_or(rusqlite::Error::InvalidQuery)?;
        let mut s = conn.prepare_cached(&insert_sql(table))?;
        let mut written = 0u64;
        let mut step = |written: &mut u64| {
            *written += 1;
            if (*written).is_multiple_of(PROGRESS_STEP) {
                progress(*written)
            } else {
                Ok(())
            }
        };
        match self {
            Self::Nation(rows) => {
                for n in rows {
                    s.execute(params![n.n_nationkey, n.n_name, n.n_regionkey, n.n_comment])?;
                    step(&mut written)?;
                }
            }
            Self::Region(rows) => {
                for r in rows {
                    s.execute(params![r.r_regionkey, r.r_name, r.r_comment])?;
                    step(&mut written)?;
                }
            }
            Self::Part(rows) => {
                for p in rows {
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
                    step(&mut written)?;
                }
            }
            Self::Supplier(rows) => {
                for r in rows {
                    s.execute(params![
                        r.s_suppkey,
                        r.s_name.to_string(),
                        r.s_address.to_string(),
                        r.s_nationkey,
                        r.s_phone.to_string(),
                        r.s_acctbal.as_f64(),
                        r.s_comment
                    ])?;
                    step(&mut written)?;
                }
            }
            Self::PartSupp(rows) => {
                for r in rows {
                    s.execute(params![
                        r.ps_partkey,
                        r.ps_suppkey,
                        r.ps_availqty,
                        r.ps_supplycost.as_f64(),
                        r.ps_comment
                    ])?;
                    step(&mut written)?;
                }
            }
            Self::Customer(rows) => {
                for r in rows {
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
                    step(&mut written)?;
                }
            }
            Self::Orders(rows) => {
                for r in rows {
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
                    step(&mut written)?;
                }
            }
            Self::LineItem(rows) => {
                for r in rows {
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
                    step(&mut written)?;
                }
            }
        }
        Ok(())
    }
}

/// `INSERT INTO "t" VALUES (?1, …)` with one parameter per column of `table`.
fn insert_sql(table: &TableSchema) -> String {
    let params: Vec<String> = (1..=table.columns.len()).map(|i| format!("?{i}")).collect();
    format!(
        "INSERT INTO \"{}\" VALUES ({})",
        table.name,
        params.join(", ")
    )
}
