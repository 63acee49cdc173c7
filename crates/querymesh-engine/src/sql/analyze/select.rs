//! SELECT blocks: WHERE, GROUP BY (expressions and ordinals), the select list (aliases,
//! `*`, Trino's `_colN` names) and HAVING, with Trino's grouping rules enforced. ORDER BY and
//! FETCH FIRST … WITH TIES are in order_by.rs; a SELECT with grouping sets is assembled in
//! grouping_sets.rs.

use querymesh_values::sqlite_expr::{FromItem, OrderKey, Select as SqlSelect, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, OrderBy, Select, SelectItem, SelectItemQualifiedWildcardKind,
};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::grouping_sets::{GroupedBranches, GroupingSets};
use crate::sql::analyze::order_by::{fetch_with_ties, inline_outputs};
use crate::sql::analyze::scope::{Clause, Column, ExprContext, Scope};
use crate::sql::analyze::{Analyzer, Block, literal_position, location, object_name_parts};
use crate::sql::describe::Origin;
use crate::types::TrinoType;

impl Analyzer<'_> {
    pub(in crate::sql) fn require_boolean(
        &mut self,
        t: &Typed,
        e: &Expr,
        what: &str,
    ) -> Result<(), TrinoError> {
        // A described statement's `WHERE ?` is a boolean.
        self.parameter_coerced(e, &TrinoType::Boolean);
        if matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
            Ok(())
        } else {
            // Trino's words differ by place (ExpressionAnalyzer, StatementAnalyzer).
            let message = match what {
                "NOT" => format!(
                    "Value of logical NOT expression must evaluate to a boolean (actual: {})",
                    t.ty
                ),
                "CASE WHEN clause" => {
                    format!("{what} must evaluate to a boolean (actual: {})", t.ty)
                }
                clause => format!("{clause} must evaluate to a boolean: actual type {}", t.ty),
            };
            Err(error_at(ErrorName::TypeMismatch, location(e), message))
        }
    }

    pub(in crate::sql) fn select(
        &mut self,
        s: &Select,
        outer: Option<&Scope<'_>>,
        order_by: Option<&OrderBy>,
        ties: Option<(u64, u64)>,
    ) -> Result<Block, TrinoError> {
        refuse_foreign_syntax(s)?;
        // A subquery sees only its own WINDOW clause.
        let saved = std::mem::take(&mut self.windows);
        let block = match self.named_windows(s) {
            Ok(()) => self.select_block(s, outer, order_by, ties),
            Err(e) => Err(e),
        };
        self.windows = saved;
        block
    }

    /// The WINDOW clause (docs sql/select "WINDOW clause"): each name once, a definition
    /// refining an earlier one as an OVER does.
    fn named_windows(&mut self, s: &Select) -> Result<(), TrinoError> {
        for definition in &s.named_window {
            let sqlparser::ast::NamedWindowDefinition(name, expr) = definition;
            let key = crate::sql::analyze::ident_name(name);
            if self.windows.iter().any(|(n, _)| *n == key) {
                return Err(error_at(
                    ErrorName::DuplicateWindowName,
                    crate::sql::analyze::ident_location(name),
                    format!("WINDOW name '{}' specified more than once", name.value),
                ));
            }
            let sqlparser::ast::NamedWindowExpr::WindowSpec(spec) = expr else {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    crate::sql::analyze::ident_location(name),
                    "mismatched input: a WINDOW definition is a parenthesized specification",
                ));
            };
            let resolved = self.refined_window(spec)?;
            self.windows.push((key, resolved));
        }
        Ok(())
    }

    fn select_block(
        &mut self,
        s: &Select,
        outer: Option<&Scope<'_>>,
        order_by: Option<&OrderBy>,
        ties: Option<(u64, u64)>,
    ) -> Result<Block, TrinoError> {
        let mut relations = Vec::new();
        let mut from = Vec::new();
        for item in &s.from {
            from.push(self.relation_with_joins(item, outer, &mut relations)?);
        }
        let scope = Scope::new(relations, outer);
        let base = ExprContext {
            scope: &scope,
            clause: Clause::Where,
            in_aggregate: false,
            group_keys: None,
        };
        let filter = self.where_clause(s, &base)?;
        let (keys, sets) = self.group_keys(s, &base)?;
        if let Some(sets) = sets {
            let branches = GroupedBranches {
                from: &from,
                filter: filter.as_ref(),
                keys: &keys,
                sets: &sets,
            };
            return self.grouping_sets_select(s, &scope, &branches, order_by, ties);
        }
        let key_texts: Vec<String> = keys.iter().map(ToString::to_string).collect();
        let saved_grouping =
            self.grouping
                .replace(crate::sql::analyze::grouping_sets::GroupingState {
                    keys: key_texts.clone(),
                    included: vec![true; keys.len()],
                });
        let saved_aggregates = std::mem::take(&mut self.aggregates_seen);
        let grouped_by_keys = !keys.is_empty();
        let mut outputs = self.outputs(
            s,
            &scope,
            order_by,
            grouped_by_keys.then_some(key_texts.as_slice()),
        )?;
        // HAVING alone makes a query an aggregation too, in Trino: one group of every row.
        let global_aggregate = !grouped_by_keys
            && (self.aggregates_seen > 0 || s.having.is_some() || groups_by_nothing(s));
        let aggregate_free = self.aggregates_seen == 0;
        if global_aggregate {
            outputs = self.outputs(s, &scope, order_by, Some(&[]))?;
        }
        self.aggregates_seen = saved_aggregates;
        self.grouping = saved_grouping;
        let distinct = is_distinct(s)?;
        // SQLite takes HAVING without GROUP BY only in a query whose result has an aggregate:
        // a count(*) it never shows makes it one, with the one group Trino forms.
        let hidden_aggregate = global_aggregate && aggregate_free;
        let mut columns = outputs.items.clone();
        if hidden_aggregate {
            // `count()` is SQLite's `count(*)`.
            let rows = builtin::COUNT.call([]);
            columns.push((rows, Some(HIDDEN_GROUP.to_string())));
        }
        // One instant in two zones is one group, as Trino compares them.
        let group_by = keys
            .into_iter()
            .map(|k| {
                let text = k.to_string();
                if self.zoned_group_keys.contains(&text) {
                    querymesh_functions::datetime::time_zone::sqlite::instant_sql(k)
                } else {
                    k
                }
            })
            .map(not_a_position)
            .collect();
        let select = SqlSelect {
            distinct,
            columns,
            from,
            filter,
            group_by,
            having: outputs.having.clone(),
            ..SqlSelect::default()
        };
        if let Some((offset, count)) = ties {
            return fetch_with_ties(s, select, outputs, offset, count);
        }
        let single_row = (global_aggregate && s.having.is_none()) || s.from.is_empty();
        let select = SqlSelect {
            order_by: outputs.order.unwrap_or_default(),
            ..select
        };
        let select = if hidden_aggregate {
            SqlSelect::new(
                output_columns(outputs.columns.len()),
                vec![FromItem::query(select.into(), None)],
            )
        } else {
            select
        };
        Ok(Block {
            sql: select.into(),
            columns: outputs.columns,
            single_row,
            origins: outputs.origins,
        })
    }

    /// The WHERE condition, if any.
    fn where_clause(
        &mut self,
        s: &Select,
        base: &ExprContext<'_>,
    ) -> Result<Option<SqlExpr>, TrinoError> {
        Ok(match &s.selection {
            Some(e) => {
                let t = self.expr(e, base)?;
                self.require_boolean(&t, e, "WHERE clause")?;
                Some(t.sql)
            }
            None => None,
        })
    }

    /// The GROUP BY keys' SQL (an ordinal standing for its select item) and, for ROLLUP,
    /// CUBE and GROUPING SETS, which keys each grouping set groups by.
    fn group_keys(
        &mut self,
        s: &Select,
        base: &ExprContext<'_>,
    ) -> Result<(Vec<SqlExpr>, Option<GroupingSets>), TrinoError> {
        let group_exprs: Vec<&Expr> = match &s.group_by {
            GroupByExpr::All(_) => return Err(not_supported(None, "GROUP BY ALL")),
            GroupByExpr::Expressions(exprs, modifiers) => {
                if !modifiers.is_empty() {
                    return Err(not_supported(None, "GROUP BY … WITH ROLLUP / WITH CUBE"));
                }
                exprs.iter().collect()
            }
        };
        let group_exprs = auto_group_keys(s, group_exprs)?;
        // GROUP BY DISTINCT (respell.rs): each grouping set once.
        let distinct_sets = group_exprs.first().is_some_and(|e| {
            matches!(e, Expr::Value(v) if matches!(&v.value,
                sqlparser::ast::Value::Placeholder(p) if p == crate::sql::respell::GROUP_BY_DISTINCT))
        });
        let mut group_exprs = group_exprs;
        if distinct_sets {
            group_exprs.remove(0);
        }
        if let Some(sets) = crate::sql::analyze::grouping_sets::sets_of(&group_exprs)? {
            let mut keys: Vec<SqlExpr> = Vec::new();
            let mut analysed = Vec::new();
            for set in &sets {
                let mut members = Vec::new();
                for e in set {
                    let sql = self.plain_group_keys(s, base, &[e])?.remove(0);
                    if !keys.contains(&sql) {
                        keys.push(sql.clone());
                    }
                    members.push(sql);
                }
                analysed.push(members);
            }
            let mut included: Vec<Vec<bool>> = Vec::new();
            for members in &analysed {
                let set: Vec<bool> = keys.iter().map(|k| members.contains(k)).collect();
                if !(distinct_sets && included.contains(&set)) {
                    included.push(set);
                }
            }
            return Ok((keys, Some(included)));
        }
        Ok((self.plain_group_keys(s, base, &group_exprs)?, None))
    }

    fn plain_group_keys(
        &mut self,
        s: &Select,
        base: &ExprContext<'_>,
        group_exprs: &[&Expr],
    ) -> Result<Vec<SqlExpr>, TrinoError> {
        let mut keys = Vec::new();
        for e in group_exprs {
            let target = match literal_position(e) {
                Some(n) => {
                    let item = usize::try_from(n)
                        .ok()
                        .and_then(|n| n.checked_sub(1))
                        .and_then(|i| s.projection.get(i))
                        .ok_or_else(|| {
                            error_at(
                                ErrorName::InvalidColumnReference,
                                self.position_location(e),
                                format!("GROUP BY position {n} is not in select list"),
                            )
                        })?;
                    match item {
                        SelectItem::UnnamedExpr(x) | SelectItem::ExprWithAlias { expr: x, .. } => x,
                        _ => {
                            return Err(error_at(
                                ErrorName::InvalidColumnReference,
                                self.position_location(e),
                                format!("GROUP BY position {n} is not in select list"),
                            ));
                        }
                    }
                }
                None => e,
            };
            // `GROUP BY ()`: the empty grouping set, no key (see `groups_by_nothing`).
            if matches!(target, Expr::Tuple(parts) if parts.is_empty()) {
                continue;
            }
            if matches!(
                target,
                Expr::Rollup(_) | Expr::Cube(_) | Expr::GroupingSets(_)
            ) {
                return Err(not_supported(
                    location(target),
                    "ROLLUP, CUBE and GROUPING SETS",
                ));
            }
            let cx = ExprContext {
                clause: Clause::GroupBy,
                ..*base
            };
            let key = self.expr(target, &cx)?;
            if matches!(key.ty, TrinoType::TimestampTz(_)) {
                self.zoned_group_keys.push(key.sql.to_string());
            }
            keys.push(key.sql);
        }
        Ok(keys)
    }

    pub(in crate::sql) fn outputs(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        order_by: Option<&OrderBy>,
        group_keys: Option<&[String]>,
    ) -> Result<Outputs, TrinoError> {
        let cx = ExprContext {
            scope,
            clause: Clause::Select,
            in_aggregate: false,
            group_keys,
        };
        let (items, columns, origins) = self.select_items(s, scope, &cx, group_keys)?;
        let having = self.having(s, &cx)?;
        let item_sql: Vec<String> = items.iter().map(|(sql, _)| sql.to_string()).collect();
        let order = match order_by {
            Some(o) => Some(self.select_order(s, scope, o, &item_sql, &columns, group_keys)?),
            None => None,
        };
        let window_order = order.as_ref().map(|keys| {
            let item_exprs: Vec<SqlExpr> = items.iter().map(|(sql, _)| sql.clone()).collect();
            inline_outputs(keys, &item_exprs)
        });
        Ok(Outputs {
            items,
            columns,
            origins,
            having,
            order,
            window_order,
        })
    }

    /// The select list: each item's `sql AS "cN"` and its column's name and type.
    fn select_items(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        cx: &ExprContext<'_>,
        group_keys: Option<&[String]>,
    ) -> Result<SelectItems, TrinoError> {
        let mut items = Vec::new();
        let mut columns = Vec::new();
        // For DESCRIBE OUTPUT: where each column comes from (describe.rs).
        let describing = self.describing.is_some();
        let mut origins: Vec<Origin> = Vec::new();
        let push = |items: &mut Vec<(SqlExpr, Option<String>)>,
                    columns: &mut Vec<(String, TrinoType)>,
                    sql: SqlExpr,
                    name: String,
                    ty: TrinoType| {
            items.push((sql, Some(output_name(items.len() + 1))));
            columns.push((name, ty));
        };
        for item in &s.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    if let SelectItem::ExprWithAlias { alias, .. } = item {
                        self.refuse_string_alias(alias)?;
                    }
                    let t = self.grouped_expr(e, cx)?;
                    let name = match item {
                        // Trino reports an alias, and a column named bare, as written (the
                        // JDBC driver's `SELECT TABLE_CAT …` answers `TABLE_CAT`); it resolves
                        // names case-insensitively.
                        SelectItem::ExprWithAlias { alias, .. } => alias.value.clone(),
                        _ => match e {
                            // Special forms, not columns: Trino names them as expressions.
                            Expr::Identifier(i) if is_session_special(i) => {
                                crate::sql::analyze::UNNAMED.to_string()
                            }
                            Expr::Identifier(i) => i.value.clone(),
                            Expr::CompoundIdentifier(parts) => {
                                parts.last().map(|i| i.value.clone()).unwrap_or_default()
                            }
                            _ => crate::sql::analyze::UNNAMED.to_string(),
                        },
                    };
                    push(&mut items, &mut columns, t.sql, name, t.ty);
                    if describing {
                        let aliased = matches!(item, SelectItem::ExprWithAlias { .. });
                        let table = self.origin_of(scope, e);
                        origins.push(Origin { table, aliased });
                    }
                }
                SelectItem::Wildcard(options) | SelectItem::QualifiedWildcard(_, options) => {
                    // A row's fields are analysed as the row expression is (grouping checked
                    // there); a relation's columns each as a column.
                    let (expanded, of_row) = match self.row_wildcard(item, scope, cx)? {
                        Some(fields) => (fields, true),
                        None => (wildcard_columns(scope, item)?, false),
                    };
                    let names = super::select_all::wildcard_names(options, expanded.len())?;
                    for (k, mut c) in expanded.into_iter().enumerate() {
                        if !of_row {
                            self.wildcard_column(&c, group_keys, location(item))?;
                        }
                        if let Some(name) = names.as_ref().and_then(|n| n.get(k)) {
                            c.name = name.clone();
                        }
                        if describing {
                            let table = self.origin_of_column(&c);
                            origins.push(Origin {
                                table,
                                aliased: false,
                            });
                        }
                        push(
                            &mut items,
                            &mut columns,
                            c.sql.clone(),
                            c.name.clone(),
                            c.ty.clone(),
                        );
                    }
                }
                SelectItem::ExprWithAliases { .. } => {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        location(item),
                        "mismatched input '('",
                    ));
                }
            }
        }
        Ok((items, columns, origins))
    }

    /// HAVING, analysed as the select list is.
    fn having(&mut self, s: &Select, cx: &ExprContext<'_>) -> Result<Option<SqlExpr>, TrinoError> {
        Ok(match &s.having {
            Some(e) => {
                let cx = ExprContext {
                    clause: Clause::Having,
                    ..*cx
                };
                let t = self.grouped_expr(e, &cx)?;
                self.require_boolean(&t, e, "HAVING clause")?;
                Some(t.sql)
            }
            None => None,
        })
    }

    fn wildcard_column(
        &mut self,
        c: &Column,
        group_keys: Option<&[String]>,
        at: Option<Position>,
    ) -> Result<(), TrinoError> {
        if let Some(keys) = group_keys
            && !keys.contains(&c.sql.to_string())
        {
            return Err(error_at(
                ErrorName::ExpressionNotAggregate,
                at,
                format!(
                    "'{}' must be an aggregate expression or appear in GROUP BY clause",
                    c.name
                ),
            ));
        }
        self.use_column(c);
        Ok(())
    }

    /// Analyses `e` and, in a grouped block, refuses columns neither grouped nor aggregated.
    pub(in crate::sql) fn grouped_expr(
        &mut self,
        e: &Expr,
        cx: &ExprContext<'_>,
    ) -> Result<Typed, TrinoError> {
        self.loose.clear();
        let t = self.expr(e, cx)?;
        if cx.group_keys.is_some()
            && let Some((at, name)) = self.loose.first()
        {
            // Trino names the whole expression, where its node is (AggregationAnalyzer).
            let (at, name) = match crate::sql::analyze::trino_text::formatted(e) {
                Some(text) => (
                    crate::sql::analyze::trino_text::node_location(self.tokens, e).or(*at),
                    text,
                ),
                None => (*at, name.clone()),
            };
            return Err(error_at(
                ErrorName::ExpressionNotAggregate,
                at,
                format!("'{name}' must be an aggregate expression or appear in GROUP BY clause"),
            ));
        }
        Ok(t)
    }
}

/// `current_user`, `current_catalog`, `current_schema`: reserved words of Trino's grammar for
/// session values, not column names.
fn is_session_special(i: &sqlparser::ast::Ident) -> bool {
    i.quote_style.is_none()
        && ["current_user", "current_catalog", "current_schema"]
            .iter()
            .any(|w| i.value.eq_ignore_ascii_case(w))
}

/// The select list's items (`sql AS "cN"`), columns (name, type) and, when describing, their
/// origins.
type SelectItems = (
    Vec<(SqlExpr, Option<String>)>,
    Vec<(String, TrinoType)>,
    Vec<Origin>,
);

/// SELECT syntax sqlparser takes from other dialects, which Trino's grammar lacks.
fn refuse_foreign_syntax(s: &Select) -> Result<(), TrinoError> {
    if s.top.is_some()
        || s.into.is_some()
        || !s.lateral_views.is_empty()
        || s.prewhere.is_some()
        || !s.connect_by.is_empty()
        || !s.cluster_by.is_empty()
        || !s.distribute_by.is_empty()
        || !s.sort_by.is_empty()
        || s.qualify.is_some()
        || s.exclude.is_some()
        || s.value_table_mode.is_some()
    {
        return Err(error_at(
            ErrorName::SyntaxError,
            location(s),
            "mismatched input: this SELECT syntax is not Trino's",
        ));
    }
    Ok(())
}

/// Whether the SELECT is DISTINCT; DISTINCT ON is not Trino's.
pub(in crate::sql) fn is_distinct(s: &Select) -> Result<bool, TrinoError> {
    Ok(match &s.distinct {
        None | Some(Distinct::All) => false,
        Some(Distinct::Distinct) => true,
        Some(Distinct::On(_)) => {
            return Err(error_at(
                ErrorName::SyntaxError,
                None,
                "mismatched input 'ON'",
            ));
        }
    })
}

/// The name of a block's `n`th output column (from 1): every block names its columns so.
pub(in crate::sql) fn output_name(n: usize) -> String {
    format!("c{n}")
}

/// A block's `n`th output column, `"cN"`, as the block around it reads it.
pub(in crate::sql) fn output_column(n: usize) -> SqlExpr {
    SqlExpr::column(None, output_name(n))
}

/// A block's outputs `"c1"`, …, `"cN"`, as the block around it reads them.
pub(in crate::sql) fn output_columns(count: usize) -> Vec<SqlExpr> {
    (1..=count).map(output_column).collect()
}

/// The hidden aggregate's alias (see `select_block`).
const HIDDEN_GROUP: &str = "qm_group";

/// The columns of `SELECT *` (every visible column of the FROM, JOIN … USING columns first)
/// or of `SELECT t.*`.
fn wildcard_columns(scope: &Scope<'_>, item: &SelectItem) -> Result<Vec<Column>, TrinoError> {
    match item {
        SelectItem::QualifiedWildcard(kind, _) => {
            let SelectItemQualifiedWildcardKind::ObjectName(name) = kind else {
                return Err(not_supported(location(item), "This wildcard"));
            };
            let parts = object_name_parts(name);
            let relation = scope.relation(&parts).ok_or_else(|| {
                error_at(
                    ErrorName::TableNotFound,
                    location(name),
                    format!("Table '{}' not found", parts.join(".")),
                )
            })?;
            Ok(relation
                .columns
                .iter()
                .filter(|c| !c.unlisted)
                .cloned()
                .collect())
        }
        _ => {
            if scope.relations.is_empty() {
                return Err(error_at(
                    ErrorName::GenericUserError,
                    location(item),
                    "SELECT * not allowed in queries without FROM clause",
                ));
            }
            let mut all: Vec<Column> = scope
                .relations
                .iter()
                .flat_map(|r| r.columns.clone())
                .filter(|c| !c.hidden && !c.unlisted)
                .collect();
            // JOIN … USING columns come first, once (Trino's order); the sort is stable.
            let using: Vec<String> = scope
                .relations
                .iter()
                .flat_map(|r| &r.columns)
                .filter(|c| c.hidden)
                .map(|c| c.name.clone())
                .collect();
            all.sort_by_key(|c| !using.contains(&c.name));
            Ok(all)
        }
    }
}

/// A GROUP BY or ORDER BY key as SQLite must read it: SQLite takes an integer constant there
/// for an output's position, also one it folds while parsing (`-1`, `'x' IS NULL`), where
/// Trino (which takes only a literal integer for one) sees a value. A key that names no
/// column is a constant, so a CASE around it costs nothing.
pub(in crate::sql) fn not_a_position(key: SqlExpr) -> SqlExpr {
    if key.to_string().contains('"') {
        key
    } else {
        SqlExpr::case_when(vec![(SqlExpr::Integer(1), key)], None)
    }
}

/// What the select list, HAVING and ORDER BY of one SELECT analyse to.
pub(in crate::sql) struct Outputs {
    pub(in crate::sql) items: Vec<(SqlExpr, Option<String>)>,
    pub(in crate::sql) columns: Vec<(String, TrinoType)>,
    /// Where each column comes from, when describing (describe.rs).
    pub(in crate::sql) origins: Vec<Origin>,
    pub(in crate::sql) having: Option<SqlExpr>,
    pub(in crate::sql) order: Option<Vec<OrderKey>>,
    /// The ORDER BY with output references (`"c2"`) replaced by their expressions, for a
    /// window in the same SELECT, which cannot see the outputs' aliases.
    pub(in crate::sql) window_order: Option<Vec<OrderKey>>,
}

/// `GROUP BY ()` (only empty sets): one group of every row, a global aggregation, which has
/// its one row even over no rows.
fn groups_by_nothing(s: &Select) -> bool {
    matches!(&s.group_by, GroupByExpr::Expressions(exprs, _)
        if !exprs.is_empty() && exprs.iter().all(|e| matches!(e, Expr::Tuple(parts) if parts.is_empty())))
}

/// `GROUP BY AUTO` (docs sql/select.md, Trino 476): the select list's items that are not an
/// aggregate call, in its place among the other grouping elements. AUTO is a reserved word,
/// so an unquoted `auto` here is never a column.
fn auto_group_keys<'s>(s: &'s Select, keys: Vec<&'s Expr>) -> Result<Vec<&'s Expr>, TrinoError> {
    let is_auto = |e: &Expr| {
        matches!(e, Expr::Identifier(id) if id.quote_style.is_none()
            && id.value.eq_ignore_ascii_case("auto"))
    };
    if !keys.iter().any(|e| is_auto(e)) {
        return Ok(keys);
    }
    let mut expanded = Vec::new();
    for key in keys {
        if !is_auto(key) {
            expanded.push(key);
            continue;
        }
        for item in &s.projection {
            let e = match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e,
                _ => {
                    return Err(not_supported(
                        location(key),
                        "GROUP BY AUTO with a * in the select list",
                    ));
                }
            };
            if !is_aggregate_call(e) {
                expanded.push(e);
            }
        }
    }
    Ok(expanded)
}

/// Whether `e` is a call of an aggregate function (not over a window).
fn is_aggregate_call(e: &Expr) -> bool {
    let Expr::Function(f) = e else {
        return false;
    };
    if f.over.is_some() {
        return false;
    }
    let name = f.name.to_string().to_ascii_lowercase();
    querymesh_functions::registry::lookup(&name)
        .is_some_and(|entry| entry.kind == querymesh_functions::entry::Kind::Aggregate)
}
