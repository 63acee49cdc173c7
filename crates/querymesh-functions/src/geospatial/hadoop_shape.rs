//! geometry_from_hadoop_shape (GeoFunctions): the Spatial Framework for Hadoop's bytes — a
//! 4-byte WKID, a 1-byte OGC type (0 unknown, 1 point, 2 linestring, 3 polygon, 4 multipoint,
//! 5 multilinestring, 6 multipolygon), then an Esri shape (little-endian: a shape type, then
//! a point's x and y, or a box, part and point counts, part starts and points). Polygon rings
//! clockwise in the shape begin a polygon; counter-clockwise ones are its holes.

use super::model::{Geometry, Point, oriented_polygon, ring_signed_area2};

/// Why the bytes are refused, as Trino words it.
#[derive(Debug, PartialEq)]
pub enum ShapeError {
    TooShort,
    InvalidType(i8),
    Invalid,
}

impl ShapeError {
    pub fn message(&self) -> String {
        match self {
            ShapeError::TooShort => "Hadoop shape input is too short".into(),
            ShapeError::InvalidType(t) => format!("Invalid Hadoop shape type: {t}"),
            ShapeError::Invalid => "Invalid Hadoop shape".into(),
        }
    }
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

    fn int(&mut self) -> Option<i32> {
        self.take::<4>().map(i32::from_le_bytes)
    }

    fn double(&mut self) -> Option<f64> {
        self.take::<8>().map(f64::from_le_bytes)
    }

    fn point(&mut self) -> Option<Point> {
        Some(Point::new(self.double()?, self.double()?))
    }

    /// A count no larger than the bytes left could hold (`unit` bytes each).
    fn count(&mut self, unit: usize) -> Option<usize> {
        let n = usize::try_from(self.int()?).ok()?;
        (n.saturating_mul(unit) <= self.bytes.len() - self.at).then_some(n)
    }

    /// The parts of a polyline or polygon: each part's points.
    fn parts(&mut self) -> Option<Vec<Vec<Point>>> {
        for _ in 0..4 {
            self.double()?;
        }
        let parts = self.count(4)?;
        let points = self.count(16)?;
        let starts: Vec<usize> = (0..parts)
            .map(|_| usize::try_from(self.int()?).ok())
            .collect::<Option<_>>()?;
        let all: Vec<Point> = (0..points).map(|_| self.point()).collect::<Option<_>>()?;
        let mut out = Vec::with_capacity(parts);
        for (i, start) in starts.iter().enumerate() {
            let end = starts.get(i + 1).copied().unwrap_or(all.len());
            out.push(all.get(*start..end)?.to_vec());
        }
        Some(out)
    }
}

pub fn parse(bytes: &[u8]) -> Result<Geometry, ShapeError> {
    if bytes.len() <= 5 {
        return Err(ShapeError::TooShort);
    }
    let mut r = Reader {
        bytes: &bytes[5..],
        at: 0,
    };
    // The shape is read before its type is checked, as Trino does.
    let shape = shape(&mut r).ok_or(ShapeError::Invalid)?;
    let ogc_type = bytes[4] as i8;
    if !(0..=6).contains(&ogc_type) {
        return Err(ShapeError::InvalidType(ogc_type));
    }
    as_ogc_type(shape, ogc_type).ok_or(ShapeError::Invalid)
}

fn shape(r: &mut Reader<'_>) -> Option<Geometry> {
    // The Z and M variants (11, 13, 15, 18; 21, 23, 25, 28) carry x and y first as well.
    Some(match r.int()? % 10 {
        0 => Geometry::Collection(Vec::new()),
        1 => {
            let p = r.point()?;
            Geometry::Point((!p.x.is_nan()).then_some(p))
        }
        3 => Geometry::MultiLineString(
            r.parts()?
                .into_iter()
                .map(|mut l| {
                    if l.len() == 1 {
                        l.push(l[0]);
                    }
                    l
                })
                .filter(|l| !l.is_empty())
                .collect(),
        ),
        5 => {
            let mut polygons: Vec<Vec<Vec<Point>>> = Vec::new();
            for mut ring in r.parts()?.into_iter().filter(|r| !r.is_empty()) {
                if ring.first() != ring.last() {
                    ring.push(ring[0]);
                }
                // Esri's shapes hold an exterior clockwise.
                match polygons.last_mut() {
                    Some(polygon) if ring_signed_area2(&ring) > 0.0 => polygon.push(ring),
                    _ => polygons.push(vec![ring]),
                }
            }
            Geometry::MultiPolygon(polygons.into_iter().map(oriented_polygon).collect())
        }
        8 => {
            for _ in 0..4 {
                r.double()?;
            }
            let n = r.count(16)?;
            Geometry::MultiPoint((0..n).map(|_| r.point()).collect::<Option<_>>()?)
        }
        _ => return None,
    })
}

/// The WKT Esri exports for the OGC type asked: its multi form unless a single one is asked
/// (1 point, 2 linestring, 3 polygon), which needs a single part; `None` when it has more.
fn as_ogc_type(shape: Geometry, ogc_type: i8) -> Option<Geometry> {
    Some(match (shape, ogc_type) {
        (Geometry::MultiLineString(mut lines), 2) => match lines.len() {
            0 => Geometry::LineString(Vec::new()),
            1 => Geometry::LineString(lines.remove(0)),
            _ => return None,
        },
        (Geometry::MultiPolygon(mut polygons), 3) => match polygons.len() {
            0 => Geometry::Polygon(Vec::new()),
            1 => Geometry::Polygon(polygons.remove(0)),
            _ => return None,
        },
        (Geometry::MultiPoint(mut points), 1) => match points.len() {
            0 => Geometry::Point(None),
            1 => Geometry::Point(Some(points.remove(0))),
            _ => return None,
        },
        (other, _) => other,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    fn unhex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .filter_map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
            .collect()
    }

    #[test]
    fn reads_as_trino() {
        // Trino 476's geometry_from_hadoop_shape answers.
        let read = |h: &str| parse(&unhex(h)).map(|g| wkt::write(&g));
        assert_eq!(
            read("0000000001010000000000000000000000F03F0000000000000040").as_deref(),
            Ok("POINT (0 8.0870000000000000e-320)")
        );
        assert_eq!(read("01"), Err(ShapeError::TooShort));
        assert_eq!(read("000000000701000000"), Err(ShapeError::Invalid));
        assert_eq!(
            read("0000000009010000000000000000000C4000000000000000C0").as_deref(),
            Err(&ShapeError::InvalidType(9))
        );
    }
}
