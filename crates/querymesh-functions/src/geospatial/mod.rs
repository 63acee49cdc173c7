//! Geospatial functions (Trino docs functions/geospatial; the geospatial plugin's
//! GeoFunctions): the `Geometry` and `SphericalGeography` types and the `ST_*` family.
//!
//! A geometry is held in SQLite as its Well-Known Text exactly as Trino prints it (wkt.rs):
//! the client sees that text, arrays and rows hold it as is, and `=` on the text is Trino's
//! equality of the same geometry. Each `qm_st_*` function (sqlite/) reads the text into the
//! [`model::Geometry`] and writes its answer back the same way. A `SphericalGeography` is the
//! same text under the other type.

pub mod model;
pub mod sqlite;
pub mod wkt;

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::entry::{FunctionDef, Lower, Typing, scalar};

/// A scalar whose SQLite form is a template over its coerced arguments.
const fn st(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    template: &'static str,
    description: &'static str,
) -> FunctionDef {
    scalar(
        name,
        signatures,
        Typing::Resolved,
        Lower::Template(template),
        description,
    )
}

/// Trino 476's SHOW FUNCTIONS rows (names, signatures and descriptions as it lists them).
pub const FUNCTIONS: &[FunctionDef] = &[
    st(
        "ST_GeometryFromText",
        &[("varchar", "geometry")],
        "qm_st_geometry_from_text({0})",
        "Returns a Geometry type object from Well-Known Text representation (WKT)",
    ),
    st(
        "ST_AsText",
        &[("geometry", "varchar")],
        "{0}",
        "Returns the Well-Known Text (WKT) representation of the geometry",
    ),
    st(
        "ST_Point",
        &[("double, double", "geometry")],
        "qm_st_point({0}, {1})",
        "Returns a Geometry type Point object with the given coordinate values",
    ),
    st(
        "ST_X",
        &[("geometry", "double")],
        "qm_st_x({0})",
        "Return the X coordinate of the point",
    ),
    st(
        "ST_Y",
        &[("geometry", "double")],
        "qm_st_y({0})",
        "Return the Y coordinate of the point",
    ),
];

/// CAST between a geometry type and any other: Trino has none ("Cannot cast Geometry to
/// varchar"), not even between Geometry and SphericalGeography. `None`: not a geometry cast.
pub fn cast_sql(t: &Typed, target: &TrinoType) -> Option<Result<String, String>> {
    let geo = |t: &TrinoType| matches!(t, TrinoType::Geometry | TrinoType::SphericalGeography);
    if !geo(&t.ty) && !geo(target) {
        return None;
    }
    Some(if t.ty == *target || t.ty == TrinoType::Unknown {
        Ok(t.sql.clone())
    } else {
        Err(format!("Cannot cast {} to {target}", t.ty))
    })
}
