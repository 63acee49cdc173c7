//! Planar measures and derived shapes (GeoFunctions): ST_Area, ST_Length, ST_Distance,
//! ST_Centroid, ST_ConvexHull, ST_Boundary.

use geo::{Centroid, ConvexHull, Distance, Euclidean};
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::{geometry, require_kind, stored};
use crate::geospatial::convert::{from_lowest, to_geo};
use crate::geospatial::model::{Geometry, Kind, Point, ring_signed_area2};
use crate::geospatial::wkt::same_vertex;
use crate::udf::{FLAGS, define, real};

/// Esri's calculateArea2D: exterior rings add, holes subtract; points and lines have none.
pub(crate) fn area(g: &Geometry) -> f64 {
    let polygon =
        |rings: &Vec<Vec<Point>>| rings.iter().map(|r| ring_signed_area2(r)).sum::<f64>() / 2.0;
    match g {
        Geometry::Polygon(rings) => polygon(rings),
        Geometry::MultiPolygon(polygons) => polygons.iter().map(polygon).sum(),
        Geometry::Collection(parts) => parts.iter().map(area).sum(),
        _ => 0.0,
    }
}

pub(crate) fn line_length(line: &[Point]) -> f64 {
    line.windows(2)
        .map(|w| ((w[1].x - w[0].x).powi(2) + (w[1].y - w[0].y).powi(2)).sqrt())
        .sum()
}

fn centroid(g: Geometry) -> rusqlite::Result<Geometry> {
    require_kind(
        "ST_Centroid",
        &g,
        &[
            Kind::Point,
            Kind::MultiPoint,
            Kind::LineString,
            Kind::MultiLineString,
            Kind::Polygon,
            Kind::MultiPolygon,
        ],
    )?;
    if matches!(g, Geometry::Point(_)) {
        return Ok(g);
    }
    if g.is_empty() {
        return Ok(Geometry::Point(None));
    }
    let c = to_geo(&g).centroid();
    Ok(Geometry::Point(c.map(|c| Point::new(c.x(), c.y()))))
}

/// The distinct vertices of a hull, as Esri answers a degenerate one: a point, or the line
/// between the two ends.
pub(crate) fn convex_hull(g: Geometry) -> Geometry {
    if g.is_empty() || matches!(g, Geometry::Point(_)) {
        return g;
    }
    let hull = to_geo(&g).convex_hull();
    let ring: Vec<Point> = hull
        .exterior()
        .0
        .iter()
        .map(|c| Point::new(c.x, c.y))
        .collect();
    let mut distinct: Vec<Point> = Vec::new();
    for p in &ring {
        if !distinct.iter().any(|q| same_vertex(*p, *q)) {
            distinct.push(*p);
        }
    }
    match distinct.len() {
        0 => Geometry::Point(None),
        1 => Geometry::Point(Some(distinct[0])),
        2 => {
            let mut ends = distinct;
            ends.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
            Geometry::LineString(ends)
        }
        _ => {
            let mut closed = ring;
            if let (Some(first), Some(last)) = (closed.first().copied(), closed.last().copied())
                && !same_vertex(first, last)
            {
                closed.push(first);
            }
            let ring = crate::geospatial::model::oriented(closed, true);
            Geometry::Polygon(vec![from_lowest(&ring)])
        }
    }
}

/// ST_Boundary: a polygon's rings as lines; a line's ends that appear an odd number of times
/// (mod-2 rule), ordered by x then y; points have none.
fn boundary(g: &Geometry) -> Geometry {
    let ends = |lines: &[Vec<Point>]| {
        let mut counted: Vec<(Point, usize)> = Vec::new();
        for line in lines.iter().filter(|l| !l.is_empty()) {
            let (first, last) = (line[0], line[line.len() - 1]);
            if same_vertex(first, last) {
                continue;
            }
            for p in [first, last] {
                match counted.iter_mut().find(|(q, _)| same_vertex(*q, p)) {
                    Some((_, n)) => *n += 1,
                    None => counted.push((p, 1)),
                }
            }
        }
        let mut odd: Vec<Point> = counted
            .into_iter()
            .filter(|(_, n)| n % 2 == 1)
            .map(|(p, _)| p)
            .collect();
        odd.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
        Geometry::MultiPoint(odd)
    };
    match g {
        Geometry::LineString(line) => ends(std::slice::from_ref(line)),
        Geometry::MultiLineString(lines) => ends(lines),
        Geometry::Polygon(rings) => Geometry::MultiLineString(rings.clone()),
        Geometry::MultiPolygon(polygons) => {
            Geometry::MultiLineString(polygons.iter().flatten().cloned().collect())
        }
        Geometry::Collection(parts) => Geometry::Collection(parts.iter().map(boundary).collect()),
        _ => Geometry::MultiPoint(Vec::new()),
    }
}

pub const QM_ST_AREA: SqliteFn = SqliteFn::new("qm_st_area");
pub const QM_ST_LENGTH: SqliteFn = SqliteFn::new("qm_st_length");
pub const QM_ST_DISTANCE: SqliteFn = SqliteFn::new("qm_st_distance");
pub const QM_ST_CENTROID: SqliteFn = SqliteFn::new("qm_st_centroid");
pub const QM_ST_CONVEX_HULL: SqliteFn = SqliteFn::new("qm_st_convex_hull");
pub const QM_ST_BOUNDARY: SqliteFn = SqliteFn::new("qm_st_boundary");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(
        conn,
        QM_ST_AREA.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| Ok(geometry(ctx.get_raw(0))?.map(|g| real(area(&g)))),
    )?;
    define(
        conn,
        QM_ST_LENGTH.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            require_kind("ST_Length", &g, &[Kind::LineString, Kind::MultiLineString])?;
            let length = match &g {
                Geometry::LineString(line) => line_length(line),
                Geometry::MultiLineString(lines) => lines.iter().map(|l| line_length(l)).sum(),
                _ => 0.0,
            };
            Ok(Some(real(length)))
        },
    )?;
    define(
        conn,
        QM_ST_DISTANCE.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(a), Some(b)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?) else {
                return Ok(None);
            };
            if a.is_empty() || b.is_empty() {
                return Ok(None);
            }
            Ok(Some(real(Euclidean.distance(&to_geo(&a), &to_geo(&b)))))
        },
    )?;
    define(
        conn,
        QM_ST_CENTROID.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| match geometry(ctx.get_raw(0))? {
            Some(g) => stored(&centroid(g)?).map(Some),
            None => Ok(None),
        },
    )?;
    define(
        conn,
        QM_ST_CONVEX_HULL.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| match geometry(ctx.get_raw(0))? {
            Some(g) => stored(&convex_hull(g)).map(Some),
            None => Ok(None),
        },
    )?;
    define(
        conn,
        QM_ST_BOUNDARY.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| match geometry(ctx.get_raw(0))? {
            Some(g) => stored(&boundary(&g)).map(Some),
            None => Ok(None),
        },
    )
}
