//! Where a node starts in the query text, for the position of an error: sqlparser's spans
//! union a node's descendants recursively, so the start is found in loops down the leftmost
//! parts instead (limits.rs).

use std::any::Any;

use sqlparser::ast::{Expr, Query, SetExpr, Spanned};
use sqlparser::keywords::Keyword;
use sqlparser::tokenizer::{Span, Token, TokenWithSpan};

use crate::error::Position;

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
        if let Some((left, right)) = binary_operands(e) {
            later.push(right);
            e = left;
            continue;
        }
        if let Some(operand) = single_operand(e) {
            e = operand;
            continue;
        }
        e = match e {
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

/// The operands of a form of two, the one first in the text first.
fn binary_operands(e: &Expr) -> Option<(&Expr, &Expr)> {
    match e {
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
        } => Some((&**left, &**right)),
        _ => None,
    }
}

/// The operand a form of one starts with (TRIM(y) at y; TRIM('x' FROM y) is not one).
fn single_operand(e: &Expr) -> Option<&Expr> {
    match e {
        Expr::Trim {
            expr,
            trim_what: None,
            ..
        }
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
        | Expr::CompoundFieldAccess { root: expr, .. } => Some(&**expr),
        Expr::Interval(i) => Some(&*i.value),
        _ => None,
    }
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

/// Where a string written right after an expression or a table starts: the alias sqlparser
/// made of it carries no position of its own.
pub(super) fn string_alias_location(tokens: &[TokenWithSpan], value: &str) -> Option<Position> {
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

/// Where Trino places a binary operator's node (its errors): at the operator, which is the
/// token before `right` starts (`right_at`), past the parentheses, signs and quantifier that
/// open it.
/// `None` when the tokens do not show it (the caller keeps its own position).
pub fn operator_before(
    tokens: &[TokenWithSpan],
    right_at: Option<Position>,
    op: &sqlparser::ast::BinaryOperator,
) -> Option<Position> {
    use sqlparser::ast::BinaryOperator as B;
    let expected = |token: &Token| match (op, token) {
        (B::Eq, Token::Eq)
        | (B::NotEq, Token::Neq)
        | (B::Lt, Token::Lt)
        | (B::LtEq, Token::LtEq)
        | (B::Gt, Token::Gt)
        | (B::GtEq, Token::GtEq)
        | (B::Plus, Token::Plus)
        | (B::Minus, Token::Minus)
        | (B::Multiply, Token::Mul)
        | (B::Divide, Token::Div)
        | (B::Modulo, Token::Mod)
        | (B::StringConcat, Token::StringConcat) => true,
        (B::And, Token::Word(w)) => w.keyword == Keyword::AND,
        (B::Or, Token::Word(w)) => w.keyword == Keyword::OR,
        _ => false,
    };
    // Also past a quantifier (`= ANY (subquery)`) and a typed literal's type (`+ DATE '…'`,
    // whose node sqlparser places at its string).
    let opening = |token: &Token| {
        matches!(token, Token::LParen | Token::Minus | Token::Plus)
            || is_type_word(token)
            || matches!(token, Token::Word(w)
                if matches!(w.keyword, Keyword::ANY | Keyword::SOME | Keyword::ALL))
    };
    keyword_before(tokens, right_at?, expected, opening)
}

/// Where a predicate's node is, for Trino (`NOT? BETWEEN`, `IS NOT? DISTINCT FROM`): the first
/// of its keywords, the first token after its `operand` (past the parentheses closing it).
pub fn predicate_keyword_after(
    tokens: &[TokenWithSpan],
    operand: &Expr,
    keyword: Keyword,
) -> Option<Position> {
    let end = operand.span().end;
    if end.line == 0 {
        return None;
    }
    let end = Position::from(end);
    let found = tokens
        .iter()
        .skip_while(|t| Position::from(t.span.start) < end)
        .find(|t| t.token != Token::RParen)?;
    match &found.token {
        Token::Word(w) if w.keyword == keyword => Some(Position::from(found.span.start)),
        // `NOT BETWEEN` starts at NOT.
        Token::Word(w) if w.keyword == Keyword::NOT && keyword == Keyword::BETWEEN => {
            Some(Position::from(found.span.start))
        }
        _ => None,
    }
}

/// The words a typed literal's type is spelled with (`TIMESTAMP WITH TIME ZONE '…'`).
fn is_type_word(token: &Token) -> bool {
    const TYPE_WORDS: [&str; 22] = [
        "DATE",
        "TIME",
        "TIMESTAMP",
        "WITH",
        "WITHOUT",
        "ZONE",
        "DECIMAL",
        "NUMERIC",
        "REAL",
        "DOUBLE",
        "PRECISION",
        "CHAR",
        "VARCHAR",
        "JSON",
        "UUID",
        "VARBINARY",
        "INTEGER",
        "BIGINT",
        "SMALLINT",
        "TINYINT",
        "BOOLEAN",
        "IPADDRESS",
    ];
    matches!(token, Token::Word(w) if w.quote_style.is_none()
        && TYPE_WORDS.iter().any(|k| w.value.eq_ignore_ascii_case(k)))
}

/// Where a typed literal's node is, for Trino: its type's first word, before where
/// sqlparser places it (its string, at `string_at`).
pub fn typed_literal_start(
    tokens: &[TokenWithSpan],
    string_at: Option<Position>,
) -> Option<Position> {
    let string_at = string_at?;
    let start = tokens
        .iter()
        .position(|t| Position::from(t.span.start) >= string_at)?;
    tokens[..start]
        .iter()
        .rev()
        .take_while(|t| is_type_word(&t.token))
        .last()
        .map(|t| Position::from(t.span.start))
}

/// Where a sign's node is: the `-` or `+` before where its operand starts (`operand_at`).
pub fn sign_before(tokens: &[TokenWithSpan], operand_at: Option<Position>) -> Option<Position> {
    keyword_before(
        tokens,
        operand_at?,
        |t| matches!(t, Token::Minus | Token::Plus),
        |t| matches!(t, Token::LParen),
    )
}

/// Where a cast's node is: the CAST or TRY_CAST before where its operand starts.
pub fn cast_before(tokens: &[TokenWithSpan], operand_at: Option<Position>) -> Option<Position> {
    keyword_before(
        tokens,
        operand_at?,
        |t| {
            matches!(t, Token::Word(w) if w.quote_style.is_none()
            && (w.value.eq_ignore_ascii_case("CAST") || w.value.eq_ignore_ascii_case("TRY_CAST")))
        },
        |t| matches!(t, Token::LParen),
    )
}

/// Where a NOT's node is: the NOT before where its operand starts (`operand_at`).
pub fn not_before(tokens: &[TokenWithSpan], operand_at: Option<Position>) -> Option<Position> {
    keyword_before(
        tokens,
        operand_at?,
        |t| matches!(t, Token::Word(w) if w.keyword == Keyword::NOT),
        |t| matches!(t, Token::LParen),
    )
}

/// The nearest token before the one at `at` that `wanted` accepts, passing only tokens `skip`
/// accepts.
fn keyword_before(
    tokens: &[TokenWithSpan],
    at: Position,
    wanted: impl Fn(&Token) -> bool,
    skip: impl Fn(&Token) -> bool,
) -> Option<Position> {
    let start = tokens
        .iter()
        .position(|t| Position::from(t.span.start) >= at)?;
    tokens[..start]
        .iter()
        .rev()
        .take_while(|t| wanted(&t.token) || skip(&t.token))
        .find(|t| wanted(&t.token))
        .map(|t| Position::from(t.span.start))
}
