//! The analyzer and query blocks: WITH, set operations, VALUES and LIMIT/OFFSET/FETCH (FROM is
//! in `from.rs`, SELECT in `select.rs`) — each resolved against the catalogs, typed, and
//! emitted as SQLite SQL whose output columns are named `"c1"`, `"c2"`, … in order.

use std::any::Any;
use std::collections::HashMap;

use sqlparser::ast::{
    Expr, LimitClause, ObjectName, ObjectNamePart, Offset, Query, SetExpr, SetOperator,
    SetQuantifier, Spanned, Value,
};
use sqlparser::tokenizer::Span;

use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Token, TokenWithSpan};

use super::coerce::super_type;
use super::limits::{SQLITE_COMPOUND_TERMS, StackBudget};
use super::operators::coerced;
use super::scope::{Clause, ExprContext, Scope, positional_outputs};
use crate::querymesh::engine::catalog::Catalogs;
use crate::querymesh::engine::error::{ErrorName, Position, TrinoError};
use crate::querymesh::engine::types::TrinoType;
use crate::querymesh::engine::{SessionContext, TableAccess};

/// An expression typed and translated.
#[derive(Clone, Debug)]
pub struct Typed {
    pub sql: String,
    pub ty: TrinoType,
    pub constant: Option<Constant>,
}

/// Values known while analysing, for folding date and interval arithmetic.
#[derive(Clone, Debug, PartialEq)]
pub enum Constant {
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
            constant: None,
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
pub(super) type SourceColumn = (String, TrinoType, Option<usize>);

pub(super) struct Cte {
    pub(super) sqlite_name: String,
    pub(super) columns: Vec<(String, TrinoType)>,
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
    /// Lambda parameters in scope, innermost last (functions/lambda.rs).
    pub(super) lambda_params: Vec<super::functions::LambdaParam>,
}

/// Where `node` starts in the query text. sqlparser's `span()` unions the spans of all the
/// node's descendants, recursively: an expression or a query starts where its leftmost part
/// does, which is found in a loop down the chains of operators (limits.rs).
pub fn location<T: Spanned + Any>(node: &T) -> Option<Position> {
    let any: &dyn Any = node;
    if let Some(e) = any.downcast_ref::<Expr>() {
        return expr_location(e);
    }
    if let Some(q) = any.downcast_ref::<Query>() {
        return query_location(q);
    }
    if let Some(body) = any.downcast_ref::<SetExpr>() {
        return set_location(body);
    }
    start_of(node.span())
}

fn start_of(span: Span) -> Option<Position> {
    let start = span.start;
    (start.line > 0).then_some(Position::from(start))
}

/// [`location`] of an expression: its first part in the text, found in a loop down the first
/// operand of each operator; the later operands, should that part have no position. A form
/// the analysis refuses anyway, whose start is not known without a recursion, has none.
fn expr_location(e: &Expr) -> Option<Position> {
    let mut later: Vec<&Expr> = Vec::new();
    let mut e = e;
    loop {
        e = match e {
            Expr::BinaryOp { left, right, .. }
            | Expr::IsDistinctFrom(left, right)
            | Expr::IsNotDistinctFrom(left, right)
            | Expr::AnyOp { left, right, .. }
            | Expr::AllOp { left, right, .. }
            | Expr::AtTimeZone {
                timestamp: left,
                time_zone: right,
            }
            | Expr::Position {
                expr: left,
                r#in: right,
            }
            | Expr::Like {
                expr: left,
                pattern: right,
                ..
            }
            | Expr::ILike {
                expr: left,
                pattern: right,
                ..
            }
            | Expr::SimilarTo {
                expr: left,
                pattern: right,
                ..
            } => {
                later.push(right);
                left
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                later.extend([high.as_ref(), low.as_ref()]);
                expr
            }
            Expr::Substring {
                expr,
                substring_from,
                substring_for,
                ..
            } => {
                later.extend(
                    substring_for
                        .iter()
                        .chain(substring_from)
                        .map(|x| x.as_ref()),
                );
                expr
            }
            // TRIM('x' FROM y) starts at its characters, TRIM(y) at y.
            Expr::Trim {
                expr,
                trim_what: Some(what),
                ..
            } => {
                later.push(expr);
                what
            }
            Expr::Trim { expr, .. }
            | Expr::IsNormalized { expr, .. }
            | Expr::Overlay { expr, .. }
            | Expr::Prefixed { value: expr, .. }
            | Expr::IsNull(expr)
            | Expr::IsNotNull(expr)
            | Expr::IsTrue(expr)
            | Expr::IsNotTrue(expr)
            | Expr::IsFalse(expr)
            | Expr::IsNotFalse(expr)
            | Expr::IsUnknown(expr)
            | Expr::IsNotUnknown(expr)
            | Expr::Nested(expr)
            | Expr::UnaryOp { expr, .. }
            | Expr::Cast { expr, .. }
            | Expr::Collate { expr, .. }
            | Expr::Extract { expr, .. }
            | Expr::Ceil { expr, .. }
            | Expr::Floor { expr, .. }
            | Expr::OuterJoin(expr)
            | Expr::Prior(expr)
            | Expr::In { expr, .. }
            | Expr::JsonAccess { value: expr, .. }
            | Expr::CompoundFieldAccess { root: expr, .. } => expr,
            Expr::Interval(i) => &i.value,
            Expr::Tuple(items) | Expr::Array(sqlparser::ast::Array { elem: items, .. }) => {
                match items.split_first() {
                    Some((first, rest)) => {
                        later.extend(rest.iter().rev());
                        first
                    }
                    None => return None,
                }
            }
            Expr::MemberOf(member) => {
                later.push(&member.array);
                &member.value
            }
            Expr::Function(f) => return start_of(f.name.span()),
            Expr::Case { case_token, .. } => return start_of(case_token.0.span),
            Expr::Exists { subquery: q, .. } | Expr::Subquery(q) => return query_location(q),
            Expr::Identifier(_)
            | Expr::CompoundIdentifier(_)
            | Expr::Value(_)
            | Expr::TypedString(_)
            | Expr::Wildcard(_)
            | Expr::QualifiedWildcard(..) => break,
            _ => return None,
        };
    }
    start_of(e.span()).or_else(|| later.into_iter().rev().find_map(expr_location))
}

fn query_location(q: &Query) -> Option<Position> {
    q.with
        .as_ref()
        .and_then(|w| start_of(w.with_token.0.span))
        .or_else(|| set_location(&q.body))
}

/// [`location`] of a query body: down the chain of set operations.
fn set_location(body: &SetExpr) -> Option<Position> {
    let mut body = body;
    loop {
        body = match body {
            SetExpr::SetOperation { left, .. } => left,
            SetExpr::Query(q) => return query_location(q),
            SetExpr::Select(select) => return start_of(select.select_token.0.span),
            SetExpr::Values(values) => {
                return values
                    .rows
                    .first()
                    .and_then(|row| start_of(row.opening_token.0.span));
            }
            _ => return None,
        };
    }
}

pub fn ident_location(ident: &sqlparser::ast::Ident) -> Option<Position> {
    let start = ident.span.start;
    (start.line > 0).then_some(Position::from(start))
}

pub fn error_at(name: ErrorName, at: Option<Position>, text: impl Into<String>) -> TrinoError {
    match at {
        Some(l) => TrinoError::at(name, l, text),
        None => TrinoError::new(name, text),
    }
}

pub fn not_supported(at: Option<Position>, what: &str) -> TrinoError {
    error_at(
        ErrorName::NotSupported,
        at,
        format!("{what} is not supported"),
    )
}

pub fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Where a string written right after an expression or a table starts: the alias sqlparser
/// made of it carries no position of its own.
fn string_alias_location(tokens: &[TokenWithSpan], value: &str) -> Option<Position> {
    tokens.windows(2).find_map(|pair| {
        let after_operand = match &pair[0].token {
            Token::SingleQuotedString(_) | Token::Number(..) | Token::RParen => true,
            Token::Word(w) => w.quote_style.is_some() || w.keyword == Keyword::NoKeyword,
            _ => false,
        };
        match &pair[1].token {
            Token::SingleQuotedString(s) if after_operand && s == value => {
                Some(Position::from(pair[1].span.start))
            }
            _ => None,
        }
    })
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

/// The token right after the last LIMIT, OFFSET, FIRST or NEXT keyword that starts before
/// `at`: the first token of that clause's row count.
fn token_after_clause_keyword(tokens: &[TokenWithSpan], at: Position) -> Option<&TokenWithSpan> {
    let keyword = tokens
        .iter()
        .enumerate()
        .take_while(|(_, t)| Position::from(t.span.start) < at)
        .filter(|(_, t)| match &t.token {
            Token::Word(w) => {
                w.quote_style.is_none()
                    && ["LIMIT", "OFFSET", "FIRST", "NEXT"]
                        .iter()
                        .any(|k| w.value.eq_ignore_ascii_case(k))
            }
            _ => false,
        })
        .map(|(i, _)| i)
        .last()?;
    tokens.get(keyword + 1)
}

/// A literal non-negative integer (LIMIT, OFFSET, FETCH, ordinals).
pub fn literal_count(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => {
                super::literal::integer_literal(n).and_then(|v| u64::try_from(v).ok())
            }
            _ => None,
        },
        _ => None,
    }
}

/// `block` with its columns converted to `columns`' types where their stored forms differ.
fn coerce_block(block: Block, columns: &[(String, TrinoType)]) -> Block {
    let items: Vec<String> = block
        .columns
        .iter()
        .zip(columns)
        .enumerate()
        .map(|(i, ((_, from), (_, to)))| {
            let column = Typed::new(format!("\"c{}\"", i + 1), from.clone());
            format!("{} AS \"c{}\"", coerced(&column, to), i + 1)
        })
        .collect();
    let unchanged = items
        .iter()
        .enumerate()
        .all(|(i, item)| *item == format!("\"c{0}\" AS \"c{0}\"", i + 1));
    if unchanged {
        return block;
    }
    Block {
        sql: format!("SELECT {} FROM ({})", items.join(", "), block.sql),
        columns: block.columns,
        single_row: block.single_row,
    }
}

/// `t1 op t2 op t3 …` (as `columns`' types) as `t1 op (t2 op t3 …)`: SQLite compiles a
/// compound by recursing down to its first term, and the first term holds the operations
/// before (a subquery), so only a compound of two keeps the recursion from adding up along a
/// chain. UNION and INTERSECT are associative, and `a EXCEPT b EXCEPT c` is
/// `a EXCEPT (b UNION c)`.
fn compound_select(operator: &str, terms: Vec<Block>, columns: &[(String, TrinoType)]) -> Block {
    let mut terms: Vec<String> = terms
        .into_iter()
        .map(|t| format!("SELECT * FROM ({})", coerce_block(t, columns).sql))
        .collect();
    let sql = if terms.len() <= 2 {
        terms.join(&format!(" {operator} "))
    } else {
        let first = terms.remove(0);
        let rest = if operator == "EXCEPT" {
            "UNION"
        } else {
            operator
        };
        format!("{first} {operator} {}", compound_tree(rest, terms))
    };
    Block {
        sql,
        columns: columns.to_vec(),
        single_row: false,
    }
}

/// `terms` joined by `operator` as a tree of compounds of at most [`SQLITE_COMPOUND_TERMS`]
/// terms, one subquery per inner compound. The OFFSET keeps SQLite from flattening a
/// UNION ALL subquery back into the compound around it (sqlite3.c flattenSubquery,
/// restriction 14).
fn compound_tree(operator: &str, mut terms: Vec<String>) -> String {
    let separator = format!(" {operator} ");
    while terms.len() > SQLITE_COMPOUND_TERMS {
        terms = terms
            .chunks(SQLITE_COMPOUND_TERMS)
            .map(|chunk| match chunk {
                [one] => one.clone(),
                _ => format!(
                    "SELECT * FROM ({} LIMIT -1 OFFSET 0)",
                    chunk.join(&separator)
                ),
            })
            .collect();
    }
    format!(
        "SELECT * FROM ({} LIMIT -1 OFFSET 0)",
        terms.join(&separator)
    )
}

/// `l INTERSECT ALL r`, `l EXCEPT ALL r`, which SQLite lacks: numbering the copies of each
/// row makes the k-th copy on one side meet the k-th on the other, so the set operation
/// keeps min(m, n) / max(m - n, 0) copies, as Trino.
fn numbered_set_operation(
    op_name: &str,
    l: Block,
    r: Block,
    columns: Vec<(String, TrinoType)>,
) -> Block {
    // Each side's values as the result's types (a date as a timestamp, …), so that equal
    // values compare equal and print as the result type.
    let l = coerce_block(l, &columns);
    let r = coerce_block(r, &columns);
    let outputs: Vec<String> = (1..=columns.len()).map(|i| format!("\"c{i}\"")).collect();
    let list = outputs.join(", ");
    let numbered = |sql: &str| {
        format!(
            "SELECT {list}, row_number() OVER (PARTITION BY {list}) AS \"qm_copy\" FROM ({sql})"
        )
    };
    Block {
        sql: format!(
            "SELECT {list} FROM ({} {op_name} {})",
            numbered(&l.sql),
            numbered(&r.sql)
        ),
        columns,
        single_row: false,
    }
}

/// Trino's `queryPrimary: '(' queryNoWith ')'`: a parenthesized query standing for a set
/// operand, or for the whole statement, cannot start with WITH (sqlparser takes it).
pub(super) fn refuse_parenthesized_with(body: &SetExpr) -> Result<(), TrinoError> {
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
            reads: Vec::new(),
            ctes: Vec::new(),
            loose: Vec::new(),
            aggregates_seen: 0,
            stack: StackBudget::start(),
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
                ident_location(ident).or_else(|| string_alias_location(self.tokens, &ident.value)),
                format!("mismatched input '{ident}'"),
            ));
        }
        Ok(())
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
        self.stack.check()?;
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

    pub(super) fn query_body(
        &mut self,
        q: &Query,
        outer: Option<&Scope<'_>>,
    ) -> Result<Block, TrinoError> {
        if let Some(fetch) = &q.fetch
            && fetch.percent
        {
            return Err(not_supported(None, "FETCH FIRST … PERCENT"));
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
        if q.fetch.as_ref().is_some_and(|f| f.with_ties) {
            return self.with_ties(q, outer);
        }
        let (limit, limit_one) = self.limit_sql(q)?;
        let block = match q.body.as_ref() {
            SetExpr::Select(select) => self.select(select, outer, q.order_by.as_ref(), None)?,
            body => {
                let block = self.set_expr(body, outer)?;
                match &q.order_by {
                    None => block,
                    Some(order_by) => {
                        let outputs = positional_outputs(&block.columns);
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

    /// `… ORDER BY k OFFSET m FETCH FIRST n ROWS WITH TIES` (docs sql/select "LIMIT or
    /// FETCH FIRST clauses"): the n rows after the first m, and every further row whose key
    /// ties with the last of them. Trino requires the ORDER BY (MISSING_ORDER_BY).
    fn with_ties(&mut self, q: &Query, outer: Option<&Scope<'_>>) -> Result<Block, TrinoError> {
        let Some(order_by) = &q.order_by else {
            return Err(error_at(
                ErrorName::MissingOrderBy,
                location(q),
                "FETCH FIRST WITH TIES clause requires ORDER BY",
            ));
        };
        let (count, offset) = self.row_counts(q)?;
        let (count, offset) = (count.unwrap_or(1), offset.unwrap_or(0));
        match q.body.as_ref() {
            SetExpr::Select(select) => {
                self.select(select, outer, Some(order_by), Some((offset, count)))
            }
            _ => Err(not_supported(
                location(q),
                "FETCH FIRST … WITH TIES after a set operation",
            )),
        }
    }

    /// `LIMIT … OFFSET …` for the query, and whether it keeps at most one row.
    pub(super) fn limit_sql(&mut self, q: &Query) -> Result<(Option<String>, bool), TrinoError> {
        let (limit, offset) = self.row_counts(q)?;
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

    /// The query's row count (LIMIT or FETCH) and OFFSET, as written.
    fn row_counts(&mut self, q: &Query) -> Result<(Option<u64>, Option<u64>), TrinoError> {
        // Trino's grammar takes only an integer literal (or `?`) as a row count, so anything
        // else is a syntax error at its first token (`LIMIT -1`, `LIMIT (2)`, `OFFSET x`).
        let tokens = self.tokens;
        let counted = |e: &Expr, expecting: &str| {
            if matches!(e, Expr::Value(v) if matches!(v.value, Value::Placeholder(_))) {
                return Err(not_supported(
                    location(e),
                    "A parameter outside a prepared statement",
                ));
            }
            literal_count(e).ok_or_else(|| {
                // The tree drops a leading `-` or `(`: report the token after the keyword.
                let first = location(e).and_then(|at| token_after_clause_keyword(tokens, at));
                let (at, found) = match first {
                    Some(t) => (Some(Position::from(t.span.start)), t.token.to_string()),
                    None => (location(e), e.to_string()),
                };
                error_at(
                    ErrorName::SyntaxError,
                    at,
                    format!("mismatched input '{found}'. Expecting: {expecting}"),
                )
            })
        };
        let count = |e: &Expr| counted(e, "'?', <integer>");
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
                        limit = Some(counted(l, "'?', 'ALL', <integer>")?);
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
        Ok((limit, offset))
    }

    pub(super) fn set_expr(
        &mut self,
        body: &SetExpr,
        outer: Option<&Scope<'_>>,
    ) -> Result<Block, TrinoError> {
        self.stack.check()?;
        match body {
            SetExpr::Select(select) => self.select(select, outer, None, None),
            SetExpr::Query(q) => self.query(q, outer),
            SetExpr::Values(values) => {
                let scope = Scope::new(Vec::new(), outer);
                let mut rows = Vec::new();
                let mut types: Vec<TrinoType> = Vec::new();
                for row in &values.rows {
                    let cx = ExprContext {
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
                        cells.push(t);
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
                            .zip(&types)
                            .enumerate()
                            .map(|(i, (c, ty))| format!("{} AS \"c{}\"", coerced(c, ty), i + 1))
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
            SetExpr::SetOperation { .. } => self.set_operations(body, outer),
            SetExpr::Table(_) => Err(not_supported(None, "TABLE statement")),
            _ => Err(error_at(
                ErrorName::NotSupported,
                None,
                "Only queries are supported: the QueryMesh stand-in is read-only",
            )),
        }
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
        // The terms of the current run of one operation, coerced when the run ends.
        let mut run: Option<(&'static str, Vec<Block>)> = None;
        for (op, set_quantifier, right) in links.into_iter().rev() {
            let r = self.set_expr(right, outer)?;
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
                SetQuantifier::All => true,
                SetQuantifier::None | SetQuantifier::Distinct => false,
                _ => return Err(not_supported(None, "This set quantifier")),
            };
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
            // SQLite has no INTERSECT ALL / EXCEPT ALL: see `numbered_set_operation`.
            let compound = match (all, op_name) {
                (true, "UNION") => "UNION ALL",
                (false, _) => op_name,
                (true, _) => {
                    if let Some((run_op, terms)) = run.take() {
                        acc = compound_select(run_op, terms, &acc.columns);
                    }
                    acc = numbered_set_operation(op_name, acc, r, columns);
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
                            sql: String::new(),
                            columns: Vec::new(),
                            single_row: false,
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
        Ok(acc)
    }
}
