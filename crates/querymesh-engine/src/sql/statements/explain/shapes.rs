//! The statements whose plan Trino 476 prints the same every time and the stand-in knows
//! node by node, built as that plan (trino_plan.rs prints it):
//!
//! - constant rows (`SELECT` of literals without FROM, or `VALUES` of literals): Trino folds
//!   them into one Values node, its literals printed by type (`integer '1'`, `null::unknown`);
//! - a `SELECT` of a tpch.tiny table's columns (`*`, names, aliases) and nothing else: one
//!   TableScan, whose estimates come from the connector's statistics (tpch/statistics.rs);
//! - `SHOW CATALOGS`: Trino's rewrite, a sorted Values of the catalogs.
//!
//! Node ids, fragments and partitionings are those Trino 476's planner gives these shapes
//! (checked statement by statement against it); any other statement gets the stand-in's own
//! plan (own_plan.rs). Estimates follow core/trino-main's cost package: PlanNodeStatsEstimate
//! `getOutputSizeForSymbol` (a value's size, one byte for its null flag, four for a variable
//! width type's offset), ValuesStatsRule (no size for non-numeric values: 50 bytes each,
//! DEFAULT_DATA_SIZE_PER_COLUMN) and TableScanStatsRule (the connector's data size).

use querymesh_values::java_number::double_to_string;
use sqlparser::ast::{
    Expr, GroupByExpr, Query, Select, SelectItem, SetExpr, TableFactor, UnaryOperator, Value,
};

use super::trino_plan::{Drawing, Estimate, Fragment, Node, Symbol, TrinoPlan};
use crate::OutputColumn;
use crate::sql::statements::query::parse_query;
use crate::sql::{Body, Plan};
use crate::tpch;
use crate::types::TrinoType;

/// What ValuesStatsRule leaves a value without a numeric form: DEFAULT_DATA_SIZE_PER_COLUMN.
const DEFAULT_VALUE_SIZE: f64 = 50.0;

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

/// A type's fixed size in bytes (FixedWidthType), `None` for variable-width types.
fn fixed_size(ty: &TrinoType) -> Option<f64> {
    Some(match ty {
        TrinoType::Boolean | TrinoType::TinyInt | TrinoType::Unknown => 1.0,
        TrinoType::SmallInt => 2.0,
        TrinoType::Integer | TrinoType::Real | TrinoType::Date => 4.0,
        TrinoType::BigInt | TrinoType::Double => 8.0,
        TrinoType::Decimal { precision, .. } if *precision <= 18 => 8.0,
        TrinoType::Decimal { .. } => 16.0,
        _ => return None,
    })
}

/// PlanNodeStatsEstimate.getOutputSizeForSymbol: `non_null` rows of `average` bytes (NaN: the
/// type's size, or the default), a null flag per row, an offset per row of a variable width.
fn symbol_size(rows: f64, non_null: f64, average: f64, ty: &TrinoType) -> f64 {
    let fixed = fixed_size(ty);
    let average = match (average.is_nan(), fixed) {
        (false, _) => average,
        (true, Some(size)) => size,
        (true, None) => DEFAULT_VALUE_SIZE,
    };
    let mut size = non_null * average + rows;
    if fixed.is_none() {
        size += rows * 4.0;
    }
    size
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

/// One Values node of literal rows, under an Output; `None` when a value is not a literal the
/// stand-in prints as Trino does.
fn constant_rows(
    rows: &[Vec<&Expr>],
    base: &str,
    output_id: u32,
    columns: &[OutputColumn],
) -> Option<TrinoPlan> {
    let width = columns.len();
    if rows.is_empty() || rows.iter().any(|r| r.len() != width) {
        return None;
    }
    let names = symbol_names(base, width);
    let mut details = Vec::new();
    let mut nulls = vec![0usize; width];
    for row in rows {
        let mut values = Vec::new();
        for (i, (expr, column)) in row.iter().zip(columns).enumerate() {
            let value = literal(expr, &column.ty)?;
            if value.is_none() {
                nulls[i] += 1;
            }
            values.push(value.unwrap_or_else(|| format!("null::{}", column.ty.display_name())));
        }
        details.push(format!("({})", values.join(", ")));
    }
    let count = rows.len() as f64;
    let sizes: Vec<f64> = columns
        .iter()
        .zip(&nulls)
        .map(|(c, &n)| symbol_size(count, count - n as f64, f64::NAN, &c.ty))
        .collect();
    let size: f64 = sizes.iter().sum();
    let values = Node {
        id: 0,
        name: "Values",
        descriptor: Vec::new(),
        outputs: symbols(&names, columns),
        details,
        estimates: vec![Estimate::free(count, size)],
        children: Vec::new(),
        drawing: Drawing {
            label: "Values".into(),
            details: String::new(),
            color: "deepskyblue",
        },
        remote_fragments: Vec::new(),
    };
    let root = output(output_id, columns, &names, values, count, &sizes);
    Some(single_fragment(root, "SINGLE"))
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

/// A literal as Trino's plan prints a constant of `ty`: `Some(None)` for NULL, `None` when it
/// is not a literal of that type.
fn literal(expr: &Expr, ty: &TrinoType) -> Option<Option<String>> {
    let (negative, value) = match expr {
        Expr::Nested(inner) => return literal(inner, ty),
        Expr::UnaryOp {
            op: op @ (UnaryOperator::Minus | UnaryOperator::Plus),
            expr,
        } => match expr.as_ref() {
            Expr::Value(v) if matches!(v.value, Value::Number(..)) => {
                (*op == UnaryOperator::Minus, &v.value)
            }
            _ => return None,
        },
        Expr::Value(v) => (false, &v.value),
        _ => return None,
    };
    let text = match value {
        Value::Null => return Some(None),
        Value::Boolean(b) if *ty == TrinoType::Boolean => format!("'{b}'"),
        Value::SingleQuotedString(s) if matches!(ty, TrinoType::Varchar(Some(_))) => {
            format!("'{s}'")
        }
        Value::Number(digits, _) => format!("'{}'", number(digits, negative, ty)?),
        _ => return None,
    };
    Some(Some(format!("{} {text}", ty.display_name())))
}

/// A numeric literal's value as Trino prints one of `ty`.
fn number(digits: &str, negative: bool, ty: &TrinoType) -> Option<String> {
    if !digits
        .chars()
        .all(|c| c.is_ascii_digit() || ".eE+-".contains(c))
    {
        return None;
    }
    let exponent = digits.contains(['e', 'E']);
    let point = digits.contains('.');
    match ty {
        TrinoType::Integer | TrinoType::BigInt if !exponent && !point => {
            let value: i128 = digits.parse().ok()?;
            Some((if negative { -value } else { value }).to_string())
        }
        TrinoType::Double if exponent => {
            let value: f64 = digits.parse().ok()?;
            Some(double_to_string(if negative { -value } else { value }))
        }
        TrinoType::Decimal { scale, .. } if point && !exponent => {
            decimal(digits, negative, usize::from(*scale))
        }
        _ => None,
    }
}

/// A decimal literal with `scale` digits after the point (`.5` is `0.5`, `-0.0` is `0.0`).
fn decimal(digits: &str, negative: bool, scale: usize) -> Option<String> {
    let (whole, fraction) = digits.split_once('.')?;
    if fraction.len() != scale {
        return None;
    }
    let whole = whole.trim_start_matches('0');
    let zero = whole.is_empty() && fraction.chars().all(|c| c == '0');
    let sign = if negative && !zero { "-" } else { "" };
    let whole = if whole.is_empty() { "0" } else { whole };
    Some(match scale {
        0 => format!("{sign}{whole}"),
        _ => format!("{sign}{whole}.{fraction}"),
    })
}

/// The tpch connector's discrete or ranged values of a column it can filter on
/// (TpchMetadata: orders.orderstatus, part.type, part.container), printed under its assignment.
fn connector_constraint(table: &str, column: &str) -> Option<&'static str> {
    match (table, column) {
        ("orders", "orderstatus") => Some("    :: [[F], [O], [P]]"),
        ("part", "type") => Some("    :: [[ECONOMY ANODIZED BRASS, STANDARD POLISHED TIN]]"),
        ("part", "container") => Some("    :: [[JUMBO BAG, WRAP PKG]]"),
        _ => None,
    }
}

/// One tpch.tiny table a query reads as it is (no row filter or column mask applies).
struct Scan {
    table: String,
    statistics: tpch::statistics::TableStatistics,
    columns: Vec<(&'static str, TrinoType)>,
}

impl Scan {
    fn of(relation: &TableFactor, inner: &Plan) -> Option<Self> {
        let TableFactor::Table { args: None, .. } = relation else {
            return None;
        };
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

    fn column(&self, name: &str) -> Option<&(&'static str, TrinoType)> {
        self.columns.iter().find(|(c, _)| *c == name)
    }

    /// The column an expression names (`name`, `t.name`).
    fn column_of(&self, expr: &Expr) -> Option<&'static str> {
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
    fn size(&self, column: &str, rows: f64) -> Option<f64> {
        let (_, ty) = self.column(column)?;
        let average = self
            .statistics
            .data_size(column)
            .map_or(f64::NAN, |size| size / self.statistics.rows);
        Some(symbol_size(rows, rows, average, ty))
    }

    fn symbol(&self, column: &str) -> Option<Symbol> {
        let (name, ty) = self.column(column)?;
        Some(Symbol {
            name: (*name).into(),
            ty: ty.display_name(),
        })
    }

    /// The TableScan of `picked` columns: each read once, in the table's order.
    fn node(&self, picked: &[&str]) -> Option<Node> {
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
        let keys: Vec<(&str, String)> = scanned
            .iter()
            .map(|(c, ty)| (*c, ty.display_name()))
            .collect();
        let mut details = Vec::new();
        for i in super::assignment_order::order(&keys) {
            let column = keys.get(i)?.0;
            details.push(format!("{column} := tpch:{column}"));
            if let Some(constraint) = connector_constraint(&self.table, column) {
                details.push(constraint.into());
            }
        }
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
        })
    }

    /// The connector partitions orders and lineitem by order key
    /// (TpchNodePartitioningProvider), its other tables by split.
    fn partitioning(&self) -> Option<String> {
        Some(match self.table.as_str() {
            "orders" | "lineitem" => {
                format!("tpch:orders:{}", tpch::statistics::tiny("orders")?.rows)
            }
            _ => "SOURCE".into(),
        })
    }
}

fn drawing(label: impl Into<String>, details: impl Into<String>, color: &'static str) -> Drawing {
    Drawing {
        label: label.into(),
        details: details.into(),
        color,
    }
}

/// Java's `DoubleStream.sum()`: Kahan's compensated sum, as JDK 18 and later finish it.
fn java_sum(values: &[f64]) -> f64 {
    let (mut sum, mut compensation, mut simple) = (0.0f64, 0.0f64, 0.0f64);
    for &value in values {
        let corrected = value - compensation;
        let next = sum + corrected;
        compensation = (next - sum) - corrected;
        sum = next;
        simple += value;
    }
    let total = sum - compensation;
    if total.is_nan() && simple.is_infinite() {
        simple
    } else {
        total
    }
}

/// A SELECT of plain columns of one tpch.tiny table: Output over one TableScan.
fn table_scan(projection: &[SelectItem], scan: &Scan, inner: &Plan) -> Option<TrinoPlan> {
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

/// `SELECT key, count(*) FROM t GROUP BY key` (in either order, either named or by ordinal),
/// as Trino plans it: a partial count per key where the table is read, a repartition by the
/// key, the final count (AggregationStatsRule: one row per distinct key).
fn count_per_key(select: &Select, scan: &Scan, inner: &Plan) -> Option<TrinoPlan> {
    let GroupByExpr::Expressions(keys, modifiers) = &select.group_by else {
        return None;
    };
    let ([key_expr], true) = (keys.as_slice(), modifiers.is_empty()) else {
        return None;
    };
    let items: Vec<&Expr> = select
        .projection
        .iter()
        .map(|item| match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let is_count =
        |e: &Expr| matches!(e, Expr::Function(_)) && e.to_string().eq_ignore_ascii_case("count(*)");
    let [first, second] = items.as_slice() else {
        return None;
    };
    let (key_first, key_item) = match (is_count(first), is_count(second)) {
        (false, true) => (true, *first),
        (true, false) => (false, *second),
        _ => return None,
    };
    let key = scan.column_of(key_item)?;
    let grouped = match key_expr {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n == if key_first { "1" } else { "2" },
            _ => false,
        },
        e => scan.column_of(e) == Some(key),
    };
    if !grouped || inner.columns.len() != 2 {
        return None;
    }
    let key_symbol = scan.symbol(key)?;
    let (_, key_type) = scan.column(key)?;
    let bigint = |name: &str| Symbol {
        name: name.into(),
        ty: "bigint".into(),
    };
    let count_size = |rows: f64| symbol_size(rows, rows, f64::NAN, &TrinoType::BigInt);
    let rows = scan.statistics.rows;
    let groups = scan.statistics.distinct_values(key)?;
    let partial_size = java_sum(&[scan.size(key, rows)?, count_size(rows)]);
    let final_sizes = [scan.size(key, groups)?, count_size(groups)];
    let final_size = java_sum(&final_sizes);
    let keys_text = format!("[{key}]");
    let partial_outputs = vec![key_symbol.clone(), bigint("count_0")];
    let aggregate = |id: u32,
                     step: &'static str,
                     details: &str,
                     symbol: &str,
                     estimate: Estimate,
                     outputs: Vec<Symbol>,
                     child: Node| Node {
        id,
        name: "Aggregate",
        descriptor: vec![
            ("type", step.into()),
            ("keys", keys_text.clone()),
            ("hash", "[]".into()),
        ],
        outputs,
        details: vec![format!("{symbol} := {details}")],
        estimates: vec![estimate],
        children: vec![child],
        drawing: drawing(
            format!("Aggregate[{step}]"),
            format!("{symbol}::[bigint] := {details}\\n"),
            "chartreuse3",
        ),
        remote_fragments: Vec::new(),
    };
    let partial = aggregate(
        190,
        "PARTIAL",
        "count(*)",
        "count_0",
        Estimate {
            cpu: f64::NAN,
            memory: f64::NAN,
            network: f64::NAN,
            ..Estimate::free(rows, partial_size)
        },
        partial_outputs.clone(),
        scan.node(&[key])?,
    );
    let argument = format!("{key}::{}", key_type.display_name());
    let repartitioned = |source: Node| Node {
        id: 186,
        name: "LocalExchange",
        descriptor: vec![
            ("partitioning", "HASH".into()),
            ("isReplicateNullsAndAny", String::new()),
            ("hashColumn", "[]".into()),
            ("arguments", format!("[{argument}]")),
        ],
        outputs: partial_outputs.clone(),
        details: Vec::new(),
        estimates: vec![Estimate {
            cpu: partial_size,
            ..Estimate::free(rows, partial_size)
        }],
        children: vec![source],
        drawing: drawing("ExchangeNode[REPARTITION]", argument.clone(), "gold"),
        remote_fragments: Vec::new(),
    };
    let counted = |source: Node| {
        let estimate = Estimate {
            cpu: partial_size,
            memory: final_size,
            ..Estimate::free(groups, final_size)
        };
        aggregate(
            4,
            "FINAL",
            "count(count_0)",
            "count",
            estimate,
            vec![key_symbol.clone(), bigint("count")],
            repartitioned(source),
        )
    };
    let (symbols, sizes) = if key_first {
        (vec![key.to_string(), "count".into()], final_sizes)
    } else {
        (
            vec!["count".into(), key.to_string()],
            [final_sizes[1], final_sizes[0]],
        )
    };
    let exchange = Node {
        id: 192,
        name: "RemoteExchange",
        descriptor: remote_exchange_descriptor(),
        outputs: partial_outputs.clone(),
        details: Vec::new(),
        estimates: vec![Estimate {
            cpu: partial_size,
            network: partial_size,
            ..Estimate::free(rows, partial_size)
        }],
        children: vec![partial.clone()],
        drawing: drawing("ExchangeNode[REPARTITION]", argument.clone(), "gold"),
        remote_fragments: Vec::new(),
    };
    let source = Node {
        id: 192,
        name: "RemoteSource",
        descriptor: vec![("sourceFragmentIds", "[1]".into())],
        outputs: partial_outputs.clone(),
        details: Vec::new(),
        estimates: Vec::new(),
        children: Vec::new(),
        drawing: drawing("Exchange 1:N", "", "gold"),
        remote_fragments: vec![1],
    };
    let logical = output(
        9,
        &inner.columns,
        &symbols,
        counted(exchange),
        groups,
        &sizes,
    );
    let top = output(9, &inner.columns, &symbols, counted(source), groups, &sizes);
    Some(TrinoPlan {
        logical,
        fragments: vec![
            Fragment {
                id: 0,
                partitioning: "HASH".into(),
                output_partitioning: "SINGLE []".into(),
                root: top,
            },
            Fragment {
                id: 1,
                partitioning: scan.partitioning()?,
                output_partitioning: format!("HASH [{key}]"),
                root: partial,
            },
        ],
    })
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

/// SHOW CATALOGS as Trino plans its rewrite: a Values of the catalogs, sorted, gathered.
fn show_catalogs(inner: &Plan) -> Option<TrinoPlan> {
    let Body::Rows(rows) = &inner.body else {
        return None;
    };
    let [column] = inner.columns.as_slice() else {
        return None;
    };
    let ty = column.ty.display_name();
    let field = || {
        vec![Symbol {
            name: "field".into(),
            ty: ty.clone(),
        }]
    };
    let count = rows.len() as f64;
    let size = symbol_size(count, count, f64::NAN, &column.ty);
    let order = "[field ASC NULLS LAST]".to_string();
    let node = |id: u32,
                name: &'static str,
                descriptor: Vec<(&'static str, String)>,
                estimates: Vec<Estimate>,
                drawing: Drawing,
                children: Vec<Node>| Node {
        id,
        name,
        descriptor,
        outputs: field(),
        details: Vec::new(),
        estimates,
        children,
        drawing,
        remote_fragments: Vec::new(),
    };
    let draw = |label: String, details: String, color: &'static str| Drawing {
        label,
        details,
        color,
    };
    let gather = || {
        draw(
            "ExchangeNode[GATHER]".into(),
            format!("field::{ty}"),
            "gold",
        )
    };
    let unknown = Estimate {
        cpu: f64::NAN,
        memory: f64::NAN,
        network: f64::NAN,
        ..Estimate::free(count, size)
    };
    let values = {
        let mut v = node(
            0,
            "Values",
            Vec::new(),
            vec![Estimate::free(count, size)],
            draw("Values".into(), String::new(), "deepskyblue"),
            Vec::new(),
        );
        v.details = rows
            .iter()
            .map(|r| Some(format!("({ty} '{}')", r.first()?.as_str()?)))
            .collect::<Option<_>>()?;
        v
    };
    let sort = |child: Node| {
        node(
            125,
            "PartialSort",
            vec![("orderBy", order.clone())],
            vec![unknown],
            draw(format!("Sort[field::[{ty}]]"), String::new(), "aliceblue"),
            vec![child],
        )
    };
    let local_merge = |child: Node| {
        node(
            158,
            "LocalMerge",
            vec![("orderBy", order.clone())],
            vec![Estimate::free(count, size)],
            gather(),
            vec![child],
        )
    };
    let outputs = [OutputColumn {
        name: column.name.clone(),
        ty: column.ty.clone(),
    }];
    let names = ["field".to_string()];

    let exchange = node(
        123,
        "RemoteExchange",
        remote_exchange_descriptor(),
        vec![Estimate {
            cpu: size,
            network: size,
            ..Estimate::free(count, size)
        }],
        draw("ExchangeNode[REPARTITION]".into(), String::new(), "gold"),
        vec![values.clone()],
    );
    let remote_merge = node(
        124,
        "RemoteMerge",
        vec![("orderBy", order.clone())],
        vec![Estimate {
            network: size,
            ..Estimate::free(count, size)
        }],
        gather(),
        vec![local_merge(sort(exchange))],
    );
    let logical = output(7, &outputs, &names, remote_merge, count, &[size]);

    let remote = |id: u32, name: &'static str, fragment: usize, label: &str| {
        let mut n = node(
            id,
            name,
            vec![("sourceFragmentIds", format!("[{fragment}]"))],
            Vec::new(),
            draw(label.into(), String::new(), "gold"),
            Vec::new(),
        );
        n.remote_fragments = vec![fragment];
        n
    };
    let fragment =
        |id: usize, partitioning: &str, output_partitioning: &'static str, root: Node| Fragment {
            id,
            partitioning: partitioning.into(),
            output_partitioning: output_partitioning.into(),
            root,
        };
    let top = output(
        7,
        &outputs,
        &names,
        remote(124, "RemoteMerge", 1, "Merge 1:N"),
        count,
        &[size],
    );
    Some(TrinoPlan {
        logical,
        fragments: vec![
            fragment(0, "SINGLE", "SINGLE []", top),
            fragment(
                1,
                "ROUND_ROBIN",
                "SINGLE []",
                local_merge(sort(remote(123, "RemoteSource", 2, "Exchange 1:N"))),
            ),
            fragment(2, "SINGLE", "ROUND_ROBIN []", values),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_print_with_their_scale() {
        assert_eq!(decimal(".5", false, 1).as_deref(), Some("0.5"));
        assert_eq!(decimal("007.50", false, 2).as_deref(), Some("7.50"));
        assert_eq!(decimal("0.0", true, 1).as_deref(), Some("0.0"));
        assert_eq!(decimal("2.5", true, 1).as_deref(), Some("-2.5"));
        assert_eq!(decimal("2.5", false, 2), None);
    }

    #[test]
    fn symbols_are_numbered_after_the_first() {
        assert_eq!(symbol_names("expr", 3), ["expr", "expr_0", "expr_1"]);
    }
}
