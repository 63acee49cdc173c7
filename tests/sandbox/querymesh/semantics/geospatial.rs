//! Geospatial functions (Trino docs functions/geospatial; GeoFunctions, TestGeoFunctions): the
//! `Geometry` and `SphericalGeography` types and the ST_* family, as Trino 476 answers.

use serde_json::json;

use super::{check_errors, check_values};
use crate::support::engine::engine;

#[test]
fn geometries_read_and_print_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // docs functions/geospatial, ST_Point / ST_GeometryFromText; Trino 476's answers.
            ("SELECT ST_Point(1, 2)", "Geometry", json!("POINT (1 2)")),
            (
                "SELECT typeof(ST_Point(1, 2))",
                "varchar",
                json!("Geometry"),
            ),
            (
                "SELECT ST_Point(1e-7, 123456789.123456789e0)",
                "Geometry",
                json!("POINT (1.0000000000000000e-07 123456789.12345679)"),
            ),
            (
                "SELECT ST_Point(nan(), 1)",
                "Geometry",
                json!("POINT EMPTY"),
            ),
            (
                "SELECT ST_GeometryFromText('POLYGON ((0 0, 0 1, 1 1, 1 0))')",
                "Geometry",
                json!("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))"),
            ),
            (
                "SELECT ST_AsText(ST_GeometryFromText('MULTIPOINT (1 2, 3 4)'))",
                "varchar",
                json!("MULTIPOINT ((1 2), (3 4))"),
            ),
            (
                "SELECT ARRAY[ST_Point(1, 2)]",
                "array(Geometry)",
                json!(["POINT (1 2)"]),
            ),
            ("SELECT ST_X(ST_Point(3.5, 4))", "double", json!(3.5)),
            ("SELECT ST_Y(ST_Point(3.5, 4))", "double", json!(4.0)),
            (
                "SELECT ST_X(ST_GeometryFromText('POINT EMPTY'))",
                "double",
                json!(null),
            ),
            (
                "SELECT ST_Point(1, 2) = ST_Point(1, 2)",
                "boolean",
                json!(true),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT ST_GeometryFromText('POINT (1 2')",
                "INVALID_FUNCTION_ARGUMENT: Invalid WKT: POINT (1 2",
            ),
            (
                "SELECT ST_X(ST_GeometryFromText('LINESTRING (0 0, 1 1)'))",
                "INVALID_FUNCTION_ARGUMENT: ST_X only applies to POINT. Input type is: LINE_STRING",
            ),
            (
                "SELECT CAST(ST_Point(1, 2) AS varchar)",
                "TYPE_MISMATCH: line 1:8: Cannot cast Geometry to varchar",
            ),
            ("SELECT ST_Point(1, 2) < ST_Point(1, 3)", "TYPE_MISMATCH"),
        ],
    );
}

#[test]
fn accessors_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestGeoFunctions.testSTNumPoints: a ring's closing vertex is not counted.
            (
                "SELECT ST_NumPoints(ST_GeometryFromText('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))'))",
                "bigint",
                json!(7),
            ),
            (
                "SELECT ST_GeometryType(ST_GeometryFromText('GEOMETRYCOLLECTION EMPTY'))",
                "varchar",
                json!("ST_GeomCollection"),
            ),
            ("SELECT ST_CoordDim(ST_Point(1, 2))", "tinyint", json!(2)),
            (
                "SELECT ST_NumGeometries(ST_GeometryFromText('GEOMETRYCOLLECTION (POINT EMPTY)'))",
                "integer",
                json!(1),
            ),
            // ST_Points lists a polygon's rings as Trino stores them (exterior clockwise).
            (
                "SELECT ST_Points(ST_GeometryFromText('POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))'))",
                "array(Geometry)",
                json!([
                    "POINT (0 0)",
                    "POINT (0 1)",
                    "POINT (1 1)",
                    "POINT (1 0)",
                    "POINT (0 0)"
                ]),
            ),
            (
                "SELECT ST_InteriorRingN(ST_GeometryFromText('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))'), 1)",
                "Geometry",
                json!("LINESTRING (1 1, 2 2, 2 1, 1 1)"),
            ),
            (
                "SELECT ST_Envelope(ST_GeometryFromText('LINESTRING (1 1, 2 3)'))",
                "Geometry",
                json!("POLYGON ((1 1, 2 1, 2 3, 1 3, 1 1))"),
            ),
            (
                "SELECT ST_EnvelopeAsPts(ST_GeometryFromText('POINT EMPTY'))",
                "array(Geometry)",
                json!(null),
            ),
            (
                "SELECT geometry_invalid_reason(ST_GeometryFromText('LINESTRING (0 0, 1 1, 1 0, 0 1)'))",
                "varchar",
                json!("Intersecting or overlapping segments at or near (0.0 0.0) and (1.0 0.0)"),
            ),
            (
                "SELECT ST_IsRing(ST_GeometryFromText('LINESTRING (0 0, 1 0, 1 1, 0 0)'))",
                "boolean",
                json!(true),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT ST_IsClosed(ST_Point(1, 2))",
                "INVALID_FUNCTION_ARGUMENT: ST_IsClosed only applies to LINE_STRING or MULTI_LINE_STRING. Input type is: POINT",
            ),
            (
                "SELECT ST_LineString(ARRAY[ST_Point(1, 2), ST_Point(1, 2)])",
                "INVALID_FUNCTION_ARGUMENT: Invalid input to ST_LineString: consecutive duplicate points at index 2",
            ),
            (
                "SELECT ST_MultiPoint(ARRAY[ST_Point(1, 2), NULL])",
                "INVALID_FUNCTION_ARGUMENT: Invalid input to ST_MultiPoint: null at index 2",
            ),
        ],
    );
}

#[test]
fn measures_and_relations_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT ST_Area(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 2, 1 1))'))",
                "double",
                json!(15.0),
            ),
            (
                "SELECT ST_Length(ST_GeometryFromText('MULTILINESTRING ((0 0, 3 4), (0 0, 1 0))'))",
                "double",
                json!(6.0),
            ),
            (
                "SELECT ST_Centroid(ST_GeometryFromText('LINESTRING (0 0, 4 0, 4 4)'))",
                "Geometry",
                json!("POINT (3 1)"),
            ),
            (
                "SELECT ST_ConvexHull(ST_GeometryFromText('MULTIPOINT (0 0, 1 1, 2 0, 1 3, 1 1)'))",
                "Geometry",
                json!("POLYGON ((0 0, 2 0, 1 3, 0 0))"),
            ),
            // docs functions/geospatial, ST_Distance of two SphericalGeography points.
            (
                "SELECT ST_Distance(to_spherical_geography(ST_Point(-71.0882, 42.3607)), to_spherical_geography(ST_Point(-74.1197, 40.6976)))",
                "double",
                json!(312822.1793690028),
            ),
            (
                "SELECT ST_Area(to_spherical_geography(ST_GeometryFromText('POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))')))",
                "double",
                json!(12364036567.076416),
            ),
            (
                "SELECT ST_Contains(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))'), ST_Point(1, 1))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT ST_Touches(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))'), ST_Point(4, 1))",
                "boolean",
                json!(true),
            ),
            (
                "SELECT ST_Equals(ST_GeometryFromText('POINT EMPTY'), ST_GeometryFromText('POINT EMPTY'))",
                "boolean",
                json!(false),
            ),
            (
                "SELECT ST_Intersection(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))'), ST_GeometryFromText('POLYGON ((2 2, 6 2, 6 6, 2 6, 2 2))'))",
                "Geometry",
                json!("POLYGON ((2 2, 4 2, 4 4, 2 4, 2 2))"),
            ),
            (
                "SELECT line_interpolate_points(ST_GeometryFromText('LINESTRING (0 0, 10 0)'), 0.25)",
                "array(Geometry)",
                json!([
                    "POINT (2.5 0)",
                    "POINT (5 0)",
                    "POINT (7.5 0)",
                    "POINT (10 0)"
                ]),
            ),
            (
                "SELECT geometry_nearest_points(ST_Point(0, 0), ST_GeometryFromText('LINESTRING (2 -1, 2 1)'))",
                "row(Geometry, Geometry)",
                json!(["POINT (0 0)", "POINT (2 0)"]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT ST_Buffer(ST_Point(0, 0), -1)",
                "INVALID_FUNCTION_ARGUMENT: distance is negative",
            ),
            (
                "SELECT great_circle_distance(91, 0, 0, 0)",
                "INVALID_FUNCTION_ARGUMENT: Latitude must be between -90 and 90",
            ),
            (
                "SELECT ST_Distance(to_spherical_geography(ST_GeometryFromText('LINESTRING (0 0, 1 1)')), to_spherical_geography(ST_Point(1, 1)))",
                "INVALID_FUNCTION_ARGUMENT: When applied to SphericalGeography inputs, ST_Distance only supports POINT. Input type is: LINE_STRING",
            ),
        ],
    );
}

#[test]
fn formats_and_aggregates_answer_as_trino() {
    let engine = engine();
    check_values(
        &engine,
        &[
            (
                "SELECT to_hex(ST_AsBinary(ST_Point(1, 2)))",
                "varchar",
                json!("0101000000000000000000F03F0000000000000040"),
            ),
            (
                "SELECT ST_GeomFromBinary(from_hex('000000000140000000000000004010000000000000'))",
                "Geometry",
                json!("POINT (2 4)"),
            ),
            (
                "SELECT to_geojson_geometry(to_spherical_geography(ST_GeometryFromText('POLYGON ((0 0, 0 1, 1 1, 0 0))')))",
                "varchar",
                json!(
                    "{\"type\":\"Polygon\",\"coordinates\":[[[0.0,0.0],[0.0,1],[1,1],[0.0,0.0]]],\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:0\"}}}"
                ),
            ),
            (
                "SELECT from_geojson_geometry('{\"type\":\"Point\",\"coordinates\":[1,2]}')",
                "SphericalGeography",
                json!("POINT (1 2)"),
            ),
            // docs functions/geospatial, Google's polyline example.
            (
                "SELECT from_encoded_polyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')",
                "Geometry",
                json!("LINESTRING (-120.2 38.5, -120.95 40.7, -126.45300000000002 43.252)"),
            ),
            (
                "SELECT ST_GeomFromKML('<Point><coordinates>1,2</coordinates></Point>')",
                "Geometry",
                json!("POINT (1 2)"),
            ),
            (
                "SELECT geometry_union_agg(g) FROM (VALUES ST_Point(0, 0), ST_Point(5, 0), ST_Point(0, 0), NULL) t(g)",
                "Geometry",
                json!("MULTIPOINT ((0 0), (5 0))"),
            ),
            (
                "SELECT convex_hull_agg(g) FROM (VALUES ST_Point(0, 0)) t(g) WHERE false",
                "Geometry",
                json!(null),
            ),
            (
                "SELECT array_agg(ST_NumPoints(h) ORDER BY k) FROM (SELECT k, convex_hull_agg(g) OVER (ORDER BY k) AS h FROM (VALUES (1, ST_Point(0, 0)), (2, ST_Point(2, 0)), (3, ST_Point(1, 3))) t(k, g))",
                "array(bigint)",
                json!([1, 2, 3]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT ST_GeomFromBinary(from_hex('01'))",
                "INVALID_FUNCTION_ARGUMENT: Invalid WKB",
            ),
            (
                "SELECT ST_GeomFromKML('foo')",
                "INVALID_FUNCTION_ARGUMENT: Invalid KML: foo",
            ),
            (
                "SELECT to_encoded_polyline(ST_Point(1, 2))",
                "INVALID_FUNCTION_ARGUMENT: encode_polyline only applies to MULTI_POINT or LINE_STRING. Input type is: POINT",
            ),
            (
                "SELECT geometry_from_hadoop_shape(from_hex('01'))",
                "INVALID_FUNCTION_ARGUMENT: Hadoop shape input is too short",
            ),
        ],
    );
}
