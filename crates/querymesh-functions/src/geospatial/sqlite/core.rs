//! The type's core: ST_GeometryFromText, ST_Point, ST_X, ST_Y.

use rusqlite::Connection;
use rusqlite::types::Value;

use super::{geometry, invalid, require_kind, stored};
use crate::geospatial::model::{Geometry, Kind, Point};
use crate::geospatial::wkt::{self, WktError};
use crate::udf::{FLAGS, define, fail, num, real, text};
use querymesh_values::error::ErrorName;

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

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, "qm_st_geometry_from_text", 1, FLAGS, |ctx| {
        let Some(input) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        stored(&from_text(&input)?).map(Some)
    })?;
    define(conn, "qm_st_point", 2, FLAGS, |ctx| {
        let (Some(x), Some(y)) = (num(ctx.get_raw(0)), num(ctx.get_raw(1))) else {
            return Ok(None);
        };
        // A NaN x is an empty point, as Esri's Point says.
        let point = (!x.is_nan()).then_some(Point::new(x, y));
        stored(&Geometry::Point(point)).map(Some)
    })?;
    define(conn, "qm_st_x", 1, FLAGS, coordinate("ST_X", |p| p.x))?;
    define(conn, "qm_st_y", 1, FLAGS, coordinate("ST_Y", |p| p.y))
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
