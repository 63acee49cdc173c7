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

pub use aggregates::{QM_CONVEX_HULL_AGG, QM_GEOMETRY_UNION_AGG};
pub use lines::QM_GEOMETRY_NEAREST_POINTS;
pub use measures::{QM_ST_AREA, QM_ST_DISTANCE, QM_ST_LENGTH};
pub use spherical::{QM_ST_AREA_SPHERE, QM_ST_DISTANCE_SPHERE, QM_ST_LENGTH_SPHERE};

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
