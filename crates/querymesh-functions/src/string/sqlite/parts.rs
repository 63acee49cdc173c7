//! Text functions SQLite lacks: `qm_reverse`, `qm_starts_with`, `qm_split_part`,
//! `qm_lpad`/`qm_rpad` and `qm_concat_ws`/`qm_concat_ws_array`, which measure the value they
//! build against the memory budget first.

use querymesh_values::error::ErrorName;
use rusqlite::Connection;
use rusqlite::functions::Context;

use crate::udf::{FLAGS, define, fail, int, reserve, text};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_CONCAT_WS: SqliteFn = SqliteFn::new("qm_concat_ws");
pub const QM_CONCAT_WS_ARRAY: SqliteFn = SqliteFn::new("qm_concat_ws_array");
pub const QM_REVERSE: SqliteFn = SqliteFn::new("qm_reverse");
pub const QM_STARTS_WITH: SqliteFn = SqliteFn::new("qm_starts_with");
pub const QM_SPLIT_PART: SqliteFn = SqliteFn::new("qm_split_part");
pub const QM_LPAD: SqliteFn = SqliteFn::new("qm_lpad");
pub const QM_RPAD: SqliteFn = SqliteFn::new("qm_rpad");

/// The bytes of `s` padded to `target` code points with `pad` (StringFunctions.pad), when it
/// grows: what the padded value takes, counted before it is built.
fn padded_bytes(s: &str, chars: usize, target: usize, pad: &str) -> usize {
    let pad_chars = pad.chars().count().max(1);
    let fill = target.saturating_sub(chars);
    let partial: usize = pad.chars().take(fill % pad_chars).map(char::len_utf8).sum();
    (fill / pad_chars)
        .saturating_mul(pad.len())
        .saturating_add(partial)
        .saturating_add(s.len())
}

/// LPAD (`left`) or RPAD of the three arguments (StringFunctions.pad).
fn pad_to(ctx: &Context<'_>, left: bool) -> rusqlite::Result<Option<String>> {
    let (Some(s), Some(n), Some(pad)) = (
        text(ctx.get_raw(0)),
        int(ctx.get_raw(1)),
        text(ctx.get_raw(2)),
    ) else {
        return Ok(None);
    };
    let n = usize::try_from(n).map_err(|_| {
        fail(
            ErrorName::InvalidFunctionArgument,
            "Target length must be in the range [0..2147483647]",
        )
    })?;
    if n > i32::MAX as usize {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "Target length must be in the range [0..2147483647]",
        ));
    }
    let chars = s.chars().count();
    if chars >= n {
        return Ok(Some(s.chars().take(n).collect::<String>()));
    }
    if pad.is_empty() {
        return Err(fail(
            ErrorName::InvalidFunctionArgument,
            "Padding string must not be empty",
        ));
    }
    let bytes = padded_bytes(&s, chars, n, &pad);
    reserve(bytes)?;
    let fill = n - chars;
    let pad_chars = pad.chars().count();
    let mut out = pad.repeat(fill / pad_chars);
    out.reserve_exact(bytes - out.len());
    out.extend(pad.chars().take(fill % pad_chars));
    if left {
        out.push_str(&s);
    } else {
        out.insert_str(0, &s);
    }
    Ok(Some(out))
}

/// `values` joined by `separator`, the missing ones skipped (ConcatWsFunction), counted
/// against the memory budget before it is built.
pub fn concat_ws(separator: &str, values: &[Option<String>]) -> rusqlite::Result<String> {
    let present: Vec<&str> = values.iter().flatten().map(String::as_str).collect();
    let bytes = present.iter().map(|v| v.len()).sum::<usize>()
        + separator.len() * present.len().saturating_sub(1);
    reserve(bytes)?;
    Ok(present.join(separator))
}

/// Registers the text functions on `conn`.
pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    // qm_concat_ws(separator, value…): NULL only when the separator is.
    define(conn, QM_CONCAT_WS.name(), -1, FLAGS, |ctx| {
        let Some(separator) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let values: Vec<Option<String>> = (1..ctx.len()).map(|i| text(ctx.get_raw(i))).collect();
        concat_ws(&separator, &values).map(Some)
    })?;
    // qm_concat_ws_array(separator, array(varchar) as its JSON text).
    define(conn, QM_CONCAT_WS_ARRAY.name(), 2, FLAGS, |ctx| {
        let (Some(separator), Some(array)) = (text(ctx.get_raw(0)), text(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let values: Vec<Option<String>> = serde_json::from_str::<Vec<Option<String>>>(&array)
            .map_err(|_| {
                fail(
                    ErrorName::GenericInternalError,
                    "An array value is not valid",
                )
            })?;
        concat_ws(&separator, &values).map(Some)
    })?;
    define(conn, QM_REVERSE.name(), 1, FLAGS, |ctx| {
        let Some(s) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        reserve(s.len())?;
        Ok(Some(s.chars().rev().collect::<String>()))
    })?;
    define(conn, QM_STARTS_WITH.name(), 2, FLAGS, |ctx| {
        Ok(match (text(ctx.get_raw(0)), text(ctx.get_raw(1))) {
            (Some(a), Some(b)) => Some(a.starts_with(&b)),
            _ => None,
        })
    })?;
    define(conn, QM_SPLIT_PART.name(), 3, FLAGS, |ctx| {
        let (Some(s), Some(sep), Some(i)) = (
            text(ctx.get_raw(0)),
            text(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        if i < 1 {
            return Err(fail(
                ErrorName::InvalidFunctionArgument,
                "Index must be greater than zero",
            ));
        }
        // An empty delimiter splits between code points (StringFunctions.splitPart).
        if sep.is_empty() {
            return Ok(s.chars().nth(i as usize - 1).map(String::from));
        }
        Ok(s.split(sep.as_str())
            .nth(i as usize - 1)
            .map(str::to_string))
    })?;
    for (name, left) in [(QM_LPAD.name(), true), (QM_RPAD.name(), false)] {
        define(conn, name, 3, FLAGS, move |ctx| pad_to(ctx, left))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_is_measured_before_it_is_built() {
        for (s, target, pad) in [("x", 5, "ab"), ("é", 4, "çd"), ("", 3, "€"), ("ab", 2, "z")] {
            let chars = s.chars().count();
            let built: String = s
                .chars()
                .chain(pad.chars().cycle().take(target - chars))
                .collect();
            assert_eq!(
                padded_bytes(s, chars, target, pad),
                built.len(),
                "{s} {pad}"
            );
        }
        // A billion code points is counted, never built.
        assert_eq!(padded_bytes("x", 1, 1_000_000_000, "y"), 1_000_000_000);
    }

    // The documentation's examples (functions/string, concat_ws).
    #[test]
    fn concat_ws_skips_missing_values() {
        let some = |v: &[&str]| v.iter().map(|s| Some(s.to_string())).collect::<Vec<_>>();
        assert_eq!(
            concat_ws(",", &some(&["a", "b", "c"])).ok().as_deref(),
            Some("a,b,c")
        );
        assert_eq!(
            concat_ws("::", &some(&["solo"])).ok().as_deref(),
            Some("solo")
        );
        assert_eq!(concat_ws("-", &[]).ok().as_deref(), Some(""));
        let gaps = [Some("a".to_string()), None, Some("c".to_string())];
        assert_eq!(concat_ws(",", &gaps).ok().as_deref(), Some("a,c"));
        assert_eq!(concat_ws(",", &[None, None]).ok().as_deref(), Some(""));
    }
}
