//! The Bing tile functions as `qm_*` SQLite functions: a tile is its encoded INTEGER
//! (tile.rs), an array of tiles the JSON array of those INTEGERs, the coordinates a row's
//! JSON array `[x, y]`. A NULL argument answers NULL; bad input is Trino's
//! INVALID_FUNCTION_ARGUMENT with its message.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;

use super::covering::{covering, polygon};
use super::projection::{check_point, check_radius, tile_at, tiles_around, tiles_within};
use super::tile::Tile;
use crate::geospatial::sqlite::{geometry, stored};
use crate::udf::{FLAGS, define, fail, int, num, reserve, text};

fn invalid<T>(r: Result<T, String>) -> rusqlite::Result<T> {
    r.map_err(|m| fail(ErrorName::InvalidFunctionArgument, m))
}

/// An array(BingTile) as its JSON text, within the query's memory budget: at most 1M tiles
/// of at most 16 digits and a comma each.
fn tile_array(tiles: &[Tile]) -> rusqlite::Result<String> {
    reserve(tiles.len().saturating_mul(17).saturating_add(2))?;
    let encoded: Vec<String> = tiles.iter().map(|t| t.encode().to_string()).collect();
    Ok(format!("[{}]", encoded.join(",")))
}

pub const QM_BING_TILE_COORDINATES: SqliteFn = SqliteFn::new("qm_bing_tile_coordinates");
pub const QM_BING_TILE: SqliteFn = SqliteFn::new("qm_bing_tile");
pub const QM_BING_TILE_AT: SqliteFn = SqliteFn::new("qm_bing_tile_at");
pub const QM_BING_TILE_QUADKEY: SqliteFn = SqliteFn::new("qm_bing_tile_quadkey");
pub const QM_BING_TILE_ZOOM_LEVEL: SqliteFn = SqliteFn::new("qm_bing_tile_zoom_level");
pub const QM_BING_TILE_POLYGON: SqliteFn = SqliteFn::new("qm_bing_tile_polygon");
pub const QM_GEOMETRY_TO_BING_TILES: SqliteFn = SqliteFn::new("qm_geometry_to_bing_tiles");
pub const QM_BING_TILES_AROUND: SqliteFn = SqliteFn::new("qm_bing_tiles_around");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(conn, QM_BING_TILE.name(), 3, FLAGS, |ctx| {
        let (Some(x), Some(y), Some(zoom)) = (
            int(ctx.get_raw(0)),
            int(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        invalid(Tile::from_coordinates(x, y, zoom)).map(|t| Some(t.encode()))
    })?;
    define(conn, QM_BING_TILE.name(), 1, FLAGS, |ctx| {
        let Some(quadkey) = text(ctx.get_raw(0)) else {
            return Ok(None);
        };
        invalid(Tile::from_quadkey(&quadkey)).map(|t| Some(t.encode()))
    })?;
    define(conn, QM_BING_TILE_AT.name(), 3, FLAGS, |ctx| {
        let (Some(latitude), Some(longitude), Some(zoom)) = (
            num(ctx.get_raw(0)),
            num(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        invalid(check_point(latitude, longitude, zoom))?;
        Ok(Some(tile_at(latitude, longitude, zoom as i32).encode()))
    })?;
    define(conn, QM_BING_TILE_QUADKEY.name(), 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|t| Tile::decode(t).quadkey()))
    })?;
    define(conn, QM_BING_TILE_ZOOM_LEVEL.name(), 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|t| Tile::decode(t).zoom))
    })?;
    define(conn, QM_BING_TILE_COORDINATES.name(), 1, FLAGS, |ctx| {
        Ok(int(ctx.get_raw(0)).map(|t| {
            let tile = Tile::decode(t);
            format!("[{},{}]", tile.x, tile.y)
        }))
    })?;
    define(conn, QM_BING_TILE_POLYGON.name(), 1, FLAGS, |ctx| {
        int(ctx.get_raw(0))
            .map(|t| stored(&polygon(Tile::decode(t))))
            .transpose()
    })?;
    define(conn, QM_GEOMETRY_TO_BING_TILES.name(), 2, FLAGS, |ctx| {
        let (Some(shape), Some(zoom)) = (geometry(ctx.get_raw(0))?, int(ctx.get_raw(1))) else {
            return Ok(None);
        };
        let tiles = invalid(covering(&shape, zoom))?;
        tile_array(&tiles).map(Some)
    })?;
    define(conn, QM_BING_TILES_AROUND.name(), 3, FLAGS, |ctx| {
        let (Some(latitude), Some(longitude), Some(zoom)) = (
            num(ctx.get_raw(0)),
            num(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
        ) else {
            return Ok(None);
        };
        invalid(check_point(latitude, longitude, zoom))?;
        tile_array(&tiles_around(latitude, longitude, zoom as i32)).map(Some)
    })?;
    define(conn, QM_BING_TILES_AROUND.name(), 4, FLAGS, |ctx| {
        let (Some(latitude), Some(longitude), Some(zoom), Some(radius)) = (
            num(ctx.get_raw(0)),
            num(ctx.get_raw(1)),
            int(ctx.get_raw(2)),
            num(ctx.get_raw(3)),
        ) else {
            return Ok(None);
        };
        invalid(check_point(latitude, longitude, zoom))?;
        invalid(check_radius(radius))?;
        let tiles = invalid(tiles_within(latitude, longitude, zoom as i32, radius))?;
        tile_array(&tiles).map(Some)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tile_arrays_are_json_arrays_of_encoded_tiles() {
        let tiles = [Tile::new(1, 2, 3), Tile::new(0, 0, 1)];
        assert_eq!(tile_array(&tiles).ok().as_deref(), Some("[268435523,1]"));
        assert_eq!(tile_array(&[]).ok().as_deref(), Some("[]"));
    }
}
