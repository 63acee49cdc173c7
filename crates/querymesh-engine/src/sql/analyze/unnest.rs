//! UNNEST and LATERAL in FROM (Trino docs sql/select "UNNEST", "LATERAL"), lowered to SQLite's
//! `json_each` table-valued function, whose argument may read the FROM items before it
//! (SQLite "Table-Valued Functions"): nothing is assembled at run time.
//!
//! - `UNNEST(a)`: one row per element of array `a`, in order; an array of rows gives one column
//!   per field, a map two columns (key, value).
//! - `UNNEST(a, b, …)`: the arrays side by side, the shorter ones padded with NULLs to the
//!   longest (Trino's UnnestOperator); `WITH ORDINALITY` adds the 1-based position (bigint).
//! - `LATERAL (subquery)`: the subquery, correlated to the FROM items before it, gathered into
//!   one JSON array of its rows, which `json_each` expands again.

use std::sync::Arc;

use querymesh_values::element::{from_element, to_element};
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select as SqlSelect, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    FunctionArg, FunctionArgExpr, ObjectName, ObjectNamePart, Query, Spanned, TableAlias,
};
use sqlparser::tokenizer::Token;

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Clause, Column, ExprContext, Relation, Scope};
use crate::sql::analyze::select::output_column;
use crate::sql::analyze::{Analyzer, UNNAMED, location};
use crate::types::TrinoType;

/// A column one UNNEST argument contributes: its name (a row field's), its type, and its
/// position inside the element (`None`: the element itself).
type ElementColumn = (Option<String>, TrinoType, Option<usize>);

/// The columns one UNNEST argument contributes; `None` for a type UNNEST can't expand.
fn element_columns(ty: &TrinoType) -> Option<Vec<ElementColumn>> {
    Some(match ty {
        TrinoType::Array(element) => match element.as_ref() {
            // UnnestOperator / RelationPlanner: an array of rows expands into its fields.
            TrinoType::Row(fields) => fields
                .iter()
                .enumerate()
                .map(|(i, (name, t))| (name.clone(), t.clone(), Some(i)))
                .collect(),
            other => vec![(None, other.clone(), None)],
        },
        TrinoType::Map(k, v) => vec![
            (None, (**k).clone(), Some(0)),
            (None, (**v).clone(), Some(1)),
        ],
        TrinoType::Unknown => vec![(None, TrinoType::Unknown, None)],
        _ => return None,
    })
}

/// The longest of `arrays` (ties: the first), for `json_each` to walk.
fn longest(arrays: &[Typed]) -> SqlExpr {
    let lengths: Vec<SqlExpr> = arrays
        .iter()
        .map(|a| {
            let length = builtin::JSON_ARRAY_LENGTH.call([a.sql.clone()]);
            builtin::COALESCE.call([length, SqlExpr::Integer(0)])
        })
        .collect();
    let max = builtin::MAX.call(lengths.clone());
    let arms = arrays
        .iter()
        .zip(lengths)
        .map(|(a, l)| {
            let is_longest = SqlExpr::binary(l, BinaryOp::Equal, max.clone());
            (is_longest, a.sql.clone())
        })
        .collect();
    SqlExpr::case_when(arms, None)
}

/// `alias."value"`: the element `json_each` is at.
fn each_value(alias: &str) -> SqlExpr {
    SqlExpr::column(Some(alias), "value")
}

/// `json_extract(json, path)`.
fn extracted(json: SqlExpr, path: SqlExpr) -> SqlExpr {
    builtin::JSON_EXTRACT.call([json, path])
}

impl Analyzer<'_> {
    /// `UNNEST(e1, …) [WITH ORDINALITY] [AS alias (c1, …)]`; `relations` holds the FROM items
    /// before it, which its arguments may read.
    pub(in crate::sql) fn unnest(
        &mut self,
        args: &[FunctionArg],
        with_ordinality: bool,
        alias: Option<&TableAlias>,
        at: Option<Position>,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        if args.is_empty() {
            return Err(error_at(
                ErrorName::SyntaxError,
                at,
                "mismatched input ')'. Expecting: <expression>",
            ));
        }
        let scope = Scope::new(relations.clone(), outer);
        let cx = ExprContext {
            scope: &scope,
            clause: Clause::On,
            in_aggregate: false,
            group_keys: None,
        };
        let mut arrays = Vec::with_capacity(args.len());
        for arg in args {
            let FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) = arg else {
                return Err(not_supported(at, "This UNNEST argument"));
            };
            let t = self.expr(e, &cx)?;
            // Trino 476 answers `UNNEST(1)` with INVALID_FUNCTION_ARGUMENT and no position.
            let Some(columns) = element_columns(&t.ty) else {
                return Err(error_at(
                    ErrorName::InvalidFunctionArgument,
                    None,
                    format!("Cannot unnest type: {}", t.ty),
                ));
            };
            arrays.push((t, columns));
        }
        let sql_alias = self.alias("u");
        let single = arrays.len() == 1;
        let source = if single {
            arrays[0].0.sql.clone()
        } else {
            let all: Vec<Typed> = arrays.iter().map(|(t, _)| t.clone()).collect();
            longest(&all)
        };
        let mut columns = Vec::new();
        for (t, parts) in &arrays {
            // The element at this row's index: json_each's own value for one argument.
            let element = |path: Option<usize>| {
                let field = path.map(|i| format!("[{i}]")).unwrap_or_default();
                match (single, path) {
                    (true, None) => each_value(&sql_alias),
                    (true, Some(_)) => {
                        extracted(each_value(&sql_alias), SqlExpr::text(format!("${field}")))
                    }
                    (false, _) => {
                        // `'$[' || key || ']…'`: the element at this row's index.
                        let key = SqlExpr::column(Some(&sql_alias), "key");
                        let open = SqlExpr::binary(SqlExpr::text("$["), BinaryOp::Concat, key);
                        let close = SqlExpr::text(format!("]{field}"));
                        let path = SqlExpr::binary(open, BinaryOp::Concat, close);
                        extracted(t.sql.clone(), path)
                    }
                }
            };
            for (name, ty, path) in parts {
                columns.push(Column {
                    name: name.clone().unwrap_or_else(|| UNNAMED.to_string()),
                    sql: from_element(element(*path), ty),
                    ty: ty.clone(),
                    read: None,
                    hidden: false,
                    unlisted: false,
                    planning_refusal: None,
                });
            }
        }
        if with_ordinality {
            columns.push(Column {
                name: UNNAMED.to_string(),
                sql: SqlExpr::binary(
                    SqlExpr::column(Some(&sql_alias), "key"),
                    BinaryOp::Add,
                    SqlExpr::Integer(1),
                ),
                ty: TrinoType::BigInt,
                read: None,
                hidden: false,
                unlisted: false,
                planning_refusal: None,
            });
        }
        relations.push(self.aliased(columns, Vec::new(), alias)?);
        Ok(FromItem::Function {
            function: builtin::JSON_EACH,
            args: vec![source],
            alias: Some(sql_alias),
        })
    }

    /// `LATERAL (subquery) [AS alias (c1, …)]`: SQLite's subqueries in FROM can't read the
    /// items before them, but a table-valued function's argument can: the subquery's rows,
    /// gathered into a JSON array of rows by a correlated scalar subquery, are expanded by
    /// `json_each` again.
    pub(in crate::sql) fn lateral(
        &mut self,
        subquery: &Query,
        alias: Option<&TableAlias>,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let refused = refused_correlation(subquery);
        let refusal = refused.iter().any(|r| *r).then(|| {
            Arc::new(error_at(
                ErrorName::NotSupported,
                self.lateral_body_start(subquery)
                    .or_else(|| location(subquery)),
                "Given correlated subquery is not supported",
            ))
        });
        let scope = Scope::new(relations.clone(), outer);
        let block = self.query(subquery, Some(&scope))?;
        let sql_alias = self.alias("l");
        let mut parts = Vec::with_capacity(block.columns.len());
        let mut columns = Vec::with_capacity(block.columns.len());
        for (i, (name, ty)) in block.columns.iter().enumerate() {
            parts.push(to_element(&Typed::new(output_column(i + 1), ty.clone())));
            let field = extracted(each_value(&sql_alias), SqlExpr::text(format!("$[{i}]")));
            columns.push(Column {
                name: name.clone(),
                ty: ty.clone(),
                sql: from_element(field, ty),
                read: None,
                hidden: false,
                unlisted: false,
                planning_refusal: if refused.get(i) == Some(&true) {
                    refusal.clone()
                } else {
                    None
                },
            });
        }
        relations.push(self.aliased(columns, Vec::new(), alias)?);
        let rows = builtin::JSON_GROUP_ARRAY.call([builtin::JSON_ARRAY.call(parts)]);
        let gathered = SqlSelect::new(vec![rows], vec![FromItem::query(block.sql, None)]);
        Ok(FromItem::Function {
            function: builtin::JSON_EACH,
            args: vec![gathered.scalar()],
            alias: Some(sql_alias),
        })
    }

    /// Where a LATERAL subquery's body starts (its VALUES or SELECT, after the parenthesis):
    /// Trino reports its planner's refusal there; the syntax tree's span of a VALUES body
    /// starts at its first value instead.
    fn lateral_body_start(&self, subquery: &Query) -> Option<Position> {
        let lateral = self.keyword_before("LATERAL", &subquery.span())?;
        let mut after = self
            .tokens
            .iter()
            .map(|t| (t, Position::from(t.span.start)))
            .skip_while(|(t, at)| *at <= lateral || t.token != Token::LParen);
        after.next();
        after.next().map(|(_, at)| at)
    }
}

/// Whether a table reference `name(args…)` is UNNEST (Trino's grammar has it as its own
/// relation; sqlparser reads it as a table function here).
pub(in crate::sql) fn is_unnest(name: &ObjectName) -> bool {
    matches!(name.0.as_slice(), [ObjectNamePart::Identifier(i)]
        if i.value.eq_ignore_ascii_case("unnest"))
}

/// Whether a FROM item is an UNNEST (or a JSON_TABLE, lateral as UNNEST is).
pub(in crate::sql) fn is_unnest_factor(factor: &sqlparser::ast::TableFactor) -> bool {
    match factor {
        sqlparser::ast::TableFactor::Table {
            name,
            args: Some(_),
            ..
        } => is_unnest(name) || crate::sql::analyze::json_table::is_json_table(name),
        sqlparser::ast::TableFactor::UNNEST { .. } => true,
        _ => false,
    }
}

/// Which outputs of a LATERAL subquery Trino's planner can't decorrelate ("Given correlated
/// subquery is not supported") when they are used, in the two shapes known to fail: VALUES
/// of more than one row whose column reads a column (of the FROM items before it: VALUES has
/// no columns of its own), and a SELECT without FROM (or GROUP BY) whose WHERE reads columns
/// and whose output does too. The planner prunes unused outputs first, so the statement
/// fails only if one of these is used (Trino 476: `SELECT a.x FROM (VALUES 1, 2) a(x) CROSS
/// JOIN LATERAL (VALUES a.x, a.x + 100) t(y)` answers, with `t.y` in the select list it is
/// refused). Other correlated shapes Trino runs (one row of VALUES, a correlated WHERE under
/// plain outputs, …) have no refused output.
fn refused_correlation(subquery: &Query) -> Vec<bool> {
    use sqlparser::ast::{GroupByExpr, SelectItem, SetExpr};
    match subquery.body.as_ref() {
        SetExpr::Values(values) if values.rows.len() > 1 => {
            let width = values.rows.iter().map(|row| row.len()).max().unwrap_or(0);
            (0..width)
                .map(|i| {
                    values
                        .rows
                        .iter()
                        .any(|row| row.get(i).is_some_and(reads_column))
                })
                .collect()
        }
        SetExpr::Select(select) => {
            let grouped = !matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty())
                || select.having.is_some();
            let filtered_by_columns = select.selection.as_ref().is_some_and(reads_column);
            if !select.from.is_empty() || grouped || !filtered_by_columns {
                return Vec::new();
            }
            select
                .projection
                .iter()
                .map(|item| match item {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                        reads_column(e)
                    }
                    _ => false,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Whether an expression reads a column, in the forms that plainly do (names, operators,
/// casts, parentheses); any other form counts as not reading one.
fn reads_column(e: &sqlparser::ast::Expr) -> bool {
    use sqlparser::ast::Expr;
    match e {
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => true,
        Expr::BinaryOp { left, right, .. } => reads_column(left) || reads_column(right),
        Expr::UnaryOp { expr, .. }
        | Expr::Nested(expr)
        | Expr::Cast { expr, .. }
        | Expr::IsNull(expr)
        | Expr::IsNotNull(expr) => reads_column(expr),
        _ => false,
    }
}
