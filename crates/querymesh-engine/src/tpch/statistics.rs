//! tpch.tiny's statistics as Trino's cost model reads them while planning (its tpch
//! connector's): row counts, distinct values and text columns' data sizes, computed by
//! build.rs from the generated rows, so a plan's estimates need no query.

/// (column, distinct values, data size of a text column or NaN).
type Column = (&'static str, f64, f64);
/// (table, row count, its columns).
type Table = (&'static str, f64, &'static [Column]);

include!(concat!(env!("OUT_DIR"), "/tpch_statistics.rs"));

/// What the planner knows of one tpch.tiny table.
#[derive(Clone, Copy, Debug)]
pub struct TableStatistics {
    pub rows: f64,
    columns: &'static [Column],
}

impl TableStatistics {
    /// The summed length of a text column's distinct values; `None` for other columns.
    pub fn data_size(&self, column: &str) -> Option<f64> {
        self.column(column)
            .map(|&(_, _, size)| size)
            .filter(|size| !size.is_nan())
    }

    /// A column's count of distinct values.
    pub fn distinct_values(&self, column: &str) -> Option<f64> {
        self.column(column).map(|&(_, distinct, _)| distinct)
    }

    fn column(&self, column: &str) -> Option<&Column> {
        self.columns.iter().find(|(name, ..)| *name == column)
    }
}

/// The statistics of tpch.tiny `table`.
pub fn tiny(table: &str) -> Option<TableStatistics> {
    TINY_STATISTICS
        .iter()
        .find(|(name, ..)| *name == table)
        .map(|&(_, rows, columns)| TableStatistics { rows, columns })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Trino 476's SHOW STATS FOR tpch.tiny.nation / orders (row_count, data_size).
    #[test]
    fn agree_with_trinos_connector() {
        let nation = tiny("nation").expect("nation");
        assert_eq!(nation.rows, 25.0);
        assert_eq!(nation.data_size("name"), Some(177.0));
        assert_eq!(nation.data_size("regionkey"), None);
        assert_eq!(nation.distinct_values("regionkey"), Some(5.0));
        let orders = tiny("orders").expect("orders");
        assert_eq!(orders.rows, 15000.0);
        assert_eq!(orders.data_size("orderstatus"), Some(3.0));
        assert_eq!(orders.data_size("comment"), Some(727249.0));
        assert_eq!(orders.distinct_values("totalprice"), Some(14996.0));
        assert!(tiny("nosuch").is_none());
    }
}
