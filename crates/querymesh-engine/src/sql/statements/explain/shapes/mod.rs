//! The statements whose plan Trino 476 prints the same way every time and the stand-in knows
//! node by node, built as that plan (trino_plan.rs prints it):
//!
//! - `constant_rows`: a `SELECT` of literals without FROM, a `VALUES` of literals, or
//!   `SELECT *` of one: Trino folds them into one Values node, its literals printed by type
//!   (`integer '1'`, `null::unknown`);
//! - `scan`: a `SELECT` of a tpch.tiny table's columns (`*`, names, aliases) and nothing else:
//!   one TableScan, estimated from the connector's statistics (tpch/statistics.rs);
//! - `count_per_key`: `SELECT key, count(*) … GROUP BY key` over one, docs sql/explain's
//!   example;
//! - `show_catalogs`: Trino's rewrite of SHOW CATALOGS, a sorted Values of the catalogs.
//!
//! Node ids, fragments and partitionings are those Trino 476's planner gives these shapes
//! (checked statement by statement against it); any other statement gets the stand-in's own
//! plan (own_plan.rs). `estimate`: the cost package's arithmetic the shapes share.

mod constant_rows;
mod count_per_key;
mod estimate;
mod scan;
mod show_catalogs;

use sqlparser::ast::{Expr, GroupByExpr, Query, SelectItem, SetExpr, TableFactor};

use super::trino_plan::{Drawing, Estimate, Fragment, Node, Symbol, TrinoPlan};
use crate::OutputColumn;
use crate::sql::Plan;
use crate::sql::statements::query::parse_query;
use constant_rows::constant_rows;
use count_per_key::count_per_key;
use scan::{Scan, table_scan};
use show_catalogs::show_catalogs;

/// Trino's plan of `statement` (already planned by the stand-in as `inner`), when it is one
/// of the shapes above.
pub(super) fn trino_plan(statement: &str, inner: &Plan) -> Option<TrinoPlan> {
    if is_show_catalogs(statement) {
        return show_catalogs(inner);
    }
    let (query, _) = parse_query(statement).ok()?;
    if !is_bare(&query) {
        return None;
    }
    match query.body.as_ref() {
        SetExpr::Values(values) => {
            let rows: Vec<Vec<&Expr>> = values.rows.iter().map(|r| row_items(r)).collect();
            constant_rows(&rows, "field", 3, &inner.columns)
        }
        SetExpr::Select(select) => {
            let plain = select.selection.is_none()
                && select.having.is_none()
                && select.distinct.is_none()
                && select.top.is_none()
                && select.named_window.is_empty()
                && select.qualify.is_none();
            let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(e, m) if e.is_empty() && m.is_empty());
            if !plain || (grouped && select.from.is_empty()) {
                return None;
            }
            if select.from.is_empty() {
                let row: Option<Vec<&Expr>> = select
                    .projection
                    .iter()
                    .map(|item| match item {
                        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                            Some(e)
                        }
                        _ => None,
                    })
                    .collect();
                return constant_rows(&[row?], "expr", 5, &inner.columns);
            }
            let [from] = select.from.as_slice() else {
                return None;
            };
            if !from.joins.is_empty() {
                return None;
            }
            if let Some(values) = derived_values(&from.relation) {
                // `SELECT * FROM (VALUES …) t(x, …)`: the same Values, another Output id.
                let star = matches!(select.projection.as_slice(), [SelectItem::Wildcard(_)]);
                let rows: Vec<Vec<&Expr>> = values.rows.iter().map(|r| row_items(r)).collect();
                return constant_rows(&rows, "field", 7, &inner.columns)
                    .filter(|_| star && !grouped);
            }
            let scan = Scan::of(&from.relation, inner)?;
            if grouped {
                count_per_key(select, &scan, inner)
            } else {
                table_scan(&select.projection, &scan, inner)
            }
        }
        _ => None,
    }
}

/// The rows of a derived table that is a bare VALUES.
fn derived_values(relation: &TableFactor) -> Option<&sqlparser::ast::Values> {
    let TableFactor::Derived {
        lateral: false,
        subquery,
        sample: None,
        ..
    } = relation
    else {
        return None;
    };
    match subquery.body.as_ref() {
        SetExpr::Values(values) if is_bare(subquery) => Some(values),
        _ => None,
    }
}

fn is_show_catalogs(statement: &str) -> bool {
    let words: Vec<String> = statement
        .split_whitespace()
        .map(str::to_ascii_uppercase)
        .collect();
    words == ["SHOW", "CATALOGS"]
}

/// A query with no clause beyond its body.
fn is_bare(query: &Query) -> bool {
    query.with.is_none()
        && query.order_by.is_none()
        && query.limit_clause.is_none()
        && query.fetch.is_none()
        && query.locks.is_empty()
}

fn row_items(row: &[Expr]) -> Vec<&Expr> {
    match row {
        [Expr::Tuple(items)] => items.iter().collect(),
        _ => row.iter().collect(),
    }
}

/// Trino's symbol names: `base`, then `base_0`, `base_1`, … (SymbolAllocator).
fn symbol_names(base: &str, count: usize) -> Vec<String> {
    (0..count)
        .map(|i| match i {
            0 => base.to_string(),
            _ => format!("{base}_{}", i - 1),
        })
        .collect()
}

fn symbols(names: &[String], columns: &[OutputColumn]) -> Vec<Symbol> {
    names
        .iter()
        .zip(columns)
        .map(|(name, column)| Symbol {
            name: name.clone(),
            ty: column.ty.display_name(),
        })
        .collect()
}

/// The Output node over `source`: Trino's column names, `name := symbol` where they differ,
/// and the estimate of `rows` of its symbols' `sizes`.
fn output(
    id: u32,
    columns: &[OutputColumn],
    symbol_names: &[String],
    source: Node,
    rows: f64,
    sizes: &[f64],
) -> Node {
    let names: Vec<&str> = columns.iter().map(|c| c.name.as_str()).collect();
    let details = columns
        .iter()
        .zip(symbol_names)
        .filter(|(c, s)| c.name != **s)
        .map(|(c, s)| format!("{} := {s}", c.name))
        .collect();
    Node {
        id,
        name: "Output",
        descriptor: vec![("columnNames", format!("[{}]", names.join(", ")))],
        outputs: symbols(symbol_names, columns),
        details,
        estimates: vec![Estimate::free(rows, sizes.iter().sum())],
        drawing: Drawing {
            label: format!("Output[{}]", graphviz_columns(&names)),
            details: String::new(),
            color: "white",
        },
        children: vec![source],
        remote_fragments: Vec::new(),
        input: None,
    }
}

/// GraphvizPrinter's Output columns: a line break after each 100 characters of names.
fn graphviz_columns(names: &[&str]) -> String {
    let mut text = String::new();
    let mut width = 0;
    for (i, name) in names.iter().enumerate() {
        text.push_str(name);
        width += name.chars().count();
        if i + 1 < names.len() {
            text.push_str(", ");
        }
        if width >= 100 {
            text.push_str("\\n");
            width = 0;
        }
    }
    text
}

fn single_fragment(root: Node, partitioning: &str) -> TrinoPlan {
    TrinoPlan {
        logical: root.clone(),
        fragments: vec![Fragment {
            id: 0,
            partitioning: partitioning.into(),
            output_partitioning: "SINGLE []".into(),
            root,
        }],
    }
}

fn drawing(label: impl Into<String>, details: impl Into<String>, color: &'static str) -> Drawing {
    Drawing {
        label: label.into(),
        details: details.into(),
        color,
    }
}

/// A RemoteExchange's descriptor when it repartitions (ExchangeNode, REPARTITION).
fn remote_exchange_descriptor() -> Vec<(&'static str, String)> {
    vec![
        ("partitionCount", String::new()),
        ("scaleWriters", String::new()),
        ("type", "REPARTITION".into()),
        ("isReplicateNullsAndAny", String::new()),
        ("hashColumn", "[]".into()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_are_numbered_after_the_first() {
        assert_eq!(symbol_names("expr", 3), ["expr", "expr_0", "expr_1"]);
    }
}
