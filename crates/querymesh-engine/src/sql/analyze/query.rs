//! A query: its WITH (each named query analysed and held for FROM), its body, an ORDER BY
//! after a set operation, and LIMIT/OFFSET/FETCH with Trino's grammar for row counts.

use std::collections::HashMap;

use querymesh_values::sqlite_expr::{
    CommonTable, FromItem, Query as SqlQuery, Select as SqlSelect, SqlExpr,
};
use sqlparser::ast::{Expr, LimitClause, Offset, Query, SetExpr, Value};
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::{Analyzer, Block, Cte, ident_location, ident_name, location};
use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Scope, positional_outputs};
use crate::types::TrinoType;

/// A query's LIMIT and OFFSET.
type RowCounts = (SqlExpr, SqlExpr);

/// The token right after the last LIMIT, OFFSET, FIRST or NEXT keyword that starts before
/// `at`: the first token of that clause's row count.
fn token_after_clause_keyword(tokens: &[TokenWithSpan], at: Position) -> Option<&TokenWithSpan> {
    let keyword = tokens
        .iter()
        .enumerate()
        .take_while(|(_, t)| Position::from(t.span.start) < at)
        .filter(|(_, t)| match &t.token {
            Token::Word(w) => {
                w.quote_style.is_none()
                    && ["LIMIT", "OFFSET", "FIRST", "NEXT"]
                        .iter()
                        .any(|k| w.value.eq_ignore_ascii_case(k))
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .last()?;
    tokens.get(keyword + 1)
}

/// A literal non-negative integer (LIMIT, OFFSET, FETCH, ordinals).
pub fn literal_count(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => {
                crate::sql::analyze::literal::integer_literal(n).and_then(|v| u64::try_from(v).ok())
            }
            _ => None,
        },
        _ => None,
    }
}

/// An ORDER BY or GROUP BY position: an integer literal, negative ones included, which Trino's
/// parser folds into one literal (`ORDER BY -1` is "position -1 is not in select list",
/// AbstractTestQueries `testOrderByOrdinal`-style); `+1` stays an expression.
pub fn literal_position(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Minus,
            expr,
        } => literal_count(expr)
            .and_then(|n| i64::try_from(n).ok())
            .map(|n| -n),
        _ => literal_count(expr).and_then(|n| i64::try_from(n).ok()),
    }
}

impl Analyzer<'_> {
    /// Where a [`literal_position`] starts: at its minus sign when it has one.
    pub(in crate::sql) fn position_location(&self, expr: &Expr) -> Option<Position> {
        let Expr::UnaryOp { expr: inner, .. } = expr else {
            return location(expr);
        };
        let digits = location(inner.as_ref())?;
        self.tokens
            .iter()
            .map(|t| (t, Position::from(t.span.start)))
            .filter(|(t, at)| *at < digits && t.token == Token::Minus)
            .map(|(_, at)| at)
            .next_back()
            .or(Some(digits))
    }

    pub fn query(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        self.stack.check()?;
        let mut ctes = Vec::new();
        if let Some(with) = &q.with {
            self.ctes.push(HashMap::new());
            let parts = &mut ctes;
            for (i, cte) in with.cte_tables.iter().enumerate() {
                // StatementAnalyzer.analyzeWith, query by query: a name seen before, then in
                // a WITH RECURSIVE any query without column aliases.
                let name = ident_name(&cte.alias.name);
                let at = ident_location(&cte.alias.name);
                let repeated = with.cte_tables[..i]
                    .iter()
                    .any(|earlier| ident_name(&earlier.alias.name) == name);
                let refused = if repeated {
                    Some(error_at(
                        ErrorName::DuplicateNamedQuery,
                        at,
                        format!("WITH query name '{name}' specified more than once"),
                    ))
                } else if with.recursive && cte.alias.columns.is_empty() {
                    Some(error_at(
                        ErrorName::MissingColumnAliases,
                        at,
                        "missing column aliases in recursive WITH query",
                    ))
                } else {
                    None
                };
                if let Some(e) = refused {
                    self.ctes.pop();
                    return Err(e);
                }
                if with.recursive && super::recursive::is_recursive(cte) {
                    let depth = super::recursive::max_recursion_depth(self.session);
                    let (sql, table) = match self.recursive_cte(cte, outer, depth) {
                        Ok(done) => done,
                        Err(e) => {
                            self.ctes.pop();
                            return Err(e);
                        }
                    };
                    parts.extend(sql);
                    if let Some(frame) = self.ctes.last_mut() {
                        frame.insert(ident_name(&cte.alias.name), table);
                    }
                    continue;
                }
                let block = self.query(&cte.query, outer)?;
                let origins = block.origins;
                let name = ident_name(&cte.alias.name);
                let columns = if cte.alias.columns.is_empty() {
                    block.columns
                } else {
                    if cte.alias.columns.len() != block.columns.len() {
                        return Err(error_at(
                            ErrorName::MismatchedColumnAliases,
                            ident_location(&cte.alias.name),
                            format!(
                                "WITH query name '{name}' has {} column aliases but the query has {} columns",
                                cte.alias.columns.len(),
                                block.columns.len()
                            ),
                        ));
                    }
                    cte.alias
                        .columns
                        .iter()
                        .zip(block.columns)
                        .map(|(a, (_, ty))| (ident_name(&a.name), ty))
                        .collect()
                };
                let sqlite_name = self.alias("w");
                parts.push(CommonTable {
                    name: sqlite_name.clone(),
                    columns: Vec::new(),
                    materialized: false,
                    query: block.sql,
                });
                if let Some(frame) = self.ctes.last_mut() {
                    frame.insert(
                        name,
                        Cte {
                            sqlite_name,
                            columns,
                            origins,
                        },
                    );
                }
            }
        }
        // A subquery's grouping check must not disturb the enclosing expression's.
        let enclosing_loose = std::mem::take(&mut self.loose);
        let result = self.query_body(q, outer);
        self.loose = enclosing_loose;
        if q.with.is_some() {
            self.ctes.pop();
        }
        let block = result?;
        let sql = if ctes.is_empty() {
            block.sql
        } else {
            SqlQuery::With {
                recursive: false,
                ctes,
                body: Box::new(block.sql),
            }
        };
        Ok(Block {
            sql,
            columns: block.columns,
            single_row: block.single_row,
            origins: block.origins,
        })
    }

    fn query_body(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        if let Some(fetch) = &q.fetch
            && fetch.percent
        {
            return Err(not_supported(None, "FETCH FIRST … PERCENT"));
        }
        if !q.locks.is_empty()
            || q.for_clause.is_some()
            || q.settings.is_some()
            || q.format_clause.is_some()
            || !q.pipe_operators.is_empty()
        {
            return Err(error_at(
                ErrorName::SyntaxError,
                location(q),
                "mismatched input. This syntax is not Trino's",
            ));
        }
        if q.fetch.as_ref().is_some_and(|f| f.with_ties) {
            return self.with_ties(q, outer);
        }
        let (limit, limit_one) = self.limit_sql(q)?;
        let block = match q.body.as_ref() {
            SetExpr::Select(select) => self.select(select, outer, q.order_by.as_ref(), None)?,
            body => {
                let block = self.set_expr(body, outer)?;
                match &q.order_by {
                    None => block,
                    Some(order_by) => {
                        let outputs = positional_outputs(&block.columns);
                        let mut scope = Scope::new(Vec::new(), outer);
                        scope.outputs = outputs;
                        let order = self.order_by(order_by, &scope, &block.columns, None, None)?;
                        let ordered =
                            SqlSelect::star(FromItem::query(block.sql, None)).order_by(order);
                        Block {
                            sql: ordered.into(),
                            columns: block.columns,
                            single_row: block.single_row,
                            origins: block.origins,
                        }
                    }
                }
            }
        };
        Ok(match limit {
            None => block,
            Some((limit, offset)) => Block {
                sql: SqlSelect {
                    limit: Some(limit),
                    offset: Some(offset),
                    ..SqlSelect::star(FromItem::query(block.sql, None))
                }
                .into(),
                columns: block.columns,
                single_row: block.single_row || limit_one,
                origins: block.origins,
            },
        })
    }

    /// `… ORDER BY k OFFSET m FETCH FIRST n ROWS WITH TIES` (docs sql/select "LIMIT or
    /// FETCH FIRST clauses"): the n rows after the first m, and every further row whose key
    /// ties with the last of them. Trino requires the ORDER BY (MISSING_ORDER_BY).
    fn with_ties(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        let Some(order_by) = &q.order_by else {
            return Err(error_at(
                ErrorName::MissingOrderBy,
                location(q),
                "FETCH FIRST WITH TIES clause requires ORDER BY",
            ));
        };
        let (count, offset) = self.row_counts(q)?;
        let (count, offset) = (count.unwrap_or(1), offset.unwrap_or(0));
        match q.body.as_ref() {
            SetExpr::Select(select) => {
                self.select(select, outer, Some(order_by), Some((offset, count)))
            }
            _ => Err(not_supported(
                location(q),
                "FETCH FIRST … WITH TIES after a set operation",
            )),
        }
    }

    /// `LIMIT … OFFSET …` for the query (`-1`: no limit), and whether it keeps at most one
    /// row.
    pub(super) fn limit_sql(&mut self, q: &Query) -> Result<(Option<RowCounts>, bool), TrinoError> {
        let (limit, offset) = self.row_counts(q)?;
        let at_most_one = limit.is_some_and(|l| l <= 1);
        let count = |n: u64| SqlExpr::Integer(n.min(i64::MAX as u64) as i64);
        Ok(match (limit, offset) {
            (None, None) => (None, false),
            (l, o) => (
                Some((l.map_or(SqlExpr::Integer(-1), count), count(o.unwrap_or(0)))),
                at_most_one,
            ),
        })
    }

    /// The query's row count (LIMIT or FETCH) and OFFSET, as written.
    fn row_counts(&mut self, q: &Query) -> Result<(Option<u64>, Option<u64>), TrinoError> {
        // Trino's grammar takes only an integer literal (or `?`) as a row count, so anything
        // else is a syntax error at its first token (`LIMIT -1`, `LIMIT (2)`, `OFFSET x`).
        let tokens = self.tokens;
        let describing = self.describing.is_some();
        if let Some(described) = &mut self.describing {
            // A described statement's `?` row count is a bigint (Trino coerces it so).
            let limits = match &q.limit_clause {
                Some(LimitClause::LimitOffset { limit, offset, .. }) => {
                    [limit.as_ref(), offset.as_ref().map(|o| &o.value)]
                }
                _ => [None, None],
            };
            let fetched = q.fetch.as_ref().and_then(|f| f.quantity.as_ref());
            for e in limits.into_iter().chain([fetched]).flatten() {
                if crate::sql::describe::is_parameter(e) {
                    described.met(location(e));
                    described.coerced(location(e), &TrinoType::BigInt);
                }
            }
        }
        let counted = |e: &Expr, expecting: &str| {
            if matches!(e, Expr::Value(v) if matches!(v.value, Value::Placeholder(_))) {
                if describing {
                    // Never run: any count will do.
                    return Ok(i64::MAX as u64);
                }
                return Err(not_supported(
                    location(e),
                    "A parameter outside a prepared statement",
                ));
            }
            literal_count(e).ok_or_else(|| {
                // The tree drops a leading `-` or `(`: report the token after the keyword.
                let first = location(e).and_then(|at| token_after_clause_keyword(tokens, at));
                let (at, found) = match first {
                    Some(t) => (Some(Position::from(t.span.start)), t.token.to_string()),
                    None => (location(e), e.to_string()),
                };
                error_at(
                    ErrorName::SyntaxError,
                    at,
                    format!("mismatched input '{found}'. Expecting: {expecting}"),
                )
            })
        };
        let count = |e: &Expr| counted(e, "'?', <integer>");
        let (mut limit, mut offset): (Option<u64>, Option<u64>) = (None, None);
        match &q.limit_clause {
            None => {}
            Some(LimitClause::OffsetCommaLimit { offset, .. }) => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    location(offset),
                    "mismatched input ','. Expecting: <EOF>",
                ));
            }
            Some(LimitClause::LimitOffset {
                limit: l,
                offset: o,
                limit_by,
            }) => {
                if !limit_by.is_empty() {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        None,
                        "mismatched input 'BY'",
                    ));
                }
                if let Some(l) = l {
                    let is_all =
                        matches!(l, Expr::Identifier(i) if i.value.eq_ignore_ascii_case("all"));
                    if !is_all {
                        limit = Some(counted(l, "'?', 'ALL', <integer>")?);
                    }
                }
                if let Some(Offset { value, .. }) = o {
                    offset = Some(count(value)?);
                }
            }
        }
        if let Some(fetch) = &q.fetch {
            if limit.is_some() {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    None,
                    "mismatched input 'FETCH'",
                ));
            }
            limit = Some(fetch.quantity.as_ref().map(count).transpose()?.unwrap_or(1));
        }
        Ok((limit, offset))
    }
}
