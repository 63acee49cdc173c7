//! `GROUP BY ROLLUP (…)`, `CUBE (…)`, `GROUPING SETS (…)` (and plain keys beside them, which
//! multiply the sets), and `grouping(…)` — SQLite has none of them.
//!
//! Each grouping set becomes its own branch — the same SELECT grouped by that set's keys, the
//! other keys NULL wherever the select list or HAVING uses them (outside aggregates) — and the
//! branches are joined with UNION ALL; ORDER BY then applies to the union. `grouping(a, b)` is
//! a constant per branch: a bit per argument, 1 where the key is not in the set, the first
//! argument the highest bit (Trino's GroupingOperationRewriter).

use querymesh_values::sqlite_expr::{
    CompoundOp, FromItem, OrderKey, Query, Select as SqlSelect, SqlExpr,
};
use querymesh_values::typed::Typed;
use sqlparser::ast::{Expr, OrderBy, OrderByKind, Select, SelectItem};

use crate::error::{ErrorName, TrinoError, error_at, not_supported};
use crate::sql::analyze::order_by::trino_nulls;
use crate::sql::analyze::scope::{ExprContext, Scope};
use crate::sql::analyze::select::{is_distinct, not_a_position, output_column};
use crate::sql::analyze::{Analyzer, Block, literal_position, location};
use crate::types::TrinoType;

/// SQLite re-reads the input once per grouping set: a CUBE of 8 keys is 256 branches.
const MAX_GROUPING_SETS: usize = 256;

/// The grouping a block's expressions are being analysed for: every key's SQL and which
/// of them the current set groups by.
#[derive(Clone, Debug)]
pub struct GroupingState {
    pub keys: Vec<String>,
    pub included: Vec<bool>,
}

impl GroupingState {
    /// Whether `sql` is a key this set leaves out (so its value is NULL).
    pub fn nulls(&self, sql: &str) -> bool {
        self.keys
            .iter()
            .zip(&self.included)
            .any(|(k, inside)| !inside && k == sql)
    }
}

/// The GROUP BY clause as grouping sets of expressions, or `None` for plain keys.
pub fn sets_of(group_exprs: &[&Expr]) -> Result<Option<Vec<Vec<Expr>>>, TrinoError> {
    if !group_exprs
        .iter()
        .any(|e| matches!(e, Expr::Rollup(_) | Expr::Cube(_) | Expr::GroupingSets(_)))
    {
        return Ok(None);
    }
    for e in group_exprs {
        let members: Vec<&Expr> = match e {
            Expr::Rollup(parts) | Expr::Cube(parts) | Expr::GroupingSets(parts) => {
                parts.iter().flatten().collect()
            }
            _ => Vec::new(),
        };
        for member in members {
            require_column(member)?;
        }
    }
    let mut product: Vec<Vec<Expr>> = vec![Vec::new()];
    for e in group_exprs {
        let choices: Vec<Vec<Expr>> = match e {
            Expr::Rollup(parts) => (0..=parts.len())
                .rev()
                .map(|n| parts[..n].concat())
                .collect(),
            Expr::Cube(parts) => {
                if parts.len() > 16 {
                    return Err(too_many(e));
                }
                (0..1usize << parts.len())
                    .rev()
                    .map(|mask| {
                        (0..parts.len())
                            .filter(|i| mask & (1 << (parts.len() - 1 - i)) != 0)
                            .flat_map(|i| parts[i].clone())
                            .collect()
                    })
                    .collect()
            }
            Expr::GroupingSets(sets) => sets.clone(),
            plain => vec![vec![(*plain).clone()]],
        };
        let mut next = Vec::new();
        for base in &product {
            for choice in &choices {
                next.push(base.iter().chain(choice).cloned().collect());
                if next.len() > MAX_GROUPING_SETS {
                    return Err(too_many(e));
                }
            }
        }
        product = next;
    }
    Ok(Some(product))
}

/// Inside ROLLUP, CUBE and GROUPING SETS Trino takes only column references
/// (StatementAnalyzer.analyzeGroupingSets: "GROUP BY expression must be a column reference").
fn require_column(e: &Expr) -> Result<(), TrinoError> {
    if matches!(e, Expr::Identifier(_) | Expr::CompoundIdentifier(_)) {
        return Ok(());
    }
    let written = match e {
        Expr::BinaryOp { .. } => format!("({e})"),
        _ => e.to_string(),
    };
    Err(error_at(
        ErrorName::InvalidColumnReference,
        location(e),
        format!("GROUP BY expression must be a column reference: {written}"),
    ))
}

fn too_many(e: &Expr) -> TrinoError {
    not_supported(
        location(e),
        &format!("More than {MAX_GROUPING_SETS} grouping sets"),
    )
}

impl Analyzer<'_> {
    /// `grouping(k, …)`: the set's bits, or Trino's refusal outside a grouped block.
    pub(in crate::sql) fn grouping_operation(
        &mut self,
        args: &[&Expr],
        cx: &ExprContext<'_>,
        at: Option<crate::error::Position>,
    ) -> Result<Typed, TrinoError> {
        // StatementAnalyzer: a clause without aggregates refuses it as it does one; a block
        // without GROUP BY has nothing for it to describe.
        if !cx.clause.allows_aggregates() {
            let written: Vec<String> = args.iter().map(|e| e.to_string()).collect();
            return Err(error_at(
                ErrorName::ExpressionNotScalar,
                at,
                format!(
                    "{} cannot contain aggregations, window functions or grouping operations: [GROUPING ({})]",
                    cx.clause.describe(),
                    written.join(", ")
                ),
            ));
        }
        let Some(state) = self
            .grouping
            .clone()
            .filter(|g| cx.group_keys.is_some() && !g.keys.is_empty())
        else {
            return Err(error_at(
                ErrorName::MissingGroupBy,
                None,
                "A GROUPING() operation can only be used with a corresponding GROUPING SET/CUBE/ROLLUP/GROUP BY clause",
            ));
        };
        if args.is_empty() || args.len() > 62 {
            return Err(error_at(
                ErrorName::InvalidFunctionArgument,
                at,
                "GROUPING() takes from 1 to 62 arguments",
            ));
        }
        // The arguments are read as the keys they name, never nulled.
        let saved = self.grouping.take();
        let mut bits = 0i64;
        let mut result = Ok(());
        for e in args {
            let sql = match self.expr(e, cx) {
                Ok(t) => t.sql,
                Err(err) => {
                    result = Err(err);
                    break;
                }
            };
            let Some(i) = state.keys.iter().position(|k| *k == sql.to_string()) else {
                result = Err(error_at(
                    ErrorName::InvalidArguments,
                    at,
                    format!(
                        "The arguments to GROUPING() must be expressions referenced by the GROUP BY at the associated query level. Mismatch due to {e}."
                    ),
                ));
                break;
            };
            bits = (bits << 1) | i64::from(!state.included[i]);
        }
        self.grouping = saved;
        self.loose.clear();
        result?;
        // grouping() is an integer, a bigint past 31 arguments (ExpressionAnalyzer's
        // visitGroupingOperation).
        let ty = if args.len() <= 31 {
            TrinoType::Integer
        } else {
            TrinoType::BigInt
        };
        let mut t = Typed::new(bits.to_string(), ty);
        t.constant = Some(querymesh_values::typed::Constant::Int(bits));
        Ok(t)
    }

    /// ORDER BY over the union of the branches: each key an output's name, position or
    /// select-list expression, as `"cN"`.
    pub(in crate::sql) fn union_order(
        &mut self,
        s: &Select,
        o: &OrderBy,
        columns: &[(String, TrinoType)],
    ) -> Result<Vec<OrderKey>, TrinoError> {
        let OrderByKind::Expressions(keys) = &o.kind else {
            return Err(not_supported(None, "ORDER BY ALL"));
        };
        let mut parts = Vec::new();
        for key in keys {
            let e = &key.expr;
            let position = match literal_position(e) {
                Some(n) if (1..=columns.len() as i64).contains(&n) => Some(n as usize),
                Some(n) => {
                    return Err(error_at(
                        ErrorName::InvalidColumnReference,
                        self.position_location(e),
                        format!("ORDER BY position {n} is not in select list"),
                    ));
                }
                None => {
                    let text = e.to_string().to_lowercase();
                    s.projection
                        .iter()
                        .position(|item| match item {
                            SelectItem::UnnamedExpr(x) => x.to_string().to_lowercase() == text,
                            SelectItem::ExprWithAlias { expr, alias } => {
                                alias.value.to_lowercase() == text
                                    || expr.to_string().to_lowercase() == text
                            }
                            _ => false,
                        })
                        .map(|i| i + 1)
                }
            };
            if position.is_none() && grouping_reads_an_output(e, columns) {
                return Err(error_at(
                    ErrorName::InvalidArguments,
                    location(e),
                    "Invalid reference to output of SELECT clause from grouping() expression in ORDER BY",
                ));
            }
            let Some(n) = position else {
                return Err(not_supported(
                    location(e),
                    "With ROLLUP, CUBE or GROUPING SETS, ORDER BY an expression that is not in the select list",
                ));
            };
            let desc = matches!(key.options.sort, Some(sqlparser::ast::OrderBySort::Desc));
            parts.push(OrderKey {
                expr: output_column(n),
                descending: desc,
                nulls: Some(trino_nulls(key.options.nulls_first)),
            });
        }
        Ok(parts)
    }

    /// A SELECT with ROLLUP, CUBE or GROUPING SETS: one branch per set, joined with UNION ALL
    /// (grouping_sets.rs), ordered as a whole.
    pub(in crate::sql) fn grouping_sets_select(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        b: &GroupedBranches<'_>,
        order_by: Option<&OrderBy>,
        ties: Option<(u64, u64)>,
    ) -> Result<Block, TrinoError> {
        if ties.is_some() {
            return Err(not_supported(
                None,
                "FETCH FIRST … WITH TIES with ROLLUP, CUBE or GROUPING SETS",
            ));
        }
        let distinct = is_distinct(s)?;
        let saved_grouping = self.grouping.take();
        let saved_aggregates = std::mem::take(&mut self.aggregates_seen);
        let key_texts: Vec<String> = b.keys.iter().map(ToString::to_string).collect();
        let mut branches = Vec::new();
        let mut columns = Vec::new();
        let mut origins = Vec::new();
        let mut result = Ok(());
        for included in b.sets {
            self.grouping = Some(crate::sql::analyze::grouping_sets::GroupingState {
                keys: key_texts.clone(),
                included: included.clone(),
            });
            self.aggregates_seen = 0;
            let outputs = match self.outputs(s, scope, None, Some(&key_texts)) {
                Ok(o) => o,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let group_by: Vec<SqlExpr> = b
                .keys
                .iter()
                .zip(included)
                .filter(|(_, inside)| **inside)
                .map(|(k, _)| not_a_position(k.clone()))
                .collect();
            // The empty set is a global aggregation, one row even over no rows: without an
            // aggregate, its outputs read nothing but NULL keys and constants.
            let constant_row = group_by.is_empty() && self.aggregates_seen == 0;
            let reads_from = !b.from.is_empty() && !constant_row;
            let mut branch = SqlSelect {
                columns: outputs.items,
                from: if reads_from {
                    b.from.to_vec()
                } else {
                    Vec::new()
                },
                filter: b.filter.filter(|_| reads_from).cloned(),
                group_by,
                ..SqlSelect::default()
            };
            if let Some(h) = outputs.having {
                if constant_row {
                    branch = SqlSelect::star(FromItem::query(branch.into(), None)).filter(h);
                } else {
                    branch.having = Some(h);
                }
            }
            branches.push(branch);
            columns = outputs.columns;
            origins = outputs.origins;
        }
        self.grouping = saved_grouping;
        self.aggregates_seen = saved_aggregates;
        result?;
        let union = Query::Compound {
            op: CompoundOp::UnionAll,
            terms: branches,
            limit: None,
            offset: None,
        };
        let mut select = SqlSelect {
            distinct,
            ..SqlSelect::star(FromItem::query(union, None))
        };
        if let Some(o) = order_by {
            select.order_by = self.union_order(s, o, &columns)?;
        }
        Ok(Block {
            sql: select.into(),
            columns,
            single_row: false,
            origins,
        })
    }
}

/// Whether `e` is `grouping(…)` with an argument that names an output column: ORDER BY
/// resolves such a name to the output, which grouping() cannot take (Trino's
/// OrderByExpressionRewriter refuses it).
fn grouping_reads_an_output(e: &Expr, columns: &[(String, TrinoType)]) -> bool {
    let Expr::Function(f) = e else {
        return false;
    };
    if !f.name.to_string().eq_ignore_ascii_case("grouping") {
        return false;
    }
    let sqlparser::ast::FunctionArguments::List(list) = &f.args else {
        return false;
    };
    list.args.iter().any(|a| {
        let text = a.to_string();
        columns
            .iter()
            .any(|(name, _)| name.eq_ignore_ascii_case(&text))
    })
}

/// For each grouping set, which of the keys it groups by.
pub(in crate::sql) type GroupingSets = Vec<Vec<bool>>;

/// What every branch of a grouping-sets SELECT shares.
pub(in crate::sql) struct GroupedBranches<'b> {
    pub(in crate::sql) from: &'b [FromItem],
    pub(in crate::sql) filter: Option<&'b SqlExpr>,
    pub(in crate::sql) keys: &'b [SqlExpr],
    pub(in crate::sql) sets: &'b [Vec<bool>],
}
