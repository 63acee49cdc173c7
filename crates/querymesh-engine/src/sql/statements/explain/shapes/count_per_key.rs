//! `SELECT key, count(*) FROM t GROUP BY key`, docs sql/explain's own example: Trino's
//! two-step aggregation, a partial count where the table is read and the final count after a
//! repartition by the key.

use sqlparser::ast::{Expr, GroupByExpr, Select, SelectItem, Value};

use super::estimate::{java_sum, symbol_size};
use super::scan::Scan;
use super::{drawing, output, remote_exchange_descriptor};
use crate::sql::Plan;
use crate::sql::statements::explain::trino_plan::{Estimate, Fragment, Node, Symbol, TrinoPlan};
use crate::types::TrinoType;

/// `SELECT key, count(*) FROM t GROUP BY key` (in either order, either named or by ordinal),
/// as Trino plans it: a partial count per key where the table is read, a repartition by the
/// key, the final count (AggregationStatsRule: one row per distinct key).
pub(super) fn count_per_key(select: &Select, scan: &Scan, inner: &Plan) -> Option<TrinoPlan> {
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
        input: None,
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
        input: None,
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
        input: None,
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
        input: None,
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
