//! A SQLite query as a tree, and its rendering: a `SELECT` ([`Select`]), its `FROM` items
//! (tables, table-valued functions, derived tables, joins), and the queries around selects
//! ([`Query`]: compounds, `WITH`).

use std::fmt::{self, Display, Formatter, Write};

use super::{SqlExpr, SqliteFn, TryTwins, list, with_stack};
use crate::sqlite_text::quote;

/// A SQLite `SELECT`: as expressions embed it (a scalar subquery over `json_each`, an EXISTS)
/// and as a query block is emitted.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Select {
    pub distinct: bool,
    /// The output expressions, each with its alias when it has one; none is `*`.
    pub columns: Vec<(SqlExpr, Option<String>)>,
    pub from: Vec<FromItem>,
    pub filter: Option<SqlExpr>,
    pub group_by: Vec<SqlExpr>,
    pub having: Option<SqlExpr>,
    pub order_by: Vec<OrderKey>,
    pub limit: Option<SqlExpr>,
    pub offset: Option<SqlExpr>,
}

/// Where an ORDER BY key puts NULLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nulls {
    First,
    Last,
}

/// One ORDER BY key: `expr [ASC|DESC] [NULLS FIRST|LAST]`.
#[derive(Clone, Debug, PartialEq)]
pub struct OrderKey {
    pub expr: SqlExpr,
    pub descending: bool,
    /// SQLite's default (NULLs sort low) when `None`.
    pub nulls: Option<Nulls>,
}

impl From<(SqlExpr, bool)> for OrderKey {
    /// A key and whether it sorts descending, NULLs where SQLite puts them.
    fn from((expr, descending): (SqlExpr, bool)) -> Self {
        OrderKey {
            expr,
            descending,
            nulls: None,
        }
    }
}

/// How a join combines its two sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinKind {
    Inner,
    Left,
    Right,
    Full,
    Cross,
}

impl JoinKind {
    pub const fn keyword(self) -> &'static str {
        match self {
            JoinKind::Inner => "JOIN",
            JoinKind::Left => "LEFT JOIN",
            JoinKind::Right => "RIGHT JOIN",
            JoinKind::Full => "FULL JOIN",
            JoinKind::Cross => "CROSS JOIN",
        }
    }
}

/// One item of a `FROM` list.
#[derive(Clone, Debug, PartialEq)]
pub enum FromItem {
    /// A table (or a CTE) by name, with an alias.
    Table { name: String, alias: Option<String> },
    /// A table-valued function, `json_each(x) AS alias`.
    Function {
        function: SqliteFn,
        args: Vec<SqlExpr>,
        alias: Option<String>,
    },
    /// A derived table, `(SELECT …) AS alias`.
    Subquery {
        select: Box<Select>,
        alias: Option<String>,
    },
    /// A derived table over any query (a compound, a WITH), `(…) AS alias`.
    Query {
        query: Box<Query>,
        alias: Option<String>,
    },
    /// `left JOIN right [ON on]`.
    Join {
        left: Box<FromItem>,
        kind: JoinKind,
        right: Box<FromItem>,
        on: Option<SqlExpr>,
    },
    /// A parenthesized join, `(a JOIN b ON …)`: a join around it takes it whole.
    Nested(Box<FromItem>),
    /// A table of an attached database, `"database"."table" AS alias`.
    Attached {
        database: String,
        table: String,
        alias: Option<String>,
    },
}

/// An operator joining the terms of a compound `SELECT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompoundOp {
    Union,
    UnionAll,
    Intersect,
    Except,
}

impl CompoundOp {
    pub const fn keyword(self) -> &'static str {
        match self {
            CompoundOp::Union => "UNION",
            CompoundOp::UnionAll => "UNION ALL",
            CompoundOp::Intersect => "INTERSECT",
            CompoundOp::Except => "EXCEPT",
        }
    }
}

/// A named query of a `WITH`: `"name"[("column", …)] AS [MATERIALIZED] (query)`.
#[derive(Clone, Debug, PartialEq)]
pub struct CommonTable {
    pub name: String,
    /// Its columns' names; none: the query's own.
    pub columns: Vec<String>,
    /// `AS MATERIALIZED`: computed once, never folded into where it is read.
    pub materialized: bool,
    pub query: Query,
}

/// A SQLite query: a `SELECT`, a compound of them, or either under a `WITH`.
#[derive(Clone, Debug, PartialEq)]
pub enum Query {
    Select(Box<Select>),
    /// `t1 op t2 op … [LIMIT l] [OFFSET o]`, one operator throughout: SQLite's compound takes
    /// no parentheses around its terms, so each term is a plain `SELECT`.
    Compound {
        op: CompoundOp,
        terms: Vec<Select>,
        limit: Option<SqlExpr>,
        offset: Option<SqlExpr>,
    },
    /// `WITH [RECURSIVE] ctes body`.
    With {
        /// A named query may read itself (its query a compound of a base and a step).
        recursive: bool,
        ctes: Vec<CommonTable>,
        body: Box<Query>,
    },
    /// `VALUES (a, b), (c, d)`: constant rows, their columns named `column1`, `column2`, …
    Values(Vec<Vec<SqlExpr>>),
}

impl Select {
    /// `SELECT columns FROM from`.
    pub fn new(columns: Vec<SqlExpr>, from: Vec<FromItem>) -> Self {
        Select {
            columns: columns.into_iter().map(|c| (c, None)).collect(),
            from,
            ..Select::default()
        }
    }

    /// `SELECT * FROM from`.
    pub fn star(from: FromItem) -> Self {
        Select {
            from: vec![from],
            ..Select::default()
        }
    }

    pub fn filter(self, filter: SqlExpr) -> Self {
        Select {
            filter: Some(filter),
            ..self
        }
    }

    pub fn order_by<K: Into<OrderKey>>(self, keys: impl IntoIterator<Item = K>) -> Self {
        Select {
            order_by: keys.into_iter().map(Into::into).collect(),
            ..self
        }
    }

    /// `(SELECT …)` as a scalar expression.
    pub fn scalar(self) -> SqlExpr {
        SqlExpr::Subquery(Box::new(self))
    }

    pub(super) fn in_try(self, raw: &dyn TryTwins) -> Select {
        let walk = |e: SqlExpr| e.in_try(raw);
        Select {
            distinct: self.distinct,
            columns: self
                .columns
                .into_iter()
                .map(|(e, alias)| (walk(e), alias))
                .collect(),
            from: self.from.into_iter().map(|item| item.in_try(raw)).collect(),
            filter: self.filter.map(walk),
            group_by: self.group_by.into_iter().map(walk).collect(),
            having: self.having.map(walk),
            order_by: self
                .order_by
                .into_iter()
                .map(|key| OrderKey {
                    expr: walk(key.expr),
                    ..key
                })
                .collect(),
            limit: self.limit.map(walk),
            offset: self.offset.map(walk),
        }
    }
}

impl FromItem {
    /// `(query) AS alias`: a plain `SELECT` stays a [`FromItem::Subquery`].
    pub fn query(query: Query, alias: Option<String>) -> Self {
        match query {
            Query::Select(select) => FromItem::Subquery { select, alias },
            query => FromItem::Query {
                query: Box::new(query),
                alias,
            },
        }
    }

    pub fn join(left: FromItem, kind: JoinKind, right: FromItem, on: Option<SqlExpr>) -> Self {
        FromItem::Join {
            left: Box::new(left),
            kind,
            right: Box::new(right),
            on,
        }
    }

    fn in_try(self, raw: &dyn TryTwins) -> FromItem {
        let walk = |e: SqlExpr| e.in_try(raw);
        match self {
            FromItem::Function {
                function,
                args,
                alias,
            } => FromItem::Function {
                function,
                args: args.into_iter().map(walk).collect(),
                alias,
            },
            FromItem::Subquery { select, alias } => FromItem::Subquery {
                select: Box::new(select.in_try(raw)),
                alias,
            },
            FromItem::Query { query, alias } => FromItem::Query {
                query: Box::new(query.in_try(raw)),
                alias,
            },
            FromItem::Join {
                left,
                kind,
                right,
                on,
            } => FromItem::Join {
                left: Box::new(left.in_try(raw)),
                kind,
                right: Box::new(right.in_try(raw)),
                on: on.map(walk),
            },
            FromItem::Nested(item) => FromItem::Nested(Box::new(item.in_try(raw))),
            table @ (FromItem::Table { .. } | FromItem::Attached { .. }) => table,
        }
    }
}

impl Query {
    /// The query as one `SELECT`: itself when it is one, else `SELECT * FROM (query)`.
    pub fn into_select(self) -> Select {
        match self {
            Query::Select(select) => *select,
            query => Select::star(FromItem::query(query, None)),
        }
    }

    pub fn in_try(self, raw: &dyn TryTwins) -> Query {
        match self {
            Query::Select(select) => Query::Select(Box::new(select.in_try(raw))),
            Query::Compound {
                op,
                terms,
                limit,
                offset,
            } => Query::Compound {
                op,
                terms: terms.into_iter().map(|t| t.in_try(raw)).collect(),
                limit: limit.map(|e| e.in_try(raw)),
                offset: offset.map(|e| e.in_try(raw)),
            },
            Query::With {
                recursive,
                ctes,
                body,
            } => Query::With {
                recursive,
                ctes: ctes
                    .into_iter()
                    .map(|cte| CommonTable {
                        query: cte.query.in_try(raw),
                        ..cte
                    })
                    .collect(),
                body: Box::new(body.in_try(raw)),
            },
            Query::Values(rows) => Query::Values(
                rows.into_iter()
                    .map(|row| row.into_iter().map(|e| e.in_try(raw)).collect())
                    .collect(),
            ),
        }
    }
}

impl From<Select> for Query {
    fn from(select: Select) -> Self {
        Query::Select(Box::new(select))
    }
}

fn alias(f: &mut Formatter<'_>, alias: &Option<String>) -> fmt::Result {
    match alias {
        Some(a) => write!(f, " AS {}", quote(a)),
        None => Ok(()),
    }
}

impl Display for FromItem {
    /// On a grown stack when short: subqueries nest as deep as Trino's parser takes.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_stack(|| self.render(f))
    }
}

impl FromItem {
    fn render(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FromItem::Table { name, alias: a } => {
                f.write_str(&quote(name))?;
                alias(f, a)
            }
            FromItem::Function {
                function,
                args,
                alias: a,
            } => {
                write!(f, "{}(", function.name)?;
                list(f, args)?;
                f.write_char(')')?;
                alias(f, a)
            }
            FromItem::Subquery { select, alias: a } => {
                write!(f, "({select})")?;
                alias(f, a)
            }
            FromItem::Query { query, alias: a } => {
                write!(f, "({query})")?;
                alias(f, a)
            }
            FromItem::Join {
                left,
                kind,
                right,
                on,
            } => {
                write!(f, "{left} {} {right}", kind.keyword())?;
                match on {
                    Some(on) => write!(f, " ON {on}"),
                    None => Ok(()),
                }
            }
            FromItem::Nested(item) => write!(f, "({item})"),
            FromItem::Attached {
                database,
                table,
                alias: a,
            } => {
                write!(f, "{}.{}", quote(database), quote(table))?;
                alias(f, a)
            }
        }
    }
}

impl Display for OrderKey {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.expr)?;
        match (self.descending, self.nulls) {
            (true, _) => f.write_str(" DESC")?,
            (false, Some(_)) => f.write_str(" ASC")?,
            (false, None) => {}
        }
        match self.nulls {
            Some(Nulls::First) => f.write_str(" NULLS FIRST"),
            Some(Nulls::Last) => f.write_str(" NULLS LAST"),
            None => Ok(()),
        }
    }
}

/// ` LIMIT l OFFSET o`; SQLite takes an OFFSET only after a LIMIT (`-1`: no limit).
fn limit_offset(
    f: &mut Formatter<'_>,
    limit: &Option<SqlExpr>,
    offset: &Option<SqlExpr>,
) -> fmt::Result {
    match (limit, offset) {
        (None, None) => Ok(()),
        (Some(l), None) => write!(f, " LIMIT {l}"),
        (l, Some(o)) => {
            match l {
                Some(l) => write!(f, " LIMIT {l}")?,
                None => f.write_str(" LIMIT -1")?,
            }
            write!(f, " OFFSET {o}")
        }
    }
}

impl Display for Select {
    /// On a grown stack when short: subqueries nest as deep as Trino's parser takes.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_stack(|| self.render(f))
    }
}

impl Select {
    fn render(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.distinct {
            "SELECT DISTINCT "
        } else {
            "SELECT "
        })?;
        if self.columns.is_empty() {
            f.write_char('*')?;
        }
        for (i, (e, alias)) in self.columns.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{e}")?;
            if let Some(a) = alias {
                write!(f, " AS {}", quote(a))?;
            }
        }
        for (i, item) in self.from.iter().enumerate() {
            f.write_str(if i == 0 { " FROM " } else { ", " })?;
            write!(f, "{item}")?;
        }
        if let Some(w) = &self.filter {
            write!(f, " WHERE {w}")?;
        }
        if !self.group_by.is_empty() {
            f.write_str(" GROUP BY ")?;
            list(f, &self.group_by)?;
        }
        if let Some(h) = &self.having {
            write!(f, " HAVING {h}")?;
        }
        for (i, key) in self.order_by.iter().enumerate() {
            f.write_str(if i == 0 { " ORDER BY " } else { ", " })?;
            write!(f, "{key}")?;
        }
        limit_offset(f, &self.limit, &self.offset)
    }
}

impl Display for Query {
    /// On a grown stack when short: subqueries nest as deep as Trino's parser takes.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        with_stack(|| self.render(f))
    }
}

impl Query {
    fn render(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            Query::Select(select) => write!(f, "{select}"),
            Query::Compound {
                op,
                terms,
                limit,
                offset,
            } => {
                for (i, term) in terms.iter().enumerate() {
                    if i > 0 {
                        write!(f, " {} ", op.keyword())?;
                    }
                    write!(f, "{term}")?;
                }
                limit_offset(f, limit, offset)
            }
            Query::With {
                recursive,
                ctes,
                body,
            } => {
                for (i, cte) in ctes.iter().enumerate() {
                    f.write_str(match (i, recursive) {
                        (0, true) => "WITH RECURSIVE ",
                        (0, false) => "WITH ",
                        _ => ", ",
                    })?;
                    f.write_str(&quote(&cte.name))?;
                    for (i, column) in cte.columns.iter().enumerate() {
                        f.write_str(if i == 0 { "(" } else { ", " })?;
                        f.write_str(&quote(column))?;
                    }
                    if !cte.columns.is_empty() {
                        f.write_char(')')?;
                    }
                    let materialized = if cte.materialized {
                        "MATERIALIZED "
                    } else {
                        ""
                    };
                    write!(f, " AS {materialized}({})", cte.query)?;
                }
                write!(f, " {body}")
            }
            Query::Values(rows) => {
                for (i, row) in rows.iter().enumerate() {
                    f.write_str(if i == 0 { "VALUES (" } else { ", (" })?;
                    list(f, row)?;
                    f.write_char(')')?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::builtin;
    use super::*;

    fn column(table: &str, name: &str) -> SqlExpr {
        SqlExpr::column(Some(table), name)
    }

    fn table(name: &str, alias: &str) -> FromItem {
        FromItem::Table {
            name: name.into(),
            alias: Some(alias.into()),
        }
    }

    #[test]
    fn a_block_renders_every_clause() {
        let joined = FromItem::join(
            table("a", "t1"),
            JoinKind::Left,
            FromItem::Nested(Box::new(FromItem::join(
                table("b", "t2"),
                JoinKind::Cross,
                table("c", "t3"),
                None,
            ))),
            Some(SqlExpr::binary(
                column("t1", "k"),
                super::super::BinaryOp::Equal,
                column("t2", "k"),
            )),
        );
        let select = Select {
            distinct: true,
            columns: vec![
                (column("t1", "k"), Some("c1".into())),
                (builtin::COUNT.call([]), Some("c2".into())),
            ],
            from: vec![joined],
            filter: Some(SqlExpr::is_not_null(column("t1", "k"))),
            group_by: vec![column("t1", "k")],
            having: Some(SqlExpr::Integer(1)),
            order_by: vec![
                OrderKey {
                    expr: SqlExpr::column(None, "c1"),
                    descending: false,
                    nulls: Some(Nulls::Last),
                },
                OrderKey {
                    expr: SqlExpr::column(None, "c2"),
                    descending: true,
                    nulls: Some(Nulls::First),
                },
            ],
            limit: None,
            offset: Some(SqlExpr::Integer(2)),
        };
        assert_eq!(
            select.to_string(),
            "SELECT DISTINCT t1.\"k\" AS \"c1\", count() AS \"c2\" \
             FROM \"a\" AS \"t1\" LEFT JOIN (\"b\" AS \"t2\" CROSS JOIN \"c\" AS \"t3\") \
             ON (t1.\"k\" = t2.\"k\") WHERE (t1.\"k\" IS NOT NULL) GROUP BY t1.\"k\" HAVING 1 \
             ORDER BY \"c1\" ASC NULLS LAST, \"c2\" DESC NULLS FIRST LIMIT -1 OFFSET 2"
        );
    }

    #[test]
    fn queries_render_compounds_and_with() {
        let term = |n: i64| Select::new(vec![SqlExpr::Integer(n)], vec![]);
        let compound = Query::Compound {
            op: CompoundOp::UnionAll,
            terms: vec![term(1), term(2)],
            limit: Some(SqlExpr::Integer(-1)),
            offset: Some(SqlExpr::Integer(0)),
        };
        let with = Query::With {
            recursive: false,
            ctes: vec![
                CommonTable {
                    name: "w1".into(),
                    columns: Vec::new(),
                    materialized: false,
                    query: compound,
                },
                CommonTable {
                    name: "w2".into(),
                    columns: Vec::new(),
                    materialized: true,
                    query: term(3).into(),
                },
            ],
            body: Box::new(Query::from(Select::star(table("w1", "t1")))),
        };
        assert_eq!(
            with.to_string(),
            "WITH \"w1\" AS (SELECT 1 UNION ALL SELECT 2 LIMIT -1 OFFSET 0), \
             \"w2\" AS MATERIALIZED (SELECT 3) SELECT * FROM \"w1\" AS \"t1\""
        );
        let derived = Query::Compound {
            op: CompoundOp::Except,
            terms: vec![term(1), term(2)],
            limit: None,
            offset: None,
        }
        .into_select();
        assert_eq!(
            derived.to_string(),
            "SELECT * FROM (SELECT 1 EXCEPT SELECT 2)"
        );
        let counted = Query::With {
            recursive: true,
            ctes: vec![CommonTable {
                name: "q".into(),
                columns: vec!["n".into()],
                materialized: false,
                query: Query::Compound {
                    op: CompoundOp::UnionAll,
                    terms: vec![
                        term(1),
                        Select::new(
                            vec![SqlExpr::binary(
                                SqlExpr::column(None, "n"),
                                super::super::BinaryOp::Add,
                                SqlExpr::Integer(1),
                            )],
                            vec![table("q", "q")],
                        )
                        .filter(SqlExpr::binary(
                            SqlExpr::column(None, "n"),
                            super::super::BinaryOp::Less,
                            SqlExpr::Integer(3),
                        )),
                    ],
                    limit: None,
                    offset: None,
                },
            }],
            body: Box::new(Select::star(table("q", "q")).into()),
        };
        assert_eq!(
            counted.to_string(),
            "WITH RECURSIVE \"q\"(\"n\") AS (SELECT 1 UNION ALL SELECT (\"n\" + 1) FROM \"q\" AS \"q\" \
             WHERE (\"n\" < 3)) SELECT * FROM \"q\" AS \"q\""
        );
        let attached = FromItem::Attached {
            database: "db".into(),
            table: "t\"1".into(),
            alias: Some("t1".into()),
        };
        assert_eq!(attached.to_string(), "\"db\".\"t\"\"1\" AS \"t1\"");
        let values = Query::Values(vec![
            vec![SqlExpr::Integer(1), SqlExpr::text("a")],
            vec![SqlExpr::Null, SqlExpr::text("it's")],
        ]);
        let named = Select {
            columns: vec![(SqlExpr::column(None, "column1"), Some("n".into()))],
            ..Select::star(FromItem::query(values, None))
        };
        assert_eq!(
            named.to_string(),
            "SELECT \"column1\" AS \"n\" FROM (VALUES (1, 'a'), (NULL, 'it''s'))"
        );
    }

    struct Twins;

    impl TryTwins for Twins {
        fn has_twin(&self, name: &str) -> bool {
            name == "qm_fails"
        }

        fn rename_in_text(&self, sql: &str) -> String {
            sql.replace("qm_fails(", "qm_fails_in_try(")
        }
    }

    #[test]
    fn try_walks_every_part_of_a_query() {
        const QM_FAILS: SqliteFn = SqliteFn::new("qm_fails");
        let fails = || QM_FAILS.call([SqlExpr::Integer(1)]);
        let select = Select {
            from: vec![FromItem::join(
                table("a", "t1"),
                JoinKind::Inner,
                FromItem::Subquery {
                    select: Box::new(Select::new(
                        vec![SqlExpr::Raw("qm_fails(2)".into())],
                        vec![],
                    )),
                    alias: None,
                },
                Some(fails()),
            )],
            having: Some(fails()),
            order_by: vec![(fails(), false).into()],
            ..Select::default()
        };
        let query = Query::With {
            recursive: false,
            ctes: vec![CommonTable {
                name: "w".into(),
                columns: Vec::new(),
                materialized: false,
                query: select.into(),
            }],
            body: Box::new(Select::new(vec![fails()], vec![]).into()),
        };
        assert_eq!(
            query.in_try(&Twins).to_string(),
            "WITH \"w\" AS (SELECT * FROM \"a\" AS \"t1\" JOIN (SELECT qm_fails_in_try(2)) \
             ON qm_fails_in_try(1) HAVING qm_fails_in_try(1) ORDER BY qm_fails_in_try(1)) \
             SELECT qm_fails_in_try(1)"
        );
    }
}
