//! String functions (Trino docs functions/string), typed by StringFunctions' signatures:
//! a char(n) argument is read as varchar(n), and varchar lengths follow Trino's constraints.

pub mod code_points;
pub mod concat_ws;
pub mod concatenation;
pub mod metrics;
pub mod soundex;
pub mod split_to_map;
pub mod sqlite;
pub mod unicode_text;

use querymesh_values::error::{ErrorName, TrinoError, error_at};
use querymesh_values::sqlite_expr::{SqlExpr, builtin};
use querymesh_values::typed::{Constant, Typed};
use querymesh_values::types::{TrinoType, UNBOUNDED_VARCHAR};

use super::array::build::array_concat;
use super::array::sqlite::QM_REVERSE_ARRAY;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, scalar};
use super::{Call, binary, is_integer_or_null, is_string_or_null};
use sqlite::parts::{QM_LPAD, QM_REVERSE, QM_RPAD, QM_SPLIT_PART, QM_STARTS_WITH};
use sqlite::{QM_LOWER, QM_REPLACE, QM_STRPOS, QM_SUBSTR, QM_TRIM, QM_UPPER};

const TEXT: &[(&str, &str)] = &[("varchar(x)", "varchar(x)")];
const TRIM: &[(&str, &str)] = &[
    ("varchar(x)", "varchar(x)"),
    ("varchar(x), varchar(y)", "varchar(x)"),
];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "length",
        &[
            ("varchar(x)", "bigint"),
            ("char(x)", "bigint"),
            ("varbinary", "bigint"),
        ],
        Typing::ByLowering,
        Lower::Scalar(length),
        "Count of code points of the given string",
    ),
    scalar(
        "lower",
        TEXT,
        Typing::ByLowering,
        Lower::Scalar(case_mapped),
        "Converts the string to lower case",
    ),
    scalar(
        "upper",
        TEXT,
        Typing::ByLowering,
        Lower::Scalar(case_mapped),
        "Converts the string to upper case",
    ),
    scalar(
        "trim",
        TRIM,
        Typing::ByLowering,
        Lower::Scalar(trim),
        "Removes whitespace from the beginning and end of a string",
    ),
    scalar(
        "ltrim",
        TRIM,
        Typing::ByLowering,
        Lower::Scalar(trim),
        "Removes whitespace from the beginning of a string",
    ),
    scalar(
        "rtrim",
        TRIM,
        Typing::ByLowering,
        Lower::Scalar(trim),
        "Removes whitespace from the end of a string",
    ),
    scalar(
        "reverse",
        &[
            ("varchar(x)", "varchar(x)"),
            ("varbinary", "varbinary"),
            ("array(E)", "array(E)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(reverse),
        "Reverse all code points in a given string, or the elements of an array",
    ),
    scalar(
        "replace",
        &[
            ("varchar(x), varchar(y)", "varchar(x)"),
            ("varchar(x), varchar(y), varchar(z)", "varchar(u)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(replace),
        "Greedily replaces occurrences of a pattern with a string",
    ),
    scalar(
        "substr",
        SUBSTRING,
        Typing::ByLowering,
        Lower::Scalar(substring),
        "Suffix starting at given index, optionally of a given length",
    ),
    scalar(
        "substring",
        SUBSTRING,
        Typing::ByLowering,
        Lower::Scalar(substring),
        "Suffix starting at given index, optionally of a given length",
    ),
    scalar(
        "strpos",
        &[
            ("varchar, varchar", "bigint"),
            ("varchar, varchar, bigint", "bigint"),
        ],
        Typing::ByLowering,
        Lower::Scalar(strpos),
        "Returns index of first occurrence of a substring (or 0 if not found)",
    ),
    scalar(
        "starts_with",
        &[("varchar(x), varchar(y)", "boolean")],
        Typing::ByLowering,
        Lower::Scalar(starts_with),
        "Determine whether source starts with prefix or not",
    ),
    scalar(
        "split_part",
        &[("varchar(x), varchar(y), bigint", "varchar(x)")],
        Typing::ByLowering,
        Lower::Scalar(split_part),
        "Splits a string by a delimiter and returns the specified field (counting from one)",
    ),
    scalar(
        "lpad",
        PAD,
        Typing::ByLowering,
        Lower::Scalar(pad),
        "Pads a string on the left",
    ),
    scalar(
        "rpad",
        PAD,
        Typing::ByLowering,
        Lower::Scalar(pad),
        "Pads a string on the right",
    ),
    scalar(
        "concat",
        &[
            ("varchar...", "varchar"),
            ("varbinary...", "varbinary"),
            ("array(E)...", "array(E)"),
            ("E, array(E)", "array(E)"),
            ("array(E), E", "array(E)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(concat),
        "Concatenates given strings or arrays",
    ),
];

const SUBSTRING: &[(&str, &str)] = &[
    ("varchar(x), bigint", "varchar(x)"),
    ("varchar(x), bigint, bigint", "varchar(x)"),
    ("varbinary, bigint", "varbinary"),
    ("varbinary, bigint, bigint", "varbinary"),
];

const PAD: &[(&str, &str)] = &[
    ("varchar(x), bigint, varchar(y)", "varchar"),
    ("varbinary, bigint, varbinary", "varbinary"),
];

fn strings(c: &Call) -> bool {
    c.args.iter().all(|a| is_string_or_null(&a.ty))
}

/// A char(n) argument becomes varchar(n) in Trino's string functions, a NULL literal
/// varchar(0) (`lower(NULL)` is a varchar(0)).
fn as_varchar(t: &TrinoType) -> TrinoType {
    match t {
        TrinoType::Char(n) => TrinoType::Varchar(Some(*n)),
        TrinoType::Unknown => TrinoType::Varchar(Some(0)),
        other => other.clone(),
    }
}

fn varchar_length(t: &TrinoType) -> Option<u64> {
    match t {
        TrinoType::Varchar(n) => n.map(u64::from),
        TrinoType::Char(n) => Some(u64::from(*n)),
        _ => Some(0),
    }
}

/// replace(varchar(x), varchar(y), varchar(z)) is varchar(min(2^31 - 1, x + z * (x + 1)))
/// (StringFunctions.replace's constraint).
fn replaced_type(s: &TrinoType, to: &TrinoType) -> TrinoType {
    let bound = varchar_length(s)
        .zip(varchar_length(to))
        .map(|(x, z)| x + z * (x + 1))
        .filter(|u| *u < u64::from(UNBOUNDED_VARCHAR));
    TrinoType::Varchar(bound.map(|u| u as u32))
}

/// SQLite's replace leaves the string alone for an empty search, Trino's inserts the
/// replacement around every code point: the native one only for a non-empty literal search.
fn replace_sql(s: &Typed, from: &Typed, to: SqlExpr) -> SqlExpr {
    let nonempty_literal = from.sql.text_literal().is_some()
        && matches!(from.ty, TrinoType::Varchar(Some(n)) if n > 0);
    let f = if nonempty_literal {
        builtin::REPLACE
    } else {
        QM_REPLACE
    };
    f.call([s.sql.clone(), from.sql.clone(), to])
}

fn length(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if binary::is_binary_call(c) {
        return Ok(binary::length(c));
    }
    Ok(match c.args.as_slice() {
        // StringFunctions.charLength: a char(n) is n long, padding included.
        [a] if matches!(a.ty, TrinoType::Char(_)) => {
            let n = match a.ty {
                TrinoType::Char(n) => n,
                _ => 0,
            };
            Some(Typed::new(
                SqlExpr::null_or(a.sql.clone(), SqlExpr::Integer(i64::from(n))),
                TrinoType::BigInt,
            ))
        }
        [a] if strings(c) => Some(Typed::new(
            builtin::LENGTH.call([a.sql.clone()]),
            TrinoType::BigInt,
        )),
        _ => None,
    })
}

fn case_mapped(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        // SQLite maps ASCII only; Trino every code point (StringFunctions.lower).
        [a] if strings(c) => {
            // lower(char(n)) is a char(n), lower(NULL) a varchar(0).
            let ty = match a.ty {
                TrinoType::Char(_) => a.ty.clone(),
                _ => as_varchar(&a.ty),
            };
            let f = if c.name == "upper" {
                QM_UPPER
            } else {
                QM_LOWER
            };
            Some(Typed::new(f.call([a.sql.clone()]), ty))
        }
        _ => None,
    })
}

fn trim(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] if strings(c) => {
            // Trino trims Java whitespace (tabs, newlines, …), SQLite only spaces.
            let mode = match c.name.as_str() {
                "ltrim" => 1,
                "rtrim" => 2,
                _ => 0,
            };
            Some(Typed::new(
                QM_TRIM.call([a.sql.clone(), SqlExpr::Integer(mode)]),
                as_varchar(&a.ty),
            ))
        }
        // trim(s, chars): SQLite's trim(X, Y) removes exactly the code points in Y.
        [a, chars] if strings(c) => {
            let f = match c.name.as_str() {
                "ltrim" => builtin::LTRIM,
                "rtrim" => builtin::RTRIM,
                _ => builtin::TRIM,
            };
            Some(Typed::new(
                f.call([a.sql.clone(), chars.sql.clone()]),
                as_varchar(&a.ty),
            ))
        }
        _ => None,
    })
}

fn reverse(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if binary::is_binary_call(c) {
        return Ok(binary::reverse(c));
    }
    Ok(match c.args.as_slice() {
        // reverse(NULL) fits varchar, char, varbinary and array alike.
        [a] if a.ty == TrinoType::Unknown => return Err(ambiguous_call(c)),
        [a] if strings(c) => Some(Typed::new(QM_REVERSE.call([a.sql.clone()]), a.ty.clone())),
        // ArrayReverseFunction.
        [a] if matches!(a.ty, TrinoType::Array(_)) => Some(Typed::new(
            QM_REVERSE_ARRAY.call([a.sql.clone()]),
            a.ty.clone(),
        )),
        _ => None,
    })
}

fn replace(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [s, from] if strings(c) => Some(Typed::new(
            replace_sql(s, from, SqlExpr::text("")),
            as_varchar(&s.ty),
        )),
        [s, from, to] if strings(c) => Some(Typed::new(
            replace_sql(s, from, to.sql.clone()),
            replaced_type(&s.ty, &to.ty),
        )),
        _ => None,
    })
}

fn substring(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if binary::is_binary_call(c) {
        return Ok(binary::substr(c));
    }
    Ok(match c.args.as_slice() {
        [s, start, rest @ ..]
            if is_string_or_null(&s.ty)
                && is_integer_or_null(&start.ty)
                && rest.len() <= 1
                && rest.iter().all(|r| is_integer_or_null(&r.ty)) =>
        {
            // SQLite's substr agrees with Trino's for a positive start and length only;
            // 0, negative starts and lengths need StringFunctions.substring's rules.
            // substr(NULL, …) fits varchar and varbinary; substring(NULL, …) only varchar.
            if c.name == "substr" && s.ty == TrinoType::Unknown {
                return Err(ambiguous_call(c));
            }
            let positive = |t: &Typed| matches!(t.constant, Some(Constant::Int(n)) if n > 0);
            let f = if positive(start) && rest.iter().all(positive) {
                builtin::SUBSTR
            } else {
                QM_SUBSTR
            };
            // A char(n) is read with its padding (substr(CAST('ab' AS char(5)), 1, 4) is 'ab  ').
            let source = match s.ty {
                TrinoType::Char(n) => padded_char(s.sql.clone(), n),
                _ => s.sql.clone(),
            };
            let args = std::iter::once(source).chain(c.arg_exprs().into_iter().skip(1));
            Some(Typed::new(f.call(args), as_varchar(&s.ty)))
        }
        _ => None,
    })
}

fn strpos(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [s, sub] if strings(c) => Some(Typed::new(
            builtin::INSTR.call([s.sql.clone(), sub.sql.clone()]),
            TrinoType::BigInt,
        )),
        [s, sub, instance]
            if is_string_or_null(&s.ty)
                && is_string_or_null(&sub.ty)
                && is_integer_or_null(&instance.ty) =>
        {
            Some(Typed::new(QM_STRPOS.call(c.arg_exprs()), TrinoType::BigInt))
        }
        _ => None,
    })
}

fn starts_with(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [_, _] if strings(c) => Some(Typed::new(
            QM_STARTS_WITH.call(c.arg_exprs()),
            TrinoType::Boolean,
        )),
        _ => None,
    })
}

fn split_part(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [s, sep, i]
            if is_string_or_null(&s.ty)
                && is_string_or_null(&sep.ty)
                && is_integer_or_null(&i.ty) =>
        {
            Some(Typed::new(
                QM_SPLIT_PART.call(c.arg_exprs()),
                as_varchar(&s.ty),
            ))
        }
        _ => None,
    })
}

fn pad(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if binary::is_binary_call(c) {
        return Ok(binary::pad(c));
    }
    Ok(match c.args.as_slice() {
        [s, n, pad]
            if is_string_or_null(&s.ty)
                && is_integer_or_null(&n.ty)
                && is_string_or_null(&pad.ty) =>
        {
            let f = if c.name == "lpad" { QM_LPAD } else { QM_RPAD };
            Some(Typed::new(f.call(c.arg_exprs()), TrinoType::Varchar(None)))
        }
        _ => None,
    })
}

fn concat(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    if let Some(arrays) = array_concat(ctx, &c.args, c.at)? {
        return Ok(Some(arrays));
    }
    match c.args.as_slice() {
        // Both concat(varchar...) and concat(varbinary...) take no arguments equally well
        // (Trino 476: `SELECT concat()` is AMBIGUOUS_FUNCTION_CALL naming those two).
        [] => Err(error_at(
            ErrorName::AmbiguousFunctionCall,
            c.at,
            "Could not choose a best candidate operator. Explicit type casts must be added.\n\
             Candidates are:\n\t * ():varchar\n\t * ():varbinary\n",
        )),
        [_] => Err(concat_needs_two(c)),
        _ if binary::is_binary_call(c) => Ok(binary::concat(c)),
        _ => {
            let args: Vec<&Typed> = c.args.iter().collect();
            concatenation::string_concat(&args, c.at)
        }
    }
}

/// A char(n) read with its padding: `qm_rpad(s, n, ' ')`.
pub(crate) fn padded_char(s: SqlExpr, n: u32) -> SqlExpr {
    QM_RPAD.call([s, SqlExpr::Integer(i64::from(n)), SqlExpr::text(" ")])
}

fn ambiguous_call(c: &Call) -> TrinoError {
    error_at(
        ErrorName::AmbiguousFunctionCall,
        c.at,
        "Could not choose a best candidate operator. Explicit type casts must be added.",
    )
}

pub(super) fn concat_needs_two(c: &Call) -> TrinoError {
    error_at(
        ErrorName::InvalidFunctionArgument,
        c.at,
        "There must be two or more concatenation arguments",
    )
}
