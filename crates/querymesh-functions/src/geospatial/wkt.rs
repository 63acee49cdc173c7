//! Well-Known Text as Trino 476 reads and writes it (Esri's OperatorImportFromWkt and
//! OperatorExportToWkt, under OGCGeometry.fromText / asText):
//!
//! - keywords in any case; a missing ring closure is added; a line of one vertex gets it
//!   twice (`LINESTRING (1 1)` is `LINESTRING (1 1, 1 1)`); `EMPTY` parts of a multi form are
//!   dropped; text after the geometry is ignored; a NaN x makes a point empty;
//! - polygon rings are turned to OGC's orientation (model.rs);
//! - numbers as Java's `%.17g` from the shortest digits, trailing zeros dropped when not in
//!   scientific form (Esri's StringUtils.appendDouble): `0.1`, `10000000000000000`,
//!   `1.0000000000000000e-07`, `1.0000000000000000e+17`, `Infinity`.

use super::model::{Geometry, Point, oriented_polygon};

/// Why a text is not WKT Trino reads (messages are the caller's: "Invalid WKT: <text>").
#[derive(Debug, PartialEq)]
pub enum WktError {
    Invalid,
    /// `POINT Z (1 2 3)`: Trino 476 fails with an internal error.
    NotTwoDimensional,
}

/// The geometries of a text that nest deeper than this are refused (no unbounded recursion).
const MAX_DEPTH: usize = 64;

pub fn parse(text: &str) -> Result<Geometry, WktError> {
    let mut p = Parser {
        tokens: tokenize(text).ok_or(WktError::Invalid)?,
        i: 0,
    };
    p.geometry(0)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    Number(f64),
    Open,
    Close,
    Comma,
}

fn tokenize(text: &str) -> Option<Vec<Token>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b' ' | b'\t' | b'\n' | b'\r' => i += 1,
            b'(' | b'[' => {
                out.push(Token::Open);
                i += 1;
            }
            b')' | b']' => {
                out.push(Token::Close);
                i += 1;
            }
            b',' => {
                out.push(Token::Comma);
                i += 1;
            }
            c if c.is_ascii_alphabetic() => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                out.push(Token::Word(text[start..i].to_ascii_uppercase()));
            }
            c if c.is_ascii_digit() || c == b'+' || c == b'-' || c == b'.' => {
                let start = i;
                i += 1;
                while i < bytes.len() {
                    let d = bytes[i];
                    let exponent_sign =
                        (d == b'+' || d == b'-') && matches!(bytes[i - 1], b'e' | b'E');
                    if d.is_ascii_digit() || d == b'.' || d == b'e' || d == b'E' || exponent_sign {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let literal = &text[start..i];
                // Rust would read "inf"; digits are required here, as Esri's reader does.
                if !literal.bytes().any(|b| b.is_ascii_digit()) {
                    return None;
                }
                out.push(Token::Number(literal.parse().ok()?));
            }
            // Anything else after a complete geometry is ignored; before it, it fails below.
            _ => {
                out.push(Token::Word(String::new()));
                i += 1;
            }
        }
    }
    Some(out)
}

struct Parser {
    tokens: Vec<Token>,
    i: usize,
}

impl Parser {
    fn next(&mut self) -> Option<&Token> {
        let t = self.tokens.get(self.i);
        self.i += 1;
        t
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.i)
    }

    fn expect(&mut self, t: Token) -> Result<(), WktError> {
        if self.next() == Some(&t) {
            Ok(())
        } else {
            Err(WktError::Invalid)
        }
    }

    /// `EMPTY` (consumed) or an opening parenthesis (consumed): whether the part is empty.
    fn empty_or_open(&mut self) -> Result<bool, WktError> {
        match self.next() {
            Some(Token::Word(w)) if w == "EMPTY" => Ok(true),
            Some(Token::Open) => Ok(false),
            Some(Token::Word(w)) if matches!(w.as_str(), "Z" | "M" | "ZM") => {
                Err(WktError::NotTwoDimensional)
            }
            _ => Err(WktError::Invalid),
        }
    }

    /// After an element of a list: `,` (more follow) or `)` (the list ends).
    fn more(&mut self) -> Result<bool, WktError> {
        match self.next() {
            Some(Token::Comma) => Ok(true),
            Some(Token::Close) => Ok(false),
            _ => Err(WktError::Invalid),
        }
    }

    fn number(&mut self) -> Result<f64, WktError> {
        match self.next() {
            Some(Token::Number(n)) => Ok(*n),
            Some(Token::Word(w)) if w == "NAN" => Ok(f64::NAN),
            _ => Err(WktError::Invalid),
        }
    }

    fn coordinate(&mut self) -> Result<Point, WktError> {
        let x = self.number()?;
        let y = self.number()?;
        Ok(Point::new(x, y))
    }

    /// `(x y, x y, …)` after its opening parenthesis.
    fn coordinates(&mut self) -> Result<Vec<Point>, WktError> {
        let mut out = vec![self.coordinate()?];
        while self.more()? {
            out.push(self.coordinate()?);
        }
        Ok(out)
    }

    /// A line's vertices, or none for `EMPTY`; one vertex is given twice.
    fn line(&mut self) -> Result<Vec<Point>, WktError> {
        if self.empty_or_open()? {
            return Ok(Vec::new());
        }
        let mut line = self.coordinates()?;
        if line.len() == 1 {
            line.push(line[0]);
        }
        Ok(line)
    }

    fn ring(&mut self) -> Result<Vec<Point>, WktError> {
        let mut ring = self.line()?;
        if let (Some(first), Some(last)) = (ring.first().copied(), ring.last().copied())
            && !same_vertex(first, last)
        {
            ring.push(first);
        }
        Ok(ring)
    }

    /// A polygon's rings (empty ones dropped), oriented as OGC says.
    fn polygon(&mut self) -> Result<Vec<Vec<Point>>, WktError> {
        if self.empty_or_open()? {
            return Ok(Vec::new());
        }
        let mut rings = Vec::new();
        loop {
            let ring = self.ring()?;
            if !ring.is_empty() {
                rings.push(ring);
            }
            if !self.more()? {
                break;
            }
        }
        Ok(oriented_polygon(rings))
    }

    fn multipoint(&mut self) -> Result<Vec<Point>, WktError> {
        if self.empty_or_open()? {
            return Ok(Vec::new());
        }
        // Either every point parenthesized or none (Esri refuses a mix, and EMPTY inside).
        let parenthesized = self.peek() == Some(&Token::Open);
        let mut out = Vec::new();
        loop {
            if parenthesized {
                self.expect(Token::Open)?;
                out.push(self.coordinate()?);
                self.expect(Token::Close)?;
            } else {
                out.push(self.coordinate()?);
            }
            if !self.more()? {
                break;
            }
        }
        Ok(out)
    }

    fn list<T>(
        &mut self,
        mut part: impl FnMut(&mut Self) -> Result<T, WktError>,
        keep: impl Fn(&T) -> bool,
    ) -> Result<Vec<T>, WktError> {
        if self.empty_or_open()? {
            return Ok(Vec::new());
        }
        let mut out = Vec::new();
        loop {
            let item = part(self)?;
            if keep(&item) {
                out.push(item);
            }
            if !self.more()? {
                break;
            }
        }
        Ok(out)
    }

    fn geometry(&mut self, depth: usize) -> Result<Geometry, WktError> {
        if depth > MAX_DEPTH {
            return Err(WktError::Invalid);
        }
        let Some(Token::Word(keyword)) = self.next().cloned() else {
            return Err(WktError::Invalid);
        };
        Ok(match keyword.as_str() {
            "POINT" => {
                if self.empty_or_open()? {
                    Geometry::Point(None)
                } else {
                    let p = self.coordinate()?;
                    if self.more()? {
                        return Err(WktError::Invalid);
                    }
                    Geometry::Point((!p.x.is_nan()).then_some(p))
                }
            }
            "LINESTRING" => Geometry::LineString(self.line()?),
            "POLYGON" => Geometry::Polygon(self.polygon()?),
            "MULTIPOINT" => Geometry::MultiPoint(self.multipoint()?),
            "MULTILINESTRING" => {
                Geometry::MultiLineString(self.list(Self::line, |l: &Vec<Point>| !l.is_empty())?)
            }
            "MULTIPOLYGON" => Geometry::MultiPolygon(
                self.list(Self::polygon, |p: &Vec<Vec<Point>>| !p.is_empty())?,
            ),
            "GEOMETRYCOLLECTION" => {
                Geometry::Collection(self.list(|p| p.geometry(depth + 1), |_| true)?)
            }
            _ => return Err(WktError::Invalid),
        })
    }
}

/// Whether two vertices are the same (NaN equal to NaN, as Esri compares them bitwise).
pub fn same_vertex(a: Point, b: Point) -> bool {
    (a.x == b.x || (a.x.is_nan() && b.x.is_nan())) && (a.y == b.y || (a.y.is_nan() && b.y.is_nan()))
}

/// The geometry's text.
pub fn write(g: &Geometry) -> String {
    let mut out = String::new();
    write_into(g, &mut out);
    out
}

fn write_into(g: &Geometry, out: &mut String) {
    let (keyword, empty) = match g {
        Geometry::Point(p) => ("POINT", p.is_none()),
        Geometry::LineString(v) => ("LINESTRING", v.is_empty()),
        Geometry::Polygon(v) => ("POLYGON", v.is_empty()),
        Geometry::MultiPoint(v) => ("MULTIPOINT", v.is_empty()),
        Geometry::MultiLineString(v) => ("MULTILINESTRING", v.is_empty()),
        Geometry::MultiPolygon(v) => ("MULTIPOLYGON", v.is_empty()),
        Geometry::Collection(v) => ("GEOMETRYCOLLECTION", v.is_empty()),
    };
    out.push_str(keyword);
    if empty {
        out.push_str(" EMPTY");
        return;
    }
    out.push(' ');
    match g {
        Geometry::Point(Some(p)) => {
            out.push('(');
            coordinate(*p, out);
            out.push(')');
        }
        Geometry::LineString(v) => coordinates(v, out),
        Geometry::Polygon(rings) => polygon(rings, out),
        Geometry::MultiPoint(points) => {
            out.push('(');
            for (i, p) in points.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push('(');
                coordinate(*p, out);
                out.push(')');
            }
            out.push(')');
        }
        Geometry::MultiLineString(lines) => polygon(lines, out),
        Geometry::MultiPolygon(polygons) => {
            out.push('(');
            for (i, p) in polygons.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                polygon(p, out);
            }
            out.push(')');
        }
        Geometry::Collection(parts) => {
            out.push('(');
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_into(part, out);
            }
            out.push(')');
        }
        Geometry::Point(None) => {}
    }
}

fn coordinate(p: Point, out: &mut String) {
    out.push_str(&number(p.x));
    out.push(' ');
    out.push_str(&number(p.y));
}

fn coordinates(points: &[Point], out: &mut String) {
    out.push('(');
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        coordinate(*p, out);
    }
    out.push(')');
}

fn polygon(rings: &[Vec<Point>], out: &mut String) {
    out.push('(');
    for (i, ring) in rings.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        coordinates(ring, out);
    }
    out.push(')');
}

/// A coordinate as Esri writes it: Java's `String.format("%.17g")`, trailing zeros (and a
/// bare point) dropped unless in scientific form.
pub fn number(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v == 0.0 {
        return format!("{sign}0");
    }
    // The shortest digits that read back as `v` (at most 17), and the decimal exponent.
    let scientific = format!("{:e}", v.abs());
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    if (-4..17).contains(&exponent) {
        let text = if exponent >= 0 {
            let point = exponent as usize + 1;
            if digits.len() <= point {
                format!("{digits}{}", "0".repeat(point - digits.len()))
            } else {
                format!("{}.{}", &digits[..point], &digits[point..])
            }
        } else {
            format!("0.{}{digits}", "0".repeat((-exponent - 1) as usize))
        };
        format!("{sign}{text}")
    } else {
        let (first, rest) = digits.split_at(1);
        let exponent_sign = if exponent < 0 { '-' } else { '+' };
        format!(
            "{sign}{first}.{rest:0<16}e{exponent_sign}{:02}",
            exponent.unsigned_abs()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str) -> String {
        parse(text)
            .map(|g| write(&g))
            .unwrap_or_else(|e| format!("{e:?}"))
    }

    #[test]
    fn numbers_print_as_esri_writes_them() {
        // Trino 476: ST_Point(x, y) of these doubles.
        assert_eq!(number(0.3), "0.3");
        assert_eq!(number(1e-7), "1.0000000000000000e-07");
        assert_eq!(number(1e20), "1.0000000000000000e+20");
        assert_eq!(number(123_456_789.123_456_79), "123456789.12345679");
        assert_eq!(number(1e-300), "1.0000000000000000e-300");
        assert_eq!(number(2.5e15), "2500000000000000");
        assert_eq!(number(1e16), "10000000000000000");
        assert_eq!(number(1e17), "1.0000000000000000e+17");
        assert_eq!(number(1.2345678901234568e17), "1.2345678901234568e+17");
        assert_eq!(number(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(number(0.0001), "0.0001");
        assert_eq!(number(9.9999e-5), "9.9999000000000000e-05");
        assert_eq!(number(-1e-5), "-1.0000000000000000e-05");
        assert_eq!(number(-0.0), "-0");
        assert_eq!(number(-1.5), "-1.5");
        assert_eq!(number(f64::INFINITY), "Infinity");
    }

    #[test]
    fn texts_read_and_print_as_trino() {
        // Trino 476's ST_AsText(ST_GeometryFromText(...)) of each.
        let cases = [
            ("point(1 2)", "POINT (1 2)"),
            ("  POINT  ( 1   2 )  ", "POINT (1 2)"),
            ("POINT (+1 .5)", "POINT (1 0.5)"),
            ("POINT (1. 1e5)", "POINT (1 100000)"),
            ("POINT (nan 1)", "POINT EMPTY"),
            ("POINT (1e400 1)", "POINT (Infinity 1)"),
            ("POINT (1 2) extra", "POINT (1 2)"),
            ("LINESTRING (1 1)", "LINESTRING (1 1, 1 1)"),
            ("LINESTRING (0 0, 0 0, 1 1)", "LINESTRING (0 0, 0 0, 1 1)"),
            ("MULTIPOINT (1 2, 3 4)", "MULTIPOINT ((1 2), (3 4))"),
            (
                "MULTILINESTRING ((0 0, 1 1), EMPTY)",
                "MULTILINESTRING ((0 0, 1 1))",
            ),
            (
                "GEOMETRYCOLLECTION (POINT EMPTY)",
                "GEOMETRYCOLLECTION (POINT EMPTY)",
            ),
            (
                "POLYGON ((0 0, 0 1, 1 1, 1 0))",
                "POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))",
            ),
            (
                "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))",
                "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 2, 2 1, 1 1))",
            ),
            (
                "POLYGON ((0 0, 1 0, 1 1, 0 0), EMPTY)",
                "POLYGON ((0 0, 1 0, 1 1, 0 0))",
            ),
            (
                "MULTIPOLYGON (((0 0, 0 1, 1 1, 1 0, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
                "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))",
            ),
            (
                "GEOMETRYCOLLECTION (MULTIPOINT (1 2), GEOMETRYCOLLECTION (POINT (3 4)))",
                "GEOMETRYCOLLECTION (MULTIPOINT ((1 2)), GEOMETRYCOLLECTION (POINT (3 4)))",
            ),
            ("LINESTRING EMPTY", "LINESTRING EMPTY"),
            ("MULTIPOLYGON EMPTY", "MULTIPOLYGON EMPTY"),
        ];
        for (text, printed) in cases {
            assert_eq!(round_trip(text), printed, "{text}");
        }
        for invalid in [
            "POINT (1 2",
            "foo",
            "MULTIPOINT (EMPTY, 1 2)",
            "MULTIPOINT ((1 2), 3 4)",
            "POINT (0x10 1)",
            "POINT(1,2)",
            "POINT (1 2 3)",
            "",
        ] {
            assert_eq!(parse(invalid), Err(WktError::Invalid), "{invalid}");
        }
        assert_eq!(parse("POINT Z (1 2 3)"), Err(WktError::NotTwoDimensional));
        assert_eq!(parse("POINT (1 2 3)"), Err(WktError::Invalid));
        let deep = format!(
            "{}POINT (1 2){}",
            "GEOMETRYCOLLECTION (".repeat(100),
            ")".repeat(100)
        );
        assert_eq!(parse(&deep), Err(WktError::Invalid));
    }
}
