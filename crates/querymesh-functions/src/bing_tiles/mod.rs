//! Bing tile functions (Trino docs functions/geospatial "Bing tiles", BingTileFunctions): the
//! `BingTile` type, `bing_tile` (from x, y and zoom, or from a QuadKey), `bing_tile_at`,
//! `bing_tile_coordinates`, `bing_tile_quadkey`, `bing_tile_zoom_level`, both
//! `bing_tiles_around`, and between tiles and geometries `bing_tile_polygon` and
//! `geometry_to_bing_tiles` (covering.rs).
//!
//! A tile is held in SQLite as the long Trino encodes it as (tile.rs), an INTEGER, so tiles
//! compare for equality, group and de-duplicate as INTEGERs; Trino has no cast to or from the
//! type and does not order it. The protocol shows a tile as `{"x": …, "y": …, "zoom": …}`.

pub mod covering;
mod fdlibm;
pub mod projection;
pub mod sqlite;
pub mod tile;

use querymesh_values::typed::Typed;
use querymesh_values::types::TrinoType;
use serde_json::{Value, json};

use super::Call;
use super::context::LowerContext;
use super::entry::{FunctionDef, Lower, LowerResult, Typing, calls, scalar};
use sqlite::{
    QM_BING_TILE, QM_BING_TILE_AT, QM_BING_TILE_POLYGON, QM_BING_TILE_QUADKEY,
    QM_BING_TILE_ZOOM_LEVEL, QM_BING_TILES_AROUND, QM_GEOMETRY_TO_BING_TILES,
};
use tile::Tile;

pub const FUNCTIONS: &[FunctionDef] = &[
    scalar(
        "bing_tile",
        &[
            ("integer, integer, integer", "bingtile"),
            ("varchar", "bingtile"),
        ],
        Typing::Resolved,
        calls!(QM_BING_TILE),
        "Creates a Bing tile from XY coordinates and zoom level",
    ),
    scalar(
        "bing_tile_at",
        &[("double, double, integer", "bingtile")],
        Typing::Resolved,
        calls!(QM_BING_TILE_AT),
        "Given a (latitude, longitude) point, returns the containing Bing tile at the specified zoom level",
    ),
    scalar(
        "bing_tile_coordinates",
        &[("bingtile", "row(\"x\" integer,\"y\" integer)")],
        // A signature can't name a row's fields: the lowering types the call.
        Typing::ByLowering,
        Lower::Scalar(coordinates),
        "Given a Bing tile, returns XY coordinates of the tile",
    ),
    scalar(
        "bing_tile_polygon",
        &[("bingtile", "geometry")],
        Typing::Resolved,
        calls!(QM_BING_TILE_POLYGON),
        "Given a Bing tile, returns the polygon representation of the tile",
    ),
    scalar(
        "bing_tile_quadkey",
        &[("bingtile", "varchar")],
        Typing::Resolved,
        calls!(QM_BING_TILE_QUADKEY),
        "Given a Bing tile, returns its QuadKey",
    ),
    scalar(
        "bing_tile_zoom_level",
        &[("bingtile", "tinyint")],
        Typing::Resolved,
        calls!(QM_BING_TILE_ZOOM_LEVEL),
        "Given a Bing tile, returns zoom level of the tile",
    ),
    scalar(
        "bing_tiles_around",
        &[
            ("double, double, integer", "array(bingtile)"),
            ("double, double, integer, double", "array(bingtile)"),
        ],
        Typing::Resolved,
        calls!(QM_BING_TILES_AROUND),
        "Given a (longitude, latitude) point, returns the surrounding Bing tiles at the specified zoom level",
    ),
    scalar(
        "geometry_to_bing_tiles",
        &[("geometry, integer", "array(bingtile)")],
        Typing::Resolved,
        calls!(QM_GEOMETRY_TO_BING_TILES),
        "Given a geometry and a zoom level, returns the minimum set of Bing tiles that fully covers that geometry",
    ),
];

/// bing_tile_coordinates(tile): `row(x integer, y integer)`, a row's JSON array.
fn coordinates(_: &mut dyn LowerContext, c: &Call) -> LowerResult {
    let [tile] = c.args.as_slice() else {
        return Ok(None);
    };
    if !matches!(tile.ty, TrinoType::BingTile | TrinoType::Unknown) {
        return Ok(None);
    }
    let row = TrinoType::Row(vec![
        (Some("x".into()), TrinoType::Integer),
        (Some("y".into()), TrinoType::Integer),
    ]);
    Ok(Some(Typed::new(
        sqlite::QM_BING_TILE_COORDINATES.call([tile.sql.clone()]),
        row,
    )))
}

/// The protocol's value of a stored tile: `{"x": 1, "y": 2, "zoom": 3}`
/// (BingTileType.getObjectValue, a BingTile as Jackson writes it).
pub fn protocol_value(encoded: i64) -> Value {
    let tile = Tile::decode(encoded);
    json!({"x": tile.x, "y": tile.y, "zoom": tile.zoom})
}
