//! Mathematical functions (Trino docs functions/math), typed by MathFunctions' signatures.

pub mod buckets;
pub mod distributions;
pub mod sqlite;
pub mod statistics;
pub mod vectors;

use querymesh_values::decimal;
use querymesh_values::error::{Position, TrinoError};
use querymesh_values::sqlite_expr::{BinaryOp, SqlExpr, builtin};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, calls, scalar};
use super::udf::decimals::{QM_DEC_ABS, QM_DEC_INTEGRAL, QM_DEC_ROUND, QM_DEC_SIGN};
use super::udf::numbers::{
    QM_CEIL, QM_EXP, QM_FLOOR, QM_IABS, QM_LN, QM_LOG10, QM_POWER, QM_ROUND_DOUBLE,
    QM_ROUND_INTEGER, QM_SQRT, QM_TRUNCATE,
};
use super::{Call, is_integer_or_null, is_numeric_or_null, unexpected};
use buckets::{QM_WIDTH_BUCKET, QM_WIDTH_BUCKET_BINS};
use sqlite::{
    QM_ACOS, QM_ASIN, QM_ATAN, QM_ATAN2, QM_CBRT, QM_COS, QM_COSH, QM_DEC_TRUNCATE, QM_DEGREES,
    QM_FABS, QM_FROM_BASE, QM_IS_FINITE, QM_IS_INFINITE, QM_IS_NAN, QM_LOG, QM_LOG2, QM_NAN,
    QM_RADIANS, QM_RANDOM, QM_RANDOM_BELOW, QM_RANDOM_BETWEEN, QM_SIGNUM, QM_SIN, QM_SINH, QM_TAN,
    QM_TANH, QM_TO_BASE,
};

const NUMBER: &[(&str, &str)] = &[
    ("tinyint", "tinyint"),
    ("smallint", "smallint"),
    ("integer", "integer"),
    ("bigint", "bigint"),
    ("real", "real"),
    ("double", "double"),
    ("decimal(p,s)", "decimal(p,s)"),
];
const ROUNDED: &[(&str, &str)] = &[
    ("tinyint", "tinyint"),
    ("smallint", "smallint"),
    ("integer", "integer"),
    ("bigint", "bigint"),
    ("real", "real"),
    ("double", "double"),
    ("decimal(p,s)", "decimal(rp,0)"),
];
const TO_DOUBLE: &[(&str, &str)] = &[("double", "double")];

/// A function of one double to a double (MathFunctions: Java's Math of the double).
const fn double(name: &'static str, lower: Lower, description: &'static str) -> FunctionDef {
    scalar(name, TO_DOUBLE, Typing::Resolved, lower, description)
}

/// A test of a double.
const fn test(name: &'static str, lower: Lower, description: &'static str) -> FunctionDef {
    scalar(
        name,
        &[("double", "boolean")],
        Typing::Resolved,
        lower,
        description,
    )
}

/// random() and its alias rand(): a double in [0, 1), or an integer of the bound's type in
/// [0, n) or [m, n) (MathFunctions.random*).
const fn random(name: &'static str) -> FunctionDef {
    FunctionDef {
        name,
        kind: Kind::Scalar,
        signatures: &[
            ("", "double"),
            ("tinyint", "tinyint"),
            ("smallint", "smallint"),
            ("integer", "integer"),
            ("bigint", "bigint"),
            ("tinyint, tinyint", "tinyint"),
            ("smallint, smallint", "smallint"),
            ("integer, integer", "integer"),
            ("bigint, bigint", "bigint"),
        ],
        typing: Typing::Resolved,
        lower: Lower::Scalar(lower_random),
        description: "A pseudo-random value",
        deterministic: false,
    }
}

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "abs",
        NUMBER,
        Typing::ByLowering,
        Lower::Scalar(abs),
        "Absolute value",
    ),
    scalar(
        "round",
        &[
            ("tinyint", "tinyint"),
            ("smallint", "smallint"),
            ("integer", "integer"),
            ("bigint", "bigint"),
            ("real", "real"),
            ("double", "double"),
            ("decimal(p,s)", "decimal(rp,0)"),
            ("bigint, integer", "bigint"),
            ("double, integer", "double"),
            ("decimal(p,s), integer", "decimal(rp,s)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(round),
        "Round to nearest integer, or to n decimal places",
    ),
    scalar(
        "ceil",
        ROUNDED,
        Typing::ByLowering,
        Lower::Scalar(rounded),
        "Round up to nearest integer",
    ),
    scalar(
        "ceiling",
        ROUNDED,
        Typing::ByLowering,
        Lower::Scalar(rounded),
        "Round up to nearest integer",
    ),
    scalar(
        "floor",
        ROUNDED,
        Typing::ByLowering,
        Lower::Scalar(rounded),
        "Round down to nearest integer",
    ),
    scalar(
        "truncate",
        &[
            ("tinyint", "tinyint"),
            ("smallint", "smallint"),
            ("integer", "integer"),
            ("bigint", "bigint"),
            ("real", "real"),
            ("double", "double"),
            ("decimal(p,s)", "decimal(rp,0)"),
            ("decimal(p,s), integer", "decimal(p,s)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(truncate),
        "Round toward zero to integer, or to n decimal places",
    ),
    scalar(
        "sqrt",
        TO_DOUBLE,
        Typing::ByLowering,
        Lower::Scalar(to_double),
        "Square root",
    ),
    scalar(
        "ln",
        TO_DOUBLE,
        Typing::ByLowering,
        Lower::Scalar(to_double),
        "Natural logarithm",
    ),
    scalar(
        "log10",
        TO_DOUBLE,
        Typing::ByLowering,
        Lower::Scalar(to_double),
        "Logarithm to base 10",
    ),
    scalar(
        "exp",
        TO_DOUBLE,
        Typing::ByLowering,
        Lower::Scalar(to_double),
        "Euler's number raised to the given power",
    ),
    scalar(
        "power",
        &[("double, double", "double")],
        Typing::ByLowering,
        Lower::Scalar(power),
        "Value raised to the power of exponent",
    ),
    scalar(
        "pow",
        &[("double, double", "double")],
        Typing::ByLowering,
        Lower::Scalar(power),
        "Value raised to the power of exponent",
    ),
    scalar(
        "mod",
        &[
            ("tinyint, tinyint", "tinyint"),
            ("smallint, smallint", "smallint"),
            ("integer, integer", "integer"),
            ("bigint, bigint", "bigint"),
            ("real, real", "real"),
            ("double, double", "double"),
            ("decimal(p,s), decimal(p,s)", "decimal(p,s)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(modulus),
        "Remainder of given quotient",
    ),
    // 9e999 is SQLite's literal for +infinity (a double too large to hold).
    scalar(
        "infinity",
        &[("", "double")],
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(constant(f64::INFINITY, c)))),
        "Infinity",
    ),
    scalar(
        "pi",
        &[("", "double")],
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(constant(std::f64::consts::PI, c)))),
        "The constant Pi",
    ),
    scalar(
        "e",
        &[("", "double")],
        Typing::Resolved,
        Lower::Scalar(|_, c| Ok(Some(constant(std::f64::consts::E, c)))),
        "Euler's number",
    ),
    double("acos", calls!(QM_ACOS), "Arc cosine"),
    double("asin", calls!(QM_ASIN), "Arc sine"),
    double("atan", calls!(QM_ATAN), "Arc tangent"),
    scalar(
        "atan2",
        &[("double, double", "double")],
        Typing::Resolved,
        calls!(QM_ATAN2),
        "Arc tangent of given fraction",
    ),
    double("cos", calls!(QM_COS), "Cosine"),
    double("cosh", calls!(QM_COSH), "Hyperbolic cosine"),
    double("sin", calls!(QM_SIN), "Sine"),
    double("sinh", calls!(QM_SINH), "Hyperbolic sine"),
    double("tan", calls!(QM_TAN), "Tangent"),
    double("tanh", calls!(QM_TANH), "Hyperbolic tangent"),
    double("cbrt", calls!(QM_CBRT), "Cube root"),
    double(
        "degrees",
        calls!(QM_DEGREES),
        "Converts an angle in radians to degrees",
    ),
    double(
        "radians",
        calls!(QM_RADIANS),
        "Converts an angle in degrees to radians",
    ),
    double("log2", calls!(QM_LOG2), "Logarithm to base 2"),
    scalar(
        "log",
        &[("double, double", "double")],
        Typing::Resolved,
        calls!(QM_LOG),
        "Logarithm to given base",
    ),
    test("is_nan", calls!(QM_IS_NAN), "Test if value is not-a-number"),
    test("is_finite", calls!(QM_IS_FINITE), "Test if value is finite"),
    test(
        "is_infinite",
        calls!(QM_IS_INFINITE),
        "Test if value is infinite",
    ),
    scalar(
        "nan",
        &[("", "double")],
        Typing::Resolved,
        calls!(QM_NAN),
        "Constant representing not-a-number",
    ),
    scalar(
        "to_base",
        &[("bigint, bigint", "varchar(64)")],
        Typing::Resolved,
        calls!(QM_TO_BASE),
        "Convert a number to a string in the given base",
    ),
    scalar(
        "from_base",
        &[("varchar(x), bigint", "bigint")],
        Typing::Resolved,
        calls!(QM_FROM_BASE),
        "Convert a string in the given base to a number",
    ),
    random("random"),
    random("rand"),
    scalar(
        "width_bucket",
        &[
            ("double, double, double, bigint", "bigint"),
            ("double, array(double)", "bigint"),
        ],
        Typing::Resolved,
        Lower::Scalar(width_bucket),
        "The bucket number of a value in a histogram of equal-width buckets, or of given bins",
    ),
    scalar(
        "sign",
        &[
            ("bigint", "bigint"),
            ("integer", "integer"),
            ("smallint", "smallint"),
            ("tinyint", "tinyint"),
            ("double", "double"),
            ("real", "real"),
            ("decimal(p,s)", "decimal(1,0)"),
        ],
        Typing::ByLowering,
        Lower::Scalar(sign),
        "Signum function",
    ),
];

/// The signature's varchar(64) (a signature's return type reads any length as varchar).
fn lower_random(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let f = match c.args.len() {
        0 => QM_RANDOM,
        1 => QM_RANDOM_BELOW,
        2 => QM_RANDOM_BETWEEN,
        _ => return Ok(None),
    };
    Ok(Some(c.calling(f)))
}

fn width_bucket(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let f = match c.args.len() {
        4 => QM_WIDTH_BUCKET,
        2 => QM_WIDTH_BUCKET_BINS,
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(f.call(c.arg_exprs()), TrinoType::BigInt)))
}

/// infinity(), pi() and e(): a double literal.
fn constant(x: f64, c: &Call) -> Typed {
    Typed::new(SqlExpr::Real(x), c.returns())
}

fn abs(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        // MathFunctions.abs: the type's minimum has no absolute value in the type.
        [a] if a.ty.is_integral() => Some(Typed::new(
            QM_IABS.call([a.sql.clone(), SqlExpr::text(a.ty.to_string())]),
            a.ty.clone(),
        )),
        // A long decimal's BLOB needs its own abs (decimal.rs).
        [a] if matches!(a.ty, TrinoType::Decimal { precision, .. } if !decimal::is_short(precision)) =>
        {
            let TrinoType::Decimal { precision, .. } = a.ty else {
                return Ok(None);
            };
            Some(Typed::new(
                QM_DEC_ABS.call([a.sql.clone(), SqlExpr::Integer(i64::from(precision))]),
                a.ty.clone(),
            ))
        }
        // Math.abs keeps NaN (SQLite's abs reads the text 'NaN' as 0).
        [a] if matches!(a.ty, TrinoType::Double | TrinoType::Real) => {
            Some(Typed::new(QM_FABS.call([a.sql.clone()]), a.ty.clone()))
        }
        [a] if is_numeric_or_null(&a.ty) => Some(Typed::new(
            builtin::ABS.call([a.sql.clone()]),
            null_as_tinyint(&a.ty),
        )),
        _ => None,
    })
}

/// A NULL argument resolves to the first of the signatures, the tinyint one (abs(NULL),
/// round(NULL, 2) and sign(NULL) are tinyint in Trino).
fn null_as_tinyint(ty: &TrinoType) -> TrinoType {
    match ty {
        TrinoType::Unknown => TrinoType::TinyInt,
        other => other.clone(),
    }
}

fn round(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] if is_numeric_or_null(&a.ty) => Some(match &a.ty {
            t if t.is_integral() || *t == TrinoType::Unknown => {
                Typed::new(a.sql.clone(), null_as_tinyint(t))
            }
            // MathFunctions.Round: decimal(p - s + min(1, s), 0), half away from zero.
            TrinoType::Decimal { precision, scale } => {
                let p = (precision - scale + u8::from(*scale > 0)).clamp(1, 38);
                Typed::new(
                    QM_DEC_ROUND.call([
                        a.sql.clone(),
                        int(*scale),
                        SqlExpr::Integer(0),
                        SqlExpr::Integer(0),
                        int(p),
                    ]),
                    TrinoType::Decimal {
                        precision: p,
                        scale: 0,
                    },
                )
            }
            other => Typed::new(
                QM_ROUND_DOUBLE.call([a.sql.clone(), SqlExpr::Integer(0)]),
                other.clone(),
            ),
        }),
        [a, d] if is_numeric_or_null(&a.ty) && is_integer_or_null(&d.ty) => Some(match &a.ty {
            TrinoType::Unknown => Typed::new(a.sql.clone(), TrinoType::TinyInt),
            // MathFunctions.roundLong: a negative d rounds HALF_UP, in the same type.
            t if t.is_integral() => Typed::new(
                QM_ROUND_INTEGER.call([a.sql.clone(), d.sql.clone(), SqlExpr::text(t.to_string())]),
                t.clone(),
            ),
            // RoundN: decimal(min(38, p + 1), s).
            TrinoType::Decimal { precision, scale } => {
                let p = (precision + 1).min(38);
                Typed::new(
                    QM_DEC_ROUND.call([
                        a.sql.clone(),
                        int(*scale),
                        d.sql.clone(),
                        int(*scale),
                        int(p),
                    ]),
                    TrinoType::Decimal {
                        precision: p,
                        scale: *scale,
                    },
                )
            }
            other => Typed::new(
                QM_ROUND_DOUBLE.call([a.sql.clone(), d.sql.clone()]),
                other.clone(),
            ),
        }),
        _ => None,
    })
}

fn rounded(_ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match c.args.as_slice() {
        [a] => {
            let base = if c.name == "ceiling" { "ceil" } else { &c.name };
            rounding(base, a.clone(), c.at).map(Some)
        }
        _ => Ok(None),
    }
}

/// MathFunctions.TruncateN: truncate(decimal(p, s), d) keeps the type, dropping the digits
/// after the d-th decimal place (d < 0: before the point); an integer is the decimal it
/// coerces to.
fn truncate(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a, d] = c.args.as_slice() else {
        return rounded(ctx, c);
    };
    if !is_integer_or_null(&d.ty) {
        return Ok(None);
    }
    let (sql, precision, scale) = match &a.ty {
        TrinoType::Decimal { precision, scale } => (a.sql.clone(), *precision, *scale),
        TrinoType::Unknown => (a.sql.clone(), 1, 0),
        t if t.is_integral() => {
            let Some((p, s)) = decimal::parts(t) else {
                return Ok(None);
            };
            let target = TrinoType::Decimal {
                precision: p,
                scale: s,
            };
            let sql = decimal::coerce(a, &target).unwrap_or_else(|| a.sql.clone());
            (sql, p, s)
        }
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        QM_DEC_TRUNCATE.call([sql, int(scale), d.sql.clone(), int(precision)]),
        TrinoType::Decimal { precision, scale },
    )))
}

fn to_double(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] if is_numeric_or_null(&a.ty) => {
            let f = match c.name.as_str() {
                "sqrt" => QM_SQRT,
                "ln" => QM_LN,
                "log10" => QM_LOG10,
                "exp" => QM_EXP,
                _ => return Ok(None),
            };
            Some(Typed::new(
                f.call([decimal::as_double(a)]),
                TrinoType::Double,
            ))
        }
        _ => None,
    })
}

fn power(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a, b] if is_numeric_or_null(&a.ty) && is_numeric_or_null(&b.ty) => Some(Typed::new(
            QM_POWER.call([decimal::as_double(a), decimal::as_double(b)]),
            TrinoType::Double,
        )),
        _ => None,
    })
}

fn modulus(ctx: &mut dyn LowerContext, c: &Call) -> LowerResult {
    match c.args.as_slice() {
        [a, b] => ctx.arithmetic('%', a.clone(), b.clone(), c.at).map(Some),
        _ => Ok(None),
    }
}

fn sign(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] if is_numeric_or_null(&a.ty) => {
            let ty = match &a.ty {
                // MathFunctions.signDecimal: decimal(1,0), an INTEGER here.
                TrinoType::Decimal { .. } => {
                    return Ok(Some(Typed::new(
                        QM_DEC_SIGN.call([a.sql.clone()]),
                        TrinoType::Decimal {
                            precision: 1,
                            scale: 0,
                        },
                    )));
                }
                // Math.signum: NaN and a signed zero are themselves.
                TrinoType::Double | TrinoType::Real => {
                    return Ok(Some(Typed::new(
                        QM_SIGNUM.call([a.sql.clone()]),
                        a.ty.clone(),
                    )));
                }
                other => null_as_tinyint(other),
            };
            let compared = |op| SqlExpr::binary(a.sql.clone(), op, SqlExpr::Integer(0));
            let sign = SqlExpr::case_when(
                vec![
                    (compared(BinaryOp::Greater), SqlExpr::Integer(1)),
                    (compared(BinaryOp::Less), SqlExpr::Integer(-1)),
                    (compared(BinaryOp::Equal), SqlExpr::Integer(0)),
                ],
                None,
            );
            Some(Typed::new(sign, ty))
        }
        _ => None,
    })
}

/// ceil, floor and truncate: integers are themselves, a decimal(p, s) becomes an integral
/// decimal.
pub fn rounding(name: &str, t: Typed, at: Option<Position>) -> Result<Typed, TrinoError> {
    match &t.ty {
        // MathFunctions has no integer truncate: an integer is the decimal(p, 0) it coerces
        // to, and stays one (truncate(42) is decimal(10,0)).
        ty if ty.is_integral() && name == "truncate" => {
            let Some((precision, scale)) = decimal::parts(ty) else {
                return Ok(t);
            };
            let target = TrinoType::Decimal { precision, scale };
            let sql = decimal::coerce(&t, &target).unwrap_or_else(|| t.sql.clone());
            Ok(Typed::new(sql, target))
        }
        ty if ty.is_integral() => Ok(t),
        TrinoType::Double | TrinoType::Real => {
            let f = match name {
                "ceil" => QM_CEIL,
                "floor" => QM_FLOOR,
                "truncate" => QM_TRUNCATE,
                _ => return Err(unexpected(at, name, &[t])),
            };
            Ok(Typed::new(f.call([t.sql.clone()]), t.ty.clone()))
        }
        TrinoType::Decimal { precision, scale } => {
            // MathFunctions.Truncate: decimal(max(1, p - s), 0); Ceiling and Floor:
            // decimal(p - s + min(s, 1), 0).
            let p = if name == "truncate" {
                precision - scale
            } else {
                precision - scale + u8::from(*scale > 0)
            }
            .clamp(1, 38);
            Ok(Typed::new(
                QM_DEC_INTEGRAL.call([t.sql.clone(), int(*scale), SqlExpr::text(name), int(p)]),
                TrinoType::Decimal {
                    precision: p,
                    scale: 0,
                },
            ))
        }
        // NULL resolves to the first signature: decimal(1,0) for truncate, tinyint for the
        // others (TestMathFunctions: truncate(NULL), floor(NULL)).
        TrinoType::Unknown if name == "truncate" => Ok(Typed::new(
            t.sql,
            TrinoType::Decimal {
                precision: 1,
                scale: 0,
            },
        )),
        TrinoType::Unknown => Ok(Typed::new(t.sql, TrinoType::TinyInt)),
        _ => Err(unexpected(at, name, &[t])),
    }
}

/// A precision, scale or count as an integer literal.
fn int(n: u8) -> SqlExpr {
    SqlExpr::Integer(i64::from(n))
}
