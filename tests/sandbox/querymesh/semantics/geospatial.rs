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
