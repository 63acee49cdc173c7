//! Mathematical functions (Trino docs functions/math), typed by MathFunctions' signatures.

pub mod buckets;
pub mod distributions;
pub mod sqlite;
pub mod statistics;
pub mod vectors;

use querymesh_values::decimal;
use querymesh_values::error::{Position, TrinoError};
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::context::LowerContext;
use super::entry::{FunctionDef, Kind, Lower, LowerResult, Typing, scalar};
use super::{Call, is_integer_or_null, is_numeric_or_null, unexpected};

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
const fn double(
    name: &'static str,
    template: &'static str,
    description: &'static str,
) -> FunctionDef {
    scalar(
        name,
        TO_DOUBLE,
        Typing::Resolved,
        Lower::Template(template),
        description,
    )
}

/// A test of a double.
const fn test(
    name: &'static str,
    template: &'static str,
    description: &'static str,
) -> FunctionDef {
    scalar(
        name,
        &[("double", "boolean")],
        Typing::Resolved,
        Lower::Template(template),
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
        Lower::Template("9e999"),
        "Infinity",
    ),
    scalar(
        "pi",
        &[("", "double")],
        Typing::Resolved,
        Lower::Template("3.141592653589793"),
        "The constant Pi",
    ),
    scalar(
        "e",
        &[("", "double")],
        Typing::Resolved,
        Lower::Template("2.718281828459045"),
        "Euler's number",
    ),
    double("acos", "qm_acos({0})", "Arc cosine"),
    double("asin", "qm_asin({0})", "Arc sine"),
    double("atan", "qm_atan({0})", "Arc tangent"),
    scalar(
        "atan2",
        &[("double, double", "double")],
        Typing::Resolved,
        Lower::Template("qm_atan2({0}, {1})"),
        "Arc tangent of given fraction",
    ),
    double("cos", "qm_cos({0})", "Cosine"),
    double("cosh", "qm_cosh({0})", "Hyperbolic cosine"),
    double("sin", "qm_sin({0})", "Sine"),
    double("sinh", "qm_sinh({0})", "Hyperbolic sine"),
    double("tan", "qm_tan({0})", "Tangent"),
    double("tanh", "qm_tanh({0})", "Hyperbolic tangent"),
    double("cbrt", "qm_cbrt({0})", "Cube root"),
    double(
        "degrees",
        "qm_degrees({0})",
        "Converts an angle in radians to degrees",
    ),
    double(
        "radians",
        "qm_radians({0})",
        "Converts an angle in degrees to radians",
    ),
    double("log2", "qm_log2({0})", "Logarithm to base 2"),
    scalar(
        "log",
        &[("double, double", "double")],
        Typing::Resolved,
        Lower::Template("qm_log({0}, {1})"),
        "Logarithm to given base",
    ),
    test("is_nan", "qm_is_nan({0})", "Test if value is not-a-number"),
    test("is_finite", "qm_is_finite({0})", "Test if value is finite"),
    test(
        "is_infinite",
        "qm_is_infinite({0})",
        "Test if value is infinite",
    ),
    scalar(
        "nan",
        &[("", "double")],
        Typing::Resolved,
        Lower::Template("qm_nan()"),
        "Constant representing not-a-number",
    ),
    scalar(
        "to_base",
        &[("bigint, bigint", "varchar(64)")],
        Typing::Resolved,
        Lower::Template("qm_to_base({0}, {1})"),
        "Convert a number to a string in the given base",
    ),
    scalar(
        "from_base",
        &[("varchar(x), bigint", "bigint")],
        Typing::Resolved,
        Lower::Template("qm_from_base({0}, {1})"),
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
        0 => "qm_random",
        1 => "qm_random_below",
        2 => "qm_random_between",
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        format!("{f}({})", c.sql().join(", ")),
        c.returns(),
    )))
}

fn width_bucket(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let f = match c.args.len() {
        4 => "qm_width_bucket",
        2 => "qm_width_bucket_bins",
        _ => return Ok(None),
    };
    Ok(Some(Typed::new(
        format!("{f}({})", c.sql().join(", ")),
        TrinoType::BigInt,
    )))
}

fn abs(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        // MathFunctions.abs: the type's minimum has no absolute value in the type.
        [a] if a.ty.is_integral() => Some(Typed::new(
            format!("qm_iabs({}, '{}')", a.sql, a.ty),
            a.ty.clone(),
        )),
        // A long decimal's BLOB needs its own abs (decimal.rs).
        [a] if matches!(a.ty, TrinoType::Decimal { precision, .. } if !decimal::is_short(precision)) =>
        {
            let TrinoType::Decimal { precision, .. } = a.ty else {
                return Ok(None);
            };
            Some(Typed::new(
                format!("qm_dec_abs({}, {precision})", a.sql),
                a.ty.clone(),
            ))
        }
        // Math.abs keeps NaN (SQLite's abs reads the text 'NaN' as 0).
        [a] if matches!(a.ty, TrinoType::Double | TrinoType::Real) => {
            Some(Typed::new(format!("qm_fabs({})", a.sql), a.ty.clone()))
        }
        [a] if is_numeric_or_null(&a.ty) => Some(Typed::new(
            format!("abs({})", a.sql),
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
                    format!("qm_dec_round({}, {scale}, 0, 0, {p})", a.sql),
                    TrinoType::Decimal {
                        precision: p,
                        scale: 0,
                    },
                )
            }
            other => Typed::new(format!("qm_round_double({}, 0)", a.sql), other.clone()),
        }),
        [a, d] if is_numeric_or_null(&a.ty) && is_integer_or_null(&d.ty) => Some(match &a.ty {
            TrinoType::Unknown => Typed::new(a.sql.clone(), TrinoType::TinyInt),
            // MathFunctions.roundLong: a negative d rounds HALF_UP, in the same type.
            t if t.is_integral() => Typed::new(
                format!("qm_round_integer({}, {}, '{t}')", a.sql, d.sql),
                t.clone(),
            ),
            // RoundN: decimal(min(38, p + 1), s).
            TrinoType::Decimal { precision, scale } => {
                let p = (precision + 1).min(38);
                Typed::new(
                    format!("qm_dec_round({}, {scale}, {}, {scale}, {p})", a.sql, d.sql),
                    TrinoType::Decimal {
                        precision: p,
                        scale: *scale,
                    },
                )
            }
            other => Typed::new(
                format!("qm_round_double({}, {})", a.sql, d.sql),
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
        format!("qm_dec_truncate({sql}, {scale}, {}, {precision})", d.sql),
        TrinoType::Decimal { precision, scale },
    )))
}

fn to_double(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a] if is_numeric_or_null(&a.ty) => Some(Typed::new(
            format!("qm_{}({})", c.name, decimal::as_double(a)),
            TrinoType::Double,
        )),
        _ => None,
    })
}

fn power(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(match c.args.as_slice() {
        [a, b] if is_numeric_or_null(&a.ty) && is_numeric_or_null(&b.ty) => Some(Typed::new(
            format!(
                "qm_power({}, {})",
                decimal::as_double(a),
                decimal::as_double(b)
            ),
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
                        format!("qm_dec_sign({})", a.sql),
                        TrinoType::Decimal {
                            precision: 1,
                            scale: 0,
                        },
                    )));
                }
                // Math.signum: NaN and a signed zero are themselves.
                TrinoType::Double | TrinoType::Real => {
                    return Ok(Some(Typed::new(
                        format!("qm_signum({})", a.sql),
                        a.ty.clone(),
                    )));
                }
                other => null_as_tinyint(other),
            };
            Some(Typed::new(
                format!(
                    "(CASE WHEN {0} > 0 THEN 1 WHEN {0} < 0 THEN -1 WHEN {0} = 0 THEN 0 END)",
                    a.sql
                ),
                ty,
            ))
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
            let sql = decimal::coerce(&t, &target).unwrap_or_else(|| t.sql.to_string().into());
            Ok(Typed::new(sql, target))
        }
        ty if ty.is_integral() => Ok(t),
        TrinoType::Double | TrinoType::Real => {
            Ok(Typed::new(format!("qm_{name}({})", t.sql), t.ty.clone()))
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
                format!("qm_dec_integral({}, {scale}, '{name}', {p})", t.sql),
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
