//! Between the family's [`Geometry`] and the `geo` crate's, which computes the relations
//! (DE-9IM), boolean operations, buffers and hulls; and the normal form Esri gives the
//! polygons it builds (each ring starting at its lowest vertex, lowest y then lowest x).

use geo::{Coord, LineString, MultiPolygon as GeoMultiPolygon, Polygon as GeoPolygon};

use super::model::{Geometry, Point, Polygon, oriented_polygon};

fn coord(p: &Point) -> Coord<f64> {
    Coord { x: p.x, y: p.y }
}

fn point(c: &Coord<f64>) -> Point {
    Point::new(c.x, c.y)
}

fn line(v: &[Point]) -> LineString<f64> {
    LineString(v.iter().map(coord).collect())
}

fn polygon(rings: &Polygon) -> GeoPolygon<f64> {
    let mut rings = rings.iter();
    let exterior = rings.next().map(|r| line(r)).unwrap_or(LineString(vec![]));
    GeoPolygon::new(exterior, rings.map(|r| line(r)).collect())
}

pub fn to_geo(g: &Geometry) -> geo::Geometry<f64> {
    match g {
        Geometry::Point(Some(p)) => geo::Geometry::Point(geo::Point(coord(p))),
        Geometry::Point(None) => geo::Geometry::MultiPoint(geo::MultiPoint(vec![])),
        Geometry::LineString(v) => geo::Geometry::LineString(line(v)),
        Geometry::Polygon(rings) if rings.is_empty() => {
            geo::Geometry::MultiPolygon(GeoMultiPolygon(vec![]))
        }
        Geometry::Polygon(rings) => geo::Geometry::Polygon(polygon(rings)),
        Geometry::MultiPoint(v) => geo::Geometry::MultiPoint(geo::MultiPoint(
            v.iter().map(|p| geo::Point(coord(p))).collect(),
        )),
        Geometry::MultiLineString(v) => geo::Geometry::MultiLineString(geo::MultiLineString(
            v.iter().map(|l| line(l)).collect(),
        )),
        Geometry::MultiPolygon(v) => {
            geo::Geometry::MultiPolygon(GeoMultiPolygon(v.iter().map(polygon).collect()))
        }
        Geometry::Collection(parts) => geo::Geometry::GeometryCollection(geo::GeometryCollection(
            parts.iter().map(to_geo).collect(),
        )),
    }
}

/// The polygons Trino's operators print: OGC orientation, each ring from its lowest vertex,
/// the polygons ordered by their first vertex.
pub fn from_geo_polygons(mp: &GeoMultiPolygon<f64>) -> Vec<Polygon> {
    let mut out: Vec<Polygon> =
        mp.0.iter()
            .filter(|p| p.exterior().0.len() >= 4)
            .map(|p| {
                let rings: Polygon = std::iter::once(p.exterior())
                    .chain(p.interiors())
                    .filter(|r| r.0.len() >= 4)
                    .map(|r| r.0.iter().map(point).collect())
                    .collect();
                normal_polygon(rings)
            })
            .collect();
    out.sort_by(|a, b| lowest_key(&a[0]).total_cmp_pair(&lowest_key(&b[0])));
    out
}

/// A polygon as Esri builds one: oriented, each ring from its lowest vertex.
pub fn normal_polygon(rings: Polygon) -> Polygon {
    let mut rings: Polygon = oriented_polygon(rings)
        .into_iter()
        .map(|r| from_lowest(&r))
        .collect();
    if rings.len() > 2 {
        rings[1..].sort_by(|a, b| lowest_key(a).total_cmp_pair(&lowest_key(b)));
    }
    rings
}

/// A closed ring restarted at its lowest vertex (lowest y, then lowest x).
pub fn from_lowest(ring: &[Point]) -> Vec<Point> {
    let open = &ring[..ring.len().saturating_sub(1)];
    let Some(start) = (0..open.len())
        .min_by(|a, b| (open[*a].y, open[*a].x).total_cmp_pair(&(open[*b].y, open[*b].x)))
    else {
        return ring.to_vec();
    };
    let mut out: Vec<Point> = open[start..]
        .iter()
        .chain(&open[..start])
        .copied()
        .collect();
    out.push(open[start]);
    out
}

fn lowest_key(ring: &[Point]) -> (f64, f64) {
    ring.first().map_or((0.0, 0.0), |p| (p.y, p.x))
}

trait PairOrder {
    fn total_cmp_pair(&self, other: &Self) -> std::cmp::Ordering;
}

impl PairOrder for (f64, f64) {
    fn total_cmp_pair(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0).then(self.1.total_cmp(&other.1))
    }
}

/// A set of polygons as one geometry: none is `MULTIPOLYGON EMPTY` (Esri's empty answer of an
/// areal operation), one a POLYGON, more a MULTIPOLYGON.
pub fn areal(polygons: Vec<Polygon>) -> Geometry {
    match polygons.len() {
        1 => Geometry::Polygon(polygons.into_iter().next().unwrap_or_default()),
        _ => Geometry::MultiPolygon(polygons),
    }
}
