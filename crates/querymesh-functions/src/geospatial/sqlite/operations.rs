//! The set operations, buffers and simplification (GeoFunctions): ST_Intersection,
//! ST_Union, ST_Difference, ST_SymDifference, geometry_union, ST_Buffer, simplify_geometry.
//!
//! Areas go through the `geo` crate's boolean operations, their polygons put in Esri's form
//! (convert.rs). Points and lines against areas are clipped or filtered; lines are not noded
//! against each other as Esri's topology engine does (the report lists what differs).

use geo::{BooleanOps, Buffer, Intersects, MultiLineString, MultiPolygon, Simplify};
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::core::geometry_elements;
use super::{geometry, invalid, stored};
use crate::geospatial::convert::{areal, from_geo_polygons, to_geo};
use crate::geospatial::model::{Geometry, Point, Polygon, oriented_polygon};
use crate::geospatial::wkt::same_vertex;
use crate::udf::{FLAGS, define, num};

/// A geometry's parts by dimension: points, lines, polygons (collections flattened).
#[derive(Default)]
struct ByDimension {
    points: Vec<Point>,
    lines: Vec<Vec<Point>>,
    polygons: Vec<Polygon>,
}

fn split(g: &Geometry) -> ByDimension {
    let mut out = ByDimension::default();
    for part in g.flattened() {
        match part {
            Geometry::Point(p) => out.points.extend(p),
            Geometry::MultiPoint(v) => out.points.extend(v),
            Geometry::LineString(l) if !l.is_empty() => out.lines.push(l),
            Geometry::MultiLineString(v) => {
                out.lines.extend(v.into_iter().filter(|l| !l.is_empty()))
            }
            Geometry::Polygon(p) if !p.is_empty() => out.polygons.push(p),
            Geometry::MultiPolygon(v) => out.polygons.extend(v),
            _ => {}
        }
    }
    out
}

fn geo_polygons(polygons: &[Polygon]) -> MultiPolygon<f64> {
    match to_geo(&Geometry::MultiPolygon(polygons.to_vec())) {
        geo::Geometry::MultiPolygon(mp) => mp,
        _ => MultiPolygon(vec![]),
    }
}

fn geo_lines(lines: &[Vec<Point>]) -> MultiLineString<f64> {
    match to_geo(&Geometry::MultiLineString(lines.to_vec())) {
        geo::Geometry::MultiLineString(ml) => ml,
        _ => MultiLineString(vec![]),
    }
}

fn lines_from_geo(ml: &MultiLineString<f64>) -> Vec<Vec<Point>> {
    ml.0.iter()
        .filter(|l| l.0.len() >= 2)
        .map(|l| l.0.iter().map(|c| Point::new(c.x, c.y)).collect())
        .collect()
}

fn point_touches(p: Point, g: &geo::Geometry<f64>) -> bool {
    geo::Point::new(p.x, p.y).intersects(g)
}

fn distinct(points: Vec<Point>) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::with_capacity(points.len());
    for p in points {
        if !out.iter().any(|q| same_vertex(*q, p)) {
            out.push(p);
        }
    }
    out
}

fn points_geometry(points: Vec<Point>) -> Geometry {
    match points.len() {
        1 => Geometry::Point(Some(points[0])),
        _ => Geometry::MultiPoint(points),
    }
}

fn lines_geometry(lines: Vec<Vec<Point>>) -> Geometry {
    match lines.len() {
        1 => Geometry::LineString(lines.into_iter().next().unwrap_or_default()),
        _ => Geometry::MultiLineString(lines),
    }
}

/// Parts of several dimensions as one geometry: the single non-empty one, or a collection
/// from the lowest dimension up (OGCConcreteGeometryCollection.reduceFromMulti).
fn assemble(points: Vec<Point>, lines: Vec<Vec<Point>>, polygons: Vec<Polygon>) -> Geometry {
    let mut parts = Vec::new();
    if !points.is_empty() {
        parts.push(points_geometry(points));
    }
    if !lines.is_empty() {
        parts.push(lines_geometry(lines));
    }
    if !polygons.is_empty() {
        parts.push(areal(polygons));
    }
    match parts.len() {
        0 => Geometry::Collection(Vec::new()),
        1 => parts
            .into_iter()
            .next()
            .unwrap_or(Geometry::Collection(Vec::new())),
        _ => Geometry::Collection(parts),
    }
}

/// The union of every part of `geometries` (GeoFunctions.stUnion): each dimension merged,
/// then lower dimensions covered by higher ones dropped.
fn union_all(geometries: &[Geometry]) -> Geometry {
    let mut all = ByDimension::default();
    for g in geometries {
        let parts = split(g);
        all.points.extend(parts.points);
        all.lines.extend(parts.lines);
        all.polygons.extend(parts.polygons);
    }
    let polygons = if all.polygons.is_empty() {
        Vec::new()
    } else {
        let mut merged = MultiPolygon::<f64>(vec![]);
        for p in &all.polygons {
            merged = merged.union(&geo_polygons(std::slice::from_ref(p)));
        }
        from_geo_polygons(&merged)
    };
    let area = geo::Geometry::MultiPolygon(geo_polygons(&polygons));
    let lines = if polygons.is_empty() || all.lines.is_empty() {
        all.lines
    } else {
        lines_from_geo(&geo_polygons(&polygons).clip(&geo_lines(&all.lines), true))
    };
    let line_geometry = geo::Geometry::MultiLineString(geo_lines(&lines));
    let points = distinct(all.points)
        .into_iter()
        .filter(|p| !point_touches(*p, &area) && !point_touches(*p, &line_geometry))
        .collect();
    assemble(points, lines, polygons)
}

fn intersection(a: &Geometry, b: &Geometry) -> Geometry {
    let (x, y) = (split(a), split(b));
    let (ga, gb) = (to_geo(a), to_geo(b));
    let mut points: Vec<Point> = x
        .points
        .iter()
        .copied()
        .filter(|p| point_touches(*p, &gb))
        .chain(y.points.iter().copied().filter(|p| point_touches(*p, &ga)))
        .collect();
    points = distinct(points);
    let mut lines = Vec::new();
    if !y.polygons.is_empty() && !x.lines.is_empty() {
        lines.extend(lines_from_geo(
            &geo_polygons(&y.polygons).clip(&geo_lines(&x.lines), false),
        ));
    }
    if !x.polygons.is_empty() && !y.lines.is_empty() {
        lines.extend(lines_from_geo(
            &geo_polygons(&x.polygons).clip(&geo_lines(&y.lines), false),
        ));
    }
    let polygons = if x.polygons.is_empty() || y.polygons.is_empty() {
        Vec::new()
    } else {
        from_geo_polygons(&geo_polygons(&x.polygons).intersection(&geo_polygons(&y.polygons)))
    };
    // Esri answers an empty intersection of areas with an empty multipolygon.
    if points.is_empty()
        && lines.is_empty()
        && polygons.is_empty()
        && a.dimension() == 2
        && b.dimension() == 2
    {
        return Geometry::MultiPolygon(Vec::new());
    }
    assemble(points, lines, polygons)
}

fn difference(a: &Geometry, b: &Geometry) -> Geometry {
    let (x, y) = (split(a), split(b));
    let gb = to_geo(b);
    let points = x
        .points
        .into_iter()
        .filter(|p| !point_touches(*p, &gb))
        .collect();
    let lines = if y.polygons.is_empty() || x.lines.is_empty() {
        x.lines
    } else {
        lines_from_geo(&geo_polygons(&y.polygons).clip(&geo_lines(&x.lines), true))
    };
    let polygons = if x.polygons.is_empty() {
        Vec::new()
    } else if y.polygons.is_empty() {
        x.polygons.into_iter().map(oriented_polygon).collect()
    } else {
        from_geo_polygons(&geo_polygons(&x.polygons).difference(&geo_polygons(&y.polygons)))
    };
    if a.dimension() == 2 && polygons.is_empty() {
        return Geometry::MultiPolygon(Vec::new());
    }
    assemble(points, lines, polygons)
}

fn sym_difference(a: &Geometry, b: &Geometry) -> Geometry {
    if a.dimension() == 2 && b.dimension() == 2 {
        let (x, y) = (split(a), split(b));
        return areal(from_geo_polygons(
            &geo_polygons(&x.polygons).xor(&geo_polygons(&y.polygons)),
        ));
    }
    union_all(&[difference(a, b), difference(b, a)])
}

/// ST_Buffer of a point: Esri's regular 96-gon from (x + r, y), counter-clockwise.
fn point_buffer(p: Point, distance: f64) -> Geometry {
    const SIDES: usize = 96;
    let mut ring: Vec<Point> = (0..SIDES)
        .map(|k| {
            let angle = 2.0 * std::f64::consts::PI * k as f64 / SIDES as f64;
            Point::new(p.x + distance * angle.cos(), p.y + distance * angle.sin())
        })
        .collect();
    ring.push(ring[0]);
    Geometry::Polygon(vec![ring])
}

fn buffer(g: Geometry, distance: f64) -> rusqlite::Result<Option<Geometry>> {
    if distance.is_nan() {
        return Err(invalid("distance is NaN"));
    }
    if distance < 0.0 {
        return Err(invalid("distance is negative"));
    }
    if distance == 0.0 {
        return Ok(Some(g));
    }
    if g.is_empty() {
        return Ok(None);
    }
    if let Geometry::Point(Some(p)) = g {
        return Ok(Some(point_buffer(p, distance)));
    }
    if !distance.is_finite() {
        return Err(invalid("distance is infinite"));
    }
    Ok(Some(areal(from_geo_polygons(&to_geo(&g).buffer(distance)))))
}

fn simplify(g: Geometry, tolerance: f64) -> rusqlite::Result<Geometry> {
    if tolerance.is_nan() {
        return Err(invalid("distanceTolerance is NaN"));
    }
    if tolerance < 0.0 {
        return Err(invalid("distanceTolerance is negative"));
    }
    if tolerance == 0.0 {
        return Ok(g);
    }
    let line = |l: &Vec<Point>| -> Vec<Point> {
        let simplified = geo::LineString(l.iter().map(|p| geo::Coord { x: p.x, y: p.y }).collect())
            .simplify(tolerance);
        simplified.0.iter().map(|c| Point::new(c.x, c.y)).collect()
    };
    // A ring keeps at least its triangle (the topology-preserving simplifier JTS runs keeps
    // rings valid).
    let ring = |r: &Vec<Point>| -> Vec<Point> {
        let s = line(r);
        if s.len() >= 4 { s } else { r.clone() }
    };
    Ok(match g {
        Geometry::LineString(l) => Geometry::LineString(line(&l)),
        Geometry::MultiLineString(v) => Geometry::MultiLineString(v.iter().map(line).collect()),
        Geometry::Polygon(rings) => {
            Geometry::Polygon(oriented_polygon(rings.iter().map(ring).collect()))
        }
        Geometry::MultiPolygon(polygons) => Geometry::MultiPolygon(
            polygons
                .iter()
                .map(|rings| oriented_polygon(rings.iter().map(ring).collect()))
                .collect(),
        ),
        Geometry::Collection(parts) => Geometry::Collection(
            parts
                .into_iter()
                .map(|p| simplify(p, tolerance))
                .collect::<rusqlite::Result<Vec<_>>>()?,
        ),
        other => other,
    })
}

type Overlay = fn(&Geometry, &Geometry) -> Geometry;

pub const QM_ST_INTERSECTION: SqliteFn = SqliteFn::new("qm_st_intersection");
pub const QM_ST_DIFFERENCE: SqliteFn = SqliteFn::new("qm_st_difference");
pub const QM_ST_SYM_DIFFERENCE: SqliteFn = SqliteFn::new("qm_st_sym_difference");
pub const QM_ST_UNION: SqliteFn = SqliteFn::new("qm_st_union");
pub const QM_GEOMETRY_UNION: SqliteFn = SqliteFn::new("qm_geometry_union");
pub const QM_ST_BUFFER: SqliteFn = SqliteFn::new("qm_st_buffer");
pub const QM_SIMPLIFY_GEOMETRY: SqliteFn = SqliteFn::new("qm_simplify_geometry");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    let overlays: [(&'static str, Overlay); 4] = [
        (QM_ST_INTERSECTION.name(), intersection),
        (QM_ST_DIFFERENCE.name(), difference),
        (QM_ST_SYM_DIFFERENCE.name(), sym_difference),
        (QM_ST_UNION.name(), |a, b| {
            union_all(&[a.clone(), b.clone()])
        }),
    ];
    for (name, overlay) in overlays {
        define(conn, name, 2, FLAGS, move |ctx: &mut Context<'_>| {
            let (Some(a), Some(b)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?) else {
                return Ok(None);
            };
            stored(&overlay(&a, &b)).map(Some)
        })?;
    }
    define(
        conn,
        QM_GEOMETRY_UNION.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(elements) = geometry_elements(ctx.get_raw(0))? else {
                return Ok(None);
            };
            if elements.is_empty() {
                return Ok(None);
            }
            let geometries: Vec<Geometry> = elements.into_iter().flatten().collect();
            stored(&union_all(&geometries)).map(Some)
        },
    )?;
    define(
        conn,
        QM_ST_BUFFER.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(g), Some(distance)) = (geometry(ctx.get_raw(0))?, num(ctx.get_raw(1))) else {
                return Ok(None);
            };
            buffer(g, distance)?.map(|b| stored(&b)).transpose()
        },
    )?;
    define(
        conn,
        QM_SIMPLIFY_GEOMETRY.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(g), Some(tolerance)) = (geometry(ctx.get_raw(0))?, num(ctx.get_raw(1)))
            else {
                return Ok(None);
            };
            stored(&simplify(g, tolerance)?).map(Some)
        },
    )
}

/// The union of the given geometries (geometry_union_agg).
pub(crate) fn union_of(geometries: &[Geometry]) -> Geometry {
    union_all(geometries)
}
