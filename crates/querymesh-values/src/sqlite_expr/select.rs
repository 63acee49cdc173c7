//! A SQLite `SELECT` as a tree, and its rendering.

use std::fmt::{self, Display, Formatter, Write};

use super::{SqlExpr, SqliteFn, TryTwins, list};
use crate::sqlite_text::quote;

/// A SQLite `SELECT`, as expressions embed it (a scalar subquery over `json_each`, an EXISTS).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Select {
    pub distinct: bool,
    /// The output expressions, each with its alias when it has one.
    pub columns: Vec<(SqlExpr, Option<String>)>,
    pub from: Vec<FromItem>,
    pub filter: Option<SqlExpr>,
    pub group_by: Vec<SqlExpr>,
    /// Each key, and whether it sorts descending.
    pub order_by: Vec<(SqlExpr, bool)>,
    pub limit: Option<SqlExpr>,
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

    pub fn filter(self, filter: SqlExpr) -> Self {
        Select {
            filter: Some(filter),
            ..self
        }
    }

    pub fn order_by(self, keys: Vec<(SqlExpr, bool)>) -> Self {
        Select {
            order_by: keys,
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
            from: self
                .from
                .into_iter()
                .map(|item| match item {
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
                    table @ FromItem::Table { .. } => table,
                })
                .collect(),
            filter: self.filter.map(walk),
            group_by: self.group_by.into_iter().map(walk).collect(),
            order_by: self
                .order_by
                .into_iter()
                .map(|(e, desc)| (walk(e), desc))
                .collect(),
            limit: self.limit.map(walk),
        }
    }
}

impl Display for FromItem {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let alias = |f: &mut Formatter<'_>, alias: &Option<String>| match alias {
            Some(a) => write!(f, " AS {}", quote(a)),
            None => Ok(()),
        };
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
        }
    }
}

impl Display for Select {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(if self.distinct {
            "SELECT DISTINCT "
        } else {
            "SELECT "
        })?;
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
        for (i, (e, desc)) in self.order_by.iter().enumerate() {
            f.write_str(if i == 0 { " ORDER BY " } else { ", " })?;
            write!(f, "{e}")?;
            if *desc {
                f.write_str(" DESC")?;
            }
        }
        if let Some(l) = &self.limit {
            write!(f, " LIMIT {l}")?;
        }
        Ok(())
    }
}
