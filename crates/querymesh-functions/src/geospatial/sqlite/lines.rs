//! Along a line (GeoFunctions): line_interpolate_point(s), line_locate_point, and
//! geometry_nearest_points.

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::accessors::geometry_array;
use super::{geometry, invalid, require_kind, stored};
use crate::geospatial::model::{Geometry, Kind, Point};
use crate::udf::{FLAGS, define, num, real, reserve};

fn distance(a: Point, b: Point) -> f64 {
    ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt()
}

/// GeoFunctions.interpolatePoints: the points at each multiple of `step` of the length (one
/// point unless `repeated`), the last vertex when the steps run past the end.
fn interpolate(g: &Geometry, step: f64, repeated: bool) -> rusqlite::Result<Vec<Point>> {
    require_kind("line_interpolate_point", g, &[Kind::LineString])?;
    if !(0.0..=1.0).contains(&step) {
        return Err(invalid("fraction must be between 0 and 1"));
    }
    let Geometry::LineString(path) = g else {
        return Ok(Vec::new());
    };
    let (Some(first), Some(last)) = (path.first().copied(), path.last().copied()) else {
        return Ok(Vec::new());
    };
    if step == 0.0 {
        return Ok(vec![first]);
    }
    if step == 1.0 {
        return Ok(vec![last]);
    }
    let count = if repeated {
        (1.0 / step).floor() as usize
    } else {
        1
    };
    // Each point is a stored text of a few dozen bytes.
    reserve(count.saturating_mul(48))?;
    let mut out = Vec::with_capacity(count);
    let length: f64 = path.windows(2).map(|w| distance(w[0], w[1])).sum();
    let (mut previous, mut consumed, mut fraction) = (first, 0.0, step);
    for current in path.iter().skip(1).copied() {
        if out.len() >= count {
            break;
        }
        let segment = distance(previous, current) / length;
        while fraction < consumed + segment && out.len() < count {
            let t = (fraction - consumed) / segment;
            out.push(Point::new(
                previous.x + (current.x - previous.x) * t,
                previous.y + (current.y - previous.y) * t,
            ));
            fraction += step;
        }
        consumed += segment;
        previous = current;
    }
    if out.len() < count {
        out.push(last);
    }
    Ok(out)
}

/// JTS LengthIndexedLine.indexOf over the line's length: the measure of the nearest point
/// (the first segment at the least distance wins).
fn locate(g: &Geometry, p: Point) -> Option<f64> {
    let lines: Vec<&Vec<Point>> = match g {
        Geometry::LineString(l) => vec![l],
        Geometry::MultiLineString(v) => v.iter().collect(),
        _ => return None,
    };
    let (mut best, mut best_measure, mut start_measure, mut total) = (f64::INFINITY, 0.0, 0.0, 0.0);
    for line in lines {
        for w in line.windows(2) {
            let (a, b) = (w[0], w[1]);
            let length = distance(a, b);
            let t = segment_fraction(a, b, p);
            let nearest = Point::new(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y));
            let d = distance(nearest, p);
            if d < best {
                best = d;
                best_measure = start_measure + t * length;
            }
            start_measure += length;
            total += length;
        }
    }
    Some(best_measure / total)
}

/// Where the perpendicular from `p` meets segment a–b, clamped to it (0 at a, 1 at b).
fn segment_fraction(a: Point, b: Point, p: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let squared = dx * dx + dy * dy;
    if squared == 0.0 {
        return 0.0;
    }
    (((p.x - a.x) * dx + (p.y - a.y) * dy) / squared).clamp(0.0, 1.0)
}

/// The segments (a point is a segment of no length) of a geometry.
fn segments(g: &Geometry) -> Vec<(Point, Point)> {
    let mut out = Vec::new();
    let mut add_line = |l: &Vec<Point>| {
        if l.len() == 1 {
            out.push((l[0], l[0]));
        }
        out.extend(l.windows(2).map(|w| (w[0], w[1])));
    };
    match g {
        Geometry::Point(Some(p)) => add_line(&vec![*p]),
        Geometry::MultiPoint(v) => v.iter().for_each(|p| add_line(&vec![*p])),
        Geometry::LineString(l) => add_line(l),
        Geometry::MultiLineString(v) | Geometry::Polygon(v) => v.iter().for_each(add_line),
        Geometry::MultiPolygon(v) => v.iter().flatten().for_each(add_line),
        Geometry::Collection(parts) => parts
            .iter()
            .for_each(|p| segments(p).into_iter().for_each(|s| out.push(s))),
        Geometry::Point(None) => {}
    }
    out
}

/// The nearest points of two segments (DistanceOp's facet distance); an intersection point
/// when they cross.
fn nearest_of_segments(s: (Point, Point), t: (Point, Point)) -> (Point, Point, f64) {
    if let Some(x) = crossing(s, t) {
        return (x, x, 0.0);
    }
    let mut best = (s.0, t.0, f64::INFINITY);
    for (p, seg, p_on_s) in [
        (s.0, t, true),
        (s.1, t, true),
        (t.0, s, false),
        (t.1, s, false),
    ] {
        let f = segment_fraction(seg.0, seg.1, p);
        let q = Point::new(
            seg.0.x + f * (seg.1.x - seg.0.x),
            seg.0.y + f * (seg.1.y - seg.0.y),
        );
        let d = distance(p, q);
        if d < best.2 {
            best = if p_on_s { (p, q, d) } else { (q, p, d) };
        }
    }
    best
}

fn crossing(s: (Point, Point), t: (Point, Point)) -> Option<Point> {
    let (r, q) = (
        (s.1.x - s.0.x, s.1.y - s.0.y),
        (t.1.x - t.0.x, t.1.y - t.0.y),
    );
    let denominator = r.0 * q.1 - r.1 * q.0;
    if denominator == 0.0 {
        return None;
    }
    let (wx, wy) = (t.0.x - s.0.x, t.0.y - s.0.y);
    let u = (wx * q.1 - wy * q.0) / denominator;
    let v = (wx * r.1 - wy * r.0) / denominator;
    ((0.0..=1.0).contains(&u) && (0.0..=1.0).contains(&v))
        .then(|| Point::new(s.0.x + u * r.0, s.0.y + u * r.1))
}

/// The most segment pairs geometry_nearest_points compares (its work is their product).
const MAX_SEGMENT_PAIRS: usize = 50_000_000;

fn nearest_points(a: &Geometry, b: &Geometry) -> rusqlite::Result<(Point, Point)> {
    // A vertex of one inside the other's area is its own nearest point (DistanceOp's
    // containment distance).
    use geo::Intersects;
    for (x, y, swap) in [(a, b, false), (b, a, true)] {
        if y.dimension() == 2 {
            let area = crate::geospatial::convert::to_geo(y);
            if let Some(p) = x
                .vertices()
                .into_iter()
                .find(|p| geo::Point::new(p.x, p.y).intersects(&area))
            {
                let _ = swap;
                return Ok((p, p));
            }
        }
    }
    let (sa, sb) = (segments(a), segments(b));
    if sa.len().saturating_mul(sb.len()) > MAX_SEGMENT_PAIRS {
        return Err(invalid(
            "geometry_nearest_points: the geometries have too many vertices",
        ));
    }
    let mut best = (Point::new(0.0, 0.0), Point::new(0.0, 0.0), f64::INFINITY);
    for s in &sa {
        for t in &sb {
            let candidate = nearest_of_segments(*s, *t);
            if candidate.2 < best.2 {
                best = candidate;
            }
        }
    }
    Ok((best.0, best.1))
}

pub const QM_GEOMETRY_NEAREST_POINTS: SqliteFn = SqliteFn::new("qm_geometry_nearest_points");
pub const QM_LINE_INTERPOLATE_POINT: SqliteFn = SqliteFn::new("qm_line_interpolate_point");
pub const QM_LINE_INTERPOLATE_POINTS: SqliteFn = SqliteFn::new("qm_line_interpolate_points");
pub const QM_LINE_LOCATE_POINT: SqliteFn = SqliteFn::new("qm_line_locate_point");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    for (name, repeated) in [
        (QM_LINE_INTERPOLATE_POINT.name(), false),
        (QM_LINE_INTERPOLATE_POINTS.name(), true),
    ] {
        define(conn, name, 2, FLAGS, move |ctx: &mut Context<'_>| {
            let (Some(g), Some(step)) = (geometry(ctx.get_raw(0))?, num(ctx.get_raw(1))) else {
                return Ok(None);
            };
            if g.is_empty() {
                return Ok(None);
            }
            let points: Vec<Geometry> = interpolate(&g, step, repeated)?
                .into_iter()
                .map(|p| Geometry::Point(Some(p)))
                .collect();
            if repeated {
                geometry_array(&points).map(Some)
            } else {
                points.first().map(stored).transpose()
            }
        })?;
    }
    define(
        conn,
        QM_LINE_LOCATE_POINT.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(line), Some(point)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?)
            else {
                return Ok(None);
            };
            if line.is_empty() || point.is_empty() {
                return Ok(None);
            }
            if !matches!(line.kind(), Kind::LineString | Kind::MultiLineString) {
                return Err(invalid(format!(
                    "First argument to line_locate_point must be a LineString or a MultiLineString. Got: {}",
                    line.kind().ogc_name()
                )));
            }
            let Geometry::Point(Some(p)) = point else {
                return Err(invalid(format!(
                    "Second argument to line_locate_point must be a Point. Got: {}",
                    point.kind().ogc_name()
                )));
            };
            Ok(locate(&line, p).map(real))
        },
    )?;
    define(
        conn,
        QM_GEOMETRY_NEAREST_POINTS.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(a), Some(b)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?) else {
                return Ok(None);
            };
            if a.is_empty() || b.is_empty() {
                return Ok(None);
            }
            let (p, q) = nearest_points(&a, &b)?;
            let row = [Geometry::Point(Some(p)), Geometry::Point(Some(q))];
            geometry_array(&row).map(Some)
        },
    )
}
