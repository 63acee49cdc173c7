//! What one function is: a [`FunctionDef`] — its name, kind, signatures, Trino's one-line
//! description and how it lowers to SQLite. Each family file holds a table of them; the
//! [`registry`](super::registry) gathers the tables.

use querymesh_values::error::TrinoError;
use querymesh_values::sqlite_expr::{OrderKey, SqlExpr, SqliteFn};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Scalar,
    /// A scalar Trino parses as its own syntax (`if`, `coalesce`, `nullif`): called like a
    /// function, but not one `SHOW FUNCTIONS` lists.
    SpecialForm,
    Aggregate,
    Window,
}

impl Kind {
    /// `Function Type` in `SHOW FUNCTIONS`.
    pub fn shown(self) -> &'static str {
        match self {
            Kind::Scalar | Kind::SpecialForm => "scalar",
            Kind::Aggregate => "aggregate",
            Kind::Window => "window",
        }
    }
}

/// Lowers a scalar call whose arguments have been analysed (and, for a [`Typing::Resolved`]
/// entry, matched to a signature and coerced to its parameters). `Ok(None)`: these arguments
/// fit none of the function's signatures.
pub type ScalarLowering = fn(&mut dyn LowerContext, &Call) -> LowerResult;
pub type LowerResult = Result<Option<Typed>, TrinoError>;

/// Lowers an aggregate call: the SQLite aggregate expression and its Trino type.
pub type AggregateLowering = fn(&mut dyn LowerContext, &AggregateCall<'_>) -> AggregateLowered;
pub type AggregateLowered = Result<Option<(SqlExpr, TrinoType)>, TrinoError>;

pub struct AggregateCall<'c> {
    pub name: &'c str,
    pub args: &'c [Typed],
    /// `count(*)`.
    pub star: bool,
    pub distinct: bool,
    /// `ORDER BY` inside the call (or listagg's WITHIN GROUP), its keys analysed; empty when
    /// there is none.
    pub order_by: Vec<OrderKey>,
    /// `FILTER (WHERE condition)`: the condition, analysed.
    pub filter: Option<SqlExpr>,
    /// listagg's `ON OVERFLOW` clause.
    pub listagg_overflow: Option<&'c sqlparser::ast::ListAggOnOverflow>,
    /// In a block with GROUP BY keys (not a global aggregation, not a window).
    pub grouped: bool,
    /// The statement reads a table: Trino splits an aggregation into a partial state per
    /// split and a final one (over VALUES it runs one).
    pub reads_tables: bool,
}

impl AggregateCall<'_> {
    /// `function(args)` aggregating as this call does: its DISTINCT and ORDER BY inside.
    pub fn aggregate(
        &self,
        function: SqliteFn,
        args: impl IntoIterator<Item = SqlExpr>,
    ) -> SqlExpr {
        SqlExpr::Aggregate {
            function,
            distinct: self.distinct,
            args: args.into_iter().collect(),
            order_by: self.order_by.clone(),
            filter: None,
        }
    }

    /// A lowering with this call's FILTER: on the lowering when it is one aggregate call (a
    /// `qm_*` one included), else on each aggregate call in it (outside its subqueries,
    /// which aggregate their own rows): the rows the condition keeps are the rows every
    /// aggregate of the lowering reads.
    pub fn filtered(&self, lowered: SqlExpr) -> SqlExpr {
        let Some(condition) = &self.filter else {
            return lowered;
        };
        let mut placed = false;
        let inside = filtered(&lowered, condition, &mut placed);
        if placed {
            return inside;
        }
        match lowered {
            SqlExpr::Call(function, args) if !args.is_empty() => SqlExpr::Aggregate {
                function,
                distinct: false,
                args,
                order_by: Vec::new(),
                filter: Some(Box::new(condition.clone())),
            },
            other => other,
        }
    }
}

/// `sql` with `condition` filtering each aggregate call in it; `placed` when there is one.
fn filtered(sql: &SqlExpr, condition: &SqlExpr, placed: &mut bool) -> SqlExpr {
    let mut with_filter = || {
        *placed = true;
        Some(Box::new(condition.clone()))
    };
    match sql {
        SqlExpr::Aggregate {
            function,
            distinct,
            args,
            order_by,
            filter: None,
        } => SqlExpr::Aggregate {
            function: *function,
            distinct: *distinct,
            args: args.clone(),
            order_by: order_by.clone(),
            filter: with_filter(),
        },
        SqlExpr::Call(function, args) if crate::window::is_aggregate(*function, args) => {
            SqlExpr::Aggregate {
                function: *function,
                distinct: false,
                args: args.clone(),
                order_by: Vec::new(),
                filter: with_filter(),
            }
        }
        SqlExpr::Subquery(_) | SqlExpr::Exists(_) | SqlExpr::Over { .. } => sql.clone(),
        _ => sql.map_children(|child| filtered(child, condition, placed)),
    }
}

pub enum Lower {
    Scalar(ScalarLowering),
    Aggregate(AggregateLowering),
    /// A window-only function, lowered in window.rs (the registry only names it).
    Window,
}

/// `Lower::Scalar` calling one SQLite function (a [`querymesh_values::sqlite_expr::SqliteFn`])
/// over the coerced arguments, typed by the matched signature: for [`Typing::Resolved`]
/// entries. `calls!(QM_X, extra…)` appends literal arguments after them.
macro_rules! calls {
    ($f:expr) => {
        $crate::entry::Lower::Scalar(|_, c| Ok(Some(c.calling($f))))
    };
    ($f:expr, $($extra:expr),+) => {
        $crate::entry::Lower::Scalar(|_, c| {
            let mut args = c.arg_exprs();
            args.extend([$($extra),+]);
            Ok(Some(querymesh_values::typed::Typed::new($f.call(args), c.returns())))
        })
    };
}
pub(crate) use calls;

/// How a call's arguments are checked.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Typing {
    /// Matched against the signatures (generic types bound, Trino's implicit coercions
    /// applied) before lowering; the lowering sees the coerced arguments and the return type.
    Resolved,
    /// The lowering checks the arguments itself (types whose rules a signature can't state,
    /// such as decimal precision arithmetic); the signatures document it.
    ByLowering,
}

pub struct FunctionDef {
    pub name: &'static str,
    pub kind: Kind,
    /// `(argument types, return type)` as Trino writes them: `("array(T), T", "bigint")`.
    pub signatures: &'static [(&'static str, &'static str)],
    pub typing: Typing,
    pub lower: Lower,
    /// What it does, in a line or two: the function's documentation here (SHOW FUNCTIONS
    /// reads Trino's own listing, show/trino_functions.tsv in the engine).
    pub description: &'static str,
    /// `now()` and `random()` are not.
    pub deterministic: bool,
}

/// A deterministic aggregate, typed by its lowering.
pub const fn aggregate(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    lower: AggregateLowering,
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Aggregate,
        signatures,
        typing: Typing::ByLowering,
        lower: Lower::Aggregate(lower),
        description,
        deterministic: true,
    }
}

/// Shorthand for the tables: a deterministic scalar.
pub const fn scalar(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    typing: Typing,
    lower: Lower,
    description: &'static str,
) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Scalar,
        signatures,
        typing,
        lower,
        description,
        deterministic: true,
    }
}
