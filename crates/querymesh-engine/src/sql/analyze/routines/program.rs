//! A routine body other than `RETURN value`, as SQLite runs it: a program of steps (assign a
//! variable, branch, jump, return) executed by a recursive CTE whose every row is the
//! program's state — the step to run next (`pc`), each parameter and variable (`v0`, `v1`,
//! …) and the value returned (`ret`). One step per row keeps memory flat however long a loop
//! runs; a loop that never ends runs until the query's time limit interrupts it, as Trino's
//! would.

use querymesh_values::sqlite_expr::{
    BinaryOp, CommonTable, CompoundOp, FromItem, Query, Select, SqlExpr,
};

use crate::types::TrinoType;

/// `pc` once the routine has returned.
const DONE: i64 = -1;

/// One step.
#[derive(Debug)]
pub(super) enum Step {
    Assign {
        slot: usize,
        value: SqlExpr,
        next: usize,
    },
    /// To `then` when `condition` is true, else (false or NULL) to `otherwise`.
    Branch {
        condition: SqlExpr,
        then: usize,
        otherwise: usize,
    },
    Jump(usize),
    Return(SqlExpr),
}

/// A compiled routine body.
pub(crate) struct Program {
    /// The parameters' and variables' types (the parameters first).
    slots: Vec<TrinoType>,
    steps: Vec<Step>,
}

fn pc() -> SqlExpr {
    SqlExpr::column(None, "pc")
}

fn step_number(i: usize) -> SqlExpr {
    SqlExpr::Integer(i64::try_from(i).unwrap_or(i64::MAX))
}

impl Program {
    pub(super) fn new(slots: Vec<TrinoType>, steps: Vec<Step>) -> Self {
        Self { slots, steps }
    }

    /// The call with these arguments (the first slots): `(SELECT ret FROM (WITH RECURSIVE …))`.
    pub(super) fn call(&self, alias: &str, args: Vec<SqlExpr>, null_on_null: bool) -> SqlExpr {
        let null_argument = args
            .iter()
            .map(|a| SqlExpr::is_null(a.clone()))
            .reduce(|all, one| SqlExpr::binary(all, BinaryOp::Or, one))
            .filter(|_| null_on_null);
        let start = match null_argument {
            Some(null) => SqlExpr::iff(null, SqlExpr::Integer(DONE), SqlExpr::Integer(0)),
            None => SqlExpr::Integer(0),
        };
        let argument_count = args.len();
        let mut first = vec![start];
        first.extend(args);
        first.extend((argument_count..self.slots.len()).map(|_| SqlExpr::Null));
        first.push(SqlExpr::Null);
        let base = Select::new(first, Vec::new());
        let step = Select::new(self.next_row(alias), vec![table(alias, None)]).filter(
            SqlExpr::binary(pc(), BinaryOp::GreaterOrEqual, SqlExpr::Integer(0)),
        );
        let mut columns = vec!["pc".to_string()];
        columns.extend((0..self.slots.len()).map(|i| format!("v{i}")));
        columns.push("ret".to_string());
        let out = format!("{alias}_out");
        let returned =
            Select::new(vec![SqlExpr::column(None, "ret")], vec![table(alias, None)]).filter(
                SqlExpr::binary(pc(), BinaryOp::Equal, SqlExpr::Integer(DONE)),
            );
        let query = Query::With {
            recursive: true,
            ctes: vec![CommonTable {
                name: alias.to_string(),
                columns,
                materialized: false,
                query: Query::Compound {
                    op: CompoundOp::UnionAll,
                    terms: vec![base, step],
                    limit: None,
                    offset: None,
                },
            }],
            body: Box::new(Query::Select(Box::new(returned))),
        };
        Select::new(
            vec![SqlExpr::column(Some(&out), "ret")],
            vec![FromItem::Query {
                query: Box::new(query),
                alias: Some(out),
            }],
        )
        .scalar()
    }

    /// The state after the step `pc` names: each column a CASE over the steps that change it.
    fn next_row(&self, alias: &str) -> Vec<SqlExpr> {
        let by_step = |branches: Vec<(SqlExpr, SqlExpr)>, otherwise: Option<SqlExpr>| {
            if branches.is_empty() {
                return otherwise.unwrap_or(SqlExpr::Null);
            }
            SqlExpr::Case {
                operand: Some(Box::new(SqlExpr::column(Some(alias), "pc"))),
                branches,
                otherwise: otherwise.map(Box::new),
            }
        };
        let mut row = Vec::with_capacity(self.slots.len() + 2);
        let next_pc = self
            .steps
            .iter()
            .enumerate()
            .map(|(i, step)| {
                let next = match step {
                    Step::Assign { next, .. } => step_number(*next),
                    Step::Jump(to) => step_number(*to),
                    Step::Return(_) => SqlExpr::Integer(DONE),
                    Step::Branch {
                        condition,
                        then,
                        otherwise,
                    } => SqlExpr::iff(
                        condition.clone(),
                        step_number(*then),
                        step_number(*otherwise),
                    ),
                };
                (step_number(i), next)
            })
            .collect();
        // Past the last step (a block that ends without RETURN cannot be compiled, so only
        // a jump to the end gets here): the routine is done.
        row.push(by_step(next_pc, Some(SqlExpr::Integer(DONE))));
        for slot in 0..self.slots.len() {
            let assignments = self
                .steps
                .iter()
                .enumerate()
                .filter_map(|(i, step)| match step {
                    Step::Assign { slot: s, value, .. } if *s == slot => {
                        Some((step_number(i), value.clone()))
                    }
                    _ => None,
                })
                .collect();
            let current = SqlExpr::column(Some(alias), format!("v{slot}"));
            row.push(by_step(assignments, Some(current)));
        }
        let returns = self
            .steps
            .iter()
            .enumerate()
            .filter_map(|(i, step)| match step {
                Step::Return(value) => Some((step_number(i), value.clone())),
                _ => None,
            })
            .collect();
        row.push(by_step(returns, None));
        row
    }
}

fn table(name: &str, alias: Option<&str>) -> FromItem {
    FromItem::Table {
        name: name.to_string(),
        alias: alias.map(str::to_string),
    }
}

/// `(SELECT value FROM (SELECT a0 AS v0, …) AS alias)`: a `RETURN value` body over its
/// arguments, each evaluated once.
pub(super) fn over_arguments(alias: &str, value: SqlExpr, args: Vec<SqlExpr>) -> SqlExpr {
    if args.is_empty() {
        return Select::new(vec![value], Vec::new()).scalar();
    }
    let arguments = Select {
        columns: args
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a, Some(format!("v{i}"))))
            .collect(),
        ..Select::default()
    };
    Select::new(
        vec![value],
        vec![FromItem::Subquery {
            select: Box::new(arguments),
            alias: Some(alias.to_string()),
        }],
    )
    .scalar()
}
