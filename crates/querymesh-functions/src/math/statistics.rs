//! Trino's statistical functions (docs functions/math, "Statistical functions";
//! MathFunctions.normalCdf, inverseNormalCdf, betaCdf, inverseBetaCdf, tPdf, tCdf,
//! wilsonIntervalLower/Upper): their entries, their argument checks with Trino's messages,
//! and their `qm_*` SQLite functions over [`distributions`](super::distributions).

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::Value;

use super::distributions::{beta_cdf, erf, inverse_beta_cdf, inverse_erf, t_cdf, t_pdf};
use crate::entry::{FunctionDef, Typing, calls, scalar};
use crate::udf::{FLAGS, define, fail, int, num, real};

use querymesh_values::sqlite_expr::{SqlExpr, SqliteFn};

pub const QM_NORMAL_CDF: SqliteFn = SqliteFn::new("qm_normal_cdf");
pub const QM_INVERSE_NORMAL_CDF: SqliteFn = SqliteFn::new("qm_inverse_normal_cdf");
pub const QM_BETA_CDF: SqliteFn = SqliteFn::new("qm_beta_cdf");
pub const QM_INVERSE_BETA_CDF: SqliteFn = SqliteFn::new("qm_inverse_beta_cdf");
pub const QM_T_PDF: SqliteFn = SqliteFn::new("qm_t_pdf");
pub const QM_T_CDF: SqliteFn = SqliteFn::new("qm_t_cdf");
pub const QM_WILSON_INTERVAL: SqliteFn = SqliteFn::new("qm_wilson_interval");

const THREE_DOUBLES: &[(&str, &str)] = &[("double, double, double", "double")];
const TWO_DOUBLES: &[(&str, &str)] = &[("double, double", "double")];
const WILSON: &[(&str, &str)] = &[("bigint, bigint, double", "double")];

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "normal_cdf",
        THREE_DOUBLES,
        Typing::Resolved,
        calls!(QM_NORMAL_CDF),
        "Normal cdf given a mean, standard deviation, and value",
    ),
    scalar(
        "inverse_normal_cdf",
        THREE_DOUBLES,
        Typing::Resolved,
        calls!(QM_INVERSE_NORMAL_CDF),
        "Inverse of normal cdf given a mean, std, and probability",
    ),
    scalar(
        "beta_cdf",
        THREE_DOUBLES,
        Typing::Resolved,
        calls!(QM_BETA_CDF),
        "Beta cdf given the a, b parameters and value",
    ),
    scalar(
        "inverse_beta_cdf",
        THREE_DOUBLES,
        Typing::Resolved,
        calls!(QM_INVERSE_BETA_CDF),
        "Inverse of Beta cdf given a, b parameters and probability",
    ),
    scalar(
        "t_pdf",
        TWO_DOUBLES,
        Typing::Resolved,
        calls!(QM_T_PDF),
        "Student's t-distribution given the x and degrees of freedom",
    ),
    scalar(
        "t_cdf",
        TWO_DOUBLES,
        Typing::Resolved,
        calls!(QM_T_CDF),
        "Student's t-distribution cumulative density function given the x and degrees of freedom",
    ),
    scalar(
        "wilson_interval_lower",
        WILSON,
        Typing::Resolved,
        calls!(QM_WILSON_INTERVAL, SqlExpr::Integer(-1)),
        "Binomial confidence interval lower bound using Wilson score",
    ),
    scalar(
        "wilson_interval_upper",
        WILSON,
        Typing::Resolved,
        calls!(QM_WILSON_INTERVAL, SqlExpr::Integer(1)),
        "Binomial confidence interval upper bound using Wilson score",
    ),
];

fn invalid(text: &str) -> rusqlite::Error {
    fail(ErrorName::InvalidFunctionArgument, text)
}

/// Trino's checkCondition: the message when `holds` is false (NaN fails a `>` test, as in
/// Java).
fn check(holds: bool, text: &str) -> rusqlite::Result<()> {
    if holds { Ok(()) } else { Err(invalid(text)) }
}

/// MathFunctions.normalCdf: 0.5 (1 + erf((x - mean) / (sd √2))).
pub fn normal_cdf(mean: f64, sd: f64, value: f64) -> rusqlite::Result<f64> {
    check(sd > 0.0, "standardDeviation must be > 0")?;
    Ok(0.5 * (1.0 + erf((value - mean) / (sd * 2f64.sqrt()))))
}

/// MathFunctions.inverseNormalCdf: mean + sd √2 erf⁻¹(2p - 1); p is checked first.
pub fn inverse_normal_cdf(mean: f64, sd: f64, p: f64) -> rusqlite::Result<f64> {
    check(p > 0.0 && p < 1.0, "p must be 0 > p > 1")?;
    check(sd > 0.0, "sd must be > 0")?;
    Ok(mean + sd * 2f64.sqrt() * inverse_erf(2.0 * p - 1.0))
}

/// MathFunctions.betaCdf: the value is checked before the shape parameters.
fn checked_beta_cdf(a: f64, b: f64, value: f64) -> rusqlite::Result<f64> {
    check((0.0..=1.0).contains(&value), "value must be 0 >= v >= 1")?;
    check(a > 0.0 && b > 0.0, "a, b must be > 0")?;
    Ok(beta_cdf(a, b, value))
}

/// MathFunctions.inverseBetaCdf: p is checked before the shape parameters.
fn checked_inverse_beta_cdf(a: f64, b: f64, p: f64) -> rusqlite::Result<f64> {
    check((0.0..=1.0).contains(&p), "p must be 0 >= p >= 1")?;
    check(a > 0.0 && b > 0.0, "a, b must be > 0")?;
    Ok(inverse_beta_cdf(a, b, p))
}

/// MathFunctions.tPdf / tCdf refuse fewer than one degree of freedom (NaN passes, as Java's
/// `df < 1` is false for it).
fn degrees_of_freedom(df: f64) -> rusqlite::Result<f64> {
    check(
        df >= 1.0 || df.is_nan(),
        "degrees of freedom must be greater than or equal to 1",
    )?;
    Ok(df)
}

/// MathFunctions.wilsonIntervalLower / Upper: the Wilson score interval's bound (`side` -1 or
/// 1), computed in Trino's order of operations (its rounding shows at a bound of 0).
pub fn wilson_interval(successes: i64, trials: i64, z: f64, side: f64) -> rusqlite::Result<f64> {
    check(successes >= 0, "number of successes must not be negative")?;
    check(trials > 0, "number of trials must be positive")?;
    check(
        successes <= trials,
        "number of successes must not be larger than number of trials",
    )?;
    check(z >= 0.0, "z-score must not be negative")?;
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let center = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Ok((center + side * spread) / (1.0 + z2 / n))
}

/// The arguments as doubles, or None when one is NULL.
fn doubles<const N: usize>(ctx: &rusqlite::functions::Context<'_>) -> Option<[f64; N]> {
    let mut out = [0.0; N];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = num(ctx.get_raw(i))?;
    }
    Some(out)
}

fn define_doubles<const N: usize>(
    conn: &Connection,
    name: &'static str,
    f: fn([f64; N]) -> rusqlite::Result<f64>,
) -> rusqlite::Result<()> {
    define(conn, name, N as i32, FLAGS, move |ctx| {
        Ok(match doubles::<N>(ctx) {
            Some(args) => real(f(args)?),
            None => Value::Null,
        })
    })
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define_doubles(conn, QM_NORMAL_CDF.name(), |[m, sd, x]| {
        normal_cdf(m, sd, x)
    })?;
    define_doubles(conn, QM_INVERSE_NORMAL_CDF.name(), |[m, sd, p]| {
        inverse_normal_cdf(m, sd, p)
    })?;
    define_doubles(conn, QM_BETA_CDF.name(), |[a, b, x]| {
        checked_beta_cdf(a, b, x)
    })?;
    define_doubles(conn, QM_INVERSE_BETA_CDF.name(), |[a, b, p]| {
        checked_inverse_beta_cdf(a, b, p)
    })?;
    define_doubles(conn, QM_T_PDF.name(), |[x, df]| {
        Ok(t_pdf(x, degrees_of_freedom(df)?))
    })?;
    define_doubles(conn, QM_T_CDF.name(), |[x, df]| {
        Ok(t_cdf(x, degrees_of_freedom(df)?))
    })?;
    define(conn, QM_WILSON_INTERVAL.name(), 4, FLAGS, |ctx| {
        let (Some(s), Some(n), Some(z), Some(side)) = (
            int(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            num(ctx.get_raw(2)),
            num(ctx.get_raw(3)),
        ) else {
            return Ok(Value::Null);
        };
        Ok(real(wilson_interval(s, n, z, side)?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_and_values_as_trino_answers() {
        // Trino 476 (docs functions/math, "Statistical functions").
        assert_eq!(normal_cdf(0.0, 1.0, 0.0).unwrap(), 0.5);
        assert!((normal_cdf(10.0, 2.0, 8.0).unwrap() - 0.158_655_253_931_457_02).abs() < 1e-15);
        assert!(normal_cdf(0.0, 0.0, 1.0).is_err());
        assert!(normal_cdf(0.0, f64::NAN, 1.0).is_err());
        assert!(
            (inverse_normal_cdf(0.0, 1.0, 0.975).unwrap() - 1.959_963_984_540_054).abs() < 1e-14
        );
        assert!(
            (inverse_normal_cdf(5.0, 2.0, 0.1).unwrap() - 2.436_896_868_910_798_4).abs() < 1e-14
        );
        assert!(inverse_normal_cdf(0.0, 1.0, 1.0).is_err());
        assert!(checked_beta_cdf(2.0, 2.0, 1.5).is_err());
        assert!(checked_beta_cdf(f64::NAN, 2.0, 0.5).is_err());
        assert!(checked_inverse_beta_cdf(2.0, 3.0, 1.1).is_err());
        assert!(degrees_of_freedom(0.5).is_err());
        assert!(degrees_of_freedom(f64::NAN).is_ok());
        assert_eq!(
            wilson_interval(0, 10, 1.96, -1.0).unwrap(),
            -2.005_228_847_505_267_7e-17
        );
        assert_eq!(
            wilson_interval(1250, 1310, 1.96, 1.0).unwrap(),
            0.964_252_471_714_390_8
        );
        assert!(wilson_interval(5, 0, 1.96, -1.0).is_err());
        assert!(wilson_interval(3, 10, f64::NAN, 1.0).is_err());
    }
}
