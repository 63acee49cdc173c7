//! The color functions as `qm_*` SQLite functions (ColorFunctions): a color is an INTEGER
//! (hsb.rs), the rendered texts carry ANSI escapes as Trino writes them.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use super::hsb::{SYSTEM_COLORS, ansi_index, interpolate};
use crate::udf::{FLAGS, define, fail, int, num, reserve};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_RGB: SqliteFn = SqliteFn::new("qm_rgb");
pub const QM_COLOR: SqliteFn = SqliteFn::new("qm_color");
pub const QM_COLOR_BETWEEN: SqliteFn = SqliteFn::new("qm_color_between");
pub const QM_COLOR_SCALE: SqliteFn = SqliteFn::new("qm_color_scale");
pub const QM_RENDER: SqliteFn = SqliteFn::new("qm_render");
pub const QM_BAR: SqliteFn = SqliteFn::new("qm_bar");

const ANSI_RESET: &str = "\u{1b}[0m";

/// rgb(red, green, blue): each channel within 0..=255.
pub fn rgb(red: i64, green: i64, blue: i64) -> Result<i64, String> {
    for (name, value) in [("red", red), ("green", green), ("blue", blue)] {
        if !(0..=255).contains(&value) {
            return Err(format!("{name} must be between 0 and 255"));
        }
    }
    Ok((red << 16) | (green << 8) | blue)
}

/// color(varchar): `#rgb` (each digit doubled, as CSS reads it) or a system color's name in
/// any case. Trino reads no other form (`#rrggbb` is "Invalid color").
pub fn parse(text: &str) -> Result<i64, String> {
    let bytes = text.as_bytes();
    if let [b'#', r, g, b] = bytes {
        let digit = |c: &u8| (*c as char).to_digit(16).map(|d| i64::from(d * 17));
        if let (Some(r), Some(g), Some(b)) = (digit(r), digit(g), digit(b)) {
            return rgb(r, g, b);
        }
    }
    let upper = text.to_uppercase();
    SYSTEM_COLORS
        .iter()
        .position(|name| name.to_uppercase() == upper)
        .map(|index| -(index as i64) - 1)
        .ok_or_else(|| format!("Invalid color: '{text}'"))
}

/// color(fraction, low, high): `fraction` clamped to [0, 1] (NaN stays NaN, as Java's
/// Math.min/max keep it), both colors RGB ones.
pub fn between(fraction: f64, low: i64, high: i64) -> Result<i64, String> {
    if low < 0 {
        return Err("lowColor not a valid RGB color".into());
    }
    if high < 0 {
        return Err("highColor not a valid RGB color".into());
    }
    let fraction = if fraction.is_nan() {
        fraction
    } else {
        fraction.clamp(0.0, 1.0)
    };
    interpolate(fraction as f32, low, high)
}

/// render(value, color): the value between the color's escape and the reset.
pub fn render(value: &str, color: i64) -> String {
    format!("\u{1b}[38;5;{}m{value}{ANSI_RESET}", ansi_index(color))
}

/// bar(percent, width, low, high): `percent` of `width` cells, each colored along the way from
/// `low` to `high`, then the reset and spaces up to `width`.
pub fn bar(percent: f64, width: i64, low: i64, high: i64) -> rusqlite::Result<String> {
    // Java's `(int) (percent * width)`, then within [0, width].
    let count = i64::from((percent * width as f64) as i32).min(width).max(0);
    let padding = width.saturating_sub(count).max(0);
    // Each cell is an escape of at most 11 bytes and a 3-byte block.
    let bytes = (count as u64)
        .saturating_mul(14)
        .saturating_add(padding as u64)
        .saturating_add(4);
    reserve(usize::try_from(bytes).unwrap_or(usize::MAX))?;
    let mut out = String::with_capacity(bytes as usize);
    for i in 0..count {
        let fraction = (i as f64 / (width - 1) as f64) as f32;
        let color = interpolate(fraction, low, high)
            .map_err(|m| fail(ErrorName::InvalidFunctionArgument, m))?;
        out.push_str(&format!("\u{1b}[38;5;{}m\u{2588}", ansi_index(color)));
    }
    out.push_str(ANSI_RESET);
    out.extend(std::iter::repeat_n(' ', padding as usize));
    Ok(out)
}

fn invalid<T>(r: Result<T, String>) -> rusqlite::Result<Option<T>> {
    r.map(Some)
        .map_err(|m| fail(ErrorName::InvalidFunctionArgument, m))
}

fn text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) | ValueRef::Blob(t) => Some(String::from_utf8_lossy(t).into_owned()),
        _ => None,
    }
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_RGB.name(), 3, FLAGS, |ctx| {
        let (Some(r), Some(g), Some(b)) = (
            int(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        invalid(rgb(r, g, b))
    })?;
    define(conn, QM_COLOR.name(), 1, FLAGS, |ctx| {
        let Some(t) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        invalid(parse(&t))
    })?;
    define(conn, QM_COLOR_BETWEEN.name(), 3, FLAGS, |ctx| {
        let (Some(f), Some(low), Some(high)) = (
            num(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        invalid(between(f, low, high))
    })?;
    // color(value, low, high, lowColor, highColor) is color((value - low) / (high - low), …).
    define(conn, QM_COLOR_SCALE.name(), 5, FLAGS, |ctx| {
        let (Some(value), Some(low), Some(high), Some(lc), Some(hc)) = (
            num(ctx.get_raw(0)),
            num(ctx.get_raw(1)),
            num(ctx.get_raw(2)),
            int(ctx.get_raw(3)),
            int(ctx.get_raw(4)),
        ) else {
            return Ok(None);
        };
        invalid(between((value - low) / (high - low), lc, hc))
    })?;
    define(conn, QM_RENDER.name(), 2, FLAGS, |ctx| {
        let (Some(value), Some(color)) = (text(ctx.get_raw(0)), int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        reserve(value.len() + 16)?;
        Ok(Some(render(&value, color)))
    })?;
    define(conn, QM_BAR.name(), 4, FLAGS, |ctx| {
        let (Some(percent), Some(width), Some(low), Some(high)) = (
            num(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
            int(ctx.get_raw(3)),
        ) else {
            return Ok(None);
        };
        bar(percent, width, low, high).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_and_color_names() {
        // docs functions/color; TestColorFunctions.testRgb / testParseRgb.
        assert_eq!(rgb(0, 128, 255), Ok(0x0080ff));
        assert_eq!(rgb(256, 0, 0), Err("red must be between 0 and 255".into()));
        assert_eq!(rgb(0, 0, -1), Err("blue must be between 0 and 255".into()));
        assert_eq!(parse("#0f8"), Ok(0x00ff88));
        assert_eq!(parse("#FFF"), Ok(0xffffff));
        assert_eq!(parse("Red"), Ok(-2));
        assert_eq!(parse("white"), Ok(-8));
        assert_eq!(parse("#00ff00"), Err("Invalid color: '#00ff00'".into()));
        assert_eq!(parse(""), Err("Invalid color: ''".into()));
        assert_eq!(parse("purple"), Err("Invalid color: 'purple'".into()));
    }

    #[test]
    fn between_clamps_and_checks() {
        assert_eq!(between(2.0, 0x0a141e, 0x28323c), Ok(0x28323c));
        assert_eq!(between(-1.0, 0x0a141e, 0x28323c), Ok(0x0a141e));
        assert_eq!(
            between(0.5, -2, 0xff),
            Err("lowColor not a valid RGB color".into())
        );
    }

    #[test]
    fn renders_and_bars_as_trino() {
        // Trino 476's answers to the docs' examples (functions/color).
        assert_eq!(render("text", 0xff0000), "\u{1b}[38;5;196mtext\u{1b}[0m");
        assert_eq!(render("42", -5), "\u{1b}[38;5;4m42\u{1b}[0m");
        let full = "\u{1b}[38;5;196m█\u{1b}[38;5;214m█\u{1b}[38;5;226m█\u{1b}[38;5;154m█\u{1b}[38;5;46m█\u{1b}[0m";
        assert_eq!(bar(1.0, 5, 0xff0000, 0x00ff00).ok().as_deref(), Some(full));
        assert_eq!(
            bar(0.0, 5, 0xff0000, 0x00ff00).ok().as_deref(),
            Some("\u{1b}[0m     ")
        );
        assert_eq!(
            bar(0.5, 0, 0xff0000, 0x00ff00).ok().as_deref(),
            Some("\u{1b}[0m")
        );
        assert_eq!(
            bar(0.4, 30, 0xff0000, 0x00ff00)
                .map(|s| s.chars().count())
                .ok(),
            Some(166)
        );
        assert!(bar(0.5, 3, -2, 0).is_err());
    }
}
