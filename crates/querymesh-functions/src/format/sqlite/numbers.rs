//! Java's `%d %o %x` on a `Long` and `%e %f %g %a` on a `Double` or `BigDecimal`
//! (`java.util.Formatter`): signs, `(`, grouping, zero padding, and rounding HALF_UP on the
//! decimal digits — for a double, on its shortest decimal (`%.1f` of 0.15 is `0.2`), the
//! digits Java's Formatter starts from.

use super::spec::{Flags, Spec};

/// A finite, non-negative magnitude as decimal digits: `0.digits × 10^exponent`.
#[derive(Clone, Debug)]
pub struct Digits {
    digits: Vec<u8>,
    exponent: i64,
}

impl Digits {
    /// The shortest decimal that reads back as `x` (finite, non-negative).
    pub fn of_double(x: f64) -> Digits {
        if x == 0.0 {
            return Digits::zero();
        }
        let text = format!("{x:e}");
        let (mantissa, exp) = text.split_once('e').unwrap_or((&text, "0"));
        let digits: Vec<u8> = mantissa
            .bytes()
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect();
        Digits {
            digits,
            exponent: exp.parse::<i64>().unwrap_or(0) + 1,
        }
        .trimmed()
    }

    /// A plain decimal text without sign (`123.4500`).
    pub fn of_decimal(text: &str) -> Digits {
        let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
        let digits: Vec<u8> = whole
            .bytes()
            .chain(frac.bytes())
            .filter(u8::is_ascii_digit)
            .map(|b| b - b'0')
            .collect();
        Digits {
            digits,
            exponent: whole.len() as i64,
        }
        .trimmed()
    }

    fn zero() -> Digits {
        Digits {
            digits: Vec::new(),
            exponent: 0,
        }
    }

    fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Without leading and trailing zero digits (zero has none).
    fn trimmed(mut self) -> Digits {
        let lead = self.digits.iter().take_while(|&&d| d == 0).count();
        self.digits.drain(..lead);
        self.exponent -= lead as i64;
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        if self.digits.is_empty() {
            self.exponent = 0;
        }
        self
    }

    /// Rounded HALF_UP to keep `keep` digits (may be ≤ 0: everything rounds away or to one).
    fn round_to(&self, keep: i64) -> Digits {
        if keep >= self.digits.len() as i64 {
            return self.clone();
        }
        if keep < 0 {
            return Digits::zero();
        }
        let keep = keep as usize;
        let mut digits = self.digits[..keep].to_vec();
        let mut exponent = self.exponent;
        if self.digits[keep] >= 5 {
            let mut i = keep;
            loop {
                if i == 0 {
                    digits.insert(0, 1);
                    exponent += 1;
                    break;
                }
                i -= 1;
                if digits[i] == 9 {
                    digits[i] = 0;
                } else {
                    digits[i] += 1;
                    break;
                }
            }
        }
        Digits { digits, exponent }.trimmed()
    }

    /// Rounded to `decimals` digits after the point.
    fn round_decimals(&self, decimals: usize) -> Digits {
        self.round_to(self.exponent + decimals as i64)
    }

    fn digit(&self, i: i64) -> u8 {
        if i < 0 {
            return 0;
        }
        self.digits.get(i as usize).copied().unwrap_or(0)
    }

    /// The integer part's digits and `decimals` fraction digits (already rounded).
    fn fixed(&self, decimals: usize) -> (String, String) {
        let whole: String = if self.exponent <= 0 {
            "0".into()
        } else {
            (0..self.exponent)
                .map(|i| char::from(b'0' + self.digit(i)))
                .collect()
        };
        let frac = (0..decimals as i64)
            .map(|i| char::from(b'0' + self.digit(self.exponent + i)))
            .collect();
        (whole, frac)
    }
}

/// The parts of a signed number before justification.
struct Number {
    negative: bool,
    /// Digits, point and exponent; grouped and zero-padded here.
    whole: String,
    rest: String,
}

fn group(digits: &str) -> String {
    let n = digits.len();
    let mut out = String::with_capacity(n + n / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (n - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Sign, grouping, zero padding and parentheses as Java's `leadingSign`,
/// `localizedMagnitude` and `trailingSign` apply them.
fn signed(spec: &Spec, n: Number) -> String {
    let f = spec.flags;
    let paren = n.negative && f.has(Flags::PARENTHESES);
    let mut out = String::new();
    if n.negative {
        out.push(if paren { '(' } else { '-' });
    } else if f.has(Flags::PLUS) {
        out.push('+');
    } else if f.has(Flags::SPACE) {
        out.push(' ');
    }
    let mut body = if f.has(Flags::GROUP) {
        group(&n.whole)
    } else {
        n.whole
    };
    body.push_str(&n.rest);
    if let (true, Some(width)) = (f.has(Flags::ZERO), spec.width) {
        let used = out.chars().count() + body.chars().count() + usize::from(paren);
        out.extend(std::iter::repeat_n('0', width.saturating_sub(used)));
    }
    out.push_str(&body);
    if paren {
        out.push(')');
    }
    out
}

/// `%d`, `%o`, `%x` of a Java `long`.
pub fn integral(spec: &Spec, v: i64) -> String {
    match spec.conversion {
        'd' => signed(
            spec,
            Number {
                negative: v < 0,
                whole: v.unsigned_abs().to_string(),
                rest: String::new(),
            },
        ),
        radix => {
            // Java prints a negative long's two's complement in octal and hex.
            let digits = match radix {
                'o' => format!("{:o}", v as u64),
                _ => format!("{:x}", v as u64),
            };
            let prefix = match (spec.flags.has(Flags::ALTERNATE), radix) {
                (false, _) => "",
                (true, 'o') => "0",
                (true, _) => "0x",
            };
            let mut out = prefix.to_string();
            if let (true, Some(width)) = (spec.flags.has(Flags::ZERO), spec.width) {
                let used = prefix.len() + digits.len();
                out.extend(std::iter::repeat_n('0', width.saturating_sub(used)));
            }
            out.push_str(&digits);
            out
        }
    }
}

/// `%e %f %g` of a finite magnitude (sign apart), as Java's Formatter prints a double or a
/// BigDecimal from its decimal digits.
pub fn floating(spec: &Spec, negative: bool, magnitude: &Digits) -> String {
    let alternate = spec.flags.has(Flags::ALTERNATE);
    let point = |frac: &str| {
        if frac.is_empty() && !alternate {
            String::new()
        } else {
            format!(".{frac}")
        }
    };
    let e = if spec.upper { 'E' } else { 'e' };
    let scientific = |m: &Digits, decimals: usize| {
        let rounded = m.round_to(decimals as i64 + 1);
        let exponent = if rounded.is_zero() {
            0
        } else {
            rounded.exponent - 1
        };
        let shifted = Digits {
            digits: rounded.digits.clone(),
            exponent: 1,
        };
        let (whole, frac) = shifted.fixed(decimals);
        let sign = if exponent < 0 { '-' } else { '+' };
        Number {
            negative,
            whole,
            rest: format!("{}{e}{sign}{:02}", point(&frac), exponent.abs()),
        }
    };
    let fixed = |m: &Digits, decimals: usize| {
        let (whole, frac) = m.round_decimals(decimals).fixed(decimals);
        Number {
            negative,
            whole,
            rest: point(&frac),
        }
    };
    let n = match spec.conversion {
        'e' => scientific(magnitude, spec.precision.unwrap_or(6)),
        'g' => {
            let precision = match spec.precision {
                None => 6,
                Some(0) => 1,
                Some(p) => p,
            };
            let rounded = magnitude.round_to(precision as i64);
            let exponent = rounded.exponent - 1;
            if rounded.is_zero() {
                fixed(&rounded, precision - 1)
            } else if (-4..precision as i64).contains(&exponent) {
                fixed(&rounded, (precision as i64 - 1 - exponent) as usize)
            } else {
                scientific(&rounded, precision - 1)
            }
        }
        _ => fixed(magnitude, spec.precision.unwrap_or(6)),
    };
    signed(spec, n)
}

/// NaN and the infinities, which take a sign and `(` but no zero padding.
pub fn not_finite(spec: &Spec, x: f64) -> String {
    if x.is_nan() {
        return "NaN".into();
    }
    let f = spec.flags;
    match (x < 0.0, f.has(Flags::PARENTHESES)) {
        (true, true) => "(Infinity)".into(),
        (true, false) => "-Infinity".into(),
        _ if f.has(Flags::PLUS) => "+Infinity".into(),
        _ if f.has(Flags::SPACE) => " Infinity".into(),
        _ => "Infinity".into(),
    }
}

/// `%a` of a double: Java's `Double.toHexString`, with the precision rounding its
/// fraction's hex digits.
pub fn hexadecimal(spec: &Spec, x: f64) -> String {
    let negative = x.is_sign_negative();
    let bits = x.abs().to_bits();
    let exponent_bits = (bits >> 52) as i64;
    let mut mantissa = bits & ((1 << 52) - 1);
    let (lead, exponent) = match (exponent_bits, mantissa) {
        (0, 0) => ('0', 0),
        (0, _) => ('0', -1022),
        _ => ('1', exponent_bits - 1023),
    };
    let mut frac = format!("{mantissa:013x}");
    if let Some(p) = spec.precision.filter(|&p| p > 0 && p < 13) {
        let drop = 4 * (13 - p) as u32;
        let half = 1u64 << (drop - 1);
        mantissa = (mantissa + half) >> drop;
        frac = format!("{mantissa:0p$x}", p = p);
        frac.truncate(p);
    } else {
        let trimmed = frac.trim_end_matches('0');
        frac = if trimmed.is_empty() {
            "0".into()
        } else {
            trimmed.into()
        };
    }
    signed(
        spec,
        Number {
            negative,
            whole: format!("0x{lead}"),
            rest: format!(".{frac}p{exponent}"),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::super::spec::{Piece, parse};
    use super::*;

    fn spec(s: &str) -> Spec {
        match parse(s).ok().and_then(|mut p| p.pop()) {
            Some(Piece::Spec(s)) => s,
            _ => panic!("{s}"),
        }
    }

    fn f(s: &str, x: f64) -> String {
        floating(&spec(s), x < 0.0, &Digits::of_double(x.abs()))
    }

    // java.util.Formatter's documented behaviour; the first three are TestFormatFunction's.
    #[test]
    fn doubles_as_java_prints_them() {
        assert_eq!(f("%.5f", std::f64::consts::PI), "3.14159");
        assert_eq!(f("%.4f", std::f64::consts::PI), "3.1416");
        assert_eq!(f("%,.2f", 1234567.89), "1,234,567.89");
        assert_eq!(f("%.1f", 0.15), "0.2");
        assert_eq!(f("%f", 0.1), "0.100000");
        assert_eq!(f("%.0f", 2.5), "3");
        assert_eq!(f("%#.0f", 2.0), "2.");
        assert_eq!(f("%e", 12345.678), "1.234568e+04");
        assert_eq!(f("%.2E", 0.000123), "1.23E-04");
        assert_eq!(f("%e", 0.0), "0.000000e+00");
        assert_eq!(f("%g", 12345.678), "12345.7");
        assert_eq!(f("%g", 0.0001), "0.000100000");
        assert_eq!(f("%g", 0.00001), "1.00000e-05");
        assert_eq!(f("%g", 1e10), "1.00000e+10");
        assert_eq!(f("%(,.2f", -1234.5), "(1,234.50)");
        assert_eq!(f("%+08.2f", 1.23456), "+0001.23");
        assert_eq!(f("%.3f", 9.9996), "10.000");
    }

    #[test]
    fn longs_as_java_prints_them() {
        assert_eq!(integral(&spec("%03d"), 8), "008");
        assert_eq!(integral(&spec("%x"), 1234), "4d2");
        assert_eq!(integral(&spec("%o"), 1234), "2322");
        assert_eq!(integral(&spec("%x"), -1), "ffffffffffffffff");
        assert_eq!(integral(&spec("%#010x"), 255), "0x000000ff");
        assert_eq!(integral(&spec("%,d"), -1234567), "-1,234,567");
        assert_eq!(integral(&spec("%(05d"), -12), "(012)");
        assert_eq!(integral(&spec("% d"), 5), " 5");
        assert_eq!(hexadecimal(&spec("%a"), 1.0), "0x1.0p0");
        assert_eq!(hexadecimal(&spec("%a"), -0.5), "-0x1.0p-1");
    }

    #[test]
    fn big_decimals_round_half_up() {
        let d = |s: &str, text: &str| floating(&spec(s), false, &Digits::of_decimal(text));
        assert_eq!(d("%f", "9.12345678"), "9.123457");
        assert_eq!(d("%.2f", "9.12345678"), "9.12");
        assert_eq!(d("%.1f", "0.05"), "0.1");
        assert_eq!(d("%.2f", "0"), "0.00");
        assert_eq!(d("%e", "123.456"), "1.234560e+02");
    }
}
