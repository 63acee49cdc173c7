//! Query bodies: a SELECT, a parenthesized query, VALUES, and chains of set operations
//! (UNION, INTERSECT, EXCEPT, with ALL), emitted as SQLite compounds within its limits and with
//! the ALL forms SQLite lacks built from numbered rows.

use querymesh_values::coerce::{coerced, super_type};
use querymesh_values::element::from_element;
use querymesh_values::sqlite_expr::{
    CompoundOp, FromItem, Query as SqlQuery, Select as SqlSelect, SqlExpr, Window, builtin,
};
use querymesh_values::typed::Typed;
use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, SetExpr, SetOperator, SetQuantifier,
    Values,
};

use super::{Analyzer, Block, location};
use crate::error::{ErrorName, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::{Clause, ExprContext, Scope};
use crate::sql::analyze::select::{output_column, output_columns, output_name};
use crate::sql::limits::SQLITE_COMPOUND_TERMS;
use crate::types::TrinoType;

/// `block` with its columns converted to `columns`' types where their stored forms differ.
fn coerce_block(block: Block, columns: &[(String, TrinoType)]) -> Block {
    let items: Vec<SqlExpr> = block
        .columns
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, ((_, from), (_, to)))| {
            coerced(&Typed::new(output_column(i + 1), from.clone()), to)
        })
        .collect();
    let unchanged = items
        .iter()
        .enumerate()
        .all(|(i, item)| item.to_string() == output_column(i + 1).to_string());
    if unchanged {
        return block;
    }
    let select = SqlSelect {
        columns: items
            .into_iter()
            .enumerate()
            .map(|(i, item)| (item, Some(output_name(i + 1))))
            .collect(),
        ..SqlSelect::star(FromItem::query(block.sql, None))
    };
    Block {
        sql: select.into(),
        columns: block.columns,
        single_row: block.single_row,
        origins: block.origins,
    }
}

/// `block` as a term of a compound: SQLite's terms are plain SELECTs.
fn term(block: Block, columns: &[(String, TrinoType)]) -> SqlSelect {
    SqlSelect::star(FromItem::query(coerce_block(block, columns).sql, None))
}

/// `t1 op t2 op t3 …` (as `columns`' types) as `t1 op (t2 op t3 …)`: SQLite compiles a
/// compound by recursing down to its first term, and the first term holds the operations
/// before (a subquery), so only a compound of two keeps the recursion from adding up along a
/// chain. UNION and INTERSECT are associative, and `a EXCEPT b EXCEPT c` is
/// `a EXCEPT (b UNION c)`.
fn compound_select(op: CompoundOp, terms: Vec<Block>, columns: &[(String, TrinoType)]) -> Block {
    let mut terms: Vec<SqlSelect> = terms.into_iter().map(|t| term(t, columns)).collect();
    let sql = if terms.len() <= 2 {
        plain_compound(op, terms)
    } else {
        let first = terms.remove(0);
        let rest = if op == CompoundOp::Except {
            CompoundOp::Union
        } else {
            op
        };
        plain_compound(op, vec![first, compound_tree(rest, terms)])
    };
    Block {
        sql,
        columns: columns.to_vec(),
        single_row: false,
        origins: Vec::new(),
    }
}

/// `terms` joined by `op`.
fn plain_compound(op: CompoundOp, terms: Vec<SqlSelect>) -> SqlQuery {
    SqlQuery::Compound {
        op,
        terms,
        limit: None,
        offset: None,
    }
}

/// `terms` joined by `op` as a tree of compounds of at most [`SQLITE_COMPOUND_TERMS`]
/// terms, one subquery per inner compound. The OFFSET keeps SQLite from flattening a
/// UNION ALL subquery back into the compound around it (sqlite3.c flattenSubquery,
/// restriction 14).
fn compound_tree(op: CompoundOp, mut terms: Vec<SqlSelect>) -> SqlSelect {
    let unflattened = |terms: Vec<SqlSelect>| {
        let compound = SqlQuery::Compound {
            op,
            terms,
            limit: Some(SqlExpr::Integer(-1)),
            offset: Some(SqlExpr::Integer(0)),
        };
        SqlSelect::star(FromItem::query(compound, None))
    };
    while terms.len() > SQLITE_COMPOUND_TERMS {
        let mut chunks = Vec::new();
        let mut rest = terms.into_iter().peekable();
        while rest.peek().is_some() {
            let chunk: Vec<SqlSelect> = rest.by_ref().take(SQLITE_COMPOUND_TERMS).collect();
            chunks.push(match <[SqlSelect; 1]>::try_from(chunk) {
                Ok([one]) => one,
                Err(chunk) => unflattened(chunk),
            });
        }
        terms = chunks;
    }
    unflattened(terms)
}

/// `l INTERSECT ALL r`, `l EXCEPT ALL r`, which SQLite lacks: numbering the copies of each
/// row makes the k-th copy on one side meet the k-th on the other, so the set operation
/// keeps min(m, n) / max(m - n, 0) copies, as Trino.
fn numbered_set_operation(
    op: CompoundOp,
    l: Block,
    r: Block,
    columns: Vec<(String, TrinoType)>,
) -> Block {
    // Each side's values as the result's types (a date as a timestamp, …), so that equal
    // values compare equal and print as the result type.
    let l = coerce_block(l, &columns);
    let r = coerce_block(r, &columns);
    let outputs = output_columns(columns.len());
    let copy = SqlExpr::over(
        builtin::ROW_NUMBER.call([]),
        Window {
            partition_by: outputs.clone(),
            ..Window::default()
        },
    );
    let numbered = |sql: SqlQuery| {
        let mut select = SqlSelect::new(outputs.clone(), vec![FromItem::query(sql, None)]);
        select.columns.push((copy.clone(), Some(COPY.to_string())));
        select
    };
    let pairs = plain_compound(op, vec![numbered(l.sql), numbered(r.sql)]);
    Block {
        sql: SqlSelect::new(outputs.clone(), vec![FromItem::query(pairs, None)]).into(),
        columns,
        single_row: false,
        origins: Vec::new(),
    }
}

/// The alias of a row's copy number (`numbered_set_operation`).
const COPY: &str = "qm_copy";

/// Trino's `queryPrimary: '(' queryNoWith ')'`: a parenthesized query standing for a set
/// operand, or for the whole statement, cannot start with WITH (sqlparser takes it).
pub(in crate::sql) fn refuse_parenthesized_with(body: &SetExpr) -> Result<(), TrinoError> {
    match body {
        SetExpr::Query(q) => match &q.with {
            Some(with) => Err(error_at(
                ErrorName::SyntaxError,
                location(with),
                "mismatched input 'WITH'. Expecting: '(', 'SELECT', 'TABLE', 'VALUES'",
            )),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// The operator of a set operation by name, and whether it is ALL.
fn set_operator(
    op: &SetOperator,
    set_quantifier: &SetQuantifier,
    right: &SetExpr,
) -> Result<(&'static str, bool), TrinoError> {
    let op_name = match op {
        SetOperator::Union => "UNION",
        SetOperator::Intersect => "INTERSECT",
        SetOperator::Except => "EXCEPT",
        SetOperator::Minus => {
            return Err(error_at(
                ErrorName::SyntaxError,
                location(right),
                "mismatched input 'MINUS'",
            ));
        }
    };
    let all = match set_quantifier {
        SetQuantifier::All | SetQuantifier::AllByName => true,
        SetQuantifier::None
        | SetQuantifier::Distinct
        | SetQuantifier::ByName
        | SetQuantifier::DistinctByName => false,
    };
    Ok((op_name, all))
}

/// `left op CORRESPONDING right` (Trino 476): the left side's columns the right side also
/// names (case-insensitively), in the left side's order, and the right side's in that order;
/// Trino's refusals of a side naming a column twice and of sides sharing none.
fn corresponding(
    left: Block,
    right: Block,
    at: Option<crate::error::Position>,
) -> Result<(Block, Block), TrinoError> {
    let names =
        |b: &Block| -> Vec<String> { b.columns.iter().map(|(n, _)| n.to_lowercase()).collect() };
    let (left_names, right_names) = (names(&left), names(&right));
    for list in [&left_names, &right_names] {
        if let Some(twice) = list
            .iter()
            .enumerate()
            .find(|(i, n)| list[..*i].contains(n))
        {
            return Err(error_at(
                ErrorName::AmbiguousName,
                at,
                format!(
                    "Duplicate columns found when using CORRESPONDING in set operations: {}",
                    twice.1
                ),
            ));
        }
    }
    let picked: Vec<(usize, usize)> = left_names
        .iter()
        .enumerate()
        .filter_map(|(i, n)| right_names.iter().position(|m| m == n).map(|j| (i, j)))
        .collect();
    if picked.is_empty() {
        return Err(error_at(
            ErrorName::MismatchedColumnAliases,
            at,
            "No corresponding columns",
        ));
    }
    let left = projected(left, picked.iter().map(|(i, _)| *i));
    let right = projected(right, picked.iter().map(|(_, j)| *j));
    Ok((left, right))
}

/// `block`'s columns `indexes`, in that order (the block itself when that is all of them).
fn projected(block: Block, indexes: impl Iterator<Item = usize>) -> Block {
    let indexes: Vec<usize> = indexes.collect();
    if indexes.iter().copied().eq(0..block.columns.len()) {
        return block;
    }
    let select = SqlSelect {
        columns: indexes
            .iter()
            .enumerate()
            .map(|(k, &i)| (output_column(i + 1), Some(output_name(k + 1))))
            .collect(),
        ..SqlSelect::star(FromItem::query(block.sql, None))
    };
    Block {
        sql: select.into(),
        columns: indexes.iter().map(|&i| block.columns[i].clone()).collect(),
        single_row: block.single_row,
        origins: indexes
            .iter()
            .filter_map(|&i| block.origins.get(i).cloned())
            .collect(),
    }
}

/// The compound operator of a set operation's name.
fn compound_op(op_name: &str) -> CompoundOp {
    match op_name {
        "INTERSECT" => CompoundOp::Intersect,
        "EXCEPT" => CompoundOp::Except,
        _ => CompoundOp::Union,
    }
}

/// The result columns of `acc op_name r`: the left side's names, both sides' super types.
fn set_columns(
    op_name: &str,
    acc: &Block,
    r: &Block,
) -> Result<Vec<(String, TrinoType)>, TrinoError> {
    if acc.columns.len() != r.columns.len() {
        return Err(error_at(
            ErrorName::TypeMismatch,
            None,
            format!(
                "{op_name} query has different number of fields: {}, {}",
                acc.columns.len(),
                r.columns.len()
            ),
        ));
    }
    let mut columns = Vec::new();
    for (i, ((name, lt), (_, rt))) in acc.columns.iter().zip(&r.columns).enumerate() {
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
    Ok(columns)
}

/// A VALUES row's cells: a row written as one ROW constructor, `VALUES ROW(1, 'a')`, is
/// the row of its fields, as Trino's StatementAnalyzer.visitValues reads a Row expression.
fn row_cells(content: &[Expr]) -> Vec<&Expr> {
    if let [Expr::Function(f)] = content
        && f.name.to_string().eq_ignore_ascii_case("row")
        && let FunctionArguments::List(list) = &f.args
        && list.clauses.is_empty()
        && list.duplicate_treatment.is_none()
    {
        let fields: Vec<&Expr> = list
            .args
            .iter()
            .filter_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect();
        if fields.len() == list.args.len() {
            return fields;
        }
    }
    content.iter().collect()
}

impl Analyzer<'_> {
    pub(super) fn set_expr(
        &mut self,
        body: &SetExpr,
        outer: Option<&Scope<'_>>,
    ) -> Result<Block, TrinoError> {
        self.stack.check()?;
        match body {
            SetExpr::Select(select) => self.select(select, outer, None, None),
            SetExpr::Query(q) => self.query(q, outer),
            SetExpr::Values(values) => self.values(values, outer),
            SetExpr::SetOperation { .. } => self.set_operations(body, outer),
            SetExpr::Table(_) => Err(not_supported(None, "TABLE statement")),
            _ => Err(error_at(
                ErrorName::NotSupported,
                None,
                "Only queries are supported: the QueryMesh stand-in is read-only",
            )),
        }
    }

    /// The columns' types of VALUES rows of `row_types`: the rows' common super type, or
    /// Trino's refusal at the VALUES keyword naming the first row's type and the one that
    /// differs (each row a row type: `row(integer)` for `VALUES 1`).
    fn values_types(
        &self,
        values: &Values,
        row_types: &[Vec<(Option<String>, TrinoType)>],
    ) -> Result<Vec<TrinoType>, TrinoError> {
        let at = || {
            use sqlparser::ast::Spanned;
            let first = values.rows.first()?.content.first()?;
            self.keyword_before("VALUES", &first.span())
        };
        let Some(first) = row_types.first() else {
            return Ok(Vec::new());
        };
        let mut types: Vec<TrinoType> = first.iter().map(|(_, ty)| ty.clone()).collect();
        for row in row_types {
            if row.len() != first.len() {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    at(),
                    format!(
                        "Values rows have mismatched sizes: {} vs {}",
                        first.len(),
                        row.len()
                    ),
                ));
            }
            let merged: Option<Vec<TrinoType>> = types
                .iter()
                .zip(row)
                .map(|(common, (_, ty))| super_type(common, ty))
                .collect();
            types = merged.ok_or_else(|| {
                let shown = |fields: &[(Option<String>, TrinoType)]| {
                    TrinoType::Row(fields.to_vec()).display_name()
                };
                error_at(
                    ErrorName::TypeMismatch,
                    at(),
                    format!(
                        "Values rows have mismatched types: {} vs {}",
                        shown(first),
                        shown(row)
                    ),
                )
            })?;
        }
        Ok(types)
    }

    /// VALUES: each row's cells typed, the columns' types the rows' super types.
    fn values(&mut self, values: &Values, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        let scope = Scope::new(Vec::new(), outer);
        // Every row is analysed first, as Trino's StatementAnalyzer.visitValues does: an error
        // inside a row comes before any mismatch between rows.
        let mut rows: Vec<Vec<Typed>> = Vec::new();
        let mut row_types: Vec<Vec<(Option<String>, TrinoType)>> = Vec::new();
        for row in &values.rows {
            let cx = ExprContext {
                scope: &scope,
                clause: Clause::Values,
                in_aggregate: false,
                group_keys: None,
            };
            let written = row_cells(&row.content);
            let mut typed = Vec::with_capacity(written.len());
            for e in &written {
                typed.push(self.expr(e, &cx)?);
            }
            // A row of one row-typed value is that value's fields (Trino 476: `VALUES
            // CAST(ROW(1, 'p') AS row(a integer, b varchar))` has two columns), as a ROW
            // constructor's is.
            let row_valued = match typed.as_slice() {
                [value] if let TrinoType::Row(fields) = &value.ty => {
                    Some((value.clone(), fields.clone()))
                }
                _ => None,
            };
            let fields = match row_valued {
                Some((value, fields)) => {
                    typed = fields
                        .iter()
                        .enumerate()
                        .map(|(i, (_, ty))| {
                            let field = builtin::JSON_EXTRACT
                                .call([value.sql.clone(), SqlExpr::text(format!("$[{i}]"))]);
                            Typed::new(from_element(field, ty), ty.clone())
                        })
                        .collect();
                    fields
                }
                None => typed.iter().map(|t| (None, t.ty.clone())).collect(),
            };
            rows.push(typed);
            row_types.push(fields);
        }
        let types = self.values_types(values, &row_types)?;
        let single_row = rows.len() <= 1;
        let mut selects: Vec<SqlSelect> = rows
            .iter()
            .map(|cells| SqlSelect {
                columns: cells
                    .iter()
                    .zip(&types)
                    .enumerate()
                    .map(|(i, (c, ty))| (coerced(c, ty), Some(output_name(i + 1))))
                    .collect(),
                ..SqlSelect::default()
            })
            .collect();
        let sql = match selects.len() {
            1 => selects.remove(0).into(),
            _ => plain_compound(CompoundOp::UnionAll, selects),
        };
        Ok(Block {
            sql,
            single_row,
            origins: Vec::new(),
            columns: types
                .into_iter()
                .map(|t| (super::UNNAMED.to_string(), t))
                .collect(),
        })
    }

    /// A chain of set operations, `a UNION b EXCEPT c …`, which sqlparser nests to the left as
    /// deep as the chain is long: analysed in a loop (limits.rs), each operation as if on
    /// its own. A run of one operation is emitted as one compound SELECT of at most
    /// [`SQLITE_COMPOUND_TERMS`] terms (the first of each further one holding the ones
    /// before): SQLite takes terms left to right, as Trino does one operation.
    fn set_operations(
        &mut self,
        body: &SetExpr,
        outer: Option<&Scope<'_>>,
    ) -> Result<Block, TrinoError> {
        let mut links = Vec::new();
        let mut first = body;
        while let SetExpr::SetOperation {
            left,
            op,
            set_quantifier,
            right,
        } = first
        {
            links.push((op, set_quantifier, right.as_ref()));
            first = left;
        }
        // sqlparser takes a parenthesized WITH anywhere; Trino's grammar nowhere here.
        for (_, _, right) in &links {
            refuse_parenthesized_with(right)?;
        }
        refuse_parenthesized_with(first)?;
        let mut acc = self.set_expr(first, outer)?;
        // Trino's set operation keeps its first term's fields, origins included.
        let first_origins = std::mem::take(&mut acc.origins);
        // The terms of the current run of one operation, coerced when the run ends.
        let mut run: Option<(CompoundOp, Vec<Block>)> = None;
        for (op, set_quantifier, right) in links.into_iter().rev() {
            let mut r = self.set_expr(right, outer)?;
            let (op_name, all) = set_operator(op, set_quantifier, right)?;
            if matches!(
                set_quantifier,
                SetQuantifier::ByName | SetQuantifier::AllByName | SetQuantifier::DistinctByName
            ) {
                // CORRESPONDING: both sides cut to the columns they share, by name.
                if let Some((run_op, terms)) = run.take() {
                    acc = compound_select(run_op, terms, &acc.columns);
                }
                let at = self.keyword_before(op_name, &sqlparser::ast::Spanned::span(right));
                (acc, r) = corresponding(acc, r, at)?;
            }
            let columns = set_columns(op_name, &acc, &r)?;
            // SQLite has no INTERSECT ALL / EXCEPT ALL: see `numbered_set_operation`.
            let compound = match (all, compound_op(op_name)) {
                (true, CompoundOp::Union) => CompoundOp::UnionAll,
                (false, op) => op,
                (true, op) => {
                    if let Some((run_op, terms)) = run.take() {
                        acc = compound_select(run_op, terms, &acc.columns);
                    }
                    acc = numbered_set_operation(op, acc, r, columns);
                    continue;
                }
            };
            match &mut run {
                Some((run_op, terms)) if *run_op == compound => terms.push(r),
                _ => {
                    if let Some((run_op, terms)) = run.take() {
                        acc = compound_select(run_op, terms, &acc.columns);
                    }
                    let left = std::mem::replace(
                        &mut acc,
                        Block {
                            sql: SqlSelect::default().into(),
                            columns: Vec::new(),
                            single_row: false,
                            origins: Vec::new(),
                        },
                    );
                    run = Some((compound, vec![left, r]));
                }
            }
            // The run's result so far: its types, its SQL once the run ends.
            acc.columns = columns;
        }
        if let Some((run_op, terms)) = run {
            acc = compound_select(run_op, terms, &acc.columns);
        }
        acc.origins = first_origins;
        Ok(acc)
    }
}
