//! FROM: tables (resolved through the session's catalog and schema), WITH queries, derived
//! tables with column aliases, and joins (ON, USING, CROSS), each given a SQLite alias.

use querymesh_values::sqlite_text::quote;
use sqlparser::ast::{Join, JoinConstraint, JoinOperator, TableFactor, TableWithJoins};

use super::analyze::{
    Analyzer, Cte, SourceColumn, ident_location, ident_name, location, object_name_parts,
};
use super::scope::{Clause, Column, ExprContext, Relation, Scope};
use super::visible;
use crate::TableAccess;
use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};

impl Analyzer<'_> {
    fn table_factor(
        &mut self,
        factor: &TableFactor,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<String, TrinoError> {
        self.stack.check()?;
        match factor {
            TableFactor::Table {
                name,
                alias,
                args: Some(args),
                with_ordinality,
                ..
            } if super::unnest::is_unnest(name) => self.unnest(
                &args.args,
                *with_ordinality,
                alias.as_ref(),
                location(name),
                outer,
                relations,
            ),
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
                let cte_origins = cte.as_ref().map(|c| c.origins.clone()).unwrap_or_default();
                let (columns, source, default_names): (
                    Vec<SourceColumn>,
                    String,
                    Vec<Vec<String>>,
                ) = match cte {
                    Some(cte) => {
                        let cols = cte
                            .columns
                            .iter()
                            .map(|(n, t)| (n.clone(), t.clone(), None, false))
                            .collect();
                        (cols, quote(&cte.sqlite_name), vec![parts.clone()])
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
                                let from = view.as_deref().unwrap_or(&table.sqlite_name);
                                let source = self.policy_source(&table, &policy, from, at)?;
                                if let Some(access) = self.reads.get_mut(read) {
                                    access.filters = policy.filter_names();
                                    access.masks = policy.masked_columns(&table);
                                }
                                source
                            }
                            None => view.unwrap_or_else(|| {
                                visible::source(
                                    self.catalogs,
                                    self.session.viewer.as_ref(),
                                    self.session.user.as_deref(),
                                    &table,
                                )
                            }),
                        };
                        (cols, source, names)
                    }
                };
                let columns: Vec<Column> = columns
                    .into_iter()
                    .enumerate()
                    .map(|(i, (n, ty, read, unlisted))| Column {
                        sql: if from_cte {
                            format!("{sql_alias}.\"c{}\"", i + 1)
                        } else {
                            format!("{sql_alias}.{}", quote(&n))
                        },
                        name: n,
                        ty,
                        read,
                        hidden: false,
                        unlisted,
                    })
                    .collect();
                self.note_origins(&columns, &cte_origins);
                let relation = self.aliased(columns, default_names, alias.as_ref())?;
                relations.push(relation);
                Ok(format!("{source} AS {sql_alias}"))
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
                        sql: format!("{sql_alias}.\"c{}\"", i + 1),
                        read: None,
                        hidden: false,
                        unlisted: false,
                    })
                    .collect::<Vec<_>>();
                self.note_origins(&columns, &block.origins);
                relations.push(self.aliased(columns, Vec::new(), alias.as_ref())?);
                Ok(format!("({}) AS {sql_alias}", block.sql))
            }
            TableFactor::NestedJoin {
                table_with_joins,
                alias,
            } => {
                if alias.is_some() {
                    return Err(not_supported(None, "An alias on a parenthesized join"));
                }
                self.relation_with_joins(table_with_joins, outer, relations)
            }
            _ => Err(not_supported(
                None,
                "This kind of relation (UNNEST, table functions)",
            )),
        }
    }

    /// Applies `AS alias (col, …)` to a relation's columns.
    pub(super) fn aliased(
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

    pub(super) fn relation_with_joins(
        &mut self,
        item: &TableWithJoins,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<String, TrinoError> {
        let mut sql = self.table_factor(&item.relation, outer, relations)?;
        for join in &item.joins {
            sql = self.join(sql, join, outer, relations)?;
        }
        Ok(sql)
    }

    fn join(
        &mut self,
        left: String,
        join: &Join,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<String, TrinoError> {
        let first_new = relations.len();
        let right = self.table_factor(&join.relation, outer, relations)?;
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
        let condition = match constraint {
            None | Some(JoinConstraint::None) => {
                if keyword != "CROSS JOIN" {
                    return Err(error_at(
                        ErrorName::SyntaxError,
                        None,
                        "mismatched input: a join needs ON or USING",
                    ));
                }
                String::new()
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
                format!(" ON {}", t.sql)
            }
            Some(JoinConstraint::Using(names)) => {
                let mut conditions = Vec::new();
                for name in names {
                    let column = object_name_parts(name).join(".");
                    let find = |rels: &[Relation]| {
                        rels.iter()
                            .find_map(|r| r.columns.iter().find(|c| c.name == column).cloned())
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
                    self.note_column(l.read, &l.name);
                    self.note_column(r.read, &r.name);
                    conditions.push(format!("{} = {}", l.sql, r.sql));
                    for c in relations[first_new..]
                        .iter_mut()
                        .flat_map(|r| r.columns.iter_mut())
                    {
                        if c.name == column {
                            c.hidden = true;
                        }
                    }
                }
                format!(" ON {}", conditions.join(" AND "))
            }
            Some(JoinConstraint::Natural) | Some(JoinConstraint::UsingAlias(..)) => {
                return Err(not_supported(None, "NATURAL JOIN"));
            }
        };
        Ok(format!("{left} {keyword} {right}{condition}"))
    }
}
