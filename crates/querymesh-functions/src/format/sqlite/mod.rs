//! `format(format, args…)`: Java's `String.format` as Trino calls it (FormatFunction): each
//! argument becomes the Java value Trino's converter makes of it (`Long` for every integer,
//! `Double`, `BigDecimal`, `String`, `LocalDate`…), and the formatting, its checks and its
//! exception texts follow `java.util.Formatter` with Trino's English locale.
//!
//! `qm_format(format, kinds, args…)`: `kinds` has one letter per argument saying which Java
//! value it is (see [`Arg::read`]); the lowering (querymesh-functions/src/format) turns decimals, uuids,
//! intervals and json into their text first, as Trino's converters do.

mod numbers;
mod spec;
mod temporal;
pub mod units;

use querymesh_values::calendar;
use querymesh_values::error::ErrorName;
use querymesh_values::java_number::{double_to_string, float_to_string};
use rusqlite::Connection;
use rusqlite::types::ValueRef;

use self::numbers::Digits;
use self::spec::{Flags, FormatError, Index, Piece, Spec};
use self::temporal::Moment;
use crate::datetime::time_zone::sqlite as zones;
use crate::udf::{FLAGS, define, fail, reserve};

use querymesh_values::sqlite_expr::SqliteFn;

pub const QM_FORMAT: SqliteFn = SqliteFn::new("qm_format");

/// A Java value as FormatFunction hands it to `String.format`.
#[derive(Clone, Debug, PartialEq)]
enum Arg {
    Null,
    Boolean(bool),
    Long(i64),
    Float(f32),
    Double(f64),
    /// Plain text of the exact value (`-12.30`).
    BigDecimal(String),
    String(String),
    /// Days since 1970-01-01.
    LocalDate(i64),
    /// Nanoseconds of the day.
    LocalTime(i64),
    LocalDateTime(i64, i64),
    ZonedDateTime(Zoned),
}

/// A `java.time.ZonedDateTime`: the wall time in its zone, and the zone.
#[derive(Clone, Debug, PartialEq)]
struct Zoned {
    day: i64,
    nanos: i64,
    /// Seconds east of UTC at the instant.
    offset: i64,
    /// Trino's zone id (`America/New_York`, `UTC`, `+07:09`).
    id: String,
    /// The zone's short name at the instant (`EDT`); a fixed offset's is its id.
    short_name: String,
}

impl Zoned {
    fn read(stored: &str) -> Option<Zoned> {
        let z = zones::parse_stored(stored)?;
        let offset = i64::from(z.zone.offset_at(z.secs));
        let local = z.secs + offset;
        let fixed = z.zone.id.starts_with(['+', '-']);
        let short_name = match z.zone.abbreviation(z.secs) {
            Some(a) if !fixed => a,
            _ => z.zone.id.clone(),
        };
        Some(Zoned {
            day: local.div_euclid(86_400),
            nanos: local.rem_euclid(86_400) * 1_000_000_000 + (z.picos / 1000) as i64,
            offset,
            id: z.zone.id.clone(),
            short_name,
        })
    }

    fn is_offset(&self) -> bool {
        self.id.starts_with(['+', '-'])
    }

    /// `ZoneOffset.getId()`: `Z`, `+HH:MM` or `+HH:MM:SS`.
    fn offset_text(&self) -> String {
        if self.offset == 0 {
            return "Z".into();
        }
        let sign = if self.offset < 0 { '-' } else { '+' };
        let a = self.offset.abs();
        let mut text = format!("{sign}{:02}:{:02}", a / 3600, a / 60 % 60);
        if a % 60 != 0 {
            text.push_str(&format!(":{:02}", a % 60));
        }
        text
    }
}

impl Arg {
    /// Reads one argument of kind `kind`: `n` unknown, `b` boolean, `l` any integer, `f` real,
    /// `d` double, `m` decimal text, `s` text, `D` date, `t` time, `T` timestamp, `z`
    /// timestamp with time zone.
    fn read(kind: char, v: ValueRef<'_>) -> Option<Arg> {
        let text = || crate::udf::text(v);
        let number = || crate::udf::num(v);
        if matches!(v, ValueRef::Null) {
            return Some(Arg::Null);
        }
        Some(match kind {
            'b' => Arg::Boolean(number()? != 0.0),
            'l' => match v {
                ValueRef::Integer(i) => Arg::Long(i),
                _ => Arg::Long(number()? as i64),
            },
            'f' => Arg::Float(number()? as f32),
            'd' => Arg::Double(number()?),
            'm' => Arg::BigDecimal(text()?),
            'D' => Arg::LocalDate(calendar::parse_date(text()?.get(..10)?)?),
            't' => Arg::LocalTime(calendar::parse_time_nanos(&text()?)?),
            'T' => {
                let t = text()?;
                let (day, time) = t.split_once([' ', 'T'])?;
                Arg::LocalDateTime(
                    calendar::parse_date(day)?,
                    calendar::parse_time_nanos(time)?,
                )
            }
            'z' => Arg::ZonedDateTime(Zoned::read(&text()?)?),
            'n' => Arg::Null,
            _ => Arg::String(text()?),
        })
    }

    fn class(&self) -> &'static str {
        match self {
            Arg::Null => "null",
            Arg::Boolean(_) => "java.lang.Boolean",
            Arg::Long(_) => "java.lang.Long",
            Arg::Float(_) => "java.lang.Float",
            Arg::Double(_) => "java.lang.Double",
            Arg::BigDecimal(_) => "java.math.BigDecimal",
            Arg::String(_) => "java.lang.String",
            Arg::LocalDate(_) => "java.time.LocalDate",
            Arg::LocalTime(_) => "java.time.LocalTime",
            Arg::LocalDateTime(..) => "java.time.LocalDateTime",
            Arg::ZonedDateTime(_) => "java.time.ZonedDateTime",
        }
    }

    /// Java's `toString()` of the value (`%s`).
    fn text(&self) -> String {
        match self {
            Arg::Null => "null".into(),
            Arg::Boolean(b) => b.to_string(),
            Arg::Long(v) => v.to_string(),
            Arg::Float(x) => float_to_string(*x),
            Arg::Double(x) => double_to_string(*x),
            Arg::BigDecimal(d) => big_decimal_text(d),
            Arg::String(s) => s.clone(),
            Arg::LocalDate(d) => temporal::date_text(*d),
            Arg::LocalTime(n) => temporal::time_text(*n),
            Arg::LocalDateTime(d, n) => {
                format!("{}T{}", temporal::date_text(*d), temporal::time_text(*n))
            }
            // ZonedDateTime.toString(): the local date-time, the offset, and a region's id.
            Arg::ZonedDateTime(z) => {
                let mut text = format!(
                    "{}T{}{}",
                    temporal::date_text(z.day),
                    temporal::time_text(z.nanos),
                    z.offset_text()
                );
                if !z.is_offset() {
                    text.push_str(&format!("[{}]", z.id));
                }
                text
            }
        }
    }

    /// Java's `hashCode()` of the value (`%h`).
    fn hash_code(&self) -> i32 {
        let long = |v: i64| (v ^ ((v as u64) >> 32) as i64) as i32;
        let date = |day: i64| {
            let (y, m, d) = calendar::civil_from_days(day);
            let y = y as i32;
            (y & -2048) ^ ((y << 11) + ((m as i32) << 6) + d as i32)
        };
        match self {
            Arg::Null => 0,
            Arg::Boolean(b) => {
                if *b {
                    1231
                } else {
                    1237
                }
            }
            Arg::Long(v) => long(*v),
            Arg::Float(x) => {
                if x.is_nan() {
                    0x7fc0_0000
                } else {
                    x.to_bits() as i32
                }
            }
            Arg::Double(x) => long(if x.is_nan() {
                0x7ff8_0000_0000_0000
            } else {
                x.to_bits() as i64
            }),
            Arg::BigDecimal(d) => big_decimal_hash(d),
            Arg::String(s) => s
                .encode_utf16()
                .fold(0i32, |h, u| h.wrapping_mul(31).wrapping_add(i32::from(u))),
            Arg::LocalDate(d) => date(*d),
            Arg::LocalTime(n) => long(*n),
            Arg::LocalDateTime(d, n) => date(*d) ^ long(*n),
            // ZonedDateTime.hashCode(): date-time ^ offset ^ rotl(zone, 3); a ZoneOffset's
            // hash is its seconds, a region's its id's.
            Arg::ZonedDateTime(z) => {
                let offset = z.offset as i32;
                let zone = if z.is_offset() {
                    offset
                } else {
                    Arg::String(z.id.clone()).hash_code()
                };
                date(z.day) ^ long(z.nanos) ^ offset ^ zone.rotate_left(3)
            }
        }
    }

    fn moment(&self) -> Option<Moment> {
        match *self {
            Arg::Long(ms) => Some(Moment::from_millis(ms)),
            Arg::LocalDate(d) => Some(Moment {
                day: Some(d),
                ..Moment::default()
            }),
            Arg::LocalTime(n) => Some(Moment {
                nanos: Some(n),
                ..Moment::default()
            }),
            Arg::LocalDateTime(d, n) => Some(Moment {
                day: Some(d),
                nanos: Some(n),
                zone: None,
            }),
            Arg::ZonedDateTime(ref z) => Some(Moment {
                day: Some(z.day),
                nanos: Some(z.nanos),
                zone: Some((z.offset, z.short_name.clone())),
            }),
            _ => None,
        }
    }
}

/// Sign, unscaled digits and scale of a plain decimal text.
fn decimal_parts(text: &str) -> (bool, String, usize) {
    let negative = text.starts_with('-');
    let body = text.trim_start_matches(['-', '+']);
    let (whole, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = format!("{whole}{frac}");
    let digits = digits.trim_start_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (negative, digits.to_string(), frac.len())
}

/// `BigDecimal.toString()`: plain unless the adjusted exponent is below -6.
fn big_decimal_text(text: &str) -> String {
    let (negative, digits, scale) = decimal_parts(text);
    let adjusted = digits.len() as i64 - 1 - scale as i64;
    if adjusted >= -6 {
        return text.to_string();
    }
    let sign = if negative && digits != "0" { "-" } else { "" };
    let (first, rest) = digits.split_at(1);
    let point = if rest.is_empty() { "" } else { "." };
    format!("{sign}{first}{point}{rest}E{adjusted}")
}

/// `BigDecimal.hashCode()`: `31 * unscaled.hashCode() + scale`, the unscaled value hashed
/// as `BigInteger` does, over its 32-bit magnitude words.
fn big_decimal_hash(text: &str) -> i32 {
    let (negative, digits, scale) = decimal_parts(text);
    let magnitude: u128 = digits.parse().unwrap_or(0);
    let mut words: Vec<u32> = (0..4)
        .rev()
        .map(|i| (magnitude >> (32 * i)) as u32)
        .collect();
    while words.first() == Some(&0) {
        words.remove(0);
    }
    let h = words
        .iter()
        .fold(0i32, |h, w| h.wrapping_mul(31).wrapping_add(*w as i32));
    let h = if negative { h.wrapping_neg() } else { h };
    h.wrapping_mul(31).wrapping_add(scale as i32)
}

fn conversion_error(spec: &Spec, arg: &Arg) -> FormatError {
    FormatError::new(
        "IllegalFormatConversion",
        format!("{} != {}", spec.conversion, arg.class()),
    )
}

/// One specifier's text, before upper-casing and justification.
fn convert(spec: &Spec, arg: &Arg) -> Result<String, FormatError> {
    if spec.temporal {
        if *arg == Arg::Null {
            return Ok("null".into());
        }
        let moment = arg.moment().ok_or_else(|| conversion_error(spec, arg))?;
        return temporal::convert(spec.conversion, &moment)
            .ok_or_else(|| conversion_error(spec, arg));
    }
    let truncate = |s: String| match spec.precision {
        Some(p) => s.chars().take(p).collect(),
        None => s,
    };
    match (spec.conversion, arg) {
        ('b', Arg::Null) => Ok(truncate("false".into())),
        ('b', Arg::Boolean(b)) => Ok(truncate(b.to_string())),
        ('b', _) => Ok(truncate("true".into())),
        ('h', Arg::Null) => Ok(truncate("null".into())),
        ('h', a) => Ok(truncate(format!("{:x}", a.hash_code() as u32))),
        ('s', _) if spec.flags.has(Flags::ALTERNATE) => Err(FormatError::new(
            "FormatFlagsConversionMismatch",
            "Conversion = s, Flags = #",
        )),
        ('s', a) => Ok(truncate(a.text())),
        (_, Arg::Null) => Ok("null".into()),
        ('d' | 'o' | 'x', Arg::Long(v)) => Ok(numbers::integral(spec, *v)),
        ('e' | 'f' | 'g' | 'a', Arg::Double(_) | Arg::Float(_)) => {
            let x = match arg {
                Arg::Float(x) => f64::from(*x),
                Arg::Double(x) => *x,
                _ => 0.0,
            };
            Ok(if !x.is_finite() {
                numbers::not_finite(spec, x)
            } else if spec.conversion == 'a' {
                numbers::hexadecimal(spec, x)
            } else {
                numbers::floating(spec, x.is_sign_negative(), &Digits::of_double(x.abs()))
            })
        }
        ('e' | 'f' | 'g', Arg::BigDecimal(d)) => {
            let negative = d.starts_with('-');
            let digits = Digits::of_decimal(d.trim_start_matches('-'));
            Ok(numbers::floating(spec, negative, &digits))
        }
        _ => Err(conversion_error(spec, arg)),
    }
}

fn justify(spec: &Spec, text: String) -> String {
    let text = if spec.upper {
        text.to_uppercase()
    } else {
        text
    };
    let Some(width) = spec.width else {
        return text;
    };
    let pad = width.saturating_sub(text.chars().count());
    let spaces = " ".repeat(pad);
    if spec.flags.has(Flags::LEFT) {
        text + &spaces
    } else {
        spaces + &text
    }
}

/// The bytes formatting may build beyond the arguments' own text: widths and the
/// precisions that add digits.
fn growth(pieces: &[Piece<'_>]) -> usize {
    pieces
        .iter()
        .map(|p| match p {
            Piece::Text(t) => t.len(),
            Piece::Spec(s) => {
                let digits = match s.conversion {
                    'e' | 'f' | 'g' | 'a' if !s.temporal => s.precision.unwrap_or(0),
                    _ => 0,
                };
                s.width
                    .unwrap_or(0)
                    .saturating_add(digits)
                    .saturating_add(64)
            }
        })
        .fold(0usize, usize::saturating_add)
}

fn format(pieces: &[Piece<'_>], args: &[Arg]) -> Result<String, FormatError> {
    let mut out = String::new();
    let (mut ordinary, mut last) = (0usize, None::<usize>);
    for piece in pieces {
        let spec = match piece {
            Piece::Text(t) => {
                out.push_str(t);
                continue;
            }
            Piece::Spec(s) => s,
        };
        let text = match spec.conversion {
            '%' if !spec.temporal => "%".into(),
            'n' if !spec.temporal => "\n".into(),
            _ => {
                let index = match spec.index {
                    Index::Next => {
                        ordinary += 1;
                        Some(ordinary - 1)
                    }
                    Index::Explicit(i) => Some(i - 1),
                    Index::Previous => last,
                };
                let missing = || {
                    FormatError::new(
                        "MissingFormatArgument",
                        format!("Format specifier '{}'", spec.text()),
                    )
                };
                let index = index.ok_or_else(missing)?;
                let arg = args.get(index).ok_or_else(missing)?;
                last = Some(index);
                convert(spec, arg)?
            }
        };
        out.push_str(&justify(spec, text));
    }
    Ok(out)
}

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_FORMAT.name(), -1, FLAGS, |ctx| {
        let bad = |m: &str| fail(ErrorName::GenericInternalError, m);
        if ctx.len() < 2 {
            return Err(bad("qm_format needs a format and the argument kinds"));
        }
        let Some(fmt) = crate::udf::text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        let kinds: String = ctx.get(1)?;
        let mut args = Vec::with_capacity(ctx.len() - 2);
        for (i, kind) in (2..ctx.len()).zip(kinds.chars()) {
            args.push(Arg::read(kind, ctx.get_raw(i)).ok_or_else(|| bad("format argument"))?);
        }
        let refused = |e: FormatError| {
            fail(
                ErrorName::InvalidFunctionArgument,
                format!("Invalid format string: {fmt} ({}: {})", e.kind, e.message),
            )
        };
        let pieces = spec::parse(&fmt).map_err(refused)?;
        let held: usize = args.iter().map(|a| a.text().len()).sum();
        reserve(growth(&pieces).saturating_add(held))?;
        format(&pieces, &args).map(Some).map_err(refused)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(fmt: &str, args: &[Arg]) -> Result<String, String> {
        let pieces = spec::parse(fmt).map_err(|e| format!("{}: {}", e.kind, e.message))?;
        format(&pieces, args).map_err(|e| format!("{}: {}", e.kind, e.message))
    }

    fn s(v: &str) -> Arg {
        Arg::String(v.into())
    }

    // TestFormatFunction.testFormat (Trino).
    #[test]
    fn trino_examples() {
        assert_eq!(run("%s%%", &[Arg::Long(123)]).as_deref(), Ok("123%"));
        assert_eq!(
            run("%-7s,%7s", &[s("hello"), s("world")]).as_deref(),
            Ok("hello  ,  world")
        );
        let bools = [Arg::Boolean(true), Arg::Boolean(false), Arg::Null];
        assert_eq!(run("%b %B %b", &bools).as_deref(), Ok("true FALSE false"));
        assert_eq!(run("%s %s %s", &bools).as_deref(), Ok("true false null"));
        assert_eq!(run("%S %S %S", &bools).as_deref(), Ok("TRUE FALSE NULL"));
        let abcd = [s("a"), s("b"), s("c"), s("d")];
        assert_eq!(
            run("%4$s %3$s %2$s %1$s %4$s %3$s %2$s %1$s", &abcd).as_deref(),
            Ok("d c b a d c b a")
        );
        assert_eq!(run("%s %s %<s %<s", &abcd).as_deref(), Ok("a b b b"));
        assert_eq!(run("%2$s %s %<s %s", &abcd).as_deref(), Ok("b a a b"));
        assert_eq!(
            run("%s %s", &[Arg::Long(2), Arg::Long(3), Arg::Long(4)]).as_deref(),
            Ok("2 3")
        );
        let d = [Arg::BigDecimal("9.12345678".into())];
        assert_eq!(
            run("%1$s %1$f %1$.2f", &d).as_deref(),
            Ok("9.12345678 9.123457 9.12")
        );
        assert_eq!(
            run("%1$d %1$x %1$X %1$o", &[Arg::Long(1234)]).as_deref(),
            Ok("1234 4d2 4D2 2322")
        );
        let ts = Arg::LocalDateTime(
            calendar::parse_date("1969-07-20").unwrap_or_default(),
            calendar::parse_time_nanos("16:17:00").unwrap_or_default(),
        );
        assert_eq!(
            run("%1$s %1$tF %1$tT", &[ts]).as_deref(),
            Ok("1969-07-20T16:17 1969-07-20 16:17:00")
        );
        assert_eq!(
            run("%s %d", &[Arg::Long(8)]),
            Err("MissingFormatArgument: Format specifier '%d'".into())
        );
        assert_eq!(
            run("%d", &[Arg::BigDecimal("8".into())]),
            Err("IllegalFormatConversion: d != java.math.BigDecimal".into())
        );
        assert_eq!(
            run("%tT", &[s("16:17:13")]),
            Err("IllegalFormatConversion: T != java.lang.String".into())
        );
    }

    #[test]
    fn java_values() {
        assert_eq!(big_decimal_text("0.00000001"), "1E-8");
        assert_eq!(big_decimal_text("-0.00000012"), "-1.2E-7");
        assert_eq!(big_decimal_text("0.000001"), "0.000001");
        assert_eq!(run("%h", &[s("hello")]).as_deref(), Ok("5e918d2"));
        assert_eq!(run("%h", &[Arg::Long(-1)]).as_deref(), Ok("0"));
        assert_eq!(run("%h", &[Arg::Boolean(true)]).as_deref(), Ok("4cf"));
        assert_eq!(
            run("%h", &[Arg::BigDecimal("1.5".into())]).as_deref(),
            Ok("1d2")
        );
        assert_eq!(
            run("%.3s|%5.1s|", &[s("abcdef"), s("xyz")]).as_deref(),
            Ok("abc|    x|")
        );
        assert_eq!(
            run("%tH", &[Arg::LocalDate(0)]),
            Err("IllegalFormatConversion: H != java.time.LocalDate".into())
        );
        assert_eq!(run("%tQ", &[Arg::Long(1500)]).as_deref(), Ok("1500"));
        assert_eq!(
            run("%c", &[Arg::Long(65)]),
            Err("IllegalFormatConversion: c != java.lang.Long".into())
        );
        assert_eq!(
            run("%.2f|%e", &[Arg::Float(1.1), Arg::Double(f64::INFINITY)]).as_deref(),
            Ok("1.10|Infinity")
        );
    }
}
