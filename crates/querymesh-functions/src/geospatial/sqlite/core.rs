//! The type's core: ST_GeometryFromText, ST_Point, ST_X, ST_Y.

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::types::Value;

use super::{geometry, invalid, require_kind, stored};
use crate::geospatial::model::{Geometry, Kind, Point};
use crate::geospatial::wkb;
use crate::geospatial::wkt::{self, WktError};
use crate::udf::{FLAGS, define, fail, num, real, reserve, text};
use querymesh_values::error::ErrorName;
use rusqlite::types::ValueRef;

/// ST_GeometryFromText: "Invalid WKT: <text>" for what Esri's reader refuses.
pub(crate) fn from_text(input: &str) -> rusqlite::Result<Geometry> {
    wkt::parse(input).map_err(|e| match e {
        WktError::Invalid => invalid(format!("Invalid WKT: {input}")),
        // Trino 476 fails here with an internal error of Esri's.
        WktError::NotTwoDimensional => fail(
            ErrorName::GenericInternalError,
            "Only 2D points with no ID nor M attribute are supported",
        ),
    })
}

/// ST_X / ST_Y: a point's coordinate, NULL for an empty point.
fn coordinate(
    function: &'static str,
    pick: fn(Point) -> f64,
) -> impl Fn(&mut rusqlite::functions::Context<'_>) -> rusqlite::Result<Option<Value>> {
    move |ctx| {
        let Some(g) = geometry(ctx.get_raw(0))? else {
            return Ok(None);
        };
        require_kind(function, &g, &[Kind::Point])?;
        Ok(match g {
            Geometry::Point(Some(p)) => Some(real(pick(p))),
            _ => None,
        })
    }
}

/// An array(Geometry) argument: its elements' stored texts (`None` for NULL elements).
pub(crate) fn geometry_elements(
    v: rusqlite::types::ValueRef<'_>,
) -> rusqlite::Result<Option<Vec<Option<Geometry>>>> {
    let Some(json) = text(v) else {
        return Ok(None);
    };
    let elements: Vec<Option<String>> = serde_json::from_str(&json)
        .map_err(|_| fail(ErrorName::GenericInternalError, "corrupted geometry array"))?;
    elements
        .iter()
        .map(|e| match e {
            Some(t) => geometry(rusqlite::types::ValueRef::Text(t.as_bytes())),
            None => Ok(None),
        })
        .collect::<rusqlite::Result<Vec<_>>>()
        .map(Some)
}

/// ST_LineString(array(Geometry)): the points in order (GeoFunctions.stLineString).
fn line_of_points(points: Vec<Option<Geometry>>) -> rusqlite::Result<Geometry> {
    let mut line: Vec<Point> = Vec::with_capacity(points.len());
    for (i, element) in points.into_iter().enumerate() {
        let index = i + 1;
        let Some(g) = element else {
            return Err(invalid(format!(
                "Invalid input to ST_LineString: null point at index {index}"
            )));
        };
        let Geometry::Point(point) = g else {
            return Err(invalid(format!(
                "ST_LineString takes only an array of valid points, {} was passed",
                g.kind().ogc_name()
            )));
        };
        let Some(point) = point else {
            return Err(invalid(format!(
                "Invalid input to ST_LineString: empty point at index {index}"
            )));
        };
        if line.last() == Some(&point) {
            return Err(invalid(format!(
                "Invalid input to ST_LineString: consecutive duplicate points at index {index}"
            )));
        }
        line.push(point);
    }
    Ok(Geometry::LineString(line))
}

/// ST_MultiPoint(array(Geometry)): NULL when there are none (GeoFunctions.stMultiPoint).
fn multipoint_of_points(points: Vec<Option<Geometry>>) -> rusqlite::Result<Option<Geometry>> {
    let mut out = Vec::with_capacity(points.len());
    for (i, element) in points.into_iter().enumerate() {
        let index = i + 1;
        let Some(g) = element else {
            return Err(invalid(format!(
                "Invalid input to ST_MultiPoint: null at index {index}"
            )));
        };
        let Geometry::Point(point) = g else {
            return Err(invalid(format!(
                "Invalid input to ST_MultiPoint: geometry is not a point: {} at index {index}",
                g.kind().ogc_name()
            )));
        };
        let Some(point) = point else {
            return Err(invalid(format!(
                "Invalid input to ST_MultiPoint: empty point at index {index}"
            )));
        };
        out.push(point);
    }
    Ok((!out.is_empty()).then_some(Geometry::MultiPoint(out)))
}

pub const QM_ST_LINE_FROM_TEXT: SqliteFn = SqliteFn::new("qm_st_line_from_text");
pub const QM_ST_POLYGON: SqliteFn = SqliteFn::new("qm_st_polygon");
pub const QM_ST_AS_BINARY: SqliteFn = SqliteFn::new("qm_st_as_binary");
pub const QM_ST_GEOM_FROM_BINARY: SqliteFn = SqliteFn::new("qm_st_geom_from_binary");
pub const QM_ST_LINE_STRING: SqliteFn = SqliteFn::new("qm_st_line_string");
pub const QM_ST_MULTI_POINT: SqliteFn = SqliteFn::new("qm_st_multi_point");
pub const QM_ST_GEOMETRY_FROM_TEXT: SqliteFn = SqliteFn::new("qm_st_geometry_from_text");
pub const QM_ST_POINT: SqliteFn = SqliteFn::new("qm_st_point");
pub const QM_ST_X: SqliteFn = SqliteFn::new("qm_st_x");
pub const QM_ST_Y: SqliteFn = SqliteFn::new("qm_st_y");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    for (name, function, kind) in [
        (
            QM_ST_LINE_FROM_TEXT.name(),
            "ST_LineFromText",
            Kind::LineString,
        ),
        (QM_ST_POLYGON.name(), "ST_Polygon", Kind::Polygon),
    ] {
        define(conn, name, 1, FLAGS, move |ctx| {
            let Some(input) = text(ctx.get_raw(0)) else {
                return Ok(None);
            };
            let g = from_text(&input)?;
            require_kind(function, &g, &[kind])?;
            stored(&g).map(Some)
        })?;
    }
    define(conn, QM_ST_AS_BINARY.name(), 1, FLAGS, |ctx| {
        let Some(g) = geometry(ctx.get_raw(0))? else {
            return Ok(None);
        };
        let bytes = wkb::write(&g);
        reserve(bytes.len())?;
        Ok(Some(bytes))
    })?;
    define(conn, QM_ST_GEOM_FROM_BINARY.name(), 1, FLAGS, |ctx| {
        let (ValueRef::Blob(bytes) | ValueRef::Text(bytes)) = ctx.get_raw(0) else {
            return Ok(None);
        };
        let g = wkb::parse(bytes).ok_or_else(|| invalid("Invalid WKB"))?;
        stored(&g).map(Some)
    })?;
    define(
        conn,
        QM_ST_LINE_STRING.name(),
        1,
        FLAGS,
        |ctx| match geometry_elements(ctx.get_raw(0))? {
            Some(points) => stored(&line_of_points(points)?).map(Some),
            None => Ok(None),
        },
    )?;
    define(
        conn,
        QM_ST_MULTI_POINT.name(),
        1,
        FLAGS,
        |ctx| match geometry_elements(ctx.get_raw(0))? {
            Some(points) => multipoint_of_points(points)?
                .map(|g| stored(&g))
                .transpose(),
            None => Ok(None),
        },
    )?;
    define(conn, QM_ST_GEOMETRY_FROM_TEXT.name(), 1, FLAGS, |ctx| {
        let Some(input) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        stored(&from_text(&input)?).map(Some)
    })?;
    define(conn, QM_ST_POINT.name(), 2, FLAGS, |ctx| {
        let (Some(x), Some(y)) = (num(ctx.get_raw(0)), num(ctx.get_raw(1))) else {
            return Ok(None);
        };
        // A NaN x is an empty point, as Esri's Point says.
        let point = (!x.is_nan()).then_some(Point::new(x, y));
        stored(&Geometry::Point(point)).map(Some)
    })?;
    define(conn, QM_ST_X.name(), 1, FLAGS, coordinate("ST_X", |p| p.x))?;
    define(conn, QM_ST_Y.name(), 1, FLAGS, coordinate("ST_Y", |p| p.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_text_is_invalid_wkt() {
        // GeoFunctions.geometryFromText: "Invalid WKT: " and the input.
        let e = from_text("POINT (1 2").err().map(|e| e.to_string());
        assert!(e.is_some_and(|m| m.contains("Invalid WKT: POINT (1 2")));
    }
}
