//! FROM: tables (resolved through the session's catalog and schema), WITH queries, derived
//! tables with column aliases, and joins (ON, USING, CROSS), each given a SQLite alias.

use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::sqlite_expr::{
    BinaryOp, FromItem, JoinKind, Select as SqlSelect, SqlExpr, builtin,
};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Expr, Join, JoinConstraint, JoinOperator, TableFactor, TableWithJoins, Value,
};

use crate::TableAccess;
use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Clause, Column, ExprContext, Relation, Scope};
use crate::sql::analyze::select::output_name;
use crate::sql::analyze::visible;
use crate::sql::analyze::{
    Analyzer, Cte, SourceColumn, ident_location, ident_name, location, object_name_parts,
};

impl Analyzer<'_> {
    pub(in crate::sql) fn table_factor(
        &mut self,
        factor: &TableFactor,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        self.stack.check()?;
        match factor {
            TableFactor::Table {
                name,
                alias,
                args: Some(args),
                with_ordinality,
                ..
            } if crate::sql::analyze::unnest::is_unnest(name) => self.unnest(
                &args.args,
                *with_ordinality,
                alias.as_ref(),
                location(name),
                outer,
                relations,
            ),
            TableFactor::Table {
                name,
                with_ordinality: true,
                ..
            } if crate::sql::analyze::json_table::is_json_table(name) => Err(error_at(
                ErrorName::SyntaxError,
                location(name),
                "mismatched input 'WITH'",
            )),
            TableFactor::Table {
                name,
                alias,
                args: Some(args),
                ..
            } if crate::sql::analyze::json_table::is_json_table(name) => {
                self.json_table(&args.args, alias.as_ref(), location(name), outer, relations)
            }
            TableFactor::Table {
                name,
                alias,
                args,
                with_hints,
                version,
                sample,
                ..
            } => {
                if args.is_some() || !with_hints.is_empty() || version.is_some() || sample.is_some()
                {
                    return Err(not_supported(location(name), "This table reference"));
                }
                let parts = object_name_parts(name);
                let at = location(name);
                let sql_alias = self.alias("t");
                let cte = match parts.as_slice() {
                    [one] => self.find_cte(one),
                    _ => None,
                };
                let from_cte = cte.is_some();
                let cte_name = cte.as_ref().map(|c| c.sqlite_name.clone());
                let cte_origins = cte.as_ref().map(|c| c.origins.clone()).unwrap_or_default();
                let (columns, source, default_names): (
                    Vec<SourceColumn>,
                    Option<TableSource>,
                    Vec<Vec<String>>,
                ) = match cte {
                    Some(cte) => {
                        let cols = cte
                            .columns
                            .iter()
                            .map(|(n, t)| (n.clone(), t.clone(), None, false))
                            .collect();
                        (cols, None, vec![parts.clone()])
                    }
                    None => {
                        let table = self.resolve_table(&parts, at)?;
                        let read = self.reads.len();
                        self.reads.push(TableAccess {
                            catalog: table.catalog.clone(),
                            schema: table.schema.clone(),
                            table: table.name.clone(),
                            ..TableAccess::default()
                        });
                        // A SQLite view over a filtered or masked table, read as Trino SQL.
                        let view = self.shaped_view_source(&table, at)?;
                        let cols = table
                            .columns
                            .iter()
                            .map(|c| (c.name.clone(), c.ty.clone(), Some(read), c.hidden))
                            .collect();
                        let names = vec![
                            vec![table.name.clone()],
                            vec![table.schema.clone(), table.name.clone()],
                            vec![
                                table.catalog.clone(),
                                table.schema.clone(),
                                table.name.clone(),
                            ],
                        ];
                        let policy = self.session.viewer.as_ref().and_then(|v| {
                            v.table_policy(&table.catalog, &table.schema, &table.name)
                        });
                        let source = match policy {
                            Some(policy) => {
                                let source = self.policy_source(&table, &policy, view, at)?;
                                if let Some(access) = self.reads.get_mut(read) {
                                    access.filters = policy.filter_names();
                                    access.masks = policy.masked_columns(&table);
                                }
                                TableSource::Shaped(Box::new(source))
                            }
                            None => match view {
                                Some(view) => TableSource::Shaped(Box::new(view)),
                                None => TableSource::Catalog(Box::new(visible::source(
                                    self.catalogs,
                                    self.session.viewer.as_ref(),
                                    self.session.user.as_deref(),
                                    &table,
                                    Some(sql_alias.clone()),
                                ))),
                            },
                        };
                        (cols, Some(source), names)
                    }
                };
                let columns: Vec<Column> = columns
                    .into_iter()
                    .enumerate()
                    .map(|(i, (n, ty, read, unlisted))| Column {
                        sql: if from_cte {
                            SqlExpr::column(Some(&sql_alias), output_name(i + 1))
                        } else {
                            SqlExpr::column(Some(&sql_alias), n.clone())
                        },
                        name: n,
                        ty,
                        read,
                        hidden: false,
                        unlisted,
                        planning_refusal: None,
                    })
                    .collect();
                self.note_origins(&columns, &cte_origins);
                let relation = self.aliased(columns, default_names, alias.as_ref())?;
                relations.push(relation);
                let alias = Some(sql_alias);
                Ok(match (source, cte_name) {
                    // A view expanded, or a table under the reader's policy.
                    (Some(TableSource::Shaped(select)), _) => FromItem::Subquery { select, alias },
                    // A catalog's table or view, as the reader may see it (visible.rs).
                    (Some(TableSource::Catalog(source)), _) => *source,
                    (None, name) => FromItem::Table {
                        name: name.unwrap_or_default(),
                        alias,
                    },
                })
            }
            TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample: None,
            } if *lateral => self.lateral(subquery, alias.as_ref(), outer, relations),
            TableFactor::Derived {
                lateral,
                subquery,
                alias,
                sample,
            } => {
                if *lateral || sample.is_some() {
                    return Err(not_supported(location(subquery.as_ref()), "LATERAL"));
                }
                let block = self.query(subquery, outer)?;
                let sql_alias = self.alias("t");
                let columns = block
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, (n, ty))| Column {
                        name: n.clone(),
                        ty: ty.clone(),
                        sql: SqlExpr::column(Some(&sql_alias), output_name(i + 1)),
                        read: None,
                        hidden: false,
                        unlisted: false,
                        planning_refusal: None,
                    })
                    .collect::<Vec<_>>();
                self.note_origins(&columns, &block.origins);
                relations.push(self.aliased(columns, Vec::new(), alias.as_ref())?);
                Ok(FromItem::query(block.sql, Some(sql_alias)))
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias,
            } => {
                if alias.is_some() {
                    return Err(not_supported(None, "An alias on a parenthesized join"));
                }
                // Parenthesized, so a join around it takes it whole (`a LEFT JOIN (b JOIN c
                // ON …) ON …`).
                let joined = self.relation_with_joins(table_with_joins, outer, relations)?;
                Ok(FromItem::Nested(Box::new(joined)))
            }
            TableFactor::TableFunction { expr, alias } => {
                self.table_function(expr, alias.as_ref(), relations)
            }
            _ => Err(not_supported(
                None,
                "This kind of relation (UNNEST, table functions)",
            )),
        }
    }

    /// Applies `AS alias (col, …)` to a relation's columns.
    pub(in crate::sql) fn aliased(
        &self,
        mut columns: Vec<Column>,
        default_names: Vec<Vec<String>>,
        alias: Option<&sqlparser::ast::TableAlias>,
    ) -> Result<Relation, TrinoError> {
        let Some(alias) = alias else {
            return Ok(Relation {
                names: default_names,
                columns,
            });
        };
        self.refuse_string_alias(&alias.name)?;
        if !alias.columns.is_empty() {
            if alias.columns.len() != columns.len() {
                return Err(error_at(
                    ErrorName::MismatchedColumnAliases,
                    ident_location(&alias.name),
                    format!(
                        "Column alias list has {} entries but '{}' has {} columns available",
                        alias.columns.len(),
                        alias.name.value,
                        columns.len()
                    ),
                ));
            }
            for (c, a) in columns.iter_mut().zip(&alias.columns) {
                c.name = ident_name(&a.name);
            }
        }
        Ok(Relation {
            names: vec![vec![ident_name(&alias.name)]],
            columns,
        })
    }

    fn find_cte(&self, name: &str) -> Option<&Cte> {
        self.ctes.iter().rev().find_map(|frame| frame.get(name))
    }

    fn resolve_table(
        &self,
        parts: &[String],
        at: Option<Position>,
    ) -> Result<crate::catalog::TableMeta, TrinoError> {
        let missing_catalog = || {
            error_at(
                ErrorName::MissingCatalogName,
                at,
                "Catalog must be specified when session catalog is not set",
            )
        };
        let (catalog, schema, table) = match parts {
            // Trino's MetadataUtil.createQualifiedObjectName checks the schema first.
            [t] => {
                let s = self.session.schema.clone().ok_or_else(|| {
                    error_at(
                        ErrorName::MissingSchemaName,
                        at,
                        "Schema must be specified when session schema is not set",
                    )
                })?;
                let c = self.session.catalog.clone().ok_or_else(missing_catalog)?;
                (c, s, t.clone())
            }
            [s, t] => (
                self.session.catalog.clone().ok_or_else(missing_catalog)?,
                s.clone(),
                t.clone(),
            ),
            [c, s, t] => (c.clone(), s.clone(), t.clone()),
            _ => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    at,
                    format!("Too many dots in table name: {}", parts.join(".")),
                ));
            }
        };
        if !self.catalogs.has_catalog(&catalog) {
            return Err(error_at(
                ErrorName::CatalogNotFound,
                at,
                format!("Catalog '{catalog}' not found"),
            ));
        }
        if let Some(message) = self.catalogs.unavailable(&catalog, &schema) {
            return Err(error_at(ErrorName::TableNotFound, at, message));
        }
        if !self.catalogs.has_schema(&catalog, &schema) {
            return Err(error_at(
                ErrorName::SchemaNotFound,
                at,
                format!("Schema '{schema}' does not exist"),
            ));
        }
        self.catalogs
            .table(&catalog, &schema, &table)
            .cloned()
            .ok_or_else(|| {
                error_at(
                    ErrorName::TableNotFound,
                    at,
                    format!("Table '{catalog}.{schema}.{table}' does not exist"),
                )
            })
    }

    pub(in crate::sql) fn relation_with_joins(
        &mut self,
        item: &TableWithJoins,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let mut item_sql = self.table_factor(&item.relation, outer, relations)?;
        for join in &item.joins {
            item_sql = self.join(item_sql, join, outer, relations)?;
        }
        Ok(item_sql)
    }

    fn join(
        &mut self,
        left: FromItem,
        join: &Join,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let first_new = relations.len();
        let (keyword, constraint) = match &join.join_operator {
            JoinOperator::Join(c) | JoinOperator::Inner(c) => ("JOIN", Some(c)),
            JoinOperator::Left(c) | JoinOperator::LeftOuter(c) => ("LEFT JOIN", Some(c)),
            JoinOperator::Right(c) | JoinOperator::RightOuter(c) => ("RIGHT JOIN", Some(c)),
            JoinOperator::FullOuter(c) => ("FULL JOIN", Some(c)),
            JoinOperator::CrossJoin(JoinConstraint::None) => ("CROSS JOIN", None),
            _ => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    None,
                    "mismatched input: this join is not Trino's",
                ));
            }
        };
        let right = self.join_right_side(join, keyword, outer, relations)?;
        if crate::sql::analyze::unnest::is_unnest_factor(&join.relation) {
            only_on_true(keyword, constraint)?;
        }
        let condition = match constraint {
            None | Some(JoinConstraint::None) => {
                if keyword != "CROSS JOIN" {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        None,
                        "mismatched input: a join needs ON or USING",
                    ));
                }
                None
            }
            Some(JoinConstraint::On(e)) => {
                let scope = Scope::new(relations.clone(), outer);
                let cx = ExprContext {
                    scope: &scope,
                    clause: Clause::On,
                    in_aggregate: false,
                    group_keys: None,
                };
                let t = self.expr(e, &cx)?;
                self.require_boolean(&t, e, "JOIN ON clause")?;
                Some(t.sql)
            }
            Some(JoinConstraint::Using(names)) => {
                let mut conditions = Vec::new();
                let mut joined = Vec::new();
                for name in names {
                    let column = object_name_parts(name).join(".");
                    let find = |rels: &[Relation]| {
                        rels.iter().find_map(|r| {
                            r.columns
                                .iter()
                                .find(|c| c.name == column && !c.hidden)
                                .cloned()
                        })
                    };
                    let (Some(l), Some(r)) =
                        (find(&relations[..first_new]), find(&relations[first_new..]))
                    else {
                        return Err(error_at(
                            ErrorName::ColumnNotFound,
                            location(name),
                            format!("Column '{column}' is missing from left or right side of join"),
                        ));
                    };
                    self.use_column(&l);
                    self.use_column(&r);
                    conditions.push(SqlExpr::binary(
                        l.sql.clone(),
                        BinaryOp::Equal,
                        r.sql.clone(),
                    ));
                    joined.push(using_column(&l, &r, keyword));
                    // Neither side's copy is reachable any more, not even qualified: the
                    // name is the joined column's (Trino's StatementAnalyzer.analyzeJoinUsing).
                    for c in relations.iter_mut().flat_map(|r| r.columns.iter_mut()) {
                        if c.name == column && !c.hidden {
                            c.hidden = true;
                        }
                    }
                }
                relations.push(Relation {
                    names: Vec::new(),
                    columns: joined,
                });
                conditions
                    .into_iter()
                    .reduce(|all, c| SqlExpr::binary(all, BinaryOp::And, c))
            }
            Some(JoinConstraint::Natural) | Some(JoinConstraint::UsingAlias(..)) => {
                return Err(not_supported(None, "NATURAL JOIN"));
            }
        };
        Ok(FromItem::join(
            left,
            join_kind_of(keyword),
            right,
            condition,
        ))
    }
}

/// Where a table's rows come from.
enum TableSource {
    /// A view expanded, or the table under the reader's filters and masks.
    Shaped(Box<SqlSelect>),
    /// The catalog's table as visible.rs shows it to the reader, under its alias.
    Catalog(Box<FromItem>),
}

/// The column `JOIN … USING (k)` gives for `k`: of the two sides' common type, the left's value
/// for an inner or left join, the right's for a right join, either for a full join (docs
/// sql/select "USING").
fn using_column(left: &Column, right: &Column, keyword: &str) -> Column {
    let ty = super_type(&left.ty, &right.ty).unwrap_or_else(|| left.ty.clone());
    let side = |c: &Column| coerced(&Typed::new(c.sql.clone(), c.ty.clone()), &ty);
    let sql = match keyword {
        "RIGHT JOIN" => side(right),
        "FULL JOIN" => builtin::COALESCE.call([side(left), side(right)]),
        _ => side(left),
    };
    Column {
        name: left.name.clone(),
        ty,
        sql,
        read: None,
        hidden: false,
        unlisted: false,
        planning_refusal: None,
    }
}

/// A join with UNNEST on its right takes only `ON TRUE` (StatementAnalyzer.visitJoin).
fn only_on_true(keyword: &str, constraint: Option<&JoinConstraint>) -> Result<(), TrinoError> {
    let at = match constraint {
        None | Some(JoinConstraint::None) => return Ok(()),
        Some(JoinConstraint::On(Expr::Value(v))) if v.value == Value::Boolean(true) => {
            return Ok(());
        }
        Some(JoinConstraint::On(e)) => location(e),
        Some(_) => None,
    };
    let kind = join_kind(keyword);
    Err(error_at(
        ErrorName::NotSupported,
        at,
        format!("{kind} JOIN involving UNNEST is only supported with condition ON TRUE"),
    ))
}

/// The tree's join for a join's SQLite keyword.
fn join_kind_of(keyword: &str) -> JoinKind {
    match keyword {
        "LEFT JOIN" => JoinKind::Left,
        "RIGHT JOIN" => JoinKind::Right,
        "FULL JOIN" => JoinKind::Full,
        "CROSS JOIN" => JoinKind::Cross,
        _ => JoinKind::Inner,
    }
}

/// Trino's word for a join: INNER, LEFT, RIGHT, FULL or CROSS.
fn join_kind(keyword: &str) -> &str {
    match keyword {
        "JOIN" => "INNER",
        other => other.trim_end_matches(" JOIN"),
    }
}

impl Analyzer<'_> {
    /// The right side of a join. UNNEST and LATERAL may read the left side's columns, but not
    /// in a RIGHT or FULL join (StatementAnalyzer: "LATERAL reference not allowed in … JOIN",
    /// at the reference): such a side is first read without the left side's columns.
    fn join_right_side(
        &mut self,
        join: &Join,
        keyword: &str,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<FromItem, TrinoError> {
        let lateral = crate::sql::analyze::unnest::is_unnest_factor(&join.relation)
            || matches!(&join.relation, TableFactor::Derived { lateral: true, .. });
        if lateral && matches!(keyword, "RIGHT JOIN" | "FULL JOIN") {
            let mut alone = Vec::new();
            if let Err(e) = self.table_factor(&join.relation, outer, &mut alone)
                && e.name == ErrorName::ColumnNotFound
                && self
                    .table_factor(&join.relation, outer, &mut relations.clone())
                    .is_ok()
            {
                return Err(error_at(
                    ErrorName::InvalidColumnReference,
                    e.location,
                    format!(
                        "LATERAL reference not allowed in {} JOIN",
                        join_kind(keyword)
                    ),
                ));
            }
        }
        self.table_factor(&join.relation, outer, relations)
    }
}
