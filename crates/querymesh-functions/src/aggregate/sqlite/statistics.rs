//! The statistical aggregates of Trino docs functions/aggregate ("Statistical aggregate
//! functions"): corr, covar_pop, covar_samp, regr_slope, regr_intercept (over pairs
//! `(y, x)`: dependent first), skewness and kurtosis (over one value). Each keeps Trino's
//! running moments (the states CovarianceState, CorrelationState, RegressionState and
//! CentralMomentsState update one row at a time) so the doubles come out as Trino's do, and
//! answers NULL where Trino's output functions do. Rows with a NULL argument don't count.
//! The `_real` variants answer `real`: Trino reads real arguments (integers and decimals are
//! coerced to real) as doubles and rounds the result to a float.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::types::Value;
use rusqlite::{Connection, Result};

use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, fail, num, real};

#[derive(Clone, Copy)]
enum Statistic {
    Corr,
    CovarPop,
    CovarSamp,
    RegrSlope,
    RegrIntercept,
    Skewness,
    Kurtosis,
}

impl Statistic {
    fn pairs(self) -> bool {
        !matches!(self, Statistic::Skewness | Statistic::Kurtosis)
    }
}

/// The running moments: count, means of x and y, the co-moment C2 = Σ(x - x̄)(y - ȳ), the
/// second moments of x and y, and the third and fourth central moments of the one-argument
/// forms (kept over `x`).
#[derive(Default, Clone)]
pub(super) struct Moments {
    n: u64,
    mean_x: f64,
    mean_y: f64,
    c2: f64,
    m2_x: f64,
    m2_y: f64,
    m3: f64,
    m4: f64,
}

impl Moments {
    /// One pair, as CovarianceState.update with CorrelationState's and RegressionState's
    /// second moments.
    pub(super) fn add_pair(&mut self, x: f64, y: f64) {
        self.n += 1;
        let n = self.n as f64;
        let (old_x, old_y) = (self.mean_x, self.mean_y);
        self.mean_x = old_x + (x - old_x) / n;
        self.mean_y = old_y + (y - old_y) / n;
        self.c2 += (x - old_x) * (y - self.mean_y);
        self.m2_x += (x - old_x) * (x - self.mean_x);
        self.m2_y += (y - old_y) * (y - self.mean_y);
    }

    /// One value, as CentralMomentsState.update (M2, M3 and M4 from the previous moments).
    pub(super) fn add_value(&mut self, value: f64) {
        let n1 = self.n as f64;
        self.n += 1;
        let n = self.n as f64;
        let (m1, m2, m3) = (self.mean_x, self.m2_x, self.m3);
        let delta = value - m1;
        let delta_n = delta / n;
        let delta_n2 = delta_n * delta_n;
        let dm2 = delta * delta_n * n1;
        self.mean_x = m1 + delta_n;
        self.m2_x = m2 + dm2;
        self.m3 = m3 + dm2 * delta_n * (n - 2.0) - 3.0 * delta_n * m2;
        // Java's left-to-right sums, so the roundings are Trino's.
        self.m4 = self.m4 + dm2 * delta_n2 * (n * n - 3.0 * n + 3.0) + 6.0 * delta_n2 * m2
            - 4.0 * delta_n * m3;
    }

    fn answer(&self, statistic: Statistic) -> Option<f64> {
        let n = self.n as f64;
        let finite = |x: f64| x.is_finite().then_some(x);
        match statistic {
            Statistic::Corr => finite(self.c2 / self.m2_x.sqrt() / self.m2_y.sqrt()),
            Statistic::CovarPop => (self.n > 0).then(|| self.c2 / n),
            Statistic::CovarSamp => (self.n > 1).then(|| self.c2 / (n - 1.0)),
            Statistic::RegrSlope => finite(self.c2 / self.m2_x),
            Statistic::RegrIntercept => finite(self.mean_y - self.c2 / self.m2_x * self.mean_x),
            Statistic::Skewness => (self.n >= 3).then(|| n.sqrt() * self.m3 / self.m2_x.powf(1.5)),
            Statistic::Kurtosis => (self.n >= 4).then(|| {
                let m2 = self.m2_x;
                (n - 1.0) * n * (n + 1.0) / ((n - 2.0) * (n - 3.0)) * self.m4 / (m2 * m2)
                    - 3.0 * ((n - 1.0) * (n - 1.0)) / ((n - 2.0) * (n - 3.0))
            }),
        }
    }
}

#[derive(Clone)]
struct StatisticAggregate {
    statistic: Statistic,
    /// Arguments and result are reals.
    real: bool,
}

impl StatisticAggregate {
    fn read(&self, ctx: &dyn Args, i: usize) -> Result<Option<f64>> {
        let v = ctx.raw(i);
        if v == rusqlite::types::ValueRef::Null {
            return Ok(None);
        }
        let x = num(v).ok_or_else(|| {
            fail(
                ErrorName::GenericInternalError,
                "A statistical aggregate's argument is not a number",
            )
        })?;
        Ok(Some(if self.real { f64::from(x as f32) } else { x }))
    }
}

impl RowAggregate for StatisticAggregate {
    type State = Moments;
    type Output = Value;

    fn init(&self, _: &dyn Args) -> Result<Moments> {
        Ok(Moments::default())
    }

    fn step(&self, ctx: &dyn Args, moments: &mut Moments) -> Result<()> {
        if self.statistic.pairs() {
            // (y, x): Trino's input functions take the dependent value first.
            if let (Some(y), Some(x)) = (self.read(ctx, 0)?, self.read(ctx, 1)?) {
                moments.add_pair(x, y);
            }
        } else if let Some(x) = self.read(ctx, 0)? {
            moments.add_value(x);
        }
        Ok(())
    }

    fn answer(&self, moments: Option<&mut Moments>) -> Result<Value> {
        let answer = moments
            .map_or_else(Moments::default, |m| m.clone())
            .answer(self.statistic);
        Ok(match answer {
            None => Value::Null,
            Some(x) if self.real => real(f64::from(x as f32)),
            Some(x) => real(x),
        })
    }
}

pub const QM_CORR: SqliteFn = SqliteFn::new("qm_corr");
pub const QM_CORR_REAL: SqliteFn = SqliteFn::new("qm_corr_real");
pub const QM_COVAR_POP: SqliteFn = SqliteFn::new("qm_covar_pop");
pub const QM_COVAR_POP_REAL: SqliteFn = SqliteFn::new("qm_covar_pop_real");
pub const QM_COVAR_SAMP: SqliteFn = SqliteFn::new("qm_covar_samp");
pub const QM_COVAR_SAMP_REAL: SqliteFn = SqliteFn::new("qm_covar_samp_real");
pub const QM_REGR_SLOPE: SqliteFn = SqliteFn::new("qm_regr_slope");
pub const QM_REGR_SLOPE_REAL: SqliteFn = SqliteFn::new("qm_regr_slope_real");
pub const QM_REGR_INTERCEPT: SqliteFn = SqliteFn::new("qm_regr_intercept");
pub const QM_REGR_INTERCEPT_REAL: SqliteFn = SqliteFn::new("qm_regr_intercept_real");
pub const QM_SKEWNESS: SqliteFn = SqliteFn::new("qm_skewness");
pub const QM_KURTOSIS: SqliteFn = SqliteFn::new("qm_kurtosis");

pub fn register(conn: &Connection) -> Result<()> {
    const ALL: &[(SqliteFn, SqliteFn, Statistic)] = &[
        (QM_CORR, QM_CORR_REAL, Statistic::Corr),
        (QM_COVAR_POP, QM_COVAR_POP_REAL, Statistic::CovarPop),
        (QM_COVAR_SAMP, QM_COVAR_SAMP_REAL, Statistic::CovarSamp),
        (QM_REGR_SLOPE, QM_REGR_SLOPE_REAL, Statistic::RegrSlope),
        (
            QM_REGR_INTERCEPT,
            QM_REGR_INTERCEPT_REAL,
            Statistic::RegrIntercept,
        ),
    ];
    for &(double, float, statistic) in ALL {
        for (function, real) in [(double, false), (float, true)] {
            let aggregate = StatisticAggregate { statistic, real };
            define_replayable(conn, function.name(), 2, FLAGS, aggregate)?;
        }
    }
    for (function, statistic) in [
        (QM_SKEWNESS, Statistic::Skewness),
        (QM_KURTOSIS, Statistic::Kurtosis),
    ] {
        let aggregate = StatisticAggregate {
            statistic,
            real: false,
        };
        define_replayable(conn, function.name(), 1, FLAGS, aggregate)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(rows: &[(f64, f64)]) -> Moments {
        let mut m = Moments::default();
        for &(x, y) in rows {
            m.add_pair(x, y);
        }
        m
    }

    fn values(rows: &[f64]) -> Moments {
        let mut m = Moments::default();
        for &x in rows {
            m.add_value(x);
        }
        m
    }

    /// The answers of Trino 476 to the parity corpus's aggregate_functions statements.
    #[test]
    fn moments_answer_as_trino() {
        let m = pairs(&[(1.0, 10.0), (2.0, 20.0), (3.0, 31.0)]);
        assert_eq!(m.answer(Statistic::CovarSamp), Some(10.5));
        assert_eq!(m.answer(Statistic::Corr), Some(0.9996222851612185));
        let m = pairs(&[(1.0, 3.0), (2.0, 5.0), (3.0, 7.0)]);
        assert_eq!(m.answer(Statistic::RegrSlope), Some(2.0));
        assert_eq!(m.answer(Statistic::RegrIntercept), Some(1.0));
        let m = values(&[1.0, 2.0, 3.0, 4.0, 10.0]);
        assert_eq!(m.answer(Statistic::Skewness), Some(1.1384199576606164));
        assert_eq!(m.answer(Statistic::Kurtosis), Some(3.1519999999999992));
    }

    #[test]
    fn too_few_rows_or_no_spread_is_null() {
        assert_eq!(pairs(&[(1.0, 5.0)]).answer(Statistic::Corr), None);
        assert_eq!(pairs(&[(1.0, 5.0)]).answer(Statistic::CovarSamp), None);
        assert_eq!(pairs(&[(1.0, 5.0)]).answer(Statistic::CovarPop), Some(0.0));
        assert_eq!(
            pairs(&[(2.0, 1.0), (2.0, 3.0)]).answer(Statistic::RegrSlope),
            None
        );
        assert_eq!(values(&[1.0, 2.0]).answer(Statistic::Skewness), None);
        assert_eq!(values(&[1.0, 2.0, 3.0]).answer(Statistic::Kurtosis), None);
        assert_eq!(Moments::default().answer(Statistic::CovarPop), None);
    }
}
