//! The analysis: a parsed query resolved against the catalogs, every expression typed with
//! Trino's types and refusals, and the SQLite query tree built (querymesh-values
//! `sqlite_expr`; no text: the plan renders the tree once). Its output columns are named
//! `"c1"`, `"c2"`, … in order.
//!
//! This file holds the [`Analyzer`] and the name helpers every part uses (the typed values it
//! passes around are querymesh-values' `typed`, the error helpers `crate::error`'s); beside
//! it, in `analyze/`, one file per part of a query:
//! - the query and its blocks: `query` (WITH, ORDER BY after a set operation,
//!   LIMIT/OFFSET/FETCH), `recursive` (WITH RECURSIVE), `set_operations` (query bodies,
//!   VALUES, UNION/INTERSECT/EXCEPT), `select` (SELECT, GROUP BY, HAVING), `grouping_sets`,
//!   `order_by`, `scope` (the names a clause sees), `location` (where a node starts, for
//!   errors);
//! - FROM: `from` (tables, joins), `unnest`, `json_table/`, `table_functions/`, `policy` (row
//!   filters and column masks), `views` (a developer's views under those), `visible` (what a
//!   person may see of information_schema and `system`);
//! - expressions: `expr`, `operators`, `predicates`, `quantified` (ANY / ALL), `literal`,
//!   `casts`, `json_casts`, `complex` (arrays, maps, rows), `rows` (row comparison), `zoned`
//!   (time zones), `calls/` (a call's syntax, its resolution through the function registry,
//!   windows, lambdas, SQL/JSON, and the `LowerContext` the analyser gives lowerings).

use std::collections::HashMap;
use std::sync::Arc;

use querymesh_values::sqlite_expr::Query;
use sqlparser::ast::{ObjectName, ObjectNamePart};
use sqlparser::tokenizer::TokenWithSpan;

use crate::catalog::Catalogs;
use crate::error::{ErrorName, Position, TrinoError, error_at};
use crate::sql::limits::StackBudget;
use crate::types::TrinoType;
use crate::{SessionContext, TableAccess};

pub(super) mod calls;
pub(super) mod casts;
pub(super) mod complex;
pub(super) mod expr;
pub(super) mod from;
pub(super) mod grouping_sets;
pub(super) mod json_casts;
pub(super) mod json_table;
pub(super) mod literal;
mod location;
pub(super) mod operators;
pub(super) mod order_by;
pub(super) mod policy;
pub(super) mod predicates;
pub(super) mod quantified;
mod query;
mod recursive;
pub(super) mod routines;
pub(super) mod rows;
pub(super) mod scope;
pub(super) mod select;
mod select_all;
mod set_operations;
pub(super) mod table_functions;
mod trino_text;
pub(super) mod unnest;
pub(super) mod views;
pub(super) mod visible;
pub(super) mod zoned;

pub use self::location::{ident_location, location};
pub use self::query::literal_position;
pub(super) use self::set_operations::refuse_parenthesized_with;

pub use crate::sql::analyze::scope::{UNNAMED, shown_name};

/// A query block's result: its SQLite query (columns `"c1"`…), rendered once where the plan
/// runs it, and its columns' names ([`UNNAMED`] for an unnamed one) and types.
pub struct Block {
    pub sql: Query,
    pub columns: Vec<(String, TrinoType)>,
    /// Known to return at most one row (a global aggregate, no FROM, LIMIT 1).
    pub single_row: bool,
    /// Where each column comes from, for DESCRIBE OUTPUT: empty unless describing, and
    /// then empty for a body that names no origins (VALUES).
    pub origins: Vec<crate::sql::describe::Origin>,
}

/// A column of a FROM source: name, type, the table read it belongs to, and whether it is a
/// hidden column of that table.
pub(super) type SourceColumn = (String, TrinoType, Option<usize>, bool);

pub(super) struct Cte {
    pub(super) sqlite_name: String,
    pub(super) columns: Vec<(String, TrinoType)>,
    /// The origins of its columns (DESCRIBE OUTPUT).
    pub(super) origins: Vec<crate::sql::describe::Origin>,
}

pub struct Analyzer<'a> {
    pub catalogs: &'a Catalogs,
    pub session: &'a SessionContext,
    /// The statement's significant tokens, for errors at tokens the syntax tree drops.
    pub(super) tokens: &'a [TokenWithSpan],
    pub(super) next_alias: u32,
    pub reads: Vec<TableAccess>,
    pub(super) ctes: Vec<HashMap<String, Cte>>,
    /// Columns used outside aggregates in a grouped block, not (yet) covered by a group key.
    pub loose: Vec<(Option<Position>, String)>,
    /// Aggregates met in the block being analysed.
    pub aggregates_seen: usize,
    /// Checked wherever the analysis recurses (expressions, queries, set operations).
    pub(super) stack: StackBudget,
    /// Lambda parameters in scope, innermost last (querymesh-functions/src/lambda.rs).
    pub(super) lambda_params: Vec<querymesh_functions::LambdaParam>,
    /// The grouping set the current block's select list is analysed for (grouping_sets.rs).
    pub(super) grouping: Option<crate::sql::analyze::grouping_sets::GroupingState>,
    /// The WINDOW clause's named windows of the SELECT being analysed, resolved.
    pub(super) windows: Vec<(String, sqlparser::ast::WindowSpec)>,
    /// GROUP BY keys that are timestamps with time zone: grouped by their instant (zoned.rs).
    pub(super) zoned_group_keys: Vec<String>,
    /// The row filters, column masks and views being analysed around this point, shared
    /// with the nested analyses of their expressions (policy.rs, views.rs): a second entry
    /// into one is Trino's recursion error.
    pub(super) frames: Vec<crate::sql::analyze::policy::Frame>,
    /// Set while a prepared statement is analysed for DESCRIBE INPUT / OUTPUT (describe.rs):
    /// its `?` parameters are then values of unknown type instead of an error.
    pub(super) describing: Option<crate::sql::describe::Describing>,
    /// The first refusal Trino's planner would make, met while analysing (a used column
    /// carrying [`scope::Column::planning_refusal`]): the statement fails with it once its
    /// analysis has succeeded, as Trino plans only what it has analysed.
    pub planning_refusal: Option<Arc<TrinoError>>,
    /// The inline routines (`WITH FUNCTION`) a call may name, before the built-in functions.
    pub(super) routines: Arc<routines::Routines>,
}

pub fn ident_name(ident: &sqlparser::ast::Ident) -> String {
    ident.value.to_lowercase()
}

pub(super) fn object_name_parts(name: &ObjectName) -> Vec<String> {
    name.0
        .iter()
        .map(|p| match p {
            ObjectNamePart::Identifier(i) => ident_name(i),
            other => other.to_string().to_lowercase(),
        })
        .collect()
}

impl<'a> Analyzer<'a> {
    pub fn new(
        catalogs: &'a Catalogs,
        session: &'a SessionContext,
        tokens: &'a [TokenWithSpan],
    ) -> Self {
        Self {
            catalogs,
            session,
            tokens,
            next_alias: 0,
            lambda_params: Vec::new(),
            grouping: None,
            windows: Vec::new(),
            reads: Vec::new(),
            ctes: Vec::new(),
            loose: Vec::new(),
            aggregates_seen: 0,
            zoned_group_keys: Vec::new(),
            frames: Vec::new(),
            stack: StackBudget::start(),
            describing: None,
            planning_refusal: None,
            routines: Arc::default(),
        }
    }

    /// An alias written as a string (`SELECT 'a' 'b'`, `FROM t 'x'`): sqlparser takes it,
    /// Trino's grammar only takes identifiers there (plain or in double quotes).
    pub(super) fn refuse_string_alias(
        &self,
        ident: &sqlparser::ast::Ident,
    ) -> Result<(), TrinoError> {
        if ident.quote_style == Some('\'') {
            return Err(error_at(
                ErrorName::SyntaxError,
                ident_location(ident)
                    .or_else(|| location::string_alias_location(self.tokens, &ident.value)),
                format!("mismatched input '{ident}'"),
            ));
        }
        Ok(())
    }

    pub fn alias(&mut self, prefix: &str) -> String {
        self.next_alias += 1;
        format!("{prefix}{}", self.next_alias)
    }

    /// Records that `column` is used: access control sees it (the read's columns), and a
    /// refusal it carries for the planner is kept for the end of the analysis.
    pub fn use_column(&mut self, column: &scope::Column) {
        if let Some(access) = column.read.and_then(|i| self.reads.get_mut(i))
            && !access.columns.contains(&column.name)
        {
            access.columns.push(column.name.clone());
        }
        if self.planning_refusal.is_none() {
            self.planning_refusal.clone_from(&column.planning_refusal);
        }
    }
}
