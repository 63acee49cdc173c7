//! Well-Known Binary as Trino 476 writes it (ST_AsBinary: Esri's export, little-endian, an
//! empty point as two NaNs, rings as printed) and reads it (ST_GeomFromBinary: JTS's
//! WKBReader, either byte order; a line of one vertex gets it twice, rings are oriented).

use super::model::{Geometry, Point, Polygon, oriented_polygon};

const POINT: u32 = 1;
const LINE_STRING: u32 = 2;
const POLYGON: u32 = 3;
const MULTI_POINT: u32 = 4;
const MULTI_LINE_STRING: u32 = 5;
const MULTI_POLYGON: u32 = 6;
const COLLECTION: u32 = 7;

/// Collections nested deeper than this are refused, as is any count the bytes cannot hold.
const MAX_DEPTH: usize = 64;

pub fn write(g: &Geometry) -> Vec<u8> {
    let mut out = Vec::new();
    write_into(g, &mut out);
    out
}

fn header(kind: u32, out: &mut Vec<u8>) {
    out.push(1);
    out.extend_from_slice(&kind.to_le_bytes());
}

fn count(n: usize, out: &mut Vec<u8>) {
    out.extend_from_slice(&(n as u32).to_le_bytes());
}

fn coordinate(p: Point, out: &mut Vec<u8>) {
    out.extend_from_slice(&p.x.to_le_bytes());
    out.extend_from_slice(&p.y.to_le_bytes());
}

fn points(v: &[Point], out: &mut Vec<u8>) {
    count(v.len(), out);
    v.iter().for_each(|p| coordinate(*p, out));
}

fn polygon(rings: &Polygon, out: &mut Vec<u8>) {
    header(POLYGON, out);
    count(rings.len(), out);
    rings.iter().for_each(|r| points(r, out));
}

fn write_into(g: &Geometry, out: &mut Vec<u8>) {
    match g {
        Geometry::Point(p) => {
            header(POINT, out);
            coordinate(p.unwrap_or(Point::new(f64::NAN, f64::NAN)), out);
        }
        Geometry::LineString(v) => {
            header(LINE_STRING, out);
            points(v, out);
        }
        Geometry::Polygon(rings) => polygon(rings, out),
        Geometry::MultiPoint(v) => {
            header(MULTI_POINT, out);
            count(v.len(), out);
            for p in v {
                header(POINT, out);
                coordinate(*p, out);
            }
        }
        Geometry::MultiLineString(lines) => {
            header(MULTI_LINE_STRING, out);
            count(lines.len(), out);
            for l in lines {
                header(LINE_STRING, out);
                points(l, out);
            }
        }
        Geometry::MultiPolygon(polygons) => {
            header(MULTI_POLYGON, out);
            count(polygons.len(), out);
            polygons.iter().for_each(|p| polygon(p, out));
        }
        Geometry::Collection(parts) => {
            header(COLLECTION, out);
            count(parts.len(), out);
            parts.iter().for_each(|p| write_into(p, out));
        }
    }
}

/// The geometry of `bytes`, or `None` where JTS's reader fails ("Invalid WKB").
pub fn parse(bytes: &[u8]) -> Option<Geometry> {
    let mut r = Reader { bytes, at: 0 };
    r.geometry(0)
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(N)?)?;
        self.at += N;
        slice.try_into().ok()
    }

    fn u32(&mut self, little: bool) -> Option<u32> {
        let b = self.take::<4>()?;
        Some(if little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        })
    }

    fn f64(&mut self, little: bool) -> Option<f64> {
        let b = self.take::<8>()?;
        Some(if little {
            f64::from_le_bytes(b)
        } else {
            f64::from_be_bytes(b)
        })
    }

    /// A count no larger than the bytes left could hold (`unit` bytes each).
    fn count(&mut self, little: bool, unit: usize) -> Option<usize> {
        let n = self.u32(little)? as usize;
        (n.saturating_mul(unit) <= self.bytes.len() - self.at).then_some(n)
    }

    fn coordinate(&mut self, little: bool) -> Option<Point> {
        Some(Point::new(self.f64(little)?, self.f64(little)?))
    }

    fn points(&mut self, little: bool) -> Option<Vec<Point>> {
        let n = self.count(little, 16)?;
        (0..n).map(|_| self.coordinate(little)).collect()
    }

    fn line(&mut self, little: bool) -> Option<Vec<Point>> {
        let mut line = self.points(little)?;
        if line.len() == 1 {
            line.push(line[0]);
        }
        Some(line)
    }

    fn polygon(&mut self, little: bool) -> Option<Polygon> {
        let n = self.count(little, 4)?;
        let rings: Vec<Vec<Point>> = (0..n).map(|_| self.points(little)).collect::<Option<_>>()?;
        Some(oriented_polygon(
            rings.into_iter().filter(|r| !r.is_empty()).collect(),
        ))
    }

    /// A part of a multi geometry: its own header, of the expected kind.
    fn part(&mut self, expected: u32) -> Option<(bool, ())> {
        let little = self.order()?;
        (self.u32(little)? == expected).then_some((little, ()))
    }

    fn order(&mut self) -> Option<bool> {
        match self.take::<1>()? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        }
    }

    fn geometry(&mut self, depth: usize) -> Option<Geometry> {
        if depth > MAX_DEPTH {
            return None;
        }
        let little = self.order()?;
        Some(match self.u32(little)? {
            POINT => {
                let p = self.coordinate(little)?;
                Geometry::Point((!p.x.is_nan()).then_some(p))
            }
            LINE_STRING => Geometry::LineString(self.line(little)?),
            POLYGON => Geometry::Polygon(self.polygon(little)?),
            MULTI_POINT => {
                let n = self.count(little, 21)?;
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    let (little, ()) = self.part(POINT)?;
                    out.push(self.coordinate(little)?);
                }
                Geometry::MultiPoint(out)
            }
            MULTI_LINE_STRING => {
                let n = self.count(little, 9)?;
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    let (little, ()) = self.part(LINE_STRING)?;
                    out.push(self.line(little)?);
                }
                Geometry::MultiLineString(out.into_iter().filter(|l| !l.is_empty()).collect())
            }
            MULTI_POLYGON => {
                let n = self.count(little, 9)?;
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    let (little, ()) = self.part(POLYGON)?;
                    out.push(self.polygon(little)?);
                }
                Geometry::MultiPolygon(out.into_iter().filter(|p| !p.is_empty()).collect())
            }
            COLLECTION => {
                let n = self.count(little, 5)?;
                let parts = (0..n)
                    .map(|_| self.geometry(depth + 1))
                    .collect::<Option<Vec<_>>>()?;
                Geometry::Collection(parts)
            }
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02X}")).collect()
    }

    fn unhex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .filter_map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
            .collect()
    }

    #[test]
    fn writes_and_reads_as_trino() {
        // Trino 476: to_hex(ST_AsBinary(...)) and ST_GeomFromBinary(from_hex(...)).
        let g = |text: &str| wkt::parse(text).unwrap_or(Geometry::Point(None));
        assert_eq!(
            hex(&write(&g("POINT (1 2)"))),
            "0101000000000000000000F03F0000000000000040"
        );
        assert_eq!(
            hex(&write(&g("POINT EMPTY"))),
            "0101000000000000000000F87F000000000000F87F"
        );
        assert_eq!(hex(&write(&g("LINESTRING EMPTY"))), "010200000000000000");
        assert_eq!(
            hex(&write(&g("MULTIPOINT (1 2, 3 4)"))),
            "0104000000020000000101000000000000000000F03F0000000000000040010100000000000000000008400000000000001040"
        );
        let read = |h: &str| parse(&unhex(h)).map(|g| wkt::write(&g));
        assert_eq!(
            read("000000000140000000000000004010000000000000").as_deref(),
            Some("POINT (2 4)")
        );
        assert_eq!(
            read("0102000000010000000000000000000000000000000000F03F").as_deref(),
            Some("LINESTRING (0 1, 0 1)")
        );
        assert_eq!(
            read("010400000000000000").as_deref(),
            Some("MULTIPOINT EMPTY")
        );
        assert_eq!(read("01"), None);
        // A count larger than the bytes is refused before anything is allocated.
        assert_eq!(read("0102000000FFFFFFFF"), None);
    }
}
