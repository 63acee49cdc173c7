//! ORDER BY of a SELECT (positions, output references, Trino's NULLS LAST, DISTINCT's
//! restriction) and FETCH FIRST … WITH TIES, which SQLite lacks: a rank() window keeps the
//! rows tied with the last one fetched.

use querymesh_values::sqlite_text::sql_string;
use sqlparser::ast::{Distinct, OrderBy, OrderByExpr, OrderByKind, Select};

use super::analyze::{Analyzer, Block, literal_position, location};
use super::scope::{Clause, ExprContext, Scope, positional_outputs};
use super::select::{Outputs, not_a_position};
use crate::error::{ErrorName, TrinoError, error_at, not_supported};
use crate::types::TrinoType;

impl Analyzer<'_> {
    /// ORDER BY over the select list's outputs (and, with DISTINCT, only its expressions).
    pub(super) fn select_order(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        o: &OrderBy,
        items: &[String],
        columns: &[(String, TrinoType)],
        group_keys: Option<&[String]>,
    ) -> Result<String, TrinoError> {
        let mut order_scope = Scope::new(scope.relations.clone(), scope.parent);
        order_scope.outputs = positional_outputs(columns);
        let distinct_items: Option<Vec<String>> = matches!(s.distinct, Some(Distinct::Distinct))
            .then(|| {
                items
                    .iter()
                    .map(|i| {
                        i.rsplit_once(" AS \"c")
                            .map_or(i.clone(), |(sql, _)| sql.to_string())
                    })
                    .collect()
            });
        self.order_by(
            o,
            &order_scope,
            columns,
            group_keys,
            distinct_items.as_deref(),
        )
    }

    pub(super) fn order_by(
        &mut self,
        order_by: &OrderBy,
        scope: &Scope<'_>,
        columns: &[(String, TrinoType)],
        group_keys: Option<&[String]>,
        distinct_items: Option<&[String]>,
    ) -> Result<String, TrinoError> {
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
                    (format!("\"c{n}\""), columns[n as usize - 1].1.clone())
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
                    let sql = key.sql.to_string();
                    let is_output =
                        sql.starts_with("\"c") && sql.ends_with('"') && !sql.contains('.');
                    if let Some(items) = distinct_items
                        && !is_output
                        && !items.contains(&sql)
                    {
                        return Err(error_at(
                            ErrorName::ExpressionNotInDistinct,
                            location(expr),
                            "For SELECT DISTINCT, ORDER BY expressions must appear in select list",
                        ));
                    }
                    (not_a_position(sql.to_string()), key.ty)
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
                format!("qm_sort_key({sql}, {})", sql_string(&ty.to_string()))
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
            let nulls = if options.nulls_first == Some(true) {
                "NULLS FIRST"
            } else {
                "NULLS LAST"
            };
            parts.push(format!(
                "{sql} {} {nulls}",
                if descending { "DESC" } else { "ASC" }
            ));
        }
        Ok(parts.join(", "))
    }
}

/// The block `sql` (the SELECT without its ORDER BY) keeps under `… OFFSET offset FETCH FIRST
/// count ROWS WITH TIES`.
pub(super) fn fetch_with_ties(
    s: &Select,
    sql: &str,
    distinct: &str,
    outputs: Outputs,
    offset: u64,
    count: u64,
) -> Result<Block, TrinoError> {
    if !distinct.is_empty() {
        return Err(not_supported(
            location(s),
            "SELECT DISTINCT with FETCH FIRST … WITH TIES",
        ));
    }
    let keys = outputs.window_order.unwrap_or_default();
    // rank() counts the rows sorting strictly before, so rank ≤ offset + count keeps
    // exactly the rows up to and tied with the last one FETCH FIRST takes.
    let numbered = sql.replacen(
        "SELECT ",
        &format!(
            "SELECT row_number() OVER (ORDER BY {keys}) AS \"qm_row\", rank() OVER (ORDER BY {keys}) AS \"qm_rank\", "
        ),
        1,
    );
    let outputs_list: Vec<String> = (1..=outputs.columns.len())
        .map(|i| format!("\"c{i}\""))
        .collect();
    Ok(Block {
        sql: format!(
            "SELECT {} FROM ({numbered}) WHERE \"qm_row\" > {offset} AND \"qm_rank\" <= {} ORDER BY \"qm_row\"",
            outputs_list.join(", "),
            offset.saturating_add(count).min(i64::MAX as u64)
        ),
        columns: outputs.columns,
        single_row: false,
        origins: outputs.origins,
    })
}

/// `order` with every `"cN"` not qualified by a relation (`t1."c1"` is a table's column)
/// replaced by `(items[N-1])`.
pub(super) fn inline_outputs(order: &str, items: &[String]) -> String {
    let mut out = String::with_capacity(order.len());
    let mut rest = order;
    while let Some(at) = rest.find("\"c") {
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let digits: String = from[2..].chars().take_while(char::is_ascii_digit).collect();
        let closes = from[2 + digits.len()..].starts_with('"');
        let qualified = out.ends_with('.');
        let item = digits
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| items.get(i));
        match item {
            Some(sql) if closes && !qualified && !digits.is_empty() => {
                out.push_str(&format!("({sql})"));
                rest = &from[3 + digits.len()..];
            }
            _ => {
                out.push_str("\"c");
                rest = &from[2..];
            }
        }
    }
    out.push_str(rest);
    out
}
