//! Query blocks: WITH, set operations, VALUES, SELECT (FROM, WHERE, GROUP BY, HAVING,
//! ORDER BY, LIMIT) — each resolved against the catalogs, typed, and emitted as SQLite SQL
//! whose output columns are named `"c1"`, `"c2"`, … in order.

use std::collections::HashMap;

use sqlparser::ast::{
    Distinct, Expr, GroupByExpr, Join, JoinConstraint, JoinOperator, LimitClause, ObjectName,
    ObjectNamePart, Offset, OrderBy, OrderByExpr, OrderByKind, Query, Select, SelectItem,
    SelectItemQualifiedWildcardKind, SetExpr, SetOperator, SetQuantifier, Spanned, TableFactor,
    TableWithJoins, Value,
};

use super::coerce::super_type;
use super::scope::{Clause, Column, Cx, Relation, Scope};
use crate::querymesh::catalog::Catalogs;
use crate::querymesh::engine::{SessionContext, TableAccess};
use crate::querymesh::error::{ErrorName, TrinoError};
use crate::querymesh::types::TrinoType;

/// An expression typed and translated.
#[derive(Clone, Debug)]
pub struct Typed {
    pub sql: String,
    pub ty: TrinoType,
    pub konst: Option<Konst>,
}

/// Values known while analysing, for folding date and interval arithmetic.
#[derive(Clone, Debug, PartialEq)]
pub enum Konst {
    /// Days since 1970-01-01.
    Date(i64),
    Months(i64),
    Millis(i64),
    Int(i64),
    /// An exact decimal: unscaled value and scale.
    Decimal(i128, u32),
}

impl Typed {
    pub fn new(sql: impl Into<String>, ty: TrinoType) -> Self {
        Self {
            sql: sql.into(),
            ty,
            konst: None,
        }
    }
}

/// A query block's result: its SQL (columns `"c1"`…) and its columns' names and types.
pub struct Block {
    pub sql: String,
    pub columns: Vec<(String, TrinoType)>,
    /// Known to return at most one row (a global aggregate, no FROM, LIMIT 1).
    pub single_row: bool,
}

/// A column of a FROM source: name, type, and the table read it belongs to.
type SourceColumn = (String, TrinoType, Option<usize>);

struct Cte {
    sqlite_name: String,
    columns: Vec<(String, TrinoType)>,
}

pub struct Analyzer<'a> {
    pub catalogs: &'a Catalogs,
    pub session: &'a SessionContext,
    next_alias: u32,
    pub reads: Vec<TableAccess>,
    ctes: Vec<HashMap<String, Cte>>,
    /// Columns used outside aggregates in a grouped block, not (yet) covered by a group key.
    pub loose: Vec<(Option<(u64, u64)>, String)>,
    /// Aggregates met in the block being analysed.
    pub aggregates_seen: usize,
}

pub fn location(node: &impl Spanned) -> Option<(u64, u64)> {
    let start = node.span().start;
    (start.line > 0).then_some((start.line, start.column))
}

pub fn ident_location(ident: &sqlparser::ast::Ident) -> Option<(u64, u64)> {
    let start = ident.span.start;
    (start.line > 0).then_some((start.line, start.column))
}

pub fn error_at(name: ErrorName, at: Option<(u64, u64)>, text: impl Into<String>) -> TrinoError {
    match at {
        Some(l) => TrinoError::at(name, l, text),
        None => TrinoError::new(name, text),
    }
}

pub fn not_supported(at: Option<(u64, u64)>, what: &str) -> TrinoError {
    error_at(
        ErrorName::NotSupported,
        at,
        format!("{what} is not supported"),
    )
}

pub fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

pub fn ident_name(ident: &sqlparser::ast::Ident) -> String {
    ident.value.to_lowercase()
}

fn object_name_parts(name: &ObjectName) -> Vec<String> {
    name.0
        .iter()
        .map(|p| match p {
            ObjectNamePart::Identifier(i) => ident_name(i),
            other => other.to_string().to_lowercase(),
        })
        .collect()
}

/// A literal non-negative integer (LIMIT, OFFSET, FETCH, ordinals).
pub fn literal_count(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Analyzer<'a> {
    pub fn new(catalogs: &'a Catalogs, session: &'a SessionContext) -> Self {
        Self {
            catalogs,
            session,
            next_alias: 0,
            reads: Vec::new(),
            ctes: Vec::new(),
            loose: Vec::new(),
            aggregates_seen: 0,
        }
    }

    pub fn alias(&mut self, prefix: &str) -> String {
        self.next_alias += 1;
        format!("{prefix}{}", self.next_alias)
    }

    /// Records that `column` of read `read` is used (access control sees it).
    pub fn note_column(&mut self, read: Option<usize>, column: &str) {
        if let Some(access) = read.and_then(|i| self.reads.get_mut(i))
            && !access.columns.iter().any(|c| c == column)
        {
            access.columns.push(column.to_string());
        }
    }

    pub fn query(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        let mut with_sql = String::new();
        if let Some(with) = &q.with {
            if with.recursive {
                return Err(not_supported(location(with), "WITH RECURSIVE"));
            }
            self.ctes.push(HashMap::new());
            let mut parts = Vec::new();
            for cte in &with.cte_tables {
                let block = self.query(&cte.query, outer)?;
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
                parts.push(format!("{} AS ({})", quote(&sqlite_name), block.sql));
                if let Some(frame) = self.ctes.last_mut() {
                    frame.insert(
                        name,
                        Cte {
                            sqlite_name,
                            columns,
                        },
                    );
                }
            }
            with_sql = format!("WITH {} ", parts.join(", "));
        }
        // A subquery's grouping check must not disturb the enclosing expression's.
        let enclosing_loose = std::mem::take(&mut self.loose);
        let result = self.query_body(q, outer);
        self.loose = enclosing_loose;
        if q.with.is_some() {
            self.ctes.pop();
        }
        let block = result?;
        Ok(Block {
            sql: format!("{with_sql}{}", block.sql),
            columns: block.columns,
            single_row: block.single_row,
        })
    }

    fn query_body(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        if let Some(fetch) = &q.fetch
            && (fetch.with_ties || fetch.percent)
        {
            return Err(not_supported(None, "FETCH FIRST … WITH TIES or PERCENT"));
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
        let (limit, limit_one) = self.limit_sql(q)?;
        let block = match q.body.as_ref() {
            SetExpr::Select(select) => self.select(select, outer, q.order_by.as_ref())?,
            body => {
                let block = self.set_expr(body, outer)?;
                match &q.order_by {
                    None => block,
                    Some(order_by) => {
                        let outputs = block
                            .columns
                            .iter()
                            .enumerate()
                            .map(|(i, (n, ty))| {
                                (
                                    n.to_lowercase(),
                                    Column {
                                        name: n.clone(),
                                        ty: ty.clone(),
                                        sql: format!("\"c{}\"", i + 1),
                                        read: None,
                                        hidden: false,
                                    },
                                )
                            })
                            .collect();
                        let mut scope = Scope::new(Vec::new(), outer);
                        scope.outputs = outputs;
                        let order = self.order_by(order_by, &scope, &block.columns, None, None)?;
                        Block {
                            sql: format!("SELECT * FROM ({}) ORDER BY {order}", block.sql),
                            columns: block.columns,
                            single_row: block.single_row,
                        }
                    }
                }
            }
        };
        Ok(match limit {
            None => block,
            Some(limit) => Block {
                sql: format!("SELECT * FROM ({}) {limit}", block.sql),
                columns: block.columns,
                single_row: block.single_row || limit_one,
            },
        })
    }

    /// `LIMIT … OFFSET …` for the query, and whether it keeps at most one row.
    fn limit_sql(&mut self, q: &Query) -> Result<(Option<String>, bool), TrinoError> {
        let count = |e: &Expr| {
            literal_count(e).ok_or_else(|| {
                error_at(
                    ErrorName::InvalidLimitClause,
                    location(e),
                    "LIMIT, OFFSET and FETCH take a non-negative integer literal",
                )
            })
        };
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
                        limit = Some(count(l)?);
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
        let at_most_one = limit.is_some_and(|l| l <= 1);
        Ok(match (limit, offset) {
            (None, None) => (None, false),
            (l, o) => (
                Some(format!(
                    "LIMIT {} OFFSET {}",
                    l.map_or(-1, |l| l.min(i64::MAX as u64) as i64),
                    o.unwrap_or(0)
                )),
                at_most_one,
            ),
        })
    }

    fn set_expr(&mut self, body: &SetExpr, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        match body {
            SetExpr::Select(select) => self.select(select, outer, None),
            SetExpr::Query(q) => self.query(q, outer),
            SetExpr::Values(values) => {
                let scope = Scope::new(Vec::new(), outer);
                let mut rows = Vec::new();
                let mut types: Vec<TrinoType> = Vec::new();
                for row in &values.rows {
                    let cx = Cx {
                        scope: &scope,
                        clause: Clause::Values,
                        in_aggregate: false,
                        group_keys: None,
                    };
                    let mut cells = Vec::new();
                    for (i, e) in row.content.iter().enumerate() {
                        let t = self.expr(e, &cx)?;
                        match types.get(i) {
                            None => types.push(t.ty.clone()),
                            Some(prev) => {
                                let merged = super_type(prev, &t.ty).ok_or_else(|| {
                                    error_at(
                                        ErrorName::TypeMismatch,
                                        location(e),
                                        format!(
                                            "Values rows have mismatched types: {prev} vs {}",
                                            t.ty
                                        ),
                                    )
                                })?;
                                types[i] = merged;
                            }
                        }
                        cells.push(t.sql);
                    }
                    if !rows.is_empty() && cells.len() != types.len() {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            None,
                            "Values rows have mismatched sizes",
                        ));
                    }
                    rows.push(cells);
                }
                let sql = rows
                    .iter()
                    .map(|cells| {
                        let items: Vec<String> = cells
                            .iter()
                            .enumerate()
                            .map(|(i, c)| format!("{c} AS \"c{}\"", i + 1))
                            .collect();
                        format!("SELECT {}", items.join(", "))
                    })
                    .collect::<Vec<_>>()
                    .join(" UNION ALL ");
                Ok(Block {
                    sql,
                    single_row: rows.len() <= 1,
                    columns: types
                        .into_iter()
                        .enumerate()
                        .map(|(i, t)| (format!("_col{i}"), t))
                        .collect(),
                })
            }
            SetExpr::SetOperation {
                left,
                op,
                set_quantifier,
                right,
            } => {
                let l = self.set_expr(left, outer)?;
                let r = self.set_expr(right, outer)?;
                let op_name = match op {
                    SetOperator::Union => "UNION",
                    SetOperator::Intersect => "INTERSECT",
                    SetOperator::Except => "EXCEPT",
                    SetOperator::Minus => {
                        return Err(error_at(
                            ErrorName::SyntaxError,
                            location(right.as_ref()),
                            "mismatched input 'MINUS'",
                        ));
                    }
                };
                let all = match set_quantifier {
                    SetQuantifier::All => true,
                    SetQuantifier::None | SetQuantifier::Distinct => false,
                    _ => return Err(not_supported(None, "This set quantifier")),
                };
                if all && op_name != "UNION" {
                    return Err(not_supported(None, &format!("{op_name} ALL")));
                }
                if l.columns.len() != r.columns.len() {
                    return Err(error_at(
                        ErrorName::TypeMismatch,
                        None,
                        format!(
                            "{op_name} query has different number of fields: {}, {}",
                            l.columns.len(),
                            r.columns.len()
                        ),
                    ));
                }
                let mut columns = Vec::new();
                for (i, ((name, lt), (_, rt))) in l.columns.iter().zip(&r.columns).enumerate() {
                    let ty = super_type(lt, rt).ok_or_else(|| {
                        error_at(
                            ErrorName::TypeMismatch,
                            None,
                            format!(
                                "column {} in {op_name} query has incompatible types: {lt}, {rt}",
                                i + 1
                            ),
                        )
                    })?;
                    columns.push((name.clone(), ty));
                }
                let keyword = if all {
                    format!("{op_name} ALL")
                } else {
                    op_name.to_string()
                };
                Ok(Block {
                    sql: format!(
                        "SELECT * FROM ({}) {keyword} SELECT * FROM ({})",
                        l.sql, r.sql
                    ),
                    columns,
                    single_row: false,
                })
            }
            SetExpr::Table(_) => Err(not_supported(None, "TABLE statement")),
            _ => Err(error_at(
                ErrorName::NotSupported,
                None,
                "Only queries are supported: the QueryMesh stand-in is read-only",
            )),
        }
    }

    fn table_factor(
        &mut self,
        factor: &TableFactor,
        outer: Option<&Scope<'_>>,
        relations: &mut Vec<Relation>,
    ) -> Result<String, TrinoError> {
        match factor {
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
                let (columns, source, default_names): (
                    Vec<SourceColumn>,
                    String,
                    Vec<Vec<String>>,
                ) = match cte {
                    Some(cte) => {
                        let cols = cte
                            .columns
                            .iter()
                            .map(|(n, t)| (n.clone(), t.clone(), None))
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
                            columns: Vec::new(),
                        });
                        let cols = table
                            .columns
                            .iter()
                            .map(|c| (c.name.clone(), c.ty.clone(), Some(read)))
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
                        (cols, table.sqlite_name.clone(), names)
                    }
                };
                let columns: Vec<Column> = columns
                    .into_iter()
                    .enumerate()
                    .map(|(i, (n, ty, read))| Column {
                        sql: if from_cte {
                            format!("{sql_alias}.\"c{}\"", i + 1)
                        } else {
                            format!("{sql_alias}.{}", quote(&n))
                        },
                        name: n,
                        ty,
                        read,
                        hidden: false,
                    })
                    .collect();
                let relation = self.aliased(columns, default_names, alias.as_ref())?;
                relations.push(relation);
                Ok(format!("{source} AS {sql_alias}"))
            }
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
                    })
                    .collect();
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
    fn aliased(
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
        at: Option<(u64, u64)>,
    ) -> Result<crate::querymesh::catalog::TableMeta, TrinoError> {
        let missing_catalog = || {
            error_at(
                ErrorName::MissingCatalogName,
                at,
                "Catalog must be specified when session catalog is not set",
            )
        };
        let (catalog, schema, table) = match parts {
            [t] => {
                let c = self.session.catalog.clone().ok_or_else(missing_catalog)?;
                let s = self.session.schema.clone().ok_or_else(|| {
                    error_at(
                        ErrorName::MissingSchemaName,
                        at,
                        "Schema must be specified when session schema is not set",
                    )
                })?;
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

    fn relation_with_joins(
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
                let cx = Cx {
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

    pub fn require_boolean(&self, t: &Typed, e: &Expr, what: &str) -> Result<(), TrinoError> {
        if matches!(t.ty, TrinoType::Boolean | TrinoType::Unknown) {
            Ok(())
        } else {
            Err(error_at(
                ErrorName::TypeMismatch,
                location(e),
                format!("{what} must evaluate to a boolean: actual type {}", t.ty),
            ))
        }
    }

    fn select(
        &mut self,
        s: &Select,
        outer: Option<&Scope<'_>>,
        order_by: Option<&OrderBy>,
    ) -> Result<Block, TrinoError> {
        if s.top.is_some()
            || s.into.is_some()
            || !s.lateral_views.is_empty()
            || s.prewhere.is_some()
            || !s.connect_by.is_empty()
            || !s.cluster_by.is_empty()
            || !s.distribute_by.is_empty()
            || !s.sort_by.is_empty()
            || s.qualify.is_some()
            || !s.named_window.is_empty()
            || s.exclude.is_some()
            || s.value_table_mode.is_some()
        {
            return Err(error_at(
                ErrorName::SyntaxError,
                location(s),
                "mismatched input: this SELECT syntax is not Trino's",
            ));
        }
        let mut relations = Vec::new();
        let mut from = Vec::new();
        for item in &s.from {
            from.push(self.relation_with_joins(item, outer, &mut relations)?);
        }
        let scope = Scope::new(relations, outer);
        let base = Cx {
            scope: &scope,
            clause: Clause::Where,
            in_aggregate: false,
            group_keys: None,
        };
        let mut sql = String::new();
        let where_sql = match &s.selection {
            Some(e) => {
                let t = self.expr(e, &base)?;
                self.require_boolean(&t, e, "WHERE clause")?;
                format!(" WHERE {}", t.sql)
            }
            None => String::new(),
        };
        let group_exprs: Vec<&Expr> = match &s.group_by {
            GroupByExpr::All(_) => return Err(not_supported(None, "GROUP BY ALL")),
            GroupByExpr::Expressions(exprs, modifiers) => {
                if !modifiers.is_empty() {
                    return Err(not_supported(None, "ROLLUP, CUBE and GROUPING SETS"));
                }
                exprs.iter().collect()
            }
        };
        let mut keys = Vec::new();
        for e in &group_exprs {
            let target = match literal_count(e) {
                Some(n) => {
                    let item = s
                        .projection
                        .get((n as usize).wrapping_sub(1))
                        .ok_or_else(|| {
                            error_at(
                                ErrorName::InvalidColumnReference,
                                location(*e),
                                format!("GROUP BY position {n} is not in select list"),
                            )
                        })?;
                    match item {
                        SelectItem::UnnamedExpr(x) | SelectItem::ExprWithAlias { expr: x, .. } => x,
                        _ => {
                            return Err(error_at(
                                ErrorName::InvalidColumnReference,
                                location(*e),
                                format!("GROUP BY position {n} is not in select list"),
                            ));
                        }
                    }
                }
                None => e,
            };
            if matches!(
                target,
                Expr::Rollup(_) | Expr::Cube(_) | Expr::GroupingSets(_)
            ) {
                return Err(not_supported(
                    location(target),
                    "ROLLUP, CUBE and GROUPING SETS",
                ));
            }
            let cx = Cx {
                clause: Clause::GroupBy,
                ..base
            };
            keys.push(self.expr(target, &cx)?.sql);
        }
        let saved_aggregates = std::mem::take(&mut self.aggregates_seen);
        let grouped_by_keys = !keys.is_empty();
        let mut outputs = self.outputs(
            s,
            &scope,
            order_by,
            grouped_by_keys.then_some(keys.as_slice()),
        )?;
        let global_aggregate = !grouped_by_keys && self.aggregates_seen > 0;
        if global_aggregate {
            outputs = self.outputs(s, &scope, order_by, Some(&[]))?;
        }
        self.aggregates_seen = saved_aggregates;
        let distinct = match &s.distinct {
            None | Some(Distinct::All) => "",
            Some(Distinct::Distinct) => "DISTINCT ",
            Some(Distinct::On(_)) => {
                return Err(error_at(
                    ErrorName::SyntaxError,
                    None,
                    "mismatched input 'ON'",
                ));
            }
        };
        sql.push_str(&format!("SELECT {distinct}{}", outputs.items));
        if !from.is_empty() {
            sql.push_str(&format!(" FROM {}", from.join(", ")));
        }
        sql.push_str(&where_sql);
        if !keys.is_empty() {
            sql.push_str(&format!(" GROUP BY {}", keys.join(", ")));
        }
        if let Some(h) = outputs.having {
            sql.push_str(&format!(" HAVING {h}"));
        }
        if let Some(o) = outputs.order {
            sql.push_str(&format!(" ORDER BY {o}"));
        }
        let single_row = (global_aggregate && s.having.is_none()) || s.from.is_empty();
        Ok(Block {
            sql,
            columns: outputs.columns,
            single_row,
        })
    }

    fn outputs(
        &mut self,
        s: &Select,
        scope: &Scope<'_>,
        order_by: Option<&OrderBy>,
        group_keys: Option<&[String]>,
    ) -> Result<Outputs, TrinoError> {
        let cx = Cx {
            scope,
            clause: Clause::Select,
            in_aggregate: false,
            group_keys,
        };
        let mut items = Vec::new();
        let mut columns = Vec::new();
        let push = |items: &mut Vec<String>,
                    columns: &mut Vec<(String, TrinoType)>,
                    sql: String,
                    name: String,
                    ty: TrinoType| {
            items.push(format!("{sql} AS \"c{}\"", items.len() + 1));
            columns.push((name, ty));
        };
        for item in &s.projection {
            match item {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                    let t = self.grouped_expr(e, &cx)?;
                    let name = match item {
                        // Trino reports an alias as written; it resolves names case-insensitively.
                        SelectItem::ExprWithAlias { alias, .. } => alias.value.clone(),
                        _ => match e {
                            Expr::Identifier(i) => ident_name(i),
                            Expr::CompoundIdentifier(parts) => {
                                parts.last().map(ident_name).unwrap_or_default()
                            }
                            _ => format!("_col{}", columns.len()),
                        },
                    };
                    push(&mut items, &mut columns, t.sql, name, t.ty);
                }
                SelectItem::Wildcard(_) => {
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
                        .filter(|c| !c.hidden)
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
                    for c in all {
                        self.wildcard_column(&c, group_keys, location(item))?;
                        push(
                            &mut items,
                            &mut columns,
                            c.sql.clone(),
                            c.name.clone(),
                            c.ty.clone(),
                        );
                    }
                }
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
                    for c in relation.columns.clone() {
                        self.wildcard_column(&c, group_keys, location(item))?;
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
        let having = match &s.having {
            Some(e) => {
                let cx = Cx {
                    clause: Clause::Having,
                    ..cx
                };
                let t = self.grouped_expr(e, &cx)?;
                self.require_boolean(&t, e, "HAVING clause")?;
                Some(t.sql)
            }
            None => None,
        };
        let order = match order_by {
            Some(o) => {
                let mut order_scope = Scope::new(scope.relations.clone(), scope.parent);
                order_scope.outputs = columns
                    .iter()
                    .enumerate()
                    .map(|(i, (n, ty))| {
                        (
                            n.to_lowercase(),
                            Column {
                                name: n.clone(),
                                ty: ty.clone(),
                                sql: format!("\"c{}\"", i + 1),
                                read: None,
                                hidden: false,
                            },
                        )
                    })
                    .collect();
                let distinct_items: Option<Vec<String>> =
                    matches!(s.distinct, Some(Distinct::Distinct)).then(|| {
                        items
                            .iter()
                            .map(|i| {
                                i.rsplit_once(" AS \"c")
                                    .map_or(i.clone(), |(sql, _)| sql.to_string())
                            })
                            .collect()
                    });
                Some(self.order_by(
                    o,
                    &order_scope,
                    &columns,
                    group_keys,
                    distinct_items.as_deref(),
                )?)
            }
            None => None,
        };
        Ok(Outputs {
            items: items.join(", "),
            columns,
            having,
            order,
        })
    }

    fn wildcard_column(
        &mut self,
        c: &Column,
        group_keys: Option<&[String]>,
        at: Option<(u64, u64)>,
    ) -> Result<(), TrinoError> {
        if let Some(keys) = group_keys
            && !keys.contains(&c.sql)
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
        self.note_column(c.read, &c.name);
        Ok(())
    }

    /// Analyses `e` and, in a grouped block, refuses columns neither grouped nor aggregated.
    fn grouped_expr(&mut self, e: &Expr, cx: &Cx<'_>) -> Result<Typed, TrinoError> {
        self.loose.clear();
        let t = self.expr(e, cx)?;
        if cx.group_keys.is_some()
            && let Some((at, name)) = self.loose.first()
        {
            return Err(error_at(
                ErrorName::ExpressionNotAggregate,
                *at,
                format!("'{name}' must be an aggregate expression or appear in GROUP BY clause"),
            ));
        }
        Ok(t)
    }

    fn order_by(
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
        let cx = Cx {
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
            let sql = match literal_count(expr) {
                Some(n) if n >= 1 && (n as usize) <= columns.len() => format!("\"c{n}\""),
                Some(n) => {
                    return Err(error_at(
                        ErrorName::InvalidColumnReference,
                        location(expr),
                        format!("ORDER BY position {n} is not in select list"),
                    ));
                }
                None => {
                    let sql = self.grouped_expr(expr, &cx)?.sql;
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
                    sql
                }
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

struct Outputs {
    items: String,
    columns: Vec<(String, TrinoType)>,
    having: Option<String>,
    order: Option<String>,
}
