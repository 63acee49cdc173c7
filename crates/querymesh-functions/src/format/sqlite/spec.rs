//! The format string of `java.util.Formatter` (Trino's `format()` hands its arguments to
//! `String.format`): `%[index$][flags][width][.precision][t]conversion`, parsed into literal
//! text and specifiers, with the checks Java's `FormatSpecifier` makes before it looks at an
//! argument, and its exceptions' texts, which Trino quotes in its error.

/// A Java formatting exception: its simple name without `Exception`, and its message, as
/// Trino prints them (`IllegalFormatPrecision: 4`).
#[derive(Debug, PartialEq)]
pub struct FormatError {
    pub kind: &'static str,
    pub message: String,
}

impl FormatError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }
}

/// Java's flags, in the order its messages list them.
const FLAG_CHARS: [char; 8] = ['-', '#', '+', ' ', '0', ',', '(', '<'];

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags(u8);

impl Flags {
    pub const LEFT: Flags = Flags(1);
    pub const ALTERNATE: Flags = Flags(1 << 1);
    pub const PLUS: Flags = Flags(1 << 2);
    pub const SPACE: Flags = Flags(1 << 3);
    pub const ZERO: Flags = Flags(1 << 4);
    pub const GROUP: Flags = Flags(1 << 5);
    pub const PARENTHESES: Flags = Flags(1 << 6);
    pub const PREVIOUS: Flags = Flags(1 << 7);

    fn of(c: char) -> Option<Flags> {
        FLAG_CHARS
            .iter()
            .position(|&f| f == c)
            .map(|i| Flags(1 << i))
    }

    pub fn has(self, f: Flags) -> bool {
        self.0 & f.0 != 0
    }

    /// Java's `Flags.toString()`.
    pub fn text(self) -> String {
        FLAG_CHARS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect()
    }
}

/// Which argument a specifier formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Index {
    /// The next one in order (counted apart from explicit indices, as in Java).
    Next,
    /// `%2$s`: one-based.
    Explicit(usize),
    /// `%<s`: the one the previous specifier formatted.
    Previous,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub index: Index,
    pub flags: Flags,
    pub width: Option<usize>,
    pub precision: Option<usize>,
    /// `%tY`/`%TY`: a date/time conversion, whose suffix is `conversion`.
    pub temporal: bool,
    /// The conversion in lower case; `upper` says it was written in upper case (`%S`, `%X`,
    /// `%T…`), which upper-cases the result.
    pub conversion: char,
    pub upper: bool,
}

impl Spec {
    /// Java's `FormatSpecifier.toString()`, which some messages quote.
    pub fn text(&self) -> String {
        let mut s = String::from("%");
        s.push_str(&self.flags.text());
        if let Index::Explicit(i) = self.index {
            s.push_str(&format!("{i}$"));
        }
        if let Some(w) = self.width {
            s.push_str(&w.to_string());
        }
        if let Some(p) = self.precision {
            s.push_str(&format!(".{p}"));
        }
        if self.temporal {
            s.push(if self.upper { 'T' } else { 't' });
            s.push(self.conversion);
        } else if self.upper {
            s.push(self.conversion.to_ascii_uppercase());
        } else {
            s.push(self.conversion);
        }
        s
    }

    fn mismatch(&self, bad: &[Flags]) -> Result<(), FormatError> {
        match bad.iter().find(|f| self.flags.has(**f)) {
            Some(f) => Err(FormatError::new(
                "FormatFlagsConversionMismatch",
                format!("Conversion = {}, Flags = {}", self.conversion, f.text()),
            )),
            None => Ok(()),
        }
    }

    fn needs_width(&self, flags: Flags) -> Result<(), FormatError> {
        if self.width.is_none() && self.flags.has(flags) {
            return Err(FormatError::new("MissingFormatWidth", self.text()));
        }
        Ok(())
    }

    fn no_precision(&self) -> Result<(), FormatError> {
        match self.precision {
            Some(p) => Err(FormatError::new("IllegalFormatPrecision", p.to_string())),
            None => Ok(()),
        }
    }

    fn illegal_flags(&self) -> FormatError {
        FormatError::new(
            "IllegalFormatFlags",
            format!("Flags = '{}'", self.flags.text()),
        )
    }

    /// Java's `checkNumeric`: `-` and `0` need a width, and neither `+` with ` ` nor `-`
    /// with `0` go together.
    fn check_numeric(&self) -> Result<(), FormatError> {
        self.needs_width(Flags::LEFT)?;
        self.needs_width(Flags::ZERO)?;
        let f = self.flags;
        if (f.has(Flags::PLUS) && f.has(Flags::SPACE)) || (f.has(Flags::LEFT) && f.has(Flags::ZERO))
        {
            return Err(self.illegal_flags());
        }
        Ok(())
    }

    /// The checks of Java's `FormatSpecifier` constructor, by conversion category.
    fn check(&self) -> Result<(), FormatError> {
        use Flags as F;
        let general_bad = [F::PLUS, F::SPACE, F::ZERO, F::GROUP, F::PARENTHESES];
        let all_bad = [
            F::ALTERNATE,
            F::PLUS,
            F::SPACE,
            F::ZERO,
            F::GROUP,
            F::PARENTHESES,
        ];
        if self.temporal {
            self.no_precision()?;
            self.mismatch(&all_bad)?;
            return self.needs_width(F::LEFT);
        }
        match self.conversion {
            'b' | 'h' | 's' => {
                if self.conversion != 's' {
                    self.mismatch(&[F::ALTERNATE])?;
                }
                self.needs_width(F::LEFT)?;
                self.mismatch(&general_bad)
            }
            'c' => {
                self.no_precision()?;
                self.mismatch(&all_bad)?;
                self.needs_width(F::LEFT)
            }
            'd' | 'o' | 'x' => {
                self.check_numeric()?;
                self.no_precision()?;
                match self.conversion {
                    'd' => self.mismatch(&[F::ALTERNATE]),
                    _ => self.mismatch(&[F::GROUP]),
                }
            }
            'e' | 'f' | 'g' | 'a' => {
                self.check_numeric()?;
                match self.conversion {
                    'a' => self.mismatch(&[F::PARENTHESES, F::GROUP]),
                    'e' => self.mismatch(&[F::GROUP]),
                    'g' => self.mismatch(&[F::ALTERNATE]),
                    _ => Ok(()),
                }
            }
            '%' => {
                self.no_precision()?;
                if !self.flags.is_empty_or(F::LEFT) {
                    return Err(self.illegal_flags());
                }
                self.needs_width(F::LEFT)
            }
            // 'n'
            _ => {
                self.no_precision()?;
                if let Some(w) = self.width {
                    return Err(FormatError::new("IllegalFormatWidth", w.to_string()));
                }
                if self.flags != Flags::default() {
                    return Err(self.illegal_flags());
                }
                Ok(())
            }
        }
    }
}

impl Flags {
    fn is_empty_or(self, only: Flags) -> bool {
        self.0 & !only.0 == 0
    }
}

#[derive(Debug, PartialEq)]
pub enum Piece<'a> {
    Text(&'a str),
    Spec(Spec),
}

/// Splits a format string into text and specifiers, checking each specifier as Java's
/// parser and `FormatSpecifier` constructor do.
pub fn parse(format: &str) -> Result<Vec<Piece<'_>>, FormatError> {
    let mut pieces = Vec::new();
    let mut rest = format;
    while let Some(at) = rest.find('%') {
        if at > 0 {
            pieces.push(Piece::Text(&rest[..at]));
        }
        let (spec, len) = parse_spec(&rest[at + 1..])?;
        spec.check()?;
        pieces.push(Piece::Spec(spec));
        rest = &rest[at + 1 + len..];
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(rest));
    }
    Ok(pieces)
}

/// The date/time suffixes Java knows.
const TEMPORAL: &str = "HIklMSLNpzZsQBbhAaCYyjmdeRTrDFc";
const CONVERSIONS: &str = "bBhHsScCdoxXeEfgGaAn%";

fn unknown(conversion: impl std::fmt::Display) -> FormatError {
    FormatError::new(
        "UnknownFormatConversion",
        format!("Conversion = '{conversion}'"),
    )
}

/// Parses what follows a `%`; returns the specifier and the bytes it used.
fn parse_spec(s: &str) -> Result<(Spec, usize), FormatError> {
    let bytes = s.as_bytes();
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = 0;
    let mut index = Index::Next;
    let n = digits(0);
    if n > 0 && bytes.get(n) == Some(&b'$') {
        let at = number(&s[..n], "IllegalFormatArgumentIndex")?;
        if at == 0 {
            return Err(FormatError::new(
                "IllegalFormatArgumentIndex",
                "Illegal format argument index = 0",
            ));
        }
        index = Index::Explicit(at);
        i = n + 1;
    }
    let mut flags = Flags::default();
    while let Some(f) = s[i..].chars().next().and_then(Flags::of) {
        if flags.has(f) {
            return Err(FormatError::new(
                "DuplicateFormatFlags",
                format!("Flags = '{}'", f.text()),
            ));
        }
        flags = Flags(flags.0 | f.0);
        i += 1;
    }
    if flags.has(Flags::PREVIOUS) {
        index = Index::Previous;
    }
    let n = digits(i);
    let width = (n > 0)
        .then(|| number(&s[i..i + n], "IllegalFormatWidth"))
        .transpose()?;
    i += n;
    let mut precision = None;
    if bytes.get(i) == Some(&b'.') {
        let n = digits(i + 1);
        if n == 0 {
            return Err(unknown(s[i + 1..].chars().next().unwrap_or('.')));
        }
        precision = Some(number(&s[i + 1..i + 1 + n], "IllegalFormatPrecision")?);
        i += 1 + n;
    }
    let Some(c) = s[i..].chars().next() else {
        return Err(unknown('%'));
    };
    i += c.len_utf8();
    let mut spec = Spec {
        index,
        flags,
        width,
        precision,
        temporal: false,
        conversion: c.to_ascii_lowercase(),
        upper: c.is_ascii_uppercase(),
    };
    if c == 't' || c == 'T' {
        let Some(suffix) = s[i..].chars().next() else {
            return Err(unknown(c));
        };
        if !TEMPORAL.contains(suffix) {
            return Err(unknown(format!("{c}{suffix}")));
        }
        i += suffix.len_utf8();
        spec.temporal = true;
        spec.conversion = suffix;
    } else if !CONVERSIONS.contains(c) {
        return Err(unknown(c));
    }
    Ok((spec, i))
}

/// Java parses widths, precisions and indices as `int`.
fn number(digits: &str, kind: &'static str) -> Result<usize, FormatError> {
    digits
        .parse::<i32>()
        .ok()
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| FormatError::new(kind, digits.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(format: &str) -> String {
        match parse(format) {
            Err(e) => format!("{}: {}", e.kind, e.message),
            Ok(p) => panic!("{format} parsed: {p:?}"),
        }
    }

    // The texts of TestFormatFunction.testFormat (Trino), which come from java.util.Formatter.
    #[test]
    fn java_refusals() {
        assert_eq!(error("%.4d"), "IllegalFormatPrecision: 4");
        assert_eq!(error("%-02d"), "IllegalFormatFlags: Flags = '-0'");
        assert_eq!(error("%--2d"), "DuplicateFormatFlags: Flags = '-'");
        assert_eq!(
            error("%+s"),
            "FormatFlagsConversionMismatch: Conversion = s, Flags = +"
        );
        assert_eq!(error("%-s"), "MissingFormatWidth: %-s");
        assert_eq!(error("%5n"), "IllegalFormatWidth: 5");
        assert_eq!(error("%q"), "UnknownFormatConversion: Conversion = 'q'");
        assert_eq!(error("abc%"), "UnknownFormatConversion: Conversion = '%'");
        assert_eq!(error("%tq"), "UnknownFormatConversion: Conversion = 'tq'");
        assert_eq!(error("%.2tY"), "IllegalFormatPrecision: 2");
        assert_eq!(
            error("%#d"),
            "FormatFlagsConversionMismatch: Conversion = d, Flags = #"
        );
        assert_eq!(
            error("%,x"),
            "FormatFlagsConversionMismatch: Conversion = x, Flags = ,"
        );
    }

    #[test]
    fn specifiers() {
        let p = parse("a%2$-10.3S%<tY%%").unwrap();
        assert_eq!(p.len(), 4);
        let Piece::Spec(s) = &p[1] else { panic!() };
        assert_eq!(
            (s.index, s.width, s.precision, s.conversion, s.upper),
            (Index::Explicit(2), Some(10), Some(3), 's', true)
        );
        assert_eq!(s.text(), "%-2$10.3S");
        let Piece::Spec(t) = &p[2] else { panic!() };
        assert!(t.temporal && t.index == Index::Previous && t.conversion == 'Y');
    }
}
