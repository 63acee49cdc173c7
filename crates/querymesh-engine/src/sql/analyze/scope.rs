//! Name resolution: the relations a query block sees, its enclosing blocks (correlated
//! subqueries), and what an expression is being analysed for.

use std::sync::Arc;

use querymesh_values::sqlite_expr::SqlExpr;

use crate::error::{ErrorName, Position, TrinoError};
use crate::types::TrinoType;

/// The name of a column Trino leaves unnamed: an expression without an alias, a VALUES or
/// UNNEST column. No name reaches it (`SELECT _col0 FROM (VALUES 1)` is COLUMN_NOT_FOUND:
/// Trino's Field has no name, StatementAnalyzer), and a client sees it as `_col<i>` by its
/// position in the statement's output ([`shown_name`]), not in the block that made it.
/// Empty, which no identifier is (Trino refuses `""`).
pub const UNNAMED: &str = "";

/// A column's name as the client sees it at `position` of the output: `_col<position>` for
/// an unnamed one (Trino's `_col` + field index, StatementAnalyzer's output descriptor).
pub fn shown_name(name: String, position: usize) -> String {
    if name == UNNAMED {
        format!("_col{position}")
    } else {
        name
    }
}

#[derive(Clone, Debug)]
pub struct Column {
    /// Lower-case name as Trino reports it.
    pub name: String,
    pub ty: TrinoType,
    /// The SQLite expression reading it, e.g. `t3."nationkey"`.
    pub sql: SqlExpr,
    /// Index into the analyzer's table reads when the column comes straight from a table.
    pub read: Option<usize>,
    /// Either side's copy of a `JOIN … USING` column: no name reaches it (the joined column
    /// the join adds answers to the name), and `*` shows the joined column once, first.
    pub hidden: bool,
    /// A table's hidden column (information_schema.columns' `comment`): any name reaches
    /// it, no `*` shows it.
    pub unlisted: bool,
    /// Trino's planner refuses the statement if the column is used: a LATERAL's output that
    /// reads the items before it in a shape its decorrelation cannot take. Unused, the
    /// planner prunes it first and the refusal never comes ([`super::unnest`]).
    pub planning_refusal: Option<Arc<TrinoError>>,
}

#[derive(Clone, Debug)]
pub struct Relation {
    /// Names the relation answers to, lower-case: `[alias]` or `[table]`, `[schema, table]`,
    /// `[catalog, schema, table]`.
    pub names: Vec<Vec<String>>,
    pub columns: Vec<Column>,
}

impl Relation {
    fn answers_to(&self, qualifier: &[String]) -> bool {
        self.names.iter().any(|n| n.as_slice() == qualifier)
    }
}

/// One query block's relations, inside its enclosing blocks.
pub struct Scope<'p> {
    pub relations: Vec<Relation>,
    /// Output columns an ORDER BY may name before the relations (Trino resolves them first).
    pub outputs: Vec<(String, Column)>,
    pub parent: Option<&'p Scope<'p>>,
}

/// A block's output columns as ORDER BY sees them: by name, reading the emitted
/// positional aliases `"c1"`, `"c2"`, ….
pub fn positional_outputs(columns: &[(String, TrinoType)]) -> Vec<(String, Column)> {
    columns
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| {
            let column = Column {
                name: name.clone(),
                ty: ty.clone(),
                sql: SqlExpr::column(None, format!("c{}", i + 1)),
                read: None,
                hidden: false,
                unlisted: false,
                planning_refusal: None,
            };
            (name.to_lowercase(), column)
        })
        .collect()
}

/// Where a resolved column was found.
pub struct Resolved {
    pub column: Column,
    /// 0 when in the block itself, more for an enclosing block.
    pub depth: usize,
    /// An output column of the block (ORDER BY), already checked for grouping.
    pub is_output: bool,
}

impl<'p> Scope<'p> {
    pub fn new(relations: Vec<Relation>, parent: Option<&'p Scope<'p>>) -> Self {
        Self {
            relations,
            outputs: Vec::new(),
            parent,
        }
    }

    /// Resolves `parts` (`col`, `t.col`, `s.t.col`, `c.s.t.col`) as Trino does.
    pub fn resolve(
        &self,
        parts: &[String],
        location: Option<Position>,
    ) -> Result<Resolved, TrinoError> {
        let error = |name: ErrorName, text: String| match location {
            Some(l) => TrinoError::at(name, l, text),
            None => TrinoError::new(name, text),
        };
        let mut scope = Some(self);
        let mut depth = 0;
        while let Some(s) = scope {
            let Some((column, qualifier)) = parts.split_last() else {
                break;
            };
            if qualifier.is_empty() {
                let outputs: Vec<&Column> = s
                    .outputs
                    .iter()
                    .filter(|(n, _)| same_name(n, column))
                    .map(|(_, c)| c)
                    .collect();
                if outputs.len() > 1 {
                    return Err(error(
                        ErrorName::AmbiguousName,
                        format!("'{column}' in ORDER BY is ambiguous"),
                    ));
                }
                if let Some(c) = outputs.first() {
                    return Ok(Resolved {
                        column: (*c).clone(),
                        depth,
                        is_output: true,
                    });
                }
            }
            let found: Vec<&Column> = s
                .relations
                .iter()
                .filter(|r| qualifier.is_empty() || r.answers_to(qualifier))
                .flat_map(|r| {
                    r.columns
                        .iter()
                        .filter(|c| same_name(&c.name, column) && !c.hidden)
                })
                .collect();
            match found.as_slice() {
                [] => {}
                [one] => {
                    return Ok(Resolved {
                        column: (*one).clone(),
                        depth,
                        is_output: false,
                    });
                }
                _ => {
                    return Err(error(
                        ErrorName::AmbiguousName,
                        format!("Column '{}' is ambiguous", parts.join(".")),
                    ));
                }
            }
            scope = s.parent;
            depth += 1;
        }
        Err(error(
            ErrorName::ColumnNotFound,
            format!("Column '{}' cannot be resolved", parts.join(".")),
        ))
    }

    /// The relation `qualifier.*` names, in this block only.
    pub fn relation(&self, qualifier: &[String]) -> Option<&Relation> {
        self.relations.iter().find(|r| r.answers_to(qualifier))
    }
}

/// The clause an expression belongs to, which decides whether aggregates may appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clause {
    Where,
    On,
    GroupBy,
    Select,
    Having,
    OrderBy,
    Values,
    /// A lambda's body: it may contain no aggregate, window function or subquery (Trino's
    /// ExpressionAnalyzer.visitLambdaExpression).
    Lambda,
    /// An inline routine's expression: no query, aggregate or window function (Trino's
    /// SqlRoutineAnalyzer).
    Routine,
}

impl Clause {
    pub fn allows_aggregates(self) -> bool {
        matches!(self, Clause::Select | Clause::Having | Clause::OrderBy)
    }

    pub fn describe(self) -> &'static str {
        match self {
            Clause::Where => "WHERE clause",
            Clause::On => "JOIN clause",
            Clause::GroupBy => "GROUP BY clause",
            Clause::Values => "VALUES",
            Clause::Lambda => "Lambda expression",
            Clause::Routine => "Function body",
            _ => "clause",
        }
    }
}

/// What an expression is analysed for.
#[derive(Clone, Copy)]
pub struct ExprContext<'a> {
    pub scope: &'a Scope<'a>,
    pub clause: Clause,
    /// Inside an aggregate's arguments.
    pub in_aggregate: bool,
    /// The block is grouped: these are its grouping keys' SQL.
    pub group_keys: Option<&'a [String]>,
}

/// Whether a relation's column `name` (an alias or a bare column keeps its case as written)
/// answers to `wanted` (lower-cased): Trino resolves names case-insensitively.
fn same_name(name: &str, wanted: &str) -> bool {
    name != UNNAMED && name == wanted || name.to_lowercase() == wanted
}
