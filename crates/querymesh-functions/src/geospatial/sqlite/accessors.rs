//! The accessors (GeoFunctions): a geometry's kind, dimensions, emptiness, counts, parts,
//! vertices and bounding box. Results that are geometries are stored texts; arrays of them
//! JSON arrays of those texts.

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::{geometry, require_kind, stored};
use crate::geospatial::model::{Geometry, Kind, Point, esri_ring_order};
use crate::geospatial::simple::{Problem, problem};
use crate::geospatial::wkt::same_vertex;
use crate::udf::{FLAGS, define, fail, int, java_double, real, reserve};
use querymesh_values::error::ErrorName;

/// A scalar of one geometry argument: NULL in, NULL out.
fn over_geometry<T: rusqlite::types::ToSql + 'static>(
    conn: &Connection,
    name: &'static str,
    f: fn(Geometry) -> rusqlite::Result<Option<T>>,
) -> rusqlite::Result<()> {
    define(
        conn,
        name,
        1,
        FLAGS,
        move |ctx: &mut Context<'_>| match geometry(ctx.get_raw(0))? {
            Some(g) => f(g),
            None => Ok(None),
        },
    )
}

/// A geometry and an index (ST_GeometryN, ST_PointN, ST_InteriorRingN).
fn over_geometry_and_index(
    conn: &Connection,
    name: &'static str,
    f: fn(Geometry, i64) -> rusqlite::Result<Option<String>>,
) -> rusqlite::Result<()> {
    define(conn, name, 2, FLAGS, move |ctx: &mut Context<'_>| {
        match (geometry(ctx.get_raw(0))?, int(ctx.get_raw(1))) {
            (Some(g), Some(i)) => f(g, i),
            _ => Ok(None),
        }
    })
}

/// An array(Geometry) answer: a JSON array of stored texts.
pub(crate) fn geometry_array(parts: &[Geometry]) -> rusqlite::Result<String> {
    let texts = parts
        .iter()
        .map(stored)
        .collect::<rusqlite::Result<Vec<String>>>()?;
    let json = serde_json::to_string(&texts).unwrap_or_default();
    reserve(json.len())?;
    Ok(json)
}

fn point(p: Point) -> Geometry {
    Geometry::Point(Some(p))
}

/// Esri's getPointCount: every vertex, each ring's closing one not counted.
pub(crate) fn point_count(g: &Geometry) -> i64 {
    let ring = |r: &Vec<Point>| r.len().saturating_sub(1) as i64;
    match g {
        Geometry::Point(p) => i64::from(p.is_some()),
        Geometry::LineString(v) | Geometry::MultiPoint(v) => v.len() as i64,
        Geometry::MultiLineString(lines) => lines.iter().map(|l| l.len() as i64).sum(),
        Geometry::Polygon(rings) => rings.iter().map(ring).sum(),
        Geometry::MultiPolygon(polygons) => polygons.iter().flatten().map(ring).sum(),
        Geometry::Collection(parts) => parts.iter().map(point_count).sum(),
    }
}

/// Esri's isEmpty of the OGC object: a collection is empty when it has no members.
fn esri_empty(g: &Geometry) -> bool {
    match g {
        Geometry::Collection(parts) => parts.is_empty(),
        other => other.is_empty(),
    }
}

fn ring_as_line(ring: &[Point]) -> Geometry {
    Geometry::LineString(ring.to_vec())
}

fn polygon_rings(function: &str, g: &Geometry) -> rusqlite::Result<Vec<Vec<Point>>> {
    require_kind(function, g, &[Kind::Polygon])?;
    Ok(match g {
        Geometry::Polygon(rings) => rings.clone(),
        _ => Vec::new(),
    })
}

/// ST_Points: the vertices as Trino's JTS reading of its stored form lists them, polygon
/// rings in Esri's stored order; an empty point in a collection stays an empty point.
fn points_of(g: &Geometry, out: &mut Vec<Geometry>) {
    match g {
        Geometry::Point(p) => out.push(Geometry::Point(*p)),
        Geometry::Polygon(rings) => {
            esri_ring_order(rings)
                .iter()
                .flatten()
                .for_each(|p| out.push(point(*p)));
        }
        Geometry::MultiPolygon(polygons) => polygons.iter().for_each(|rings| {
            esri_ring_order(rings)
                .iter()
                .flatten()
                .for_each(|p| out.push(point(*p)));
        }),
        Geometry::Collection(parts) => parts.iter().for_each(|part| points_of(part, out)),
        other => other.for_each_vertex(&mut |p| out.push(point(p))),
    }
}

fn closed(line: &[Point]) -> bool {
    match (line.first(), line.last()) {
        (Some(a), Some(b)) => same_vertex(*a, *b),
        _ => true,
    }
}

pub const QM_ST_GEOMETRY_TYPE: SqliteFn = SqliteFn::new("qm_st_geometry_type");
pub const QM_ST_DIMENSION: SqliteFn = SqliteFn::new("qm_st_dimension");
pub const QM_ST_IS_EMPTY: SqliteFn = SqliteFn::new("qm_st_is_empty");
pub const QM_ST_IS_CLOSED: SqliteFn = SqliteFn::new("qm_st_is_closed");
pub const QM_ST_NUM_POINTS: SqliteFn = SqliteFn::new("qm_st_num_points");
pub const QM_ST_NUM_GEOMETRIES: SqliteFn = SqliteFn::new("qm_st_num_geometries");
pub const QM_ST_GEOMETRY_N: SqliteFn = SqliteFn::new("qm_st_geometry_n");
pub const QM_ST_POINT_N: SqliteFn = SqliteFn::new("qm_st_point_n");
pub const QM_ST_START_POINT: SqliteFn = SqliteFn::new("qm_st_start_point");
pub const QM_ST_END_POINT: SqliteFn = SqliteFn::new("qm_st_end_point");
pub const QM_ST_EXTERIOR_RING: SqliteFn = SqliteFn::new("qm_st_exterior_ring");
pub const QM_ST_NUM_INTERIOR_RING: SqliteFn = SqliteFn::new("qm_st_num_interior_ring");
pub const QM_ST_INTERIOR_RINGS: SqliteFn = SqliteFn::new("qm_st_interior_rings");
pub const QM_ST_INTERIOR_RING_N: SqliteFn = SqliteFn::new("qm_st_interior_ring_n");
pub const QM_ST_GEOMETRIES: SqliteFn = SqliteFn::new("qm_st_geometries");
pub const QM_ST_POINTS: SqliteFn = SqliteFn::new("qm_st_points");
pub const QM_ST_XMIN: SqliteFn = SqliteFn::new("qm_st_xmin");
pub const QM_ST_XMAX: SqliteFn = SqliteFn::new("qm_st_xmax");
pub const QM_ST_YMIN: SqliteFn = SqliteFn::new("qm_st_ymin");
pub const QM_ST_YMAX: SqliteFn = SqliteFn::new("qm_st_ymax");
pub const QM_ST_ENVELOPE: SqliteFn = SqliteFn::new("qm_st_envelope");
pub const QM_ST_ENVELOPE_AS_PTS: SqliteFn = SqliteFn::new("qm_st_envelope_as_pts");
pub const QM_ST_IS_SIMPLE: SqliteFn = SqliteFn::new("qm_st_is_simple");
pub const QM_ST_IS_VALID: SqliteFn = SqliteFn::new("qm_st_is_valid");
pub const QM_GEOMETRY_INVALID_REASON: SqliteFn = SqliteFn::new("qm_geometry_invalid_reason");
pub const QM_ST_IS_RING: SqliteFn = SqliteFn::new("qm_st_is_ring");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    over_geometry(conn, QM_ST_GEOMETRY_TYPE.name(), |g| {
        Ok(Some(g.kind().standard_name()))
    })?;
    over_geometry(conn, QM_ST_DIMENSION.name(), |g| {
        Ok(Some(i64::from(g.dimension())))
    })?;
    over_geometry(conn, QM_ST_IS_EMPTY.name(), |g| Ok(Some(g.is_empty())))?;
    over_geometry(conn, QM_ST_IS_CLOSED.name(), |g| {
        require_kind(
            "ST_IsClosed",
            &g,
            &[Kind::LineString, Kind::MultiLineString],
        )?;
        Ok(Some(match &g {
            Geometry::LineString(line) => closed(line),
            Geometry::MultiLineString(lines) => lines.iter().all(|l| closed(l)),
            _ => false,
        }))
    })?;
    over_geometry(conn, QM_ST_NUM_POINTS.name(), |g| Ok(Some(point_count(&g))))?;
    over_geometry(conn, QM_ST_NUM_GEOMETRIES.name(), |g| {
        Ok(Some(if esri_empty(&g) {
            0
        } else if g.kind().is_multi() {
            g.parts().len() as i64
        } else {
            1
        }))
    })?;
    over_geometry_and_index(conn, QM_ST_GEOMETRY_N.name(), |g, index| {
        if esri_empty(&g) {
            return Ok(None);
        }
        let parts = if g.kind().is_multi() {
            g.parts()
        } else {
            vec![g]
        };
        match usize::try_from(index - 1).ok().and_then(|i| parts.get(i)) {
            Some(part) => stored(part).map(Some),
            None => Ok(None),
        }
    })?;
    over_geometry_and_index(conn, QM_ST_POINT_N.name(), |g, index| {
        require_kind("ST_PointN", &g, &[Kind::LineString])?;
        let Geometry::LineString(line) = g else {
            return Ok(None);
        };
        match usize::try_from(index - 1).ok().and_then(|i| line.get(i)) {
            Some(p) => stored(&point(*p)).map(Some),
            None => Ok(None),
        }
    })?;
    for (name, function, last) in [
        (QM_ST_START_POINT.name(), "ST_StartPoint", false),
        (QM_ST_END_POINT.name(), "ST_EndPoint", true),
    ] {
        define(conn, name, 1, FLAGS, move |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            require_kind(function, &g, &[Kind::LineString])?;
            let Geometry::LineString(line) = g else {
                return Ok(None);
            };
            let vertex = if last { line.last() } else { line.first() };
            vertex.map(|p| stored(&point(*p))).transpose()
        })?;
    }
    over_geometry(conn, QM_ST_EXTERIOR_RING.name(), |g| {
        let rings = polygon_rings("ST_ExteriorRing", &g)?;
        rings.first().map(|r| stored(&ring_as_line(r))).transpose()
    })?;
    over_geometry(conn, QM_ST_NUM_INTERIOR_RING.name(), |g| {
        let rings = polygon_rings("ST_NumInteriorRing", &g)?;
        Ok((!rings.is_empty()).then(|| rings.len() as i64 - 1))
    })?;
    over_geometry(conn, QM_ST_INTERIOR_RINGS.name(), |g| {
        let rings = polygon_rings("ST_InteriorRings", &g)?;
        if rings.is_empty() {
            return Ok(None);
        }
        let holes: Vec<Geometry> = rings[1..].iter().map(|r| ring_as_line(r)).collect();
        geometry_array(&holes).map(Some)
    })?;
    over_geometry_and_index(conn, QM_ST_INTERIOR_RING_N.name(), |g, index| {
        let rings = polygon_rings("ST_InteriorRingN", &g)?;
        let hole = usize::try_from(index)
            .ok()
            .filter(|i| *i >= 1)
            .and_then(|i| rings.get(i));
        hole.map(|r| stored(&ring_as_line(r))).transpose()
    })?;
    over_geometry(conn, QM_ST_GEOMETRIES.name(), |g| {
        if esri_empty(&g) {
            return Ok(None);
        }
        let parts = if g.kind().is_multi() {
            g.parts()
        } else {
            vec![g]
        };
        geometry_array(&parts).map(Some)
    })?;
    over_geometry(conn, QM_ST_POINTS.name(), |g| {
        if g.is_empty() {
            return Ok(None);
        }
        let mut points = Vec::new();
        points_of(&g, &mut points);
        geometry_array(&points).map(Some)
    })?;
    type Side = fn(&crate::geospatial::model::Envelope) -> f64;
    let sides: [(&'static str, Side); 4] = [
        (QM_ST_XMIN.name(), |e| e.xmin),
        (QM_ST_XMAX.name(), |e| e.xmax),
        (QM_ST_YMIN.name(), |e| e.ymin),
        (QM_ST_YMAX.name(), |e| e.ymax),
    ];
    for (name, side) in sides {
        define(conn, name, 1, FLAGS, move |ctx: &mut Context<'_>| {
            let g = geometry(ctx.get_raw(0))?;
            Ok(g.and_then(|g| g.envelope()).map(|e| real(side(&e))))
        })?;
    }
    over_geometry(conn, QM_ST_ENVELOPE.name(), |g| {
        let polygon = match g.envelope() {
            None => Geometry::Polygon(Vec::new()),
            Some(e) => Geometry::Polygon(vec![vec![
                Point::new(e.xmin, e.ymin),
                Point::new(e.xmax, e.ymin),
                Point::new(e.xmax, e.ymax),
                Point::new(e.xmin, e.ymax),
                Point::new(e.xmin, e.ymin),
            ]]),
        };
        stored(&polygon).map(Some)
    })?;
    over_geometry(conn, QM_ST_ENVELOPE_AS_PTS.name(), |g| {
        let Some(e) = g.envelope() else {
            return Ok(None);
        };
        let corners = [
            point(Point::new(e.xmin, e.ymin)),
            point(Point::new(e.xmax, e.ymax)),
        ];
        geometry_array(&corners).map(Some)
    })?;
    Ok(())
}

/// A geometry's first problem, or NOT_SUPPORTED past the check's bound.
fn simplicity(g: &Geometry) -> rusqlite::Result<Option<Problem>> {
    problem(g).map_err(|_| {
        fail(
            ErrorName::NotSupported,
            "the stand-in checks the simplicity of geometries of at most 7,000 segments",
        )
    })
}

/// ST_IsSimple, ST_IsValid, ST_IsRing and geometry_invalid_reason (GeoFunctions).
pub fn register_validity(conn: &Connection) -> rusqlite::Result<()> {
    over_geometry(conn, QM_ST_IS_SIMPLE.name(), |g| {
        Ok(Some(g.is_empty() || simplicity(&g)?.is_none()))
    })?;
    over_geometry(conn, QM_ST_IS_VALID.name(), |g| {
        Ok(Some(simplicity(&g)?.is_none()))
    })?;
    over_geometry(conn, QM_GEOMETRY_INVALID_REASON.name(), |g| {
        Ok(simplicity(&g)?.map(|p| p.describe(java_double)))
    })?;
    over_geometry(conn, QM_ST_IS_RING.name(), |g| {
        require_kind("ST_IsRing", &g, &[Kind::LineString])?;
        let Geometry::LineString(line) = &g else {
            return Ok(None);
        };
        Ok(Some(
            !line.is_empty() && closed(line) && simplicity(&g)?.is_none(),
        ))
    })
}
