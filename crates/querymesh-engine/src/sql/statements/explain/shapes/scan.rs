//! A tpch.tiny table read as it is: one TableScan, estimated from the connector's statistics
//! (TableScanStatsRule), its assignments in Trino's hash order (assignment_order.rs).

use sqlparser::ast::{Expr, SelectItem, TableFactor};

use super::estimate::{java_sum, symbol_size};
use super::{drawing, output, single_fragment};
use crate::sql::Plan;
use crate::sql::statements::explain::assignment_order;
use crate::sql::statements::explain::trino_plan::{
    ColumnConstraint, Estimate, Node, Symbol, TableInput, TrinoPlan,
};
use crate::tpch;
use crate::types::TrinoType;

/// The values the tpch connector knows a column it can filter on holds (TpchMetadata:
/// orders.orderstatus, and part.type and part.container between the TPC-H lists' least and
/// greatest words), as ranges from low to high (equal for a discrete value).
fn connector_constraint(
    table: &str,
    column: &str,
) -> Option<&'static [(&'static str, &'static str)]> {
    match (table, column) {
        ("orders", "orderstatus") => Some(&[("F", "F"), ("O", "O"), ("P", "P")]),
        ("part", "type") => Some(&[("ECONOMY ANODIZED BRASS", "STANDARD POLISHED TIN")]),
        ("part", "container") => Some(&[("JUMBO BAG", "WRAP PKG")]),
        _ => None,
    }
}

/// A constraint as the text plan prints it under its assignment: `:: [[F], [O], [P]]`.
fn constraint_text(ranges: &[(&str, &str)]) -> String {
    let ranges: Vec<String> = ranges
        .iter()
        .map(|(low, high)| match low == high {
            true => format!("[{low}]"),
            false => format!("[{low}, {high}]"),
        })
        .collect();
    format!("    :: [{}]", ranges.join(", "))
}

/// One tpch.tiny table a query reads as it is (no row filter or column mask applies).
pub(super) struct Scan {
    pub(super) table: String,
    pub(super) statistics: tpch::statistics::TableStatistics,
    pub(super) columns: Vec<(&'static str, TrinoType)>,
}

impl Scan {
    pub(super) fn of(relation: &TableFactor, inner: &Plan) -> Option<Self> {
        // The table itself: no sample, version, hints or arguments (Trino plans those).
        let TableFactor::Table {
            args: None,
            with_hints,
            version: None,
            with_ordinality: false,
            partitions,
            json_path: None,
            sample: None,
            index_directives,
            ..
        } = relation
        else {
            return None;
        };
        if !(with_hints.is_empty() && partitions.is_empty() && index_directives.is_empty()) {
            return None;
        }
        let [read] = inner.reads.as_slice() else {
            return None;
        };
        let plain = read.filters.is_empty() && read.masks.is_empty();
        if read.catalog != "tpch" || read.schema != "tiny" || !plain {
            return None;
        }
        let (_, columns) = tpch::tables()
            .into_iter()
            .find(|(name, _)| *name == read.table)?;
        Some(Self {
            statistics: tpch::statistics::tiny(&read.table)?,
            table: read.table.clone(),
            columns,
        })
    }

    pub(super) fn column(&self, name: &str) -> Option<&(&'static str, TrinoType)> {
        self.columns.iter().find(|(c, _)| *c == name)
    }

    /// The column an expression names (`name`, `t.name`).
    pub(super) fn column_of(&self, expr: &Expr) -> Option<&'static str> {
        let ident = match expr {
            Expr::Identifier(i) => i,
            Expr::CompoundIdentifier(parts) => parts.last()?,
            _ => return None,
        };
        let name = match ident.quote_style {
            Some(_) => ident.value.clone(),
            None => ident.value.to_ascii_lowercase(),
        };
        self.column(&name).map(|(c, _)| *c)
    }

    /// The size of `rows` rows of `column`, each of the table's average size.
    pub(super) fn size(&self, column: &str, rows: f64) -> Option<f64> {
        let (_, ty) = self.column(column)?;
        let average = self
            .statistics
            .data_size(column)
            .map_or(f64::NAN, |size| size / self.statistics.rows);
        Some(symbol_size(rows, rows, average, ty))
    }

    pub(super) fn symbol(&self, column: &str) -> Option<Symbol> {
        let (name, ty) = self.column(column)?;
        Some(Symbol {
            name: (*name).into(),
            ty: ty.display_name(),
        })
    }

    /// The TableScan of `picked` columns: each read once, in the table's order.
    pub(super) fn node(&self, picked: &[&str]) -> Option<Node> {
        let scanned: Vec<&(&str, TrinoType)> = self
            .columns
            .iter()
            .filter(|(name, _)| picked.contains(name))
            .collect();
        let sizes: Option<Vec<f64>> = scanned
            .iter()
            .map(|(c, _)| self.size(c, self.statistics.rows))
            .collect();
        let size = java_sum(&sizes?);
        let keys: Vec<(&str, TrinoType)> = scanned.iter().map(|(c, ty)| (*c, ty.clone())).collect();
        let mut details = Vec::new();
        for i in assignment_order::order(&keys)? {
            let column = keys.get(i)?.0;
            details.push(format!("{column} := tpch:{column}"));
            if let Some(ranges) = connector_constraint(&self.table, column) {
                details.push(constraint_text(ranges));
            }
        }
        // EXPLAIN (TYPE IO) lists them by name (two columns of part at most).
        let mut constraints: Vec<ColumnConstraint> = scanned
            .iter()
            .filter_map(|(column, ty)| {
                let ranges = connector_constraint(&self.table, column)?;
                Some(ColumnConstraint {
                    column: (*column).into(),
                    ty: ty.display_name(),
                    ranges: ranges.iter().map(|&(l, h)| (l.into(), h.into())).collect(),
                })
            })
            .collect();
        constraints.sort_by(|a, b| a.column.cmp(&b.column));
        let table = format!("tpch:tiny:{}", self.table);
        Some(Node {
            id: 0,
            name: "TableScan",
            descriptor: vec![("table", table.clone())],
            outputs: scanned
                .iter()
                .map(|(c, _)| self.symbol(c))
                .collect::<Option<_>>()?,
            details,
            estimates: vec![Estimate {
                cpu: size,
                ..Estimate::free(self.statistics.rows, size)
            }],
            children: Vec::new(),
            drawing: drawing(format!("TableScan[{table}]"), "", "deepskyblue"),
            remote_fragments: Vec::new(),
            input: Some(TableInput {
                catalog: "tpch".into(),
                schema: "tiny".into(),
                table: self.table.clone(),
                constraints,
            }),
        })
    }

    /// The connector partitions orders and lineitem by order key
    /// (TpchNodePartitioningProvider), its other tables by split.
    pub(super) fn partitioning(&self) -> Option<String> {
        Some(match self.table.as_str() {
            "orders" | "lineitem" => {
                format!("tpch:orders:{}", tpch::statistics::tiny("orders")?.rows)
            }
            _ => "SOURCE".into(),
        })
    }
}

/// A SELECT of plain columns of one tpch.tiny table: Output over one TableScan.
pub(super) fn table_scan(
    projection: &[SelectItem],
    scan: &Scan,
    inner: &Plan,
) -> Option<TrinoPlan> {
    let mut picked: Vec<&str> = Vec::new();
    for item in projection {
        match item {
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..) => {
                picked.extend(scan.columns.iter().map(|(name, _)| *name));
            }
            SelectItem::ExprWithAliases { .. } => return None,
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                picked.push(scan.column_of(e)?);
            }
        }
    }
    if picked.len() != inner.columns.len() {
        return None;
    }
    let rows = scan.statistics.rows;
    let sizes: Option<Vec<f64>> = picked.iter().map(|c| scan.size(c, rows)).collect();
    let names: Vec<String> = picked.iter().map(|c| (*c).to_string()).collect();
    let root = output(
        5,
        &inner.columns,
        &names,
        scan.node(&picked)?,
        rows,
        &sizes?,
    );
    Some(single_fragment(root, &scan.partitioning()?))
}
