//! Bing tiles (docs functions/geospatial "Bing tiles", BingTileFunctions, BingTileType): the
//! functions' values and types, the tile as the protocol shows it, what a tile compares with,
//! and Trino's refusals.

use serde_json::json;

use super::{check_errors, check_rows, check_values};
use crate::support::engine::engine;

#[test]
fn tiles_from_coordinates_quadkeys_and_points() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // BingTileType.getObjectValue: a BingTile, which Jackson writes as x, y and zoom
            // (TestBingTileFunctions.testSerialization).
            (
                "SELECT bing_tile(1, 2, 3)",
                "BingTile",
                json!({"x": 1, "y": 2, "zoom": 3}),
            ),
            (
                "SELECT ARRAY[bing_tile(1, 2, 10), bing_tile(3, 4, 11)]",
                "array(BingTile)",
                json!([{"x": 1, "y": 2, "zoom": 10}, {"x": 3, "y": 4, "zoom": 11}]),
            ),
            // TestBingTileFunctions.testBingTile.
            (
                "SELECT bing_tile_quadkey(bing_tile(3, 5, 3))",
                "varchar",
                json!("213"),
            ),
            (
                "SELECT bing_tile_quadkey(bing_tile('123030123010121'))",
                "varchar",
                json!("123030123010121"),
            ),
            // testPointToBingTile.
            (
                "SELECT bing_tile_at(30.12, 60, 15)",
                "BingTile",
                json!({"x": 21845, "y": 13506, "zoom": 15}),
            ),
            (
                "SELECT bing_tile_at(1e0/512, 0, 9)",
                "BingTile",
                json!({"x": 256, "y": 255, "zoom": 9}),
            ),
            // testBingTileCoordinates, testBingTileZoomLevel.
            (
                "SELECT bing_tile_coordinates(bing_tile('213'))",
                "row(x integer, y integer)",
                json!([3, 5]),
            ),
            (
                "SELECT bing_tile_coordinates(bing_tile('123030123010121')).y",
                "integer",
                json!(13506),
            ),
            (
                "SELECT bing_tile_zoom_level(bing_tile('123030123010121'))",
                "tinyint",
                json!(15),
            ),
            ("SELECT bing_tile(NULL, 1, 2)", "BingTile", json!(null)),
            (
                "SELECT bing_tile_coordinates(NULL)",
                "row(x integer, y integer)",
                json!(null),
            ),
            ("SELECT try(bing_tile('test'))", "BingTile", json!(null)),
        ],
    );
}

#[test]
fn the_tiles_around_a_point_in_trinos_order() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestBingTileFunctions.testBingTilesAround, testBingTilesAroundEdge.
            (
                "SELECT transform(bing_tiles_around(30.12, 60, 1), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!(["0", "2", "1", "3"]),
            ),
            (
                "SELECT transform(bing_tiles_around(0, -180, 2), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!(["02", "20", "22", "03", "21", "23"]),
            ),
            // testBingTilesAroundWithRadius, testBingTilesAroundCornerWithRadius.
            (
                "SELECT transform(bing_tiles_around(30.12, 60, 15, .5), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!(["123030123010120", "123030123010121", "123030123010123"]),
            ),
            (
                "SELECT transform(bing_tiles_around(85.05112878, -180, 4, 500), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!([
                    "1101", "1110", "1111", "0000", "0001", "0010", "0002", "0003", "1112", "1113"
                ]),
            ),
            // Trino 476's answer.
            (
                "SELECT cardinality(bing_tiles_around(51.5, -0.12, 15, 10))",
                "bigint",
                json!(597),
            ),
        ],
    );
}

#[test]
fn tiles_compare_for_equality_only() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestBingTileFunctions.testEqual, testNotEqual, testDistinctFrom.
            (
                "SELECT bing_tile('213') = bing_tile(3, 5, 3)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT bing_tile('213') <> bing_tile('2131')",
                "boolean",
                json!(true),
            ),
            (
                "SELECT bing_tile(3, 5, 3) IS DISTINCT FROM bing_tile(3, 5, 4)",
                "boolean",
                json!(true),
            ),
            (
                "SELECT count(DISTINCT t) FROM (VALUES bing_tile('0'), bing_tile('00'), bing_tile(0, 0, 1)) AS v(t)",
                "bigint",
                json!(2),
            ),
        ],
    );
    check_rows(
        &engine,
        &[(
            "SELECT t, count(*) FROM (VALUES bing_tile(1, 2, 3), bing_tile('021')) AS v(t) GROUP BY t",
            json!([[{"x": 1, "y": 2, "zoom": 3}, 2]]),
        )],
    );
    // Trino 476: BingTileType is comparable, not orderable, and has no casts.
    check_errors(
        &engine,
        &[
            (
                "SELECT bing_tile(1, 2, 3) < bing_tile(1, 2, 4)",
                "TYPE_MISMATCH: line 1:27: Cannot apply operator: BingTile < BingTile",
            ),
            (
                "SELECT t FROM (VALUES bing_tile(1, 2, 3)) AS v(t) ORDER BY t",
                "TYPE_MISMATCH: line 1:60: Type BingTile is not orderable",
            ),
            (
                "SELECT bing_tile(1, 1, 2) BETWEEN bing_tile(0, 0, 2) AND bing_tile(3, 3, 2)",
                "TYPE_MISMATCH: line 1:8: Cannot check if BingTile is BETWEEN BingTile and BingTile",
            ),
            (
                "SELECT row_number() OVER (ORDER BY bing_tile(1, 2, 3))",
                "TYPE_MISMATCH: line 1:36: BingTile is not orderable, and therefore cannot be used in window function ORDER BY",
            ),
            (
                "SELECT max(bing_tile(1, 2, 3))",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (BingTile) for function max",
            ),
            (
                "SELECT array_sort(ARRAY[bing_tile(1, 2, 3)])",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (array(BingTile)) for function array_sort",
            ),
            (
                "SELECT CAST(bing_tile(1, 2, 3) AS bigint)",
                "TYPE_MISMATCH: line 1:8: Cannot cast BingTile to bigint",
            ),
            (
                "SELECT CAST('123' AS BingTile)",
                "TYPE_MISMATCH: line 1:8: Cannot cast varchar(3) to BingTile",
            ),
        ],
    );
}

#[test]
fn bad_arguments_are_trinos_errors() {
    let engine = engine();
    // TestBingTileFunctions's invalid calls.
    check_errors(
        &engine,
        &[
            (
                "SELECT bing_tile('')",
                "INVALID_FUNCTION_ARGUMENT: QuadKey must not be empty string",
            ),
            (
                "SELECT bing_tile('12345')",
                "INVALID_FUNCTION_ARGUMENT: Invalid QuadKey digit sequence: 12345",
            ),
            (
                "SELECT bing_tile('101010101010101010101010')",
                "INVALID_FUNCTION_ARGUMENT: QuadKey must be 23 characters or less",
            ),
            (
                "SELECT bing_tile(10, 2, 3)",
                "INVALID_FUNCTION_ARGUMENT: XY coordinates for a Bing tile at zoom level 3 must be within [0, 8) range",
            ),
            (
                "SELECT bing_tile(2, 7, 37)",
                "INVALID_FUNCTION_ARGUMENT: Zoom level must be <= 23",
            ),
            (
                "SELECT bing_tile_at(300.12, 60, 15)",
                "INVALID_FUNCTION_ARGUMENT: Latitude must be between -85.05112878 and 85.05112878",
            ),
            (
                "SELECT bing_tile_at(30.12, 600, 15)",
                "INVALID_FUNCTION_ARGUMENT: Longitude must be between -180.0 and 180.0",
            ),
            (
                "SELECT bing_tile_at(30.12, 60, 0)",
                "INVALID_FUNCTION_ARGUMENT: Zoom level must be > 0",
            ),
            (
                "SELECT bing_tiles_around(30.12, 60.0, 1, -1)",
                "INVALID_FUNCTION_ARGUMENT: Radius must be >= 0",
            ),
            (
                "SELECT bing_tiles_around(30.12, 60.0, 1, 2000)",
                "INVALID_FUNCTION_ARGUMENT: Radius must be <= 1,000 km",
            ),
            (
                "SELECT bing_tiles_around(30.12, 60.0, 20, 100)",
                "INVALID_FUNCTION_ARGUMENT: The number of tiles covering input rectangle exceeds the limit of 1M. Number of tiles: 36699364.",
            ),
            (
                "SELECT bing_tile(CAST(1 AS bigint), 2, 3)",
                "FUNCTION_NOT_FOUND: line 1:8: Unexpected parameters (bigint, integer, integer) for function bing_tile",
            ),
        ],
    );
}

#[test]
fn tiles_and_geometries() {
    let engine = engine();
    check_values(
        &engine,
        &[
            // TestBingTileFunctions.testBingTilePolygon.
            (
                "SELECT ST_AsText(bing_tile_polygon(bing_tile('123030123010121')))",
                "varchar",
                json!(
                    "POLYGON ((59.996337890625 30.11662158281937, 60.00732421875 30.11662158281937, 60.00732421875 30.12612436422458, 59.996337890625 30.12612436422458, 59.996337890625 30.11662158281937))"
                ),
            ),
            // Trino 476 prints this edge with Java's atan (fdlibm's), not the platform's.
            (
                "SELECT bing_tile_polygon(bing_tile('0312021'))",
                "Geometry",
                json!(
                    "POLYGON ((-42.1875 50.736455137010644, -39.375 50.736455137010644, -39.375 52.482780222078205, -42.1875 52.482780222078205, -42.1875 50.736455137010644))"
                ),
            ),
            // testGeometryToBingTiles.
            (
                "SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((10 10, -10 10, -20 -15, 10 10))'), 3), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!(["033", "211", "122"]),
            ),
            (
                "SELECT transform(geometry_to_bing_tiles(bing_tile_polygon(bing_tile('1230301230')), 11), x -> bing_tile_quadkey(x))",
                "array(varchar)",
                json!(["12303012300", "12303012302", "12303012301", "12303012303"]),
            ),
            (
                "SELECT cardinality(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 20, 20 20, 0 0))'), 14))",
                "bigint",
                json!(428787),
            ),
            (
                "SELECT geometry_to_bing_tiles(ST_GeometryFromText('POINT EMPTY'), 10)",
                "array(BingTile)",
                json!([]),
            ),
        ],
    );
    check_errors(
        &engine,
        &[
            (
                "SELECT geometry_to_bing_tiles(ST_Point(60, 300.12), 10)",
                "INVALID_FUNCTION_ARGUMENT: Latitude span for the geometry must be in [-85.05, 85.05] range",
            ),
            (
                "SELECT geometry_to_bing_tiles(ST_Point(60, 30.12), 40)",
                "INVALID_FUNCTION_ARGUMENT: Zoom level must be <= 23",
            ),
            (
                "SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 80, 80 80, 80 0, 0 0))'), 16)",
                "INVALID_FUNCTION_ARGUMENT: The number of tiles covering input rectangle exceeds the limit of 1M. Number of tiles: 370085804.",
            ),
            (
                "SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 20, 20 20, 0 0))'), 20)",
                "INVALID_FUNCTION_ARGUMENT: The zoom level is too high to compute a set of covering Bing tiles.",
            ),
        ],
    );
}
