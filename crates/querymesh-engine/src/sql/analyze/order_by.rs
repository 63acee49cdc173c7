//! ORDER BY of a SELECT (positions, output references, Trino's NULLS LAST, DISTINCT's
//! restriction) and FETCH FIRST … WITH TIES, which SQLite lacks: a rank() window keeps the
//! rows tied with the last one fetched.

use querymesh_functions::array::sqlite::QM_SORT_KEY;
use querymesh_values::sqlite_expr::{
    BinaryOp, FromItem, Nulls, OrderKey, Select as SqlSelect, SqlExpr, Window, builtin,
};
use sqlparser::ast::{Distinct, OrderBy, OrderByExpr, OrderByKind, Select};

use crate::error::{ErrorName, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Clause, ExprContext, Scope, positional_outputs};
use crate::sql::analyze::select::{Outputs, not_a_position, output_column, output_columns};
use crate::sql::analyze::{Analyzer, Block, literal_position, location};
use crate::types::TrinoType;

impl Analyzer<'_> {
    /// ORDER BY over the select list's outputs (and, with DISTINCT, only its expressions).
    pub(in crate::sql) fn select_order(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        o: &OrderBy,
        items: &[String],
        columns: &[(String, TrinoType)],
        group_keys: Option<&[String]>,
    ) -> Result<Vec<OrderKey>, TrinoError> {
        let mut order_scope = Scope::new(scope.relations.clone(), scope.parent);
        order_scope.outputs = positional_outputs(columns);
        let distinct_items = matches!(s.distinct, Some(Distinct::Distinct)).then_some(items);
        self.order_by(o, &order_scope, columns, group_keys, distinct_items)
    }

    pub(in crate::sql) fn order_by(
        &mut self,
        order_by: &OrderBy,
        scope: &Scope<'_>,
        columns: &[(String, TrinoType)],
        group_keys: Option<&[String]>,
        distinct_items: Option<&[String]>,
    ) -> Result<Vec<OrderKey>, TrinoError> {
        let OrderByKind::Expressions(items) = &order_by.kind else {
            return Err(not_supported(None, "ORDER BY ALL"));
        };
        let cx = ExprContext {
            scope,
            clause: Clause::OrderBy,
            in_aggregate: false,
            group_keys,
        };
        let mut parts = Vec::new();
        for OrderByExpr {
            expr,
            options,
            with_fill,
        } in items
        {
            if with_fill.is_some() {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    location(expr),
                    "mismatched input 'WITH'",
                ));
            }
            let (sql, ty) = match literal_position(expr) {
                Some(n) if n >= 1 && (n as usize) <= columns.len() => {
                    (output_column(n as usize), columns[n as usize - 1].1.clone())
                }
                Some(n) => {
                    return Err(error_at(
                        ErrorName::InvalidColumnReference,
                        self.position_location(expr),
                        format!("ORDER BY position {n} is not in select list"),
                    ));
                }
                None => {
                    let key = self.grouped_expr(expr, &cx)?;
                    let text = key.sql.to_string();
                    let is_output =
                        text.starts_with("\"c") && text.ends_with('"') && !text.contains('.');
                    if let Some(items) = distinct_items
                        && !is_output
                        && !items.contains(&text)
                    {
                        return Err(error_at(
                            ErrorName::ExpressionNotInDistinct,
                            location(expr),
                            "For SELECT DISTINCT, ORDER BY expressions must appear in select list",
                        ));
                    }
                    (not_a_position(key.sql), key.ty)
                }
            };
            // Maps, json, colors and Bing tiles have no order (Trino 476: "Type BingTile is
            // not orderable, and therefore cannot be used in ORDER BY: t").
            if !ty.is_orderable() {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    location(expr),
                    format!(
                        "Type {ty} is not orderable, and therefore cannot be used in ORDER BY: {expr}"
                    ),
                ));
            }
            // Arrays and rows sort element by element, not as their stored text.
            let sql = if matches!(ty, TrinoType::Array(_) | TrinoType::Row(_)) {
                QM_SORT_KEY.call([sql, SqlExpr::text(ty.to_string())])
            } else {
                sql
            };
            let descending = matches!(options.sort, Some(sqlparser::ast::OrderBySort::Desc));
            if matches!(options.sort, Some(sqlparser::ast::OrderBySort::Using(_))) {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    location(expr),
                    "mismatched input 'USING'",
                ));
            }
            // Trino sorts NULLs last unless told otherwise, in both directions.
            parts.push(OrderKey {
                expr: sql,
                descending,
                nulls: Some(trino_nulls(options.nulls_first)),
            });
        }
        Ok(parts)
    }
}

/// Where Trino sorts NULLs: last unless told otherwise, in both directions.
pub(in crate::sql) fn trino_nulls(nulls_first: Option<bool>) -> Nulls {
    if nulls_first == Some(true) {
        Nulls::First
    } else {
        Nulls::Last
    }
}

/// The block `select` (the SELECT without its ORDER BY) keeps under `… OFFSET offset FETCH
/// FIRST count ROWS WITH TIES`.
pub(in crate::sql) fn fetch_with_ties(
    s: &Select,
    select: SqlSelect,
    outputs: Outputs,
    offset: u64,
    count: u64,
) -> Result<Block, TrinoError> {
    if select.distinct {
        return Err(not_supported(
            location(s),
            "SELECT DISTINCT with FETCH FIRST … WITH TIES",
        ));
    }
    let keys = outputs.window_order.unwrap_or_default();
    // rank() counts the rows sorting strictly before, so rank ≤ offset + count keeps
    // exactly the rows up to and tied with the last one FETCH FIRST takes.
    let window = Window {
        order_by: keys,
        ..Window::default()
    };
    let ranks = [(builtin::ROW_NUMBER, ROW), (builtin::RANK, RANK)].map(|(function, alias)| {
        (
            SqlExpr::over(function.call([]), window.clone()),
            Some(alias.to_string()),
        )
    });
    let numbered = SqlSelect {
        columns: ranks.into_iter().chain(select.columns).collect(),
        ..select
    };
    let last = offset.saturating_add(count).min(i64::MAX as u64) as i64;
    let (row, rank) = (SqlExpr::column(None, ROW), SqlExpr::column(None, RANK));
    let kept = SqlExpr::binary(
        SqlExpr::binary(
            row.clone(),
            BinaryOp::Greater,
            SqlExpr::Integer(offset as i64),
        ),
        BinaryOp::And,
        SqlExpr::binary(rank, BinaryOp::LessOrEqual, SqlExpr::Integer(last)),
    );
    let tied = SqlSelect::new(
        output_columns(outputs.columns.len()),
        vec![FromItem::query(numbered.into(), None)],
    )
    .filter(kept)
    .order_by([(row, false)]);
    Ok(Block {
        sql: tied.into(),
        columns: outputs.columns,
        single_row: false,
        origins: outputs.origins,
    })
}

/// The aliases of the row's number and rank `fetch_with_ties` adds.
const ROW: &str = "qm_row";
const RANK: &str = "qm_rank";

/// `keys` with every output `"cN"` not qualified by a relation (`t1."c1"` is a table's
/// column) replaced by `items[N-1]`: a window in the same SELECT cannot see the outputs'
/// aliases.
pub(in crate::sql) fn inline_outputs(keys: &[OrderKey], items: &[SqlExpr]) -> Vec<OrderKey> {
    keys.iter()
        .map(|key| OrderKey {
            expr: inlined(&key.expr, items),
            ..key.clone()
        })
        .collect()
}

fn inlined(e: &SqlExpr, items: &[SqlExpr]) -> SqlExpr {
    let output = |name: &str| {
        let n: usize = name.strip_prefix('c')?.parse().ok()?;
        items.get(n.checked_sub(1)?)
    };
    match e {
        SqlExpr::Column { table: None, name } => output(name).unwrap_or(e).clone(),
        _ => e.map_children(|child| inlined(child, items)),
    }
}
