//! Doubles and reals printed as Java prints them (`Double.toString`, `Float.toString`), which
//! is how Trino writes them into `data` (trino-facts.md "Value encoding"); its CAST to varchar
//! writes the same digits always in scientific form (`double_to_varchar`).
//!
//! Java (JDK 19 and later, the algorithm by R. Giulietti) picks the shortest decimal that reads
//! back as the same number, but never fewer than two digits when one would do: among the
//! one- and two-digit decimals that read back, the closest wins (`4.9E-324`, not `5.0E-324`).
//! It then writes `1.0E-3 ≤ |x| < 1.0E7` as a plain decimal with at least one fraction digit
//! (`100.0`, `0.001`) and anything else as `d.ddd…E±n` with no `+` (`1.0E7`, `1.0E-4`).

use std::io;

use serde_json::ser::{CompactFormatter, Formatter};

/// The significant digits (no leading zero) and the decimal exponent of the first one.
struct Decimal {
    digits: Vec<u8>,
    exponent: i32,
}

/// Splits Rust's `{:e}` text (`5.3234821165e8`) into digits and exponent.
fn parse_scientific(text: &str) -> Option<Decimal> {
    let (mantissa, exponent) = text.split_once('e')?;
    let digits: Vec<u8> = mantissa.bytes().filter(u8::is_ascii_digit).collect();
    Some(Decimal {
        digits,
        exponent: exponent.parse().ok()?,
    })
}

/// Java's choice of digits for a positive, finite, non-zero magnitude. `shortest` is Rust's
/// shortest round-trip `{:e}`, `two_digits` gives its `{:.1e}` (the closest two-digit
/// decimal), and `reads_back` says whether a decimal text parses to the same number.
fn java_digits(
    shortest: &str,
    two_digits: impl Fn() -> String,
    reads_back: impl Fn(&str) -> bool,
) -> Decimal {
    let fallback = Decimal {
        digits: vec![b'0'],
        exponent: 0,
    };
    let Some(short) = parse_scientific(shortest) else {
        return fallback;
    };
    if short.digits.len() == 1 {
        let two = two_digits();
        if reads_back(&two) {
            return parse_scientific(&two).unwrap_or(short);
        }
    }
    short
}

/// Java's digits of a positive, finite, non-zero double.
fn double_digits(a: f64) -> Decimal {
    java_digits(
        &format!("{a:e}"),
        || format!("{a:.1e}"),
        |t| t.parse::<f64>().is_ok_and(|y| y == a),
    )
}

/// Java's digits of a positive, finite, non-zero float.
fn float_digits(a: f32) -> Decimal {
    java_digits(
        &format!("{a:e}"),
        || format!("{a:.1e}"),
        |t| t.parse::<f32>().is_ok_and(|y| y == a),
    )
}

/// Where Java writes a plain decimal. There Rust's `Display` already prints Java's digits
/// (one and two digits only differ for subnormals), lacking only the `.0` of whole numbers.
fn is_plain(a: f64) -> bool {
    (1e-3..1e7).contains(&a)
}

fn render(negative: bool, d: &Decimal) -> String {
    let mut out = String::with_capacity(d.digits.len() + 8);
    if negative {
        out.push('-');
    }
    let digits = std::str::from_utf8(&d.digits).unwrap_or("0");
    // Trailing zeros carry nothing once a fraction digit is guaranteed.
    let digits = match digits.trim_end_matches('0') {
        "" => "0",
        trimmed => trimmed,
    };
    let e = d.exponent;
    if (-3..7).contains(&e) {
        if e >= 0 {
            let whole = (e + 1) as usize;
            if digits.len() <= whole {
                out.push_str(digits);
                out.extend(std::iter::repeat_n('0', whole - digits.len()));
                out.push_str(".0");
            } else {
                out.push_str(&digits[..whole]);
                out.push('.');
                out.push_str(&digits[whole..]);
            }
        } else {
            out.push_str("0.");
            out.extend(std::iter::repeat_n('0', (-e - 1) as usize));
            out.push_str(digits);
        }
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        out.push_str(if digits.len() > 1 { &digits[1..] } else { "0" });
        out.push('E');
        out.push_str(&e.to_string());
    }
    out
}

/// Java's text for the values without digits of their own: NaN, ±Infinity and ±0.
fn special(nan: bool, infinite: bool, zero: bool, negative: bool) -> Option<&'static str> {
    match (nan, infinite, zero, negative) {
        (true, ..) => Some("NaN"),
        (_, true, _, false) => Some("Infinity"),
        (_, true, _, true) => Some("-Infinity"),
        (_, _, true, false) => Some("0.0"),
        (_, _, true, true) => Some("-0.0"),
        _ => None,
    }
}

/// Java's `Double.toString(x)`.
pub fn double_to_string(x: f64) -> String {
    if let Some(text) = special(x.is_nan(), x.is_infinite(), x == 0.0, x.is_sign_negative()) {
        return text.into();
    }
    let a = x.abs();
    if is_plain(a) {
        return if x.fract() == 0.0 {
            format!("{x}.0")
        } else {
            x.to_string()
        };
    }
    render(x.is_sign_negative(), &double_digits(a))
}

/// Java's `Float.toString(x)`.
pub fn float_to_string(x: f32) -> String {
    if let Some(text) = special(x.is_nan(), x.is_infinite(), x == 0.0, x.is_sign_negative()) {
        return text.into();
    }
    let digits = float_digits(x.abs());
    render(x.is_sign_negative(), &digits)
}

/// `d.ddd…E±n` whatever the magnitude, with at least one fraction digit.
fn render_scientific(negative: bool, d: &Decimal) -> String {
    let digits = std::str::from_utf8(&d.digits).unwrap_or("0");
    let digits = match digits.trim_end_matches('0') {
        "" => "0",
        trimmed => trimmed,
    };
    let sign = if negative { "-" } else { "" };
    let fraction = if digits.len() > 1 { &digits[1..] } else { "0" };
    format!("{sign}{}.{fraction}E{}", &digits[..1], d.exponent)
}

/// What CAST to varchar writes for the values without digits: zero is `0E0`, not `0.0`.
fn varchar_special(x: f64) -> Option<&'static str> {
    match x {
        x if x.is_nan() => Some("NaN"),
        f64::INFINITY => Some("Infinity"),
        f64::NEG_INFINITY => Some("-Infinity"),
        0.0 if x.is_sign_negative() => Some("-0E0"),
        0.0 => Some("0E0"),
        _ => None,
    }
}

/// How Trino casts a double to varchar (DoubleOperators.castToVarchar, Trino 4xx): Java's
/// digits through `DecimalFormat("0.0###################E0")`, always in scientific form
/// (`1.5E0`, `1.0E-3`, `3.0000000000000004E-1`), zero as `0E0` / `-0E0`. The pattern keeps up
/// to 21 digits, more than Java's shortest ever has, so it never rounds them.
pub fn double_to_varchar(x: f64) -> String {
    if let Some(text) = varchar_special(x) {
        return text.into();
    }
    let digits = double_digits(x.abs());
    render_scientific(x.is_sign_negative(), &digits)
}

/// How Trino casts a real to varchar (RealOperators.castToVarchar): `Float.toString`'s digits
/// through `DecimalFormat("0.0#####E0")`, so at most seven significant digits, rounded half
/// to even (`REAL '1' / 3` is `3.333333E-1`, `REAL '0.1' + REAL '0.2'` is `3.0E-1`).
pub fn float_to_varchar(x: f32) -> String {
    if let Some(text) = varchar_special(f64::from(x)) {
        return text.into();
    }
    let digits = float_digits(x.abs());
    render_scientific(x.is_sign_negative(), &round_half_even(digits, 7))
}

/// `d` cut to `keep` significant digits, rounded half to even as DecimalFormat rounds.
fn round_half_even(d: Decimal, keep: usize) -> Decimal {
    if d.digits.len() <= keep {
        return d;
    }
    let (kept, dropped) = d.digits.split_at(keep);
    let mut kept = kept.to_vec();
    let first = dropped[0];
    let rest_nonzero = dropped[1..].iter().any(|&b| b != b'0');
    let last_odd = kept.last().is_some_and(|&b| (b - b'0') % 2 == 1);
    let up = first > b'5' || (first == b'5' && (rest_nonzero || last_odd));
    let mut exponent = d.exponent;
    if up {
        let mut i = kept.len();
        loop {
            if i == 0 {
                // 9.99… carried into a new leading digit.
                kept.insert(0, b'1');
                kept.pop();
                exponent += 1;
                break;
            }
            i -= 1;
            if kept[i] == b'9' {
                kept[i] = b'0';
            } else {
                kept[i] += 1;
                break;
            }
        }
    }
    Decimal {
        digits: kept,
        exponent,
    }
}

/// serde_json's compact output with doubles in Java's text: the JSON number Trino sends
/// (`5.3234821165E8` is valid JSON; serde_json alone would write `532348211.65`).
pub struct JavaNumbers;

impl Formatter for JavaNumbers {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        // Most prices and quantities are plain, where serde_json's own shortest digits (ryu,
        // `100.0`, `0.001`) are Java's text: keep its speed there.
        if is_plain(value.abs()) {
            return CompactFormatter.write_f64(writer, value);
        }
        writer.write_all(double_to_string(value).as_bytes())
    }

    fn write_f32<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f32) -> io::Result<()> {
        writer.write_all(float_to_string(value).as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What Java 21's `Double.toString` prints for each.
    #[test]
    fn doubles_print_as_java_prints_them() {
        for (x, java) in [
            (0.001, "0.001"),
            (9999999.0, "9999999.0"),
            (1.0e7, "1.0E7"),
            (1.2345678e7, "1.2345678E7"),
            (1.0e-4, "1.0E-4"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (4.9e-324, "4.9E-324"),
            (f64::MAX, "1.7976931348623157E308"),
            (0.1 + 0.2, "0.30000000000000004"),
            (100.0, "100.0"),
            (17.0, "17.0"),
            (-1.5, "-1.5"),
            (532348211.65, "5.3234821165E8"),
            (0.00099, "9.9E-4"),
            (123456.789, "123456.789"),
            (1.0e23, "1.0E23"),
            (2.0e-3, "0.002"),
            (f64::MIN_POSITIVE, "2.2250738585072014E-308"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(double_to_string(x), java, "{x:e}");
        }
    }

    /// The plain-range shortcut prints what the general digit choice renders.
    #[test]
    fn the_plain_shortcut_agrees_with_the_general_rule() {
        let mut bits: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut checked = 0;
        while checked < 20_000 {
            bits = bits
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = f64::from_bits(bits);
            let candidates = [x, (bits % 10_000_000) as f64 / 100.0, (bits % 1000) as f64];
            for x in candidates {
                if !x.is_finite() || !is_plain(x.abs()) {
                    continue;
                }
                let a = x.abs();
                let general = render(
                    x.is_sign_negative(),
                    &java_digits(
                        &format!("{a:e}"),
                        || format!("{a:.1e}"),
                        |t| t.parse::<f64>().is_ok_and(|y| y == a),
                    ),
                );
                assert_eq!(double_to_string(x), general, "{x:e}");
                let mut written = Vec::new();
                JavaNumbers.write_f64(&mut written, x).unwrap();
                assert_eq!(String::from_utf8(written).unwrap(), general, "{x:e}");
                checked += 1;
            }
        }
    }

    /// What Java 21's `Float.toString` prints for each.
    #[test]
    fn reals_print_as_java_prints_them() {
        for (x, java) in [
            (0.1f32, "0.1"),
            (1.0e7f32, "1.0E7"),
            (1.4e-45f32, "1.4E-45"),
            (f32::MAX, "3.4028235E38"),
            (16777216.0f32, "1.6777216E7"),
            (3.0f32, "3.0"),
        ] {
            assert_eq!(float_to_string(x), java, "{x:e}");
        }
    }

    /// Seven digits round half to even, carrying into a new leading digit.
    #[test]
    fn reals_round_to_seven_digits() {
        let round = |digits: &str, exponent| {
            let d = round_half_even(
                Decimal {
                    digits: digits.bytes().collect(),
                    exponent,
                },
                7,
            );
            (String::from_utf8(d.digits).unwrap(), d.exponent)
        };
        assert_eq!(round("33333334", -1), ("3333333".into(), -1));
        assert_eq!(round("66666666", -1), ("6666667".into(), -1));
        assert_eq!(round("12345665", 0), ("1234566".into(), 0));
        assert_eq!(round("12345675", 0), ("1234568".into(), 0));
        assert_eq!(round("99999995", 9), ("1000000".into(), 10));
    }

    /// Trino 476's answers to `CAST(x AS varchar)` (asked of the real server).
    #[test]
    fn casts_to_varchar_write_every_double_in_scientific_form() {
        for (x, trino) in [
            (1.5, "1.5E0"),
            (0.001, "1.0E-3"),
            (1e7, "1.0E7"),
            (100.0, "1.0E2"),
            (0.5, "5.0E-1"),
            (0.1 + 0.2, "3.0000000000000004E-1"),
            (1.0 / 3.0, "3.333333333333333E-1"),
            (123456789012345678.0, "1.2345678901234568E17"),
            (4.9e-324, "4.9E-324"),
            (f64::MAX, "1.7976931348623157E308"),
            (-1.5, "-1.5E0"),
            (0.0, "0E0"),
            (-0.0, "-0E0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(double_to_varchar(x), trino, "{x:e}");
        }
        for (x, trino) in [
            (0.1f32 + 0.2f32, "3.0E-1"),
            (1.0f32 / 3.0, "3.333333E-1"),
            (2.0f32 / 3.0, "6.666667E-1"),
            (1.25f32, "1.25E0"),
            (1.23e21f32, "1.23E21"),
            (0.0f32, "0E0"),
        ] {
            assert_eq!(float_to_varchar(x), trino, "{x:e}");
        }
    }

    #[test]
    fn json_carries_the_java_text_as_a_number() {
        let row = serde_json::json!([5.3234821165e8, 1, "a", 0.5]);
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, JavaNumbers);
        serde::Serialize::serialize(&row, &mut ser).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text, r#"[5.3234821165E8,1,"a",0.5]"#);
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back[0].as_f64(), Some(532348211.65));
    }
}
