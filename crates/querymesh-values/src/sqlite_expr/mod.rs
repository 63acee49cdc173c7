//! The SQLite expression tree: what analysis builds for every typed expression
//! ([`crate::typed::Typed::sql`]), rendered to SQLite's text in one place (its `Display`).
//!
//! Analysis and the function families build nodes, never text: a call names its SQLite
//! function by a typed constant ([`SqliteFn`]), literals and names are quoted by the renderer,
//! and `try()` is a walk over the tree ([`SqlExpr::in_try`]) rather than a pass over text.
//! [`SqlExpr::Raw`] holds text that has not been rebuilt as a tree yet (issue 27); the walk
//! hands it to the text pass it replaces.

mod function;
mod over;
mod select;

use std::fmt::{self, Display, Formatter};

use crate::sqlite_text::{quote, sql_string};

pub use function::{SqliteFn, TryTwins, builtin, runtime};
pub use over::{Frame, FrameBound, FrameUnits, Window};
pub use select::{CommonTable, CompoundOp, FromItem, JoinKind, Nulls, OrderKey, Query, Select};

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
#[derive(Debug, Default, PartialEq)]
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
    /// A window call, `call OVER (window)`: `call` names an aggregate or window function.
    Over {
        call: Box<SqlExpr>,
        window: Box<Window>,
    },
    /// An aggregate call, `f(DISTINCT a, b ORDER BY k) FILTER (WHERE c)`. No arguments
    /// renders `f(*)`, which SQLite reads as `f()` (`count(*)`).
    Aggregate {
        function: SqliteFn,
        distinct: bool,
        args: Vec<SqlExpr>,
        order_by: Vec<OrderKey>,
        filter: Option<Box<SqlExpr>>,
    },
    /// A row value, `(a, b, …)`: what SQLite compares as one against a subquery's row.
    Row(Vec<SqlExpr>),
    /// `x IN (SELECT …)`, or `NOT IN` when negated; `x` a [`SqlExpr::Row`] against as many
    /// columns.
    InSubquery {
        operand: Box<SqlExpr>,
        subquery: Box<Select>,
        negated: bool,
    },
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

    /// `call OVER (window)`.
    pub fn over(call: SqlExpr, window: Window) -> Self {
        SqlExpr::Over {
            call: Box::new(call),
            window: Box::new(window),
        }
    }

    /// `self` inside `try()`: every call of a function that has a twin names the twin.
    pub fn in_try(self, raw: &dyn TryTwins) -> SqlExpr {
        self.in_try_ref(raw)
    }

    fn in_try_ref(&self, raw: &dyn TryTwins) -> SqlExpr {
        let mut out = self.map_children(|child| child.in_try_ref(raw));
        let twin = |f: &mut SqliteFn| f.in_try = raw.has_twin(f.name);
        match &mut out {
            SqlExpr::Raw(s) => *s = raw.rename_in_text(s),
            SqlExpr::Call(f, _) => twin(f),
            SqlExpr::Aggregate { function, .. } => twin(function),
            SqlExpr::Subquery(q) | SqlExpr::Exists(q) | SqlExpr::InSubquery { subquery: q, .. } => {
                **q = std::mem::take(q.as_mut()).in_try(raw);
            }
            SqlExpr::Over { window, .. } => {
                **window = std::mem::take(window.as_mut()).in_try(raw);
            }
            _ => {}
        }
        out
    }

    /// A copy of this node with each child expression replaced by `f` of it: operands,
    /// arguments, CASE branches, an aggregate's ORDER BY keys and FILTER, a window call's
    /// call. A subquery's select and a window (queries and clauses of their own) are copied
    /// as they are. The one walk over a node's children: a new variant adds its arm here.
    pub fn map_children(&self, mut f: impl FnMut(&SqlExpr) -> SqlExpr) -> SqlExpr {
        let never = self.try_map_children(&mut |child| Ok::<_, std::convert::Infallible>(f(child)));
        match never {
            Ok(node) => node,
            Err(never) => match never {},
        }
    }

    /// [`SqlExpr::map_children`] where `f` may fail: the first failure is the answer. Runs
    /// with stack to spare ([`with_stack`]), so a walk that recurses through it is safe on a
    /// deep tree.
    pub fn try_map_children<E>(
        &self,
        f: &mut impl FnMut(&SqlExpr) -> Result<SqlExpr, E>,
    ) -> Result<SqlExpr, E> {
        with_stack(|| self.try_map_children_node(f))
    }

    fn try_map_children_node<E>(
        &self,
        f: &mut impl FnMut(&SqlExpr) -> Result<SqlExpr, E>,
    ) -> Result<SqlExpr, E> {
        let mut boxed = |e: &SqlExpr| f(e).map(Box::new);
        Ok(match self {
            SqlExpr::Raw(s) => SqlExpr::Raw(s.clone()),
            SqlExpr::Null => SqlExpr::Null,
            SqlExpr::Integer(n) => SqlExpr::Integer(*n),
            SqlExpr::Real(x) => SqlExpr::Real(*x),
            SqlExpr::Text(s) => SqlExpr::Text(s.clone()),
            SqlExpr::Blob(b) => SqlExpr::Blob(b.clone()),
            SqlExpr::Column { table, name } => SqlExpr::Column {
                table: table.clone(),
                name: name.clone(),
            },
            SqlExpr::Call(function, args) => SqlExpr::Call(*function, each(args, &mut boxed)?),
            SqlExpr::Binary(l, op, r) => SqlExpr::Binary(boxed(l)?, *op, boxed(r)?),
            SqlExpr::Unary(op, e) => SqlExpr::Unary(*op, boxed(e)?),
            SqlExpr::IsNull { operand, negated } => SqlExpr::IsNull {
                operand: boxed(operand)?,
                negated: *negated,
            },
            SqlExpr::Case {
                operand,
                branches,
                otherwise,
            } => SqlExpr::Case {
                operand: operand.as_deref().map(&mut boxed).transpose()?,
                branches: branches
                    .iter()
                    .map(|(when, then)| Ok((*boxed(when)?, *boxed(then)?)))
                    .collect::<Result<_, E>>()?,
                otherwise: otherwise.as_deref().map(&mut boxed).transpose()?,
            },
            SqlExpr::Cast(e, affinity) => SqlExpr::Cast(boxed(e)?, *affinity),
            SqlExpr::InList {
                operand,
                list,
                negated,
            } => SqlExpr::InList {
                operand: boxed(operand)?,
                list: each(list, &mut boxed)?,
                negated: *negated,
            },
            SqlExpr::Between {
                operand,
                low,
                high,
                negated,
            } => SqlExpr::Between {
                operand: boxed(operand)?,
                low: boxed(low)?,
                high: boxed(high)?,
                negated: *negated,
            },
            SqlExpr::Collate(e, collation) => SqlExpr::Collate(boxed(e)?, collation),
            SqlExpr::Subquery(q) => SqlExpr::Subquery(q.clone()),
            SqlExpr::Exists(q) => SqlExpr::Exists(q.clone()),
            SqlExpr::Over { call, window } => SqlExpr::Over {
                call: boxed(call)?,
                window: window.clone(),
            },
            SqlExpr::Aggregate {
                function,
                distinct,
                args,
                order_by,
                filter,
            } => SqlExpr::Aggregate {
                function: *function,
                distinct: *distinct,
                args: each(args, &mut boxed)?,
                order_by: order_by
                    .iter()
                    .map(|key| {
                        Ok(OrderKey {
                            expr: *boxed(&key.expr)?,
                            descending: key.descending,
                            nulls: key.nulls,
                        })
                    })
                    .collect::<Result<_, E>>()?,
                filter: filter.as_deref().map(&mut boxed).transpose()?,
            },
            SqlExpr::Row(items) => SqlExpr::Row(each(items, &mut boxed)?),
            SqlExpr::InSubquery {
                operand,
                subquery,
                negated,
            } => SqlExpr::InSubquery {
                operand: boxed(operand)?,
                subquery: subquery.clone(),
                negated: *negated,
            },
        })
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

    /// The string this node is, when it is a string literal (a quoted one in text not yet a
    /// tree too).
    pub fn text_literal(&self) -> Option<String> {
        match self {
            SqlExpr::Text(s) => Some(s.clone()),
            SqlExpr::Raw(s) => {
                let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
                // One literal: every quote inside is doubled.
                (!inner.replace("''", "").contains('\'')).then(|| inner.replace("''", "'"))
            }
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

/// Stack left before a deep walk grows it, and how much it grows by: a chain of 4,000 links
/// (tests' statement_limits) is cloned and walked on a worker's 2 MiB stack.
const RED_ZONE: usize = 64 * 1024;
const GROWTH: usize = 1024 * 1024;

/// `f` with at least [`RED_ZONE`] of stack, on a new segment when the thread's is short.
pub(super) fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, GROWTH, f)
}

impl Clone for SqlExpr {
    /// Through the one child walk, which grows the stack when it runs short: a clone of a
    /// 4,000-link chain is safe on a worker's 2 MiB stack.
    fn clone(&self) -> Self {
        self.map_children(SqlExpr::clone)
    }
}

/// Each of `items` mapped by `f`, the first failure the answer.
fn each<E>(
    items: &[SqlExpr],
    f: &mut impl FnMut(&SqlExpr) -> Result<Box<SqlExpr>, E>,
) -> Result<Vec<SqlExpr>, E> {
    items.iter().map(|item| f(item).map(|e| *e)).collect()
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

/// One piece of a rendering: a node still to render, or text.
enum Piece<'a> {
    Node(&'a SqlExpr),
    Text(&'a str),
    Owned(String),
    Other(&'a dyn Display),
}

impl Display for SqlExpr {
    /// Renders with a stack of pieces rather than by recursion: a deep expression (4,000
    /// links of `x + x + …`, each wrapped in a call) must render on a worker's 2 MiB stack
    /// (tests' statement_limits). Subqueries and windows render by their own `Display`.
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut stack = vec![Piece::Node(self)];
        let mut next = Vec::new();
        while let Some(piece) = stack.pop() {
            match piece {
                Piece::Text(s) => f.write_str(s)?,
                Piece::Owned(s) => f.write_str(&s)?,
                Piece::Other(d) => write!(f, "{d}")?,
                Piece::Node(e) => {
                    pieces(e, &mut next);
                    stack.extend(next.drain(..).rev());
                }
            }
        }
        Ok(())
    }
}

/// Pushes a list's items separated by commas.
fn listed<'a>(items: &'a [SqlExpr], out: &mut Vec<Piece<'a>>) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(Piece::Text(", "));
        }
        out.push(Piece::Node(item));
    }
}

/// The pieces `e` renders as, in order.
fn pieces<'a>(e: &'a SqlExpr, out: &mut Vec<Piece<'a>>) {
    use Piece::{Node, Other, Owned, Text};
    let not = |negated: bool| if negated { " NOT" } else { "" };
    match e {
        SqlExpr::Raw(s) => out.push(Text(s)),
        SqlExpr::Null => out.push(Text("NULL")),
        SqlExpr::Integer(n) => out.push(Owned(n.to_string())),
        SqlExpr::Real(x) if x.is_infinite() => {
            out.push(Text(if *x > 0.0 { "9e999" } else { "-9e999" }))
        }
        // SQLite has no NaN literal; 0.0/0.0 is NULL there, so a NaN is never a literal.
        SqlExpr::Real(x) if x.is_nan() => out.push(Text("NULL")),
        // Rust writes 1e300 as "1e300" and 2.0 as "2.0": both read back as REAL.
        SqlExpr::Real(x) => out.push(Owned(format!("{x:?}"))),
        SqlExpr::Text(s) => out.push(Owned(sql_string(s))),
        SqlExpr::Blob(bytes) => {
            let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
            out.push(Owned(format!("X'{hex}'")));
        }
        SqlExpr::Column { table, name } => {
            if let Some(t) = table {
                out.push(Text(t));
                out.push(Text("."));
            }
            out.push(Owned(quote(name)));
        }
        SqlExpr::Call(func, args) => {
            out.push(Text(func.name));
            if func.in_try {
                out.push(Text("_in_try"));
            }
            out.push(Text("("));
            listed(args, out);
            out.push(Text(")"));
        }
        SqlExpr::Binary(l, op, r) => {
            out.push(Text("("));
            out.push(Node(l));
            out.push(Text(" "));
            out.push(Text(op.symbol()));
            out.push(Text(" "));
            out.push(Node(r));
            out.push(Text(")"));
        }
        SqlExpr::Unary(op, operand) => {
            out.push(Text("("));
            out.push(Text(op.symbol()));
            out.push(Node(operand));
            out.push(Text(")"));
        }
        SqlExpr::IsNull { operand, negated } => {
            out.push(Text("("));
            out.push(Node(operand));
            out.push(Text(" IS"));
            out.push(Text(not(*negated)));
            out.push(Text(" NULL)"));
        }
        SqlExpr::Case {
            operand,
            branches,
            otherwise,
        } => {
            out.push(Text("(CASE"));
            if let Some(o) = operand {
                out.push(Text(" "));
                out.push(Node(o));
            }
            for (when, then) in branches {
                out.push(Text(" WHEN "));
                out.push(Node(when));
                out.push(Text(" THEN "));
                out.push(Node(then));
            }
            if let Some(o) = otherwise {
                out.push(Text(" ELSE "));
                out.push(Node(o));
            }
            out.push(Text(" END)"));
        }
        SqlExpr::Cast(operand, affinity) => {
            out.push(Text("CAST("));
            out.push(Node(operand));
            out.push(Text(" AS "));
            out.push(Text(affinity.name()));
            out.push(Text(")"));
        }
        SqlExpr::InList {
            operand,
            list: items,
            negated,
        } => {
            out.push(Text("("));
            out.push(Node(operand));
            out.push(Text(not(*negated)));
            out.push(Text(" IN ("));
            listed(items, out);
            out.push(Text("))"));
        }
        SqlExpr::Between {
            operand,
            low,
            high,
            negated,
        } => {
            out.push(Text("("));
            out.push(Node(operand));
            out.push(Text(not(*negated)));
            out.push(Text(" BETWEEN "));
            out.push(Node(low));
            out.push(Text(" AND "));
            out.push(Node(high));
            out.push(Text(")"));
        }
        SqlExpr::Collate(operand, collation) => {
            out.push(Text("("));
            out.push(Node(operand));
            out.push(Text(" COLLATE "));
            out.push(Text(collation));
            out.push(Text(")"));
        }
        SqlExpr::Subquery(q) => {
            out.push(Text("("));
            out.push(Other(q.as_ref()));
            out.push(Text(")"));
        }
        SqlExpr::Exists(q) => {
            out.push(Text("EXISTS ("));
            out.push(Other(q.as_ref()));
            out.push(Text(")"));
        }
        SqlExpr::Over { call, window } => {
            out.push(Node(call));
            out.push(Text(" OVER ("));
            out.push(Other(window.as_ref()));
            out.push(Text(")"));
        }
        SqlExpr::Aggregate {
            function,
            distinct,
            args,
            order_by,
            filter,
        } => {
            out.push(Text(function.name));
            if function.in_try {
                out.push(Text("_in_try"));
            }
            out.push(Text(if *distinct { "(DISTINCT " } else { "(" }));
            if args.is_empty() {
                out.push(Text("*"));
            }
            listed(args, out);
            for (i, key) in order_by.iter().enumerate() {
                out.push(Text(if i == 0 { " ORDER BY " } else { ", " }));
                out.push(Other(key));
            }
            out.push(Text(")"));
            if let Some(c) = filter {
                out.push(Text(" FILTER (WHERE "));
                out.push(Node(c));
                out.push(Text(")"));
            }
        }
        SqlExpr::Row(items) => {
            out.push(Text("("));
            listed(items, out);
            out.push(Text(")"));
        }
        SqlExpr::InSubquery {
            operand,
            subquery,
            negated,
        } => {
            out.push(Text("("));
            out.push(Node(operand));
            out.push(Text(not(*negated)));
            out.push(Text(" IN ("));
            out.push(Other(subquery.as_ref()));
            out.push(Text("))"));
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
    fn text_literals_are_read_back() {
        assert_eq!(SqlExpr::text("a'b").text_literal().as_deref(), Some("a'b"));
        let quoted = |s: &str| SqlExpr::Raw(s.into()).text_literal();
        assert_eq!(quoted("'it''s'").as_deref(), Some("it's"));
        assert_eq!(quoted("''").as_deref(), Some(""));
        assert_eq!(quoted("'a' || 'b'"), None);
        assert_eq!(quoted("x"), None);
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
                    nulls: Some(Nulls::Last),
                },
                OrderKey {
                    expr: SqlExpr::Integer(1),
                    descending: false,
                    nulls: Some(Nulls::First),
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

    /// Each child once, a subquery and a window left to their own walks.
    fn bumped(e: &SqlExpr) -> SqlExpr {
        match e {
            SqlExpr::Integer(n) => SqlExpr::Integer(n + 1),
            other => other.map_children(bumped),
        }
    }

    #[test]
    fn map_children_reaches_every_child_expression() {
        let one = || SqlExpr::Integer(1);
        let aggregate = SqlExpr::Aggregate {
            function: builtin::SUM,
            distinct: false,
            args: vec![SqlExpr::iff(one(), one(), one())],
            order_by: vec![OrderKey::from((one(), true))],
            filter: Some(Box::new(SqlExpr::is_null(one()))),
        };
        let window = Window {
            partition_by: vec![one()],
            ..Window::default()
        };
        let over = SqlExpr::over(aggregate, window);
        assert_eq!(
            bumped(&over).to_string(),
            "sum((CASE WHEN 2 THEN 2 ELSE 2 END) ORDER BY 2 DESC) FILTER (WHERE (2 IS NULL)) \
             OVER (PARTITION BY 1)"
        );
        assert_eq!(bumped(&over).clone(), bumped(&over));
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

    #[test]
    fn rows_compare_against_a_subquery_and_walk_it_in_try() {
        let keys = Select::new(
            vec![
                SqlExpr::column(None, "c1"),
                QM_FAILS.call([SqlExpr::column(None, "c2")]),
            ],
            vec![FromItem::Table {
                name: "t".into(),
                alias: None,
            }],
        );
        let in_subquery = SqlExpr::InSubquery {
            operand: Box::new(SqlExpr::Row(vec![
                SqlExpr::Integer(1),
                QM_FAILS.call([SqlExpr::Integer(2)]),
            ])),
            subquery: Box::new(keys),
            negated: true,
        };
        assert_eq!(
            in_subquery.to_string(),
            "((1, qm_fails(2)) NOT IN (SELECT \"c1\", qm_fails(\"c2\") FROM \"t\"))"
        );
        assert_eq!(
            in_subquery.clone().in_try(&Twins).to_string(),
            "((1, qm_fails_in_try(2)) NOT IN (SELECT \"c1\", qm_fails_in_try(\"c2\") FROM \"t\"))"
        );
    }

    #[test]
    fn window_calls_render_their_window_and_walk_it_in_try() {
        let x = || SqlExpr::column(None, "x");
        let window = Window {
            partition_by: vec![SqlExpr::column(Some("t"), "k"), x()],
            order_by: vec![
                OrderKey {
                    expr: x(),
                    descending: true,
                    nulls: Some(Nulls::First),
                },
                OrderKey {
                    expr: QM_FAILS.call([x()]),
                    descending: false,
                    nulls: Some(Nulls::Last),
                },
            ],
            frame: Some(Frame::between(
                FrameUnits::Range,
                FrameBound::Preceding(SqlExpr::Integer(2)),
                FrameBound::CurrentRow,
            )),
        };
        let over = SqlExpr::Over {
            call: Box::new(builtin::SUM.call([x()])),
            window: Box::new(window.clone()),
        };
        assert_eq!(
            over.to_string(),
            "sum(\"x\") OVER (PARTITION BY t.\"k\", \"x\" ORDER BY \"x\" DESC NULLS FIRST, qm_fails(\"x\") ASC NULLS LAST RANGE BETWEEN 2 PRECEDING AND CURRENT ROW)"
        );
        let frame_only = SqlExpr::Over {
            call: Box::new(QM_FAILS.call([])),
            window: Box::new(Window::default().with_frame(Some(Frame {
                units: FrameUnits::Rows,
                start: FrameBound::Preceding(QM_FAILS.call([SqlExpr::Integer(1)])),
                end: None,
            }))),
        };
        assert_eq!(
            frame_only.in_try(&Twins).to_string(),
            "qm_fails_in_try() OVER (ROWS qm_fails_in_try(1) PRECEDING)"
        );
        let ordered_only = SqlExpr::Over {
            call: Box::new(builtin::COUNT.call([])),
            window: Box::new(
                Window {
                    order_by: window.order_by[..1].to_vec(),
                    ..Window::default()
                }
                .with_frame(Some(Frame::whole_partition())),
            ),
        };
        assert_eq!(
            ordered_only.to_string(),
            "count() OVER (ORDER BY \"x\" DESC NULLS FIRST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)"
        );
        assert_eq!(
            SqlExpr::Over {
                call: Box::new(builtin::COUNT.call([])),
                window: Box::default(),
            }
            .to_string(),
            "count() OVER ()"
        );
    }
}
