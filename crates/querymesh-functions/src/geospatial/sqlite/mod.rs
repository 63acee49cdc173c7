//! The geospatial `qm_st_*` SQLite functions: each reads its geometry arguments from their
//! stored text (the WKT Trino prints, ../wkt.rs) and writes a geometry answer back the same
//! way. Errors are Trino's INVALID_FUNCTION_ARGUMENT with GeoFunctions' messages.

mod accessors;
mod aggregates;
mod core;
mod formats;
mod lines;
mod measures;
mod operations;
mod relations;
mod spherical;

pub use accessors::{
    QM_GEOMETRY_INVALID_REASON, QM_ST_DIMENSION, QM_ST_END_POINT, QM_ST_ENVELOPE,
    QM_ST_ENVELOPE_AS_PTS, QM_ST_EXTERIOR_RING, QM_ST_GEOMETRIES, QM_ST_GEOMETRY_N,
    QM_ST_GEOMETRY_TYPE, QM_ST_INTERIOR_RING_N, QM_ST_INTERIOR_RINGS, QM_ST_IS_CLOSED,
    QM_ST_IS_EMPTY, QM_ST_IS_RING, QM_ST_IS_SIMPLE, QM_ST_IS_VALID, QM_ST_NUM_GEOMETRIES,
    QM_ST_NUM_INTERIOR_RING, QM_ST_NUM_POINTS, QM_ST_POINT_N, QM_ST_POINTS, QM_ST_START_POINT,
    QM_ST_XMAX, QM_ST_XMIN, QM_ST_YMAX, QM_ST_YMIN,
};
pub use aggregates::{QM_CONVEX_HULL_AGG, QM_GEOMETRY_UNION_AGG};
pub use core::{
    QM_ST_AS_BINARY, QM_ST_GEOM_FROM_BINARY, QM_ST_GEOMETRY_FROM_TEXT, QM_ST_LINE_FROM_TEXT,
    QM_ST_LINE_STRING, QM_ST_MULTI_POINT, QM_ST_POINT, QM_ST_POLYGON, QM_ST_X, QM_ST_Y,
};
pub use formats::{
    QM_FROM_ENCODED_POLYLINE, QM_FROM_GEOJSON_GEOMETRY, QM_GEOMETRY_FROM_HADOOP_SHAPE,
    QM_ST_GEOM_FROM_KML, QM_TO_ENCODED_POLYLINE, QM_TO_GEOJSON_GEOMETRY,
};
pub use lines::{
    QM_GEOMETRY_NEAREST_POINTS, QM_LINE_INTERPOLATE_POINT, QM_LINE_INTERPOLATE_POINTS,
    QM_LINE_LOCATE_POINT,
};
pub use measures::{
    QM_ST_AREA, QM_ST_BOUNDARY, QM_ST_CENTROID, QM_ST_CONVEX_HULL, QM_ST_DISTANCE, QM_ST_LENGTH,
};
pub use operations::{
    QM_GEOMETRY_UNION, QM_SIMPLIFY_GEOMETRY, QM_ST_BUFFER, QM_ST_DIFFERENCE, QM_ST_INTERSECTION,
    QM_ST_SYM_DIFFERENCE, QM_ST_UNION,
};
pub use relations::{
    QM_ST_CONTAINS, QM_ST_CROSSES, QM_ST_DISJOINT, QM_ST_EQUALS, QM_ST_INTERSECTS, QM_ST_OVERLAPS,
    QM_ST_RELATE, QM_ST_TOUCHES, QM_ST_WITHIN,
};
pub use spherical::{
    QM_GREAT_CIRCLE_DISTANCE, QM_ST_AREA_SPHERE, QM_ST_DISTANCE_SPHERE, QM_ST_LENGTH_SPHERE,
    QM_TO_SPHERICAL_GEOGRAPHY,
};

use querymesh_values::error::ErrorName;
use rusqlite::types::ValueRef;
use rusqlite::{Connection, Error};

use super::model::{Geometry, Kind};
use super::wkt;
use crate::udf::{fail, reserve};

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    core::register(conn)?;
    accessors::register(conn)?;
    accessors::register_validity(conn)?;
    measures::register(conn)?;
    spherical::register(conn)?;
    relations::register(conn)?;
    operations::register(conn)?;
    lines::register(conn)?;
    formats::register(conn)?;
    aggregates::register(conn)
}

pub(crate) fn invalid(message: impl Into<String>) -> Error {
    fail(ErrorName::InvalidFunctionArgument, message)
}

/// A stored geometry argument (`None` for NULL).
pub(crate) fn geometry(v: ValueRef<'_>) -> rusqlite::Result<Option<Geometry>> {
    let (ValueRef::Text(bytes) | ValueRef::Blob(bytes)) = v else {
        return Ok(None);
    };
    let text = std::str::from_utf8(bytes).map_err(|_| corrupted())?;
    wkt::parse(text).map(Some).map_err(|_| corrupted())
}

/// A stored value the engine did not write (unreachable for values it built).
fn corrupted() -> Error {
    fail(ErrorName::GenericInternalError, "corrupted geometry")
}

/// A geometry answer as stored, its memory charged to the query first.
pub(crate) fn stored(g: &Geometry) -> rusqlite::Result<String> {
    let text = wkt::write(g);
    reserve(text.len())?;
    Ok(text)
}

/// GeoFunctions.validateType: "ST_X only applies to POINT. Input type is: LINE_STRING".
pub(crate) fn require_kind(function: &str, g: &Geometry, kinds: &[Kind]) -> rusqlite::Result<()> {
    let kind = g.kind();
    if kinds.contains(&kind) {
        return Ok(());
    }
    // Trino names them in its enum's order (an EnumSet).
    let mut kinds = kinds.to_vec();
    kinds.sort();
    let names: Vec<&str> = kinds.iter().map(|k| k.enum_name()).collect();
    Err(invalid(format!(
        "{function} only applies to {}. Input type is: {}",
        names.join(" or "),
        kind.enum_name()
    )))
}
