//! The SQLite expression tree: what analysis builds for every typed expression
//! ([`crate::typed::Typed::sql`]), rendered to SQLite's text in one place (its `Display`).
//!
//! Analysis and the function families build nodes, never text: a call names its SQLite
//! function by a typed constant ([`SqliteFn`]), literals and names are quoted by the renderer,
//! and `try()` is a walk over the tree ([`SqlExpr::in_try`]) rather than a pass over text.
//! [`SqlExpr::Raw`] holds text that has not been rebuilt as a tree yet (issue 27); the walk
//! hands it to the text pass it replaces.

mod function;
mod select;

use std::fmt::{self, Display, Formatter, Write};

use crate::sqlite_text::{quote, sql_string};

pub use function::{SqliteFn, TryTwins, builtin, runtime};
pub use select::{FromItem, Select};

/// A binary operator; rendered with parentheses around the whole, so precedence never
/// depends on where the node sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Subtract,
    Multiply,
    Divide,
    Remainder,
    Concat,
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    /// `IS`: equality that treats NULLs as equal.
    Is,
    IsNot,
    And,
    Or,
    BitAnd,
    BitOr,
    ShiftLeft,
    ShiftRight,
    Like,
    Glob,
}

impl BinaryOp {
    pub const fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Subtract => "-",
            Multiply => "*",
            Divide => "/",
            Remainder => "%",
            Concat => "||",
            Equal => "=",
            NotEqual => "<>",
            Less => "<",
            LessOrEqual => "<=",
            Greater => ">",
            GreaterOrEqual => ">=",
            Is => "IS",
            IsNot => "IS NOT",
            And => "AND",
            Or => "OR",
            BitAnd => "&",
            BitOr => "|",
            ShiftLeft => "<<",
            ShiftRight => ">>",
            Like => "LIKE",
            Glob => "GLOB",
        }
    }
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    Not,
    Negate,
    BitNot,
}

impl UnaryOp {
    pub const fn symbol(self) -> &'static str {
        match self {
            UnaryOp::Not => "NOT ",
            // A space: `- -1` must not read as a comment.
            UnaryOp::Negate => "- ",
            UnaryOp::BitNot => "~",
        }
    }
}

/// SQLite's storage classes, as `CAST(x AS …)` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Affinity {
    Integer,
    Real,
    Text,
    Blob,
    Numeric,
}

impl Affinity {
    pub const fn name(self) -> &'static str {
        match self {
            Affinity::Integer => "INTEGER",
            Affinity::Real => "REAL",
            Affinity::Text => "TEXT",
            Affinity::Blob => "BLOB",
            Affinity::Numeric => "NUMERIC",
        }
    }
}

/// One SQLite expression.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum SqlExpr {
    /// SQLite text not yet rebuilt as a tree (issue 27 retires it).
    Raw(String),
    #[default]
    Null,
    Integer(i64),
    /// A finite double; infinities are written `9e999`, as SQLite reads them.
    Real(f64),
    /// A string literal, quoted when rendered.
    Text(String),
    /// A blob literal, `X'…'`.
    Blob(Vec<u8>),
    /// A column or an output name, quoted: `"name"` or `t1."name"`.
    Column {
        table: Option<String>,
        name: String,
    },
    Call(SqliteFn, Vec<SqlExpr>),
    Binary(Box<SqlExpr>, BinaryOp, Box<SqlExpr>),
    Unary(UnaryOp, Box<SqlExpr>),
    /// `x IS NULL`, or `x IS NOT NULL` when negated.
    IsNull {
        operand: Box<SqlExpr>,
        negated: bool,
    },
    Case {
        operand: Option<Box<SqlExpr>>,
        branches: Vec<(SqlExpr, SqlExpr)>,
        otherwise: Option<Box<SqlExpr>>,
    },
    Cast(Box<SqlExpr>, Affinity),
    /// `x IN (…)`, or `NOT IN` when negated.
    InList {
        operand: Box<SqlExpr>,
        list: Vec<SqlExpr>,
        negated: bool,
    },
    /// `x BETWEEN low AND high`.
    Between {
        operand: Box<SqlExpr>,
        low: Box<SqlExpr>,
        high: Box<SqlExpr>,
        negated: bool,
    },
    /// `x COLLATE name`.
    Collate(Box<SqlExpr>, &'static str),
    /// A scalar subquery, `(SELECT …)`.
    Subquery(Box<Select>),
    /// `EXISTS (SELECT …)`.
    Exists(Box<Select>),
    /// An aggregate call, `f(DISTINCT a, b ORDER BY k) FILTER (WHERE c)`. No arguments
    /// renders `f(*)`, which SQLite reads as `f()` (`count(*)`).
    Aggregate {
        function: SqliteFn,
        distinct: bool,
        args: Vec<SqlExpr>,
        order_by: Vec<OrderKey>,
        filter: Option<Box<SqlExpr>>,
    },
}

/// A sort key of an aggregate's `ORDER BY`, NULLs placed explicitly (SQLite puts them first
/// when ascending, Trino last unless told).
#[derive(Clone, Debug, PartialEq)]
pub struct OrderKey {
    pub expr: SqlExpr,
    pub descending: bool,
    pub nulls_first: bool,
}

impl Display for OrderKey {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let direction = if self.descending { "DESC" } else { "ASC" };
        let nulls = if self.nulls_first { "FIRST" } else { "LAST" };
        write!(f, "{} {direction} NULLS {nulls}", self.expr)
    }
}

impl SqlExpr {
    pub fn text(s: impl Into<String>) -> Self {
        SqlExpr::Text(s.into())
    }

    pub fn column(table: Option<&str>, name: impl Into<String>) -> Self {
        SqlExpr::Column {
            table: table.map(str::to_string),
            name: name.into(),
        }
    }

    pub fn binary(left: SqlExpr, op: BinaryOp, right: SqlExpr) -> Self {
        SqlExpr::Binary(Box::new(left), op, Box::new(right))
    }

    pub fn negated(operand: SqlExpr) -> Self {
        SqlExpr::Unary(UnaryOp::Not, Box::new(operand))
    }

    pub fn is_null(operand: SqlExpr) -> Self {
        SqlExpr::IsNull {
            operand: Box::new(operand),
            negated: false,
        }
    }

    pub fn is_not_null(operand: SqlExpr) -> Self {
        SqlExpr::IsNull {
            operand: Box::new(operand),
            negated: true,
        }
    }

    pub fn cast(operand: SqlExpr, affinity: Affinity) -> Self {
        SqlExpr::Cast(Box::new(operand), affinity)
    }

    /// `CASE WHEN c1 THEN v1 … ELSE otherwise END`.
    pub fn case_when(branches: Vec<(SqlExpr, SqlExpr)>, otherwise: Option<SqlExpr>) -> Self {
        SqlExpr::Case {
            operand: None,
            branches,
            otherwise: otherwise.map(Box::new),
        }
    }

    /// `CASE WHEN when THEN then ELSE otherwise END`: the most common case, one branch.
    pub fn iff(when: SqlExpr, then: SqlExpr, otherwise: SqlExpr) -> Self {
        SqlExpr::case_when(vec![(when, then)], Some(otherwise))
    }

    /// `function(DISTINCT args)` (`distinct`) or `function(args)`, an aggregate without ORDER
    /// BY or FILTER; no arguments is `function(*)`.
    pub fn aggregate(
        function: SqliteFn,
        distinct: bool,
        args: impl IntoIterator<Item = SqlExpr>,
    ) -> Self {
        SqlExpr::Aggregate {
            function,
            distinct,
            args: args.into_iter().collect(),
            order_by: Vec::new(),
            filter: None,
        }
    }

    /// NULL when `operand` is NULL, else `value`: a function's NULL-in-NULL-out over a value
    /// that does not read its argument.
    pub fn null_or(operand: SqlExpr, value: SqlExpr) -> Self {
        SqlExpr::iff(SqlExpr::is_null(operand), SqlExpr::Null, value)
    }

    pub fn is_null_literal(&self) -> bool {
        match self {
            SqlExpr::Null => true,
            SqlExpr::Raw(s) => s.eq_ignore_ascii_case("NULL"),
            _ => false,
        }
    }

    /// `self` inside `try()`: every call of a function that has a twin names the twin.
    pub fn in_try(self, raw: &dyn TryTwins) -> SqlExpr {
        let walk = |e: SqlExpr| e.in_try(raw);
        let boxed = |e: Box<SqlExpr>| Box::new(e.in_try(raw));
        match self {
            SqlExpr::Raw(s) => SqlExpr::Raw(raw.rename_in_text(&s)),
            SqlExpr::Call(f, args) => SqlExpr::Call(
                SqliteFn {
                    in_try: raw.has_twin(f.name),
                    ..f
                },
                args.into_iter().map(walk).collect(),
            ),
            SqlExpr::Binary(l, op, r) => SqlExpr::Binary(boxed(l), op, boxed(r)),
            SqlExpr::Unary(op, e) => SqlExpr::Unary(op, boxed(e)),
            SqlExpr::IsNull { operand, negated } => SqlExpr::IsNull {
                operand: boxed(operand),
                negated,
            },
            SqlExpr::Case {
                operand,
                branches,
                otherwise,
            } => SqlExpr::Case {
                operand: operand.map(boxed),
                branches: branches
                    .into_iter()
                    .map(|(w, t)| (walk(w), walk(t)))
                    .collect(),
                otherwise: otherwise.map(boxed),
            },
            SqlExpr::Cast(e, a) => SqlExpr::Cast(boxed(e), a),
            SqlExpr::InList {
                operand,
                list,
                negated,
            } => SqlExpr::InList {
                operand: boxed(operand),
                list: list.into_iter().map(walk).collect(),
                negated,
            },
            SqlExpr::Between {
                operand,
                low,
                high,
                negated,
            } => SqlExpr::Between {
                operand: boxed(operand),
                low: boxed(low),
                high: boxed(high),
                negated,
            },
            SqlExpr::Collate(e, c) => SqlExpr::Collate(boxed(e), c),
            SqlExpr::Subquery(q) => SqlExpr::Subquery(Box::new(q.in_try(raw))),
            SqlExpr::Exists(q) => SqlExpr::Exists(Box::new(q.in_try(raw))),
            SqlExpr::Aggregate {
                function,
                distinct,
                args,
                order_by,
                filter,
            } => SqlExpr::Aggregate {
                function: SqliteFn {
                    in_try: raw.has_twin(function.name),
                    ..function
                },
                distinct,
                args: args.into_iter().map(walk).collect(),
                order_by: order_by
                    .into_iter()
                    .map(|key| OrderKey {
                        expr: walk(key.expr),
                        ..key
                    })
                    .collect(),
                filter: filter.map(boxed),
            },
            leaf @ (SqlExpr::Null
            | SqlExpr::Integer(_)
            | SqlExpr::Real(_)
            | SqlExpr::Text(_)
            | SqlExpr::Blob(_)
            | SqlExpr::Column { .. }) => leaf,
        }
    }

    /// The number this node is, when it is a number literal.
    pub fn number_literal(&self) -> Option<f64> {
        match self {
            SqlExpr::Integer(n) => Some(*n as f64),
            SqlExpr::Real(x) => Some(*x),
            SqlExpr::Raw(s) => s.trim_matches(['(', ')']).parse().ok(),
            _ => None,
        }
    }
}

/// `items` rendered and joined with commas, for text not yet a tree (issue 27 retires it).
pub fn comma_list(items: &[SqlExpr]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl From<String> for SqlExpr {
    fn from(s: String) -> Self {
        SqlExpr::Raw(s)
    }
}

impl From<&str> for SqlExpr {
    fn from(s: &str) -> Self {
        SqlExpr::Raw(s.to_string())
    }
}

impl From<&String> for SqlExpr {
    fn from(s: &String) -> Self {
        SqlExpr::Raw(s.clone())
    }
}

pub(super) fn list(f: &mut Formatter<'_>, items: &[SqlExpr]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

impl Display for SqlExpr {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            SqlExpr::Raw(s) => f.write_str(s),
            SqlExpr::Null => f.write_str("NULL"),
            SqlExpr::Integer(n) => write!(f, "{n}"),
            SqlExpr::Real(x) if x.is_infinite() => {
                f.write_str(if *x > 0.0 { "9e999" } else { "-9e999" })
            }
            // SQLite has no NaN literal; 0.0/0.0 is NULL there, so a NaN is never a literal.
            SqlExpr::Real(x) if x.is_nan() => f.write_str("NULL"),
            SqlExpr::Real(x) => {
                let text = format!("{x:?}");
                // Rust writes 1e300 as "1e300" and 2.0 as "2.0": both read back as REAL.
                f.write_str(&text)
            }
            SqlExpr::Text(s) => f.write_str(&sql_string(s)),
            SqlExpr::Blob(bytes) => {
                f.write_str("X'")?;
                for b in bytes {
                    write!(f, "{b:02X}")?;
                }
                f.write_char('\'')
            }
            SqlExpr::Column { table, name } => {
                if let Some(t) = table {
                    write!(f, "{t}.")?;
                }
                f.write_str(&quote(name))
            }
            SqlExpr::Call(func, args) => {
                f.write_str(func.name)?;
                if func.in_try {
                    f.write_str("_in_try")?;
                }
                f.write_char('(')?;
                list(f, args)?;
                f.write_char(')')
            }
            SqlExpr::Binary(l, op, r) => write!(f, "({l} {} {r})", op.symbol()),
            SqlExpr::Unary(op, e) => write!(f, "({}{e})", op.symbol()),
            SqlExpr::IsNull { operand, negated } => {
                let not = if *negated { " NOT" } else { "" };
                write!(f, "({operand} IS{not} NULL)")
            }
            SqlExpr::Case {
                operand,
                branches,
                otherwise,
            } => {
                f.write_str("(CASE")?;
                if let Some(o) = operand {
                    write!(f, " {o}")?;
                }
                for (when, then) in branches {
                    write!(f, " WHEN {when} THEN {then}")?;
                }
                if let Some(e) = otherwise {
                    write!(f, " ELSE {e}")?;
                }
                f.write_str(" END)")
            }
            SqlExpr::Cast(e, a) => write!(f, "CAST({e} AS {})", a.name()),
            SqlExpr::InList {
                operand,
                list: items,
                negated,
            } => {
                let not = if *negated { " NOT" } else { "" };
                write!(f, "({operand}{not} IN (")?;
                list(f, items)?;
                f.write_str("))")
            }
            SqlExpr::Between {
                operand,
                low,
                high,
                negated,
            } => {
                let not = if *negated { " NOT" } else { "" };
                write!(f, "({operand}{not} BETWEEN {low} AND {high})")
            }
            SqlExpr::Collate(e, c) => write!(f, "({e} COLLATE {c})"),
            SqlExpr::Subquery(q) => write!(f, "({q})"),
            SqlExpr::Exists(q) => write!(f, "EXISTS ({q})"),
            SqlExpr::Aggregate {
                function,
                distinct,
                args,
                order_by,
                filter,
            } => {
                f.write_str(function.name)?;
                if function.in_try {
                    f.write_str("_in_try")?;
                }
                f.write_str(if *distinct { "(DISTINCT " } else { "(" })?;
                if args.is_empty() {
                    f.write_char('*')?;
                }
                list(f, args)?;
                for (i, key) in order_by.iter().enumerate() {
                    f.write_str(if i == 0 { " ORDER BY " } else { ", " })?;
                    write!(f, "{key}")?;
                }
                f.write_char(')')?;
                if let Some(c) = filter {
                    write!(f, " FILTER (WHERE {c})")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QM_FAILS: SqliteFn = SqliteFn::new("qm_fails");

    /// `qm_fails` has a twin; text is renamed as udf/define.rs renames it.
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
    fn rendered_as_sqlite_reads_it() {
        let e = SqlExpr::iff(
            SqlExpr::is_null(SqlExpr::column(Some("t1"), "na\"me")),
            SqlExpr::Null,
            builtin::LENGTH.call([SqlExpr::text("it's")]),
        );
        assert_eq!(
            e.to_string(),
            "(CASE WHEN (t1.\"na\"\"me\" IS NULL) THEN NULL ELSE length('it''s') END)"
        );
        let arithmetic = SqlExpr::binary(
            SqlExpr::Integer(-1),
            BinaryOp::Subtract,
            SqlExpr::Real(f64::NEG_INFINITY),
        );
        assert_eq!(arithmetic.to_string(), "(-1 - -9e999)");
        assert_eq!(SqlExpr::Real(2.0).to_string(), "2.0");
        assert_eq!(SqlExpr::Blob(vec![0, 255]).to_string(), "X'00FF'");
        let cast = SqlExpr::cast(SqlExpr::Text("1".into()), Affinity::Integer);
        assert_eq!(cast.to_string(), "CAST('1' AS INTEGER)");
        let elements = Select::new(
            vec![SqlExpr::column(None, "value")],
            vec![FromItem::Function {
                function: builtin::JSON_EACH,
                args: vec![SqlExpr::Raw("'[1]'".into())],
                alias: None,
            }],
        )
        .filter(SqlExpr::is_not_null(SqlExpr::column(None, "value")))
        .order_by(vec![(SqlExpr::column(None, "key"), true)]);
        assert_eq!(
            elements.scalar().to_string(),
            "(SELECT \"value\" FROM json_each('[1]') WHERE (\"value\" IS NOT NULL) ORDER BY \"key\" DESC)"
        );
    }

    #[test]
    fn aggregates_rendered_with_their_clauses() {
        let x = SqlExpr::column(None, "x");
        assert_eq!(
            SqlExpr::aggregate(builtin::COUNT, false, []).to_string(),
            "count(*)"
        );
        assert_eq!(
            SqlExpr::aggregate(builtin::COUNT, true, [x.clone()]).to_string(),
            "count(DISTINCT \"x\")"
        );
        let ordered = SqlExpr::Aggregate {
            function: QM_FAILS,
            distinct: false,
            args: vec![x.clone(), SqlExpr::text(",")],
            order_by: vec![
                OrderKey {
                    expr: x.clone(),
                    descending: true,
                    nulls_first: false,
                },
                OrderKey {
                    expr: SqlExpr::Integer(1),
                    descending: false,
                    nulls_first: true,
                },
            ],
            filter: Some(Box::new(SqlExpr::is_not_null(QM_FAILS.call([x])))),
        };
        assert_eq!(
            ordered.to_string(),
            "qm_fails(\"x\", ',' ORDER BY \"x\" DESC NULLS LAST, 1 ASC NULLS FIRST) \
             FILTER (WHERE (qm_fails(\"x\") IS NOT NULL))"
        );
        assert_eq!(
            ordered.in_try(&Twins).to_string(),
            "qm_fails_in_try(\"x\", ',' ORDER BY \"x\" DESC NULLS LAST, 1 ASC NULLS FIRST) \
             FILTER (WHERE (qm_fails_in_try(\"x\") IS NOT NULL))"
        );
    }

    #[test]
    fn try_renames_twinned_calls_only() {
        let e = builtin::ABS.call([QM_FAILS.call([SqlExpr::Raw("qm_fails(1)".into())])]);
        let renamed = e.in_try(&Twins);
        assert_eq!(
            renamed.to_string(),
            "abs(qm_fails_in_try(qm_fails_in_try(1)))"
        );
        let inside = Select::new(vec![QM_FAILS.call([SqlExpr::Integer(2)])], vec![]).scalar();
        assert_eq!(
            inside.in_try(&Twins).to_string(),
            "(SELECT qm_fails_in_try(2))"
        );
    }
}
