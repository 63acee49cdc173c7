//! Geospatial functions (Trino docs functions/geospatial; the geospatial plugin's
//! GeoFunctions): the `Geometry` and `SphericalGeography` types and the `ST_*` family.
//!
//! A geometry is held in SQLite as its Well-Known Text exactly as Trino prints it (wkt.rs):
//! the client sees that text, arrays and rows hold it as is, and `=` on the text is Trino's
//! equality of the same geometry. Each `qm_st_*` function (sqlite/) reads the text into the
//! [`model::Geometry`] and writes its answer back the same way. A `SphericalGeography` is the
//! same text under the other type.

pub mod convert;
pub mod geojson;
pub mod hadoop_shape;
pub mod kml;
pub mod model;
pub mod polyline;
pub mod simple;
pub mod sqlite;
pub mod wkb;
pub mod wkt;

use querymesh_values::sqlite_expr::SqlExpr;
use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;

use super::Call;
use super::context::LowerContext;
use super::entry::{
    AggregateCall, FunctionDef, Lower, LowerResult, Typing, aggregate, calls, scalar,
};

/// A scalar over its coerced arguments, typed by its signature.
const fn st(
    name: &'static str,
    signatures: &'static [(&'static str, &'static str)],
    lower: Lower,
    description: &'static str,
) -> FunctionDef {
    scalar(name, signatures, Typing::Resolved, lower, description)
}

/// Trino 476's SHOW FUNCTIONS rows (names, signatures and descriptions as it lists them).
pub const FUNCTIONS: &[FunctionDef] = &[
    st(
        "ST_GeometryFromText",
        &[("varchar", "geometry")],
        calls!(sqlite::QM_ST_GEOMETRY_FROM_TEXT),
        "Returns a Geometry type object from Well-Known Text representation (WKT)",
    ),
    st(
        "ST_AsText",
        &[("geometry", "varchar")],
        Lower::Scalar(same_text),
        "Returns the Well-Known Text (WKT) representation of the geometry",
    ),
    st(
        "ST_Point",
        &[("double, double", "geometry")],
        calls!(sqlite::QM_ST_POINT),
        "Returns a Geometry type Point object with the given coordinate values",
    ),
    st(
        "ST_X",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_X),
        "Return the X coordinate of the point",
    ),
    st(
        "ST_Y",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_Y),
        "Return the Y coordinate of the point",
    ),
    st(
        "ST_GeometryType",
        &[("geometry", "varchar")],
        calls!(sqlite::QM_ST_GEOMETRY_TYPE),
        "Returns the type of the geometry",
    ),
    st(
        "ST_Dimension",
        &[("geometry", "tinyint")],
        calls!(sqlite::QM_ST_DIMENSION),
        "Returns the inherent dimension of this Geometry object, which must be less than or equal to the coordinate dimension",
    ),
    // Every geometry here has two coordinates (Trino refuses Z and M in WKT).
    st(
        "ST_CoordDim",
        &[("geometry", "tinyint")],
        Lower::Scalar(two_coordinates),
        "Return the coordinate dimension of the Geometry",
    ),
    st(
        "ST_IsEmpty",
        &[("geometry", "boolean")],
        calls!(sqlite::QM_ST_IS_EMPTY),
        "Returns TRUE if this Geometry is an empty geometrycollection, polygon, point etc",
    ),
    st(
        "ST_IsClosed",
        &[("geometry", "boolean")],
        calls!(sqlite::QM_ST_IS_CLOSED),
        "Returns TRUE if the LineString or Multi-LineString's start and end points are coincident",
    ),
    st(
        "ST_NumPoints",
        &[("geometry", "bigint")],
        calls!(sqlite::QM_ST_NUM_POINTS),
        "Returns the number of points in a Geometry",
    ),
    st(
        "ST_NumGeometries",
        &[("geometry", "integer")],
        calls!(sqlite::QM_ST_NUM_GEOMETRIES),
        "Returns the cardinality of the geometry collection",
    ),
    st(
        "ST_GeometryN",
        &[("geometry, integer", "geometry")],
        calls!(sqlite::QM_ST_GEOMETRY_N),
        "Returns the geometry element at the specified index (indices started with 1)",
    ),
    st(
        "ST_PointN",
        &[("geometry, integer", "geometry")],
        calls!(sqlite::QM_ST_POINT_N),
        "Returns the vertex of a linestring at the specified index (indices started with 1) ",
    ),
    st(
        "ST_StartPoint",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_START_POINT),
        "Returns the first point of a LINESTRING geometry as a Point",
    ),
    st(
        "ST_EndPoint",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_END_POINT),
        "Returns the last point of a LINESTRING geometry as a Point",
    ),
    st(
        "ST_ExteriorRing",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_EXTERIOR_RING),
        "Returns a line string representing the exterior ring of the POLYGON",
    ),
    st(
        "ST_NumInteriorRing",
        &[("geometry", "bigint")],
        calls!(sqlite::QM_ST_NUM_INTERIOR_RING),
        "Returns the cardinality of the collection of interior rings of a polygon",
    ),
    st(
        "ST_InteriorRings",
        &[("geometry", "array(geometry)")],
        calls!(sqlite::QM_ST_INTERIOR_RINGS),
        "Returns an array of interior rings of a polygon",
    ),
    st(
        "ST_InteriorRingN",
        &[("geometry, integer", "geometry")],
        calls!(sqlite::QM_ST_INTERIOR_RING_N),
        "Returns the interior ring element at the specified index (indices start at 1)",
    ),
    st(
        "ST_Geometries",
        &[("geometry", "array(geometry)")],
        calls!(sqlite::QM_ST_GEOMETRIES),
        "Returns an array of geometries in the specified collection",
    ),
    st(
        "ST_Points",
        &[("geometry", "array(geometry)")],
        calls!(sqlite::QM_ST_POINTS),
        "Returns an array of points in a geometry",
    ),
    st(
        "ST_XMin",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_XMIN),
        "Returns X minima of a bounding box of a Geometry",
    ),
    st(
        "ST_XMax",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_XMAX),
        "Returns X maxima of a bounding box of a Geometry",
    ),
    st(
        "ST_YMin",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_YMIN),
        "Returns Y minima of a bounding box of a Geometry",
    ),
    st(
        "ST_YMax",
        &[("geometry", "double")],
        calls!(sqlite::QM_ST_YMAX),
        "Returns Y maxima of a bounding box of a Geometry",
    ),
    st(
        "ST_Envelope",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_ENVELOPE),
        "Returns the bounding rectangular polygon of a Geometry",
    ),
    st(
        "ST_EnvelopeAsPts",
        &[("geometry", "array(geometry)")],
        calls!(sqlite::QM_ST_ENVELOPE_AS_PTS),
        "Returns the lower left and upper right corners of bounding rectangular polygon of a Geometry",
    ),
    st(
        "ST_LineFromText",
        &[("varchar", "geometry")],
        calls!(sqlite::QM_ST_LINE_FROM_TEXT),
        "Returns a Geometry type LineString object from Well-Known Text representation (WKT)",
    ),
    st(
        "ST_Polygon",
        &[("varchar", "geometry")],
        calls!(sqlite::QM_ST_POLYGON),
        "Returns a Geometry type Polygon object from Well-Known Text representation (WKT)",
    ),
    st(
        "ST_LineString",
        &[("array(geometry)", "geometry")],
        calls!(sqlite::QM_ST_LINE_STRING),
        "Returns a LineString from an array of points",
    ),
    st(
        "ST_MultiPoint",
        &[("array(geometry)", "geometry")],
        calls!(sqlite::QM_ST_MULTI_POINT),
        "Returns a multi-point geometry formed from input points",
    ),
    scalar(
        "ST_Area",
        &[("geometry", "double"), ("sphericalgeography", "double")],
        Typing::Resolved,
        Lower::Scalar(planar_or_spherical),
        "Returns the 2D Euclidean area of a geometry\nReturns the area of a geometry on the Earth's surface using spherical model",
    ),
    scalar(
        "ST_Length",
        &[("geometry", "double"), ("sphericalgeography", "double")],
        Typing::Resolved,
        Lower::Scalar(planar_or_spherical),
        "Returns the length of a LineString or Multi-LineString using Euclidean measurement on a 2D plane (based on spatial ref) in projected units\nReturns the great-circle length in meters of a linestring or multi-linestring on Earth's surface",
    ),
    scalar(
        "ST_Distance",
        &[
            ("geometry, geometry", "double"),
            ("sphericalgeography, sphericalgeography", "double"),
        ],
        Typing::Resolved,
        Lower::Scalar(planar_or_spherical),
        "Returns the 2-dimensional cartesian minimum distance (based on spatial ref) between two geometries in projected units\nReturns the great-circle distance in meters between two SphericalGeography points.",
    ),
    st(
        "ST_Centroid",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_CENTROID),
        "Returns the Point value that is the mathematical centroid of a Geometry",
    ),
    st(
        "ST_ConvexHull",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_CONVEX_HULL),
        "Returns the minimum convex geometry that encloses all input geometries",
    ),
    st(
        "ST_Boundary",
        &[("geometry", "geometry")],
        calls!(sqlite::QM_ST_BOUNDARY),
        "Returns the closure of the combinatorial boundary of this Geometry",
    ),
    st(
        "to_spherical_geography",
        &[("geometry", "sphericalgeography")],
        calls!(sqlite::QM_TO_SPHERICAL_GEOGRAPHY),
        "Converts a Geometry object to a SphericalGeography object",
    ),
    // Every SphericalGeography is a valid Geometry (GeoFunctions.toGeometry).
    st(
        "to_geometry",
        &[("sphericalgeography", "geometry")],
        Lower::Scalar(same_text),
        "Converts a SphericalGeography object to a Geometry object.",
    ),
    st(
        "great_circle_distance",
        &[("double, double, double, double", "double")],
        calls!(sqlite::QM_GREAT_CIRCLE_DISTANCE),
        "Calculates the great-circle distance between two points on the Earth's surface in kilometers",
    ),
    st(
        "ST_Contains",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_CONTAINS),
        "Returns TRUE if and only if no points of right lie in the exterior of left, and at least one point of the interior of left lies in the interior of right",
    ),
    st(
        "ST_Within",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_WITHIN),
        "Returns TRUE if the geometry A is completely inside geometry B",
    ),
    st(
        "ST_Intersects",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_INTERSECTS),
        "Returns TRUE if the Geometries spatially intersect in 2D - (share any portion of space) and FALSE if they don't (they are Disjoint)",
    ),
    st(
        "ST_Disjoint",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_DISJOINT),
        "Returns TRUE if the Geometries do not spatially intersect - if they do not share any space together",
    ),
    st(
        "ST_Touches",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_TOUCHES),
        "Returns TRUE if the geometries have at least one point in common, but their interiors do not intersect",
    ),
    st(
        "ST_Crosses",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_CROSSES),
        "Returns TRUE if the supplied geometries have some, but not all, interior points in common",
    ),
    st(
        "ST_Overlaps",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_OVERLAPS),
        "Returns TRUE if the Geometries share space, are of the same dimension, but are not completely contained by each other",
    ),
    st(
        "ST_Equals",
        &[("geometry, geometry", "boolean")],
        calls!(sqlite::QM_ST_EQUALS),
        "Returns TRUE if the given geometries represent the same geometry",
    ),
    st(
        "ST_Relate",
        &[("geometry, geometry, varchar", "boolean")],
        calls!(sqlite::QM_ST_RELATE),
        "Returns TRUE if this Geometry is spatially related to another Geometry",
    ),
    st(
        "ST_Intersection",
        &[("geometry, geometry", "geometry")],
        calls!(sqlite::QM_ST_INTERSECTION),
        "Returns the Geometry value that represents the point set intersection of two Geometries",
    ),
    st(
        "ST_Union",
        &[("geometry, geometry", "geometry")],
        calls!(sqlite::QM_ST_UNION),
        "Returns a geometry that represents the point set union of the input geometries.",
    ),
    st(
        "ST_Difference",
        &[("geometry, geometry", "geometry")],
        calls!(sqlite::QM_ST_DIFFERENCE),
        "Returns the Geometry value that represents the point set difference of two geometries",
    ),
    st(
        "ST_SymDifference",
        &[("geometry, geometry", "geometry")],
        calls!(sqlite::QM_ST_SYM_DIFFERENCE),
        "Returns the Geometry value that represents the point set symmetric difference of two Geometries",
    ),
    st(
        "geometry_union",
        &[("array(geometry)", "geometry")],
        calls!(sqlite::QM_GEOMETRY_UNION),
        "Returns a geometry that represents the point set union of the input geometries.",
    ),
    st(
        "ST_Buffer",
        &[("geometry, double", "geometry")],
        calls!(sqlite::QM_ST_BUFFER),
        "Returns the geometry that represents all points whose distance from the specified geometry is less than or equal to the specified distance",
    ),
    st(
        "simplify_geometry",
        &[("geometry, double", "geometry")],
        calls!(sqlite::QM_SIMPLIFY_GEOMETRY),
        "Returns a \"simplified\" version of the given geometry",
    ),
    st(
        "line_interpolate_point",
        &[("geometry, double", "geometry")],
        calls!(sqlite::QM_LINE_INTERPOLATE_POINT),
        "Returns a Point interpolated along a LineString at the fraction given.",
    ),
    st(
        "line_interpolate_points",
        &[("geometry, double", "array(geometry)")],
        calls!(sqlite::QM_LINE_INTERPOLATE_POINTS),
        "Returns an array of Points interpolated along a LineString.",
    ),
    st(
        "line_locate_point",
        &[("geometry, geometry", "double")],
        calls!(sqlite::QM_LINE_LOCATE_POINT),
        "Returns a float between 0 and 1 representing the location of the closest point on the LineString to the given Point, as a fraction of total 2d line length.",
    ),
    scalar(
        "geometry_nearest_points",
        &[("geometry, geometry", "row(geometry,geometry)")],
        Typing::ByLowering,
        Lower::Scalar(nearest_points),
        "Return the closest points on the two geometries",
    ),
    st(
        "ST_AsBinary",
        &[("geometry", "varbinary")],
        calls!(sqlite::QM_ST_AS_BINARY),
        "Returns the Well-Known Binary (WKB) representation of the geometry",
    ),
    st(
        "ST_GeomFromBinary",
        &[("varbinary", "geometry")],
        calls!(sqlite::QM_ST_GEOM_FROM_BINARY),
        "Returns a Geometry type object from Well-Known Binary representation (WKB)",
    ),
    st(
        "ST_IsSimple",
        &[("geometry", "boolean")],
        calls!(sqlite::QM_ST_IS_SIMPLE),
        "Returns TRUE if this Geometry has no anomalous geometric points, such as self intersection or self tangency",
    ),
    st(
        "ST_IsValid",
        &[("geometry", "boolean")],
        calls!(sqlite::QM_ST_IS_VALID),
        "Returns true if the input geometry is well formed",
    ),
    st(
        "ST_IsRing",
        &[("geometry", "boolean")],
        calls!(sqlite::QM_ST_IS_RING),
        "Returns TRUE if and only if the line is closed and simple",
    ),
    st(
        "geometry_invalid_reason",
        &[("geometry", "varchar")],
        calls!(sqlite::QM_GEOMETRY_INVALID_REASON),
        "Returns the reason for why the input geometry is not valid. Returns null if the input is valid.",
    ),
    st(
        "to_geojson_geometry",
        &[("sphericalgeography", "varchar")],
        calls!(sqlite::QM_TO_GEOJSON_GEOMETRY),
        "Returns GeoJSON string based on the input spherical geography",
    ),
    st(
        "from_geojson_geometry",
        &[("varchar", "sphericalgeography")],
        calls!(sqlite::QM_FROM_GEOJSON_GEOMETRY),
        "Returns a spherical geography from a GeoJSON string",
    ),
    st(
        "to_encoded_polyline",
        &[("geometry", "varchar")],
        calls!(sqlite::QM_TO_ENCODED_POLYLINE),
        "Encodes a linestring or multipoint geometry to a polyline",
    ),
    st(
        "from_encoded_polyline",
        &[("varchar", "geometry")],
        calls!(sqlite::QM_FROM_ENCODED_POLYLINE),
        "Decodes a polyline to a linestring",
    ),
    st(
        "ST_GeomFromKML",
        &[("varchar", "geometry")],
        calls!(sqlite::QM_ST_GEOM_FROM_KML),
        "Returns a Geometry type object from OGC KML representation",
    ),
    aggregate(
        "convex_hull_agg",
        &[("geometry", "geometry")],
        geometry_aggregate,
        "Returns a geometry that is the convex hull of all the geometries in the set.",
    ),
    aggregate(
        "geometry_union_agg",
        &[("geometry", "geometry")],
        geometry_aggregate,
        "Returns a geometry that represents the point set union of the input geometries.",
    ),
    st(
        "geometry_from_hadoop_shape",
        &[("varbinary", "geometry")],
        calls!(sqlite::QM_GEOMETRY_FROM_HADOOP_SHAPE),
        "Returns a Geometry type object from Spatial Framework for Hadoop representation",
    ),
];

/// CAST between a geometry type and any other: Trino has none ("Cannot cast Geometry to
/// varchar"), not even between Geometry and SphericalGeography. `None`: not a geometry cast.
pub fn cast_sql(t: &Typed, target: &TrinoType) -> Option<Result<SqlExpr, String>> {
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

/// ST_AsText and to_geometry: the stored text is the answer (a geometry is held as its WKT;
/// a SphericalGeography is a Geometry's text).
fn same_text(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(c.args
        .first()
        .map(|a| Typed::new(a.sql.clone(), c.returns())))
}

/// ST_CoordDim: 2 for any geometry, NULL for NULL.
fn two_coordinates(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    Ok(c.args.first().map(|a| {
        Typed::new(
            SqlExpr::null_or(a.sql.clone(), SqlExpr::Integer(2)),
            c.returns(),
        )
    }))
}

/// ST_Area, ST_Length and ST_Distance: planar over Geometry (`qm_st_area`), on the sphere
/// over SphericalGeography (`qm_st_area_sphere`).
fn planar_or_spherical(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    use sqlite::{
        QM_ST_AREA, QM_ST_AREA_SPHERE, QM_ST_DISTANCE, QM_ST_DISTANCE_SPHERE, QM_ST_LENGTH,
        QM_ST_LENGTH_SPHERE,
    };
    let (planar, on_sphere) = match c.name.to_ascii_lowercase().as_str() {
        "st_area" => (QM_ST_AREA, QM_ST_AREA_SPHERE),
        "st_length" => (QM_ST_LENGTH, QM_ST_LENGTH_SPHERE),
        "st_distance" => (QM_ST_DISTANCE, QM_ST_DISTANCE_SPHERE),
        _ => return Ok(None),
    };
    let spherical = c.args.iter().any(|a| a.ty == TrinoType::SphericalGeography);
    let f = if spherical { on_sphere } else { planar };
    Ok(Some(Typed::new(
        f.call(c.args.iter().map(|a| a.sql.clone())),
        TrinoType::Double,
    )))
}

/// geometry_nearest_points: an anonymous row of two geometries (a signature cannot name
/// the row's field types).
fn nearest_points(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [a, b] = c.args.as_slice() else {
        return Ok(None);
    };
    let geometry = |t: &TrinoType| matches!(t, TrinoType::Geometry | TrinoType::Unknown);
    if !geometry(&a.ty) || !geometry(&b.ty) {
        return Ok(None);
    }
    Ok(Some(Typed::new(
        sqlite::QM_GEOMETRY_NEAREST_POINTS.call([a.sql.clone(), b.sql.clone()]),
        TrinoType::Row(vec![
            (None, TrinoType::Geometry),
            (None, TrinoType::Geometry),
        ]),
    )))
}

/// convex_hull_agg and geometry_union_agg over a Geometry (a bare NULL is one too).
fn geometry_aggregate(
    _: &mut dyn LowerContext,
    call: &AggregateCall<'_>,
) -> crate::entry::AggregateLowered {
    let [x] = call.args else { return Ok(None) };
    if !matches!(x.ty, TrinoType::Geometry | TrinoType::Unknown) {
        return Ok(None);
    }
    let f = match call.name {
        "convex_hull_agg" => sqlite::QM_CONVEX_HULL_AGG,
        "geometry_union_agg" => sqlite::QM_GEOMETRY_UNION_AGG,
        _ => return Ok(None),
    };
    Ok(crate::aggregate::lowered(
        SqlExpr::aggregate(f, call.distinct, [x.sql.clone()]),
        TrinoType::Geometry,
    ))
}
