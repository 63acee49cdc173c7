//! Regular expression functions (Trino docs functions/regexp), run by the Rust functions in
//! querymesh-functions/src/regexp/sqlite.rs; `regexp_replace` with a lambda folds the matches in SQL.

pub mod sqlite;

use querymesh_values::sqlite_expr::builtin::{GROUP_CONCAT, JSON_EACH, MAX};
use querymesh_values::sqlite_expr::{BinaryOp, FromItem, Select, SqlExpr};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};
use super::lambda::Lambda;
use sqlite::{
    QM_REGEXP_COUNT, QM_REGEXP_EXTRACT, QM_REGEXP_EXTRACT_ALL, QM_REGEXP_LIKE, QM_REGEXP_PIECES,
    QM_REGEXP_POSITION, QM_REGEXP_REPLACE, QM_REGEXP_SPLIT,
};

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "regexp_like",
        &[("varchar(x), varchar(y)", "boolean")],
        Typing::Resolved,
        calls!(QM_REGEXP_LIKE),
        "Evaluates the regular expression pattern and determines if it is contained within string",
    ),
    scalar(
        "regexp_count",
        &[("varchar(x), varchar(y)", "bigint")],
        Typing::Resolved,
        calls!(QM_REGEXP_COUNT),
        "Returns the number of occurrence of pattern in string",
    ),
    scalar(
        "regexp_extract",
        &[
            ("varchar(x), varchar(y)", "varchar(x)"),
            ("varchar(x), varchar(y), bigint", "varchar(x)"),
        ],
        Typing::Resolved,
        Lower::Scalar(extract),
        "String extracted using the given pattern",
    ),
    scalar(
        "regexp_extract_all",
        &[
            ("varchar(x), varchar(y)", "array(varchar(x))"),
            ("varchar(x), varchar(y), bigint", "array(varchar(x))"),
        ],
        Typing::Resolved,
        Lower::Scalar(extract),
        "String(s) extracted using the given pattern",
    ),
    scalar(
        "regexp_position",
        &[
            ("varchar(x), varchar(y)", "integer"),
            ("varchar(x), varchar(y), bigint", "integer"),
            ("varchar(x), varchar(y), bigint, bigint", "integer"),
        ],
        Typing::Resolved,
        Lower::Scalar(position),
        "Returns the index of the matched substring",
    ),
    scalar(
        "regexp_split",
        &[("varchar(x), varchar(y)", "array(varchar(x))")],
        Typing::Resolved,
        Lower::Scalar(split),
        "Returns array of strings split by pattern",
    ),
    scalar(
        "regexp_replace",
        &[
            ("varchar(x), varchar(y)", "varchar(x)"),
            ("varchar(x), varchar(y), varchar(z)", "varchar"),
            (
                "varchar(x), varchar(y), function(array(varchar), varchar(z))",
                "varchar",
            ),
        ],
        Typing::Resolved,
        Lower::Scalar(replace),
        "Replaces substrings matching a regular expression using a replacement or a function",
    ),
];

/// A char(n) argument is read as varchar(n), as Trino coerces it, and a NULL literal as
/// varchar(0) (`regexp_extract(NULL, 'a')` is a varchar(0)).
fn string_type(t: &Typed) -> TrinoType {
    match &t.ty {
        TrinoType::Char(n) => TrinoType::Varchar(Some(*n)),
        TrinoType::Unknown => TrinoType::Varchar(Some(0)),
        other => other.clone(),
    }
}

fn extract(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let (s, pattern, group) = match c.args.as_slice() {
        [s, p] => (s, p, SqlExpr::Integer(0)),
        [s, p, g] => (s, p, g.sql.clone()),
        _ => return Ok(None),
    };
    let ty = string_type(s);
    let args = [s.sql.clone(), pattern.sql.clone(), group];
    Ok(Some(if c.name == "regexp_extract" {
        Typed::new(QM_REGEXP_EXTRACT.call(args), ty)
    } else {
        Typed::new(
            QM_REGEXP_EXTRACT_ALL.call(args),
            TrinoType::Array(Box::new(ty)),
        )
    }))
}

fn position(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if !(2..=4).contains(&c.args.len()) {
        return Ok(None);
    }
    // start and occurrence are 1 when left out.
    let mut args = c.arg_exprs();
    args.resize(4, SqlExpr::Integer(1));
    Ok(Some(Typed::new(
        QM_REGEXP_POSITION.call(args),
        TrinoType::Integer,
    )))
}

fn split(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [s, pattern] = c.args.as_slice() else {
        return Ok(None);
    };
    Ok(Some(Typed::new(
        QM_REGEXP_SPLIT.call([s.sql.clone(), pattern.sql.clone()]),
        TrinoType::Array(Box::new(string_type(s))),
    )))
}

/// regexp_replace(varchar(x), pattern, varchar(y)) is varchar(min(2^31 - 1,
/// x + max(x * y / 2, y) * (x + 1))), unbounded if either is (JoniRegexpFunctions.regexpReplace's
/// constraint): `regexp_replace('aaa', 'a', 'bb')` is a varchar(15).
fn replaced_type(source: &TrinoType, replacement: &TrinoType) -> TrinoType {
    let length = |t: &TrinoType| match t {
        TrinoType::Varchar(n) => n.map(u64::from),
        TrinoType::Char(n) => Some(u64::from(*n)),
        _ => Some(0),
    };
    let bound = length(source)
        .zip(length(replacement))
        .map(|(x, y)| x.saturating_add((x * y / 2).max(y).saturating_mul(x + 1)))
        .filter(|z| *z < u64::from(querymesh_values::types::UNBOUNDED_VARCHAR));
    TrinoType::Varchar(bound.and_then(|z| u32::try_from(z).ok()))
}

/// `k % 2 = parity`: whether piece `k` of `qm_regexp_pieces` is text between matches (0) or
/// a match's groups (1).
fn piece_is(k: SqlExpr, parity: i64) -> SqlExpr {
    SqlExpr::binary(
        SqlExpr::binary(k, BinaryOp::Remainder, SqlExpr::Integer(2)),
        BinaryOp::Equal,
        SqlExpr::Integer(parity),
    )
}

/// regexp_replace(s, pattern, lambda) over non-NULL `s` and `pattern`: the pieces of `s`
/// (`qm_regexp_pieces`: text between matches at even keys, a match's groups at odd ones, in
/// the lambda's relation as `k`, `text` and the parameter `p0`), the texts kept and each
/// match replaced by the lambda's value, joined in order.
fn replaced_pieces(s: &Typed, pattern: &Typed, lambda: &Lambda) -> SqlExpr {
    let key = SqlExpr::column(Some("e"), "key");
    let value = SqlExpr::column(Some("e"), "value");
    let piece =
        |parity| SqlExpr::case_when(vec![(piece_is(key.clone(), parity), value.clone())], None);
    let pieces = Select {
        columns: vec![
            (key.clone(), Some("k".to_string())),
            (piece(0), Some("text".to_string())),
            (piece(1), Some("p0".to_string())),
        ],
        from: vec![FromItem::Function {
            function: JSON_EACH,
            args: vec![QM_REGEXP_PIECES.call([s.sql.clone(), pattern.sql.clone()])],
            alias: Some("e".to_string()),
        }],
        ..Select::default()
    };
    let a = Some(lambda.alias.as_str());
    let k = SqlExpr::column(a, "k");
    let body = lambda.body.sql.clone();
    // One match whose value is NULL makes the whole answer NULL (Trino 476:
    // `regexp_replace('a1b2', '(\d)', x -> CAST(NULL AS varchar))` is NULL).
    let a_match_is_null = MAX.call([SqlExpr::binary(
        piece_is(k.clone(), 1),
        BinaryOp::And,
        SqlExpr::is_null(body.clone()),
    )]);
    let replaced = SqlExpr::iff(piece_is(k.clone(), 0), SqlExpr::column(a, "text"), body);
    let joined = SqlExpr::Aggregate {
        function: GROUP_CONCAT,
        distinct: false,
        args: vec![replaced, SqlExpr::text("")],
        order_by: vec![(k, false).into()],
        filter: None,
    };
    Select::new(
        vec![SqlExpr::iff(a_match_is_null, SqlExpr::Null, joined)],
        vec![FromItem::Subquery {
            select: Box::new(pieces),
            alias: Some(lambda.alias.clone()),
        }],
    )
    .scalar()
}

/// With a lambda: the text between matches is kept, each match becomes the lambda's value
/// for its groups (an array of varchar; NULL for a group that took no part); a NULL value
/// makes the answer NULL (JoniRegexpReplaceLambdaFunction).
fn replace(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match (c.args.as_slice(), c.lambdas.as_slice()) {
        ([s, pattern], []) => Ok(Some(Typed::new(
            QM_REGEXP_REPLACE.call([s.sql.clone(), pattern.sql.clone(), SqlExpr::text("")]),
            string_type(s),
        ))),
        ([s, _, replacement], []) => Ok(Some(Typed::new(
            QM_REGEXP_REPLACE.call(c.arg_exprs()),
            replaced_type(&s.ty, &replacement.ty),
        ))),
        // The lambda must answer a varchar(x): one answering NULL binds no x, and Trino 476
        // finds no regexp_replace for it (FUNCTION_NOT_FOUND).
        ([s, pattern], [lambda]) if matches!(lambda.body.ty, TrinoType::Varchar(_)) => {
            let sql = SqlExpr::iff(
                SqlExpr::binary(
                    SqlExpr::is_null(s.sql.clone()),
                    BinaryOp::Or,
                    SqlExpr::is_null(pattern.sql.clone()),
                ),
                SqlExpr::Null,
                replaced_pieces(s, pattern, lambda),
            );
            Ok(Some(Typed::new(sql, TrinoType::Varchar(None))))
        }
        _ => Ok(None),
    }
}
