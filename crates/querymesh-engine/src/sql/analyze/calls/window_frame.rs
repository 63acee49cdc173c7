//! A window's frame (docs sql/select "WINDOW clause", StatementAnalyzer.analyzeWindowFrame):
//! Trino's checks of its bounds and offsets, and RANGE offsets over numbers, dates,
//! timestamps and intervals.
//!
//! SQLite takes a RANGE offset only over one numeric ORDER BY key, so the key is ordered by
//! a number that moves as the value does — a decimal's unscaled value (at the offset's scale
//! when it has more digits), an instant in milliseconds, an interval's own number — and the
//! offset is written in the same unit. A month is no fixed number of days: for year-month
//! offsets the key is `(months since year 0 × 32 + day) × ms per day + ms of the day`, so that
//! `n MONTH` is `n × 32 × ms per day`. Unlike Trino, that does not clamp to the month's end:
//! `2024-03-31 - 1 MONTH` reaches back to 2024-03-00, past 2024-02-29.

use querymesh_values::sqlite_expr::{
    Affinity, BinaryOp, Frame, FrameBound, FrameUnits, SqlExpr, builtin,
};
use querymesh_values::typed::{Constant, Typed};
use sqlparser::ast::{Expr, OrderByExpr, WindowFrame, WindowFrameBound, WindowFrameUnits};

use crate::error::{ErrorName, Position, TrinoError, error_at, not_supported};
use crate::sql::analyze::scope::ExprContext;
use crate::sql::analyze::{Analyzer, location};
use crate::types::TrinoType;

const MILLIS_PER_DAY: i64 = 86_400_000;

/// The Julian day number of 1970-01-01 00:00.
const UNIX_EPOCH_JULIAN_DAY: f64 = 2440587.5;

/// Milliseconds since 1970-01-01 of a stored date or timestamp (text SQLite's julianday
/// reads).
fn instant_millis(sql: SqlExpr) -> SqlExpr {
    let days = SqlExpr::binary(
        builtin::JULIANDAY.call([sql]),
        BinaryOp::Subtract,
        SqlExpr::Real(UNIX_EPOCH_JULIAN_DAY),
    );
    let millis = SqlExpr::binary(days, BinaryOp::Multiply, SqlExpr::Integer(MILLIS_PER_DAY));
    SqlExpr::cast(builtin::ROUND.call([millis]), Affinity::Integer)
}

/// The year-month key of a stored date or timestamp (module comment).
fn calendar_key(sql: &SqlExpr) -> SqlExpr {
    let field = |format: &str| {
        SqlExpr::cast(
            builtin::STRFTIME.call([SqlExpr::text(format), sql.clone()]),
            Affinity::Integer,
        )
    };
    let times = |l: SqlExpr, n: i64| SqlExpr::binary(l, BinaryOp::Multiply, SqlExpr::Integer(n));
    let plus = |l: SqlExpr, r: SqlExpr| SqlExpr::binary(l, BinaryOp::Add, r);
    let months = plus(times(field("%Y"), 12), field("%m"));
    let days = plus(times(months, 32), field("%d"));
    let of_the_day = SqlExpr::binary(
        instant_millis(sql.clone()),
        BinaryOp::Subtract,
        instant_millis(builtin::DATE.call([sql.clone()])),
    );
    plus(times(days, MILLIS_PER_DAY), of_the_day)
}

fn bound_kind(b: &WindowFrameBound) -> &'static str {
    match b {
        WindowFrameBound::CurrentRow => "CURRENT ROW",
        WindowFrameBound::Preceding(None) => "UNBOUNDED PRECEDING",
        WindowFrameBound::Following(None) => "UNBOUNDED FOLLOWING",
        WindowFrameBound::Preceding(Some(_)) => "PRECEDING",
        WindowFrameBound::Following(Some(_)) => "FOLLOWING",
    }
}

fn frame_error(at: Option<Position>, text: &str) -> TrinoError {
    error_at(ErrorName::InvalidWindowFrame, at, text)
}

/// Trino's checks of the two bounds' kinds.
fn check_bounds(
    start: &WindowFrameBound,
    end: &WindowFrameBound,
    at: Option<Position>,
) -> Result<(), TrinoError> {
    let message = match (bound_kind(start), bound_kind(end)) {
        ("UNBOUNDED FOLLOWING", _) => "Window frame start cannot be UNBOUNDED FOLLOWING",
        (_, "UNBOUNDED PRECEDING") => "Window frame end cannot be UNBOUNDED PRECEDING",
        ("CURRENT ROW", "PRECEDING") => {
            "Window frame starting from CURRENT ROW cannot end with PRECEDING"
        }
        ("FOLLOWING", "PRECEDING") => {
            "Window frame starting from FOLLOWING cannot end with PRECEDING"
        }
        ("FOLLOWING", "CURRENT ROW") => {
            "Window frame starting from FOLLOWING cannot end with CURRENT ROW"
        }
        _ => return Ok(()),
    };
    Err(frame_error(at, message))
}

/// A frame offset's value as Trino checks it while running: "must not be negative or null".
fn check_not_negative(offset: &Typed) -> Result<(), TrinoError> {
    let negative = match offset.constant {
        Some(Constant::Int(n) | Constant::Months(n) | Constant::Millis(n)) => n < 0,
        Some(Constant::Decimal(u, _)) => u < 0,
        _ => offset.ty == TrinoType::Unknown,
    };
    if negative {
        return Err(frame_error(
            None,
            "Window frame offset value must not be negative or null",
        ));
    }
    Ok(())
}

/// A frame as SQLite takes it, or a ROWS frame whose offset each row computes (`k
/// PRECEDING` with k a column): its start kind and offset and end kind and offset as SQL,
/// for `qm_rows_frame` (querymesh-functions `window/rows_frame.rs`, calls/over.rs).
pub(super) enum FrameSql {
    Written(Frame),
    PerRow([SqlExpr; 4]),
}

/// A bound as `qm_rows_frame` reads it: its kind and its offset's SQL.
fn per_row_bound(bound: &WindowFrameBound, offset: Option<&Typed>) -> [SqlExpr; 2] {
    let offset = offset.map_or(SqlExpr::Null, |o| o.sql.clone());
    let kind = match bound {
        WindowFrameBound::Preceding(None) => "UP",
        WindowFrameBound::Following(None) => "UF",
        WindowFrameBound::CurrentRow => "C",
        WindowFrameBound::Preceding(Some(_)) => "P",
        WindowFrameBound::Following(Some(_)) => "F",
    };
    [SqlExpr::text(kind), offset]
}

/// A bound without an offset, or with `offset`'s SQL.
fn written_bound(bound: &WindowFrameBound, offset: Option<SqlExpr>) -> FrameBound {
    match (bound, offset) {
        (WindowFrameBound::Preceding(Some(_)), Some(e)) => FrameBound::Preceding(e),
        (WindowFrameBound::Following(Some(_)), Some(e)) => FrameBound::Following(e),
        (WindowFrameBound::Preceding(_), _) => FrameBound::UnboundedPreceding,
        (WindowFrameBound::Following(_), _) => FrameBound::UnboundedFollowing,
        (WindowFrameBound::CurrentRow, _) => FrameBound::CurrentRow,
    }
}

fn frame_units(units: &WindowFrameUnits) -> FrameUnits {
    match units {
        WindowFrameUnits::Rows => FrameUnits::Rows,
        WindowFrameUnits::Range => FrameUnits::Range,
        WindowFrameUnits::Groups => FrameUnits::Groups,
    }
}

/// An integer literal, or the double SQLite reads a longer one as.
fn integer_literal(n: i128) -> SqlExpr {
    i64::try_from(n).map_or(SqlExpr::Real(n as f64), SqlExpr::Integer)
}

impl Analyzer<'_> {
    /// The frame's SQL; for a RANGE offset, `keys` (the ORDER BY's analysed keys) get the
    /// numeric key SQLite orders by instead.
    pub(super) fn window_frame(
        &mut self,
        frame: &WindowFrame,
        order_by: &[OrderByExpr],
        keys: &mut [Typed],
        cx: &ExprContext<'_>,
        at: Option<Position>,
    ) -> Result<FrameSql, TrinoError> {
        let end = frame
            .end_bound
            .clone()
            .unwrap_or(WindowFrameBound::CurrentRow);
        check_bounds(&frame.start_bound, &end, at)?;
        let offsets: Vec<&Expr> = [&frame.start_bound, &end]
            .into_iter()
            .filter_map(|b| match b {
                WindowFrameBound::Preceding(Some(e)) | WindowFrameBound::Following(Some(e)) => {
                    Some(e.as_ref())
                }
                _ => None,
            })
            .collect();
        let units = frame.units.to_string();
        if !offsets.is_empty() && order_by.is_empty() && frame.units != WindowFrameUnits::Rows {
            return Err(error_at(
                ErrorName::MissingOrderBy,
                at,
                format!("Window frame of type {units} PRECEDING or FOLLOWING requires ORDER BY"),
            ));
        }
        let mut range_key: Option<RangeKey> = None;
        if frame.units == WindowFrameUnits::Range && !offsets.is_empty() {
            if order_by.len() > 1 {
                return Err(error_at(
                    ErrorName::InvalidOrderBy,
                    location(&order_by[1].expr),
                    format!(
                        "Window frame of type RANGE PRECEDING or FOLLOWING requires single sort item in ORDER BY (actual: {})",
                        order_by.len()
                    ),
                ));
            }
            let key = &keys[0];
            let sortable = key.ty.is_numeric()
                || matches!(
                    key.ty,
                    TrinoType::Date
                        | TrinoType::Timestamp(_)
                        | TrinoType::IntervalDayToSecond
                        | TrinoType::IntervalYearToMonth
                );
            if !sortable {
                return Err(error_at(
                    ErrorName::TypeMismatch,
                    location(&order_by[0].expr),
                    format!(
                        "Window frame of type RANGE PRECEDING or FOLLOWING requires that sort item type be numeric, datetime or interval (actual: {})",
                        key.ty
                    ),
                ));
            }
            range_key = Some(RangeKey::default());
        }
        // Every offset analysed first: a RANGE key's scale is the largest of theirs.
        let mut analysed: Vec<Option<(Typed, Option<Position>)>> = Vec::new();
        for bound in [&frame.start_bound, &end] {
            analysed.push(match bound {
                WindowFrameBound::Preceding(Some(e)) | WindowFrameBound::Following(Some(e)) => {
                    Some((self.expr(e, cx)?, location(e.as_ref())))
                }
                _ => None,
            });
        }
        if let Some(range) = range_key.as_mut() {
            for (value, place) in analysed.iter().flatten() {
                range.learn(&keys[0], value, *place)?;
            }
        }
        let mut bounds = Vec::new();
        let mut computed = false;
        for (i, (bound, offset)) in [&frame.start_bound, &end]
            .into_iter()
            .zip(&analysed)
            .enumerate()
        {
            let Some((value, place)) = offset else {
                bounds.push(written_bound(bound, None));
                continue;
            };
            let sql = match range_key.as_ref() {
                Some(range) => range.offset(value),
                None => {
                    if !(value.ty.is_integral() || value.ty == TrinoType::Unknown) {
                        return Err(error_at(
                            ErrorName::TypeMismatch,
                            *place,
                            format!(
                                "Window frame {units} {} value type must be exact numeric type with scale 0 (actual {})",
                                if i == 0 { "start" } else { "end" },
                                value.ty
                            ),
                        ));
                    }
                    check_not_negative(value)?;
                    // A ROWS offset may differ per row: checked as it runs (rows_frame.rs).
                    if value.constant.is_none() {
                        if frame.units != WindowFrameUnits::Rows {
                            return Err(not_supported(*place, "A computed window frame offset"));
                        }
                        computed = true;
                    }
                    value.sql.clone()
                }
            };
            bounds.push(written_bound(bound, Some(sql)));
        }
        if let Some(range) = range_key {
            keys[0] = range.key(&keys[0]);
        }
        if computed {
            let offset = |i: usize| analysed[i].as_ref().map(|(value, _)| value);
            let [start_kind, start] = per_row_bound(&frame.start_bound, offset(0));
            let [end_kind, end_offset] = per_row_bound(&end, offset(1));
            return Ok(FrameSql::PerRow([start_kind, start, end_kind, end_offset]));
        }
        let mut bounds = bounds.into_iter();
        let start = bounds.next().unwrap_or(FrameBound::CurrentRow);
        Ok(FrameSql::Written(Frame {
            units: frame_units(&frame.units),
            start,
            end: frame.end_bound.as_ref().and(bounds.next()),
        }))
    }
}

/// How a RANGE frame's key and offsets are written as numbers (module comment).
#[derive(Default)]
struct RangeKey {
    /// The scale exact numbers are written at: the key's, or an offset's when larger.
    scale: u32,
    /// Whether the key and offsets are exact numbers (integers, short decimals).
    exact: bool,
    /// Offsets in months: the key is the calendar key.
    months: bool,
}

/// `sql × 10^by`.
fn scaled(sql: SqlExpr, by: u32) -> SqlExpr {
    if by == 0 {
        sql
    } else {
        SqlExpr::binary(sql, BinaryOp::Multiply, SqlExpr::Integer(10i64.pow(by)))
    }
}

impl RangeKey {
    /// Checks an offset against the key's type as Trino does, and notes what writing it
    /// takes.
    fn learn(
        &mut self,
        key: &Typed,
        offset: &Typed,
        at: Option<Position>,
    ) -> Result<(), TrinoError> {
        let incompatible = || {
            error_at(
                ErrorName::TypeMismatch,
                at,
                format!(
                    "Window frame RANGE value type ({}) not compatible with sort item type ({})",
                    offset.ty, key.ty
                ),
            )
        };
        let datetime = matches!(key.ty, TrinoType::Date | TrinoType::Timestamp(_));
        let fits = match &offset.ty {
            TrinoType::IntervalDayToSecond => datetime || key.ty == TrinoType::IntervalDayToSecond,
            TrinoType::IntervalYearToMonth => datetime || key.ty == TrinoType::IntervalYearToMonth,
            t => t.is_numeric() && key.ty.is_numeric(),
        };
        if !fits {
            return Err(incompatible());
        }
        check_not_negative(offset)?;
        let short = |t: &TrinoType| match t {
            TrinoType::Decimal { precision, scale } => {
                querymesh_values::decimal::is_short(*precision).then_some(u32::from(*scale))
            }
            t if t.is_integral() => Some(0),
            _ => None,
        };
        match (short(&key.ty), short(&offset.ty)) {
            (Some(key_scale), Some(offset_scale)) => {
                if offset.constant.is_none() {
                    return Err(not_supported(at, "A computed RANGE offset"));
                }
                self.exact = true;
                self.scale = self.scale.max(key_scale).max(offset_scale);
            }
            // A decimal offset over a double key is written as a double.
            (None, Some(_)) if offset.constant.is_some() => {}
            _ if matches!(key.ty, TrinoType::Decimal { .. })
                || matches!(offset.ty, TrinoType::Decimal { .. }) =>
            {
                return Err(not_supported(
                    at,
                    "A RANGE offset mixing decimals and doubles",
                ));
            }
            _ => {}
        }
        if offset.ty == TrinoType::IntervalYearToMonth && datetime {
            self.months = true;
        }
        Ok(())
    }

    /// The offset in the key's unit.
    fn offset(&self, offset: &Typed) -> SqlExpr {
        match (&offset.ty, &offset.constant) {
            (TrinoType::IntervalYearToMonth, Some(Constant::Months(m))) if self.months => {
                integer_literal(i128::from(*m) * 32 * i128::from(MILLIS_PER_DAY))
            }
            (_, Some(Constant::Decimal(u, s))) if self.exact => {
                integer_literal(u * 10i128.pow(self.scale - s))
            }
            (_, Some(Constant::Int(n))) if self.exact => {
                integer_literal(i128::from(*n) * 10i128.pow(self.scale))
            }
            (_, Some(Constant::Decimal(u, s))) => SqlExpr::Real(*u as f64 / 10f64.powi(*s as i32)),
            _ => offset.sql.clone(),
        }
    }

    /// The number SQLite orders by in place of `key`.
    fn key(&self, key: &Typed) -> Typed {
        let sql = match &key.ty {
            TrinoType::Date | TrinoType::Timestamp(_) if self.months => calendar_key(&key.sql),
            TrinoType::Date | TrinoType::Timestamp(_) => instant_millis(key.sql.clone()),
            TrinoType::Decimal { scale, .. } if self.exact => {
                scaled(key.sql.clone(), self.scale - u32::from(*scale))
            }
            t if t.is_integral() && self.exact => scaled(key.sql.clone(), self.scale),
            _ => key.sql.clone(),
        };
        Typed::new(sql, key.ty.clone())
    }
}
