//! Points and tiles on Bing's Web Mercator map (BingTileFunctions): the tile holding a
//! (latitude, longitude) point, a tile's corners, the tiles around a point and those covering
//! a circle. Every formula keeps Trino's order of operations, so the tiles found at a border
//! are Trino's.

use super::fdlibm::atan;
use super::tile::{Tile, check_zoom_level};

const TILE_PIXELS: i64 = 256;
pub const MAX_LATITUDE: f64 = 85.05112878;
pub const MIN_LATITUDE: f64 = -85.05112878;
pub const MIN_LONGITUDE: f64 = -180.0;
pub const MAX_LONGITUDE: f64 = 180.0;
const EARTH_RADIUS_KM: f64 = 6371.01;
/// bing_tiles_around refuses a circle needing more tiles than this.
const MAX_TILES: i64 = 1_000_000;

const LATITUDE_OUT_OF_RANGE: &str = "Latitude must be between -85.05112878 and 85.05112878";
const LONGITUDE_OUT_OF_RANGE: &str = "Longitude must be between -180.0 and 180.0";

/// The point's checks, in Trino's order: latitude, longitude, zoom level. NaN is out of range.
pub fn check_point(latitude: f64, longitude: f64, zoom: i64) -> Result<(), String> {
    if !(MIN_LATITUDE..=MAX_LATITUDE).contains(&latitude) {
        return Err(LATITUDE_OUT_OF_RANGE.into());
    }
    if !(MIN_LONGITUDE..=MAX_LONGITUDE).contains(&longitude) {
        return Err(LONGITUDE_OUT_OF_RANGE.into());
    }
    check_zoom_level(zoom)
}

/// The map's width in pixels at a zoom level.
fn map_size(zoom: i32) -> i64 {
    TILE_PIXELS << zoom
}

/// A fraction of the map's width as a tile index, clamped to the map.
fn axis_to_tile(axis: f64, map_size: i64) -> i32 {
    let pixel = (axis * map_size as f64).clamp(0.0, (map_size - 1) as f64) as i32;
    pixel / TILE_PIXELS as i32
}

fn longitude_to_tile_x(longitude: f64, map_size: i64) -> i32 {
    axis_to_tile((longitude + 180.0) / 360.0, map_size)
}

fn latitude_to_tile_y(latitude: f64, map_size: i64) -> i32 {
    let sin_latitude = (latitude * std::f64::consts::PI / 180.0).sin();
    let y = 0.5 - ((1.0 + sin_latitude) / (1.0 - sin_latitude)).ln() / (4.0 * std::f64::consts::PI);
    axis_to_tile(y, map_size)
}

/// bing_tile_at: the tile holding a checked point.
pub fn tile_at(latitude: f64, longitude: f64, zoom: i32) -> Tile {
    let size = map_size(zoom);
    Tile::new(
        longitude_to_tile_x(longitude, size),
        latitude_to_tile_y(latitude, size),
        zoom,
    )
}

/// The (longitude, latitude) of a tile grid point: tile (x, y)'s upper left corner, so
/// (x + 1, y + 1) is its lower right one (tileXYToLatitudeLongitude).
pub fn corner(x: i32, y: i32, zoom: i32) -> (f64, f64) {
    let size = map_size(zoom);
    let x = ((i64::from(x) * TILE_PIXELS).clamp(0, size) as f64 / size as f64) - 0.5;
    let y = 0.5 - ((i64::from(y) * TILE_PIXELS).clamp(0, size) as f64 / size as f64);
    let latitude =
        90.0 - 360.0 * atan((-y * 2.0 * std::f64::consts::PI).exp()) / std::f64::consts::PI;
    (360.0 * x, latitude)
}

/// bing_tiles_around(latitude, longitude, zoom): the point's tile and its neighbours on the
/// map, column by column.
pub fn tiles_around(latitude: f64, longitude: f64, zoom: i32) -> Vec<Tile> {
    let size = map_size(zoom);
    let max_index = (size / TILE_PIXELS - 1) as i32;
    let center = tile_at(latitude, longitude, zoom);
    let mut tiles = Vec::with_capacity(9);
    for dx in -1..=1 {
        for dy in -1..=1 {
            let (x, y) = (center.x + dx, center.y + dy);
            if (0..=max_index).contains(&x) && (0..=max_index).contains(&y) {
                tiles.push(Tile::new(x, y, zoom));
            }
        }
    }
    tiles
}

/// The checks of bing_tiles_around's radius, after the point's.
pub fn check_radius(radius_km: f64) -> Result<(), String> {
    if radius_km.is_nan() || radius_km < 0.0 {
        return Err("Radius must be >= 0".into());
    }
    if radius_km > 1000.0 {
        return Err("Radius must be <= 1,000 km".into());
    }
    Ok(())
}

/// bing_tiles_around(latitude, longitude, zoom, radius): the fewest tiles covering the circle,
/// in Trino's order — the point's row (wrapping around the antimeridian), its column, then
/// from each corner of the box the tiles the circle reaches.
pub fn tiles_within(
    latitude: f64,
    longitude: f64,
    zoom: i32,
    radius_km: f64,
) -> Result<Vec<Tile>, String> {
    let size = map_size(zoom);
    let max_index = (size / TILE_PIXELS - 1) as i32;
    let center = tile_at(latitude, longitude, zoom);
    let top = tile_at(shifted_latitude(latitude, radius_km, 0.0), longitude, zoom);
    let bottom = tile_at(
        shifted_latitude(latitude, radius_km, 180.0),
        longitude,
        zoom,
    );
    let left_longitude = shifted_longitude(latitude, longitude, radius_km, 270.0);
    let left = tile_at(latitude, left_longitude, zoom);
    let right_longitude = shifted_longitude(latitude, longitude, radius_km, 90.0);
    let right = tile_at(latitude, right_longitude, zoom);

    let columns = if right.x < left.x {
        i64::from(right.x) + i64::from(max_index) - i64::from(left.x) + 2
    } else {
        i64::from(right.x) - i64::from(left.x) + 1
    };
    let rows = i64::from(bottom.y) - i64::from(top.y) + 1;
    let count = columns * rows;
    // Trino multiplies Java ints, and names the product it got.
    let named = (columns as i32).wrapping_mul(rows as i32);
    if count > MAX_TILES {
        return Err(format!(
            "The number of tiles covering input rectangle exceeds the limit of 1M. Number of tiles: {}. Radius: {radius_km:.1} km. Zoom level: {zoom}.",
            if i64::from(named) > MAX_TILES {
                i64::from(named)
            } else {
                count
            }
        ));
    }

    let wrap = |x: i32| x % (max_index + 1);
    let mut tiles = Vec::with_capacity(count.max(0) as usize);
    for i in 0..columns as i32 {
        tiles.push(Tile::new(wrap(left.x + i), center.y, zoom));
    }
    for y in top.y..=bottom.y {
        if y != center.y {
            tiles.push(Tile::new(center.x, y, zoom));
        }
    }

    let within =
        |(lon, lat): (f64, f64)| great_circle_km(latitude, longitude, lat, lon) <= radius_km;
    // Each quarter of the box, from its outer column inwards: a column's tiles from the box's
    // edge towards the point's row, from the first whose corner nearest the point is inside.
    let mut reach = |x: i32, ys: &mut dyn Iterator<Item = i32>, corner_dx: i32, corner_dy: i32| {
        let mut inside = false;
        for y in ys {
            inside = inside || within(corner(x + corner_dx, y + corner_dy, zoom));
            if inside {
                tiles.push(Tile::new(x, y, zoom));
            }
        }
    };
    let mut x = right.x;
    while x != center.x {
        reach(x, &mut (top.y..center.y), 0, 1);
        reach(x, &mut (center.y + 1..=bottom.y).rev(), 0, 0);
        x = if x == 0 { max_index } else { x - 1 };
    }
    let mut x = left.x;
    while x != center.x {
        reach(x, &mut (top.y..center.y), 1, 1);
        reach(x, &mut (center.y + 1..=bottom.y).rev(), 1, 0);
        x = wrap(x + 1);
    }
    Ok(tiles)
}

/// The latitude `radius_km` away along a bearing (haversine), clamped to the map.
fn shifted_latitude(latitude: f64, radius_km: f64, bearing: f64) -> f64 {
    let latitude_radians = latitude.to_radians();
    let bearing_radians = bearing.to_radians();
    let ratio = radius_km / EARTH_RADIUS_KM;
    let shifted = (latitude_radians.sin() * ratio.cos()
        + latitude_radians.cos() * ratio.sin() * bearing_radians.cos())
    .asin()
    .to_degrees();
    shifted.clamp(MIN_LATITUDE, MAX_LATITUDE)
}

/// The longitude `radius_km` away along a bearing (haversine), wrapped around the antimeridian.
fn shifted_longitude(latitude: f64, longitude: f64, radius_km: f64, bearing: f64) -> f64 {
    let latitude_radians = latitude.to_radians();
    let bearing_radians = bearing.to_radians();
    let ratio = radius_km / EARTH_RADIUS_KM;
    let shifted = (longitude.to_radians()
        + (bearing_radians.sin() * ratio.sin() * latitude_radians.cos())
            .atan2(ratio.cos() - latitude_radians.sin() * latitude_radians.sin()))
    .to_degrees();
    if shifted > MAX_LONGITUDE {
        MIN_LONGITUDE + (shifted - MAX_LONGITUDE)
    } else if shifted < MIN_LONGITUDE {
        MAX_LONGITUDE + (shifted - MIN_LONGITUDE)
    } else {
        shifted
    }
}

/// The great-circle distance in km between two points (Vincenty's form, as Trino's
/// GreatCircleDistanceToPoint computes it).
fn great_circle_km(latitude: f64, longitude: f64, latitude2: f64, longitude2: f64) -> f64 {
    let (sin1, cos1) = latitude.to_radians().sin_cos();
    let (sin2, cos2) = latitude2.to_radians().sin_cos();
    let delta = longitude.to_radians() - longitude2.to_radians();
    let t1 = cos2 * delta.sin();
    let t2 = cos1 * sin2 - sin1 * cos2 * delta.cos();
    let t3 = sin1 * sin2 + cos1 * cos2 * delta.cos();
    (t1 * t1 + t2 * t2).sqrt().atan2(t3) * EARTH_RADIUS_KM
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quadkeys(tiles: &[Tile]) -> Vec<String> {
        tiles.iter().map(|t| t.quadkey()).collect()
    }

    #[test]
    fn the_tile_at_a_point() {
        // TestBingTileFunctions.testPointToBingTile.
        assert_eq!(tile_at(30.12, 60.0, 15), Tile::new(21845, 13506, 15));
        assert_eq!(tile_at(0.0, -0.002, 1), Tile::new(0, 1, 1));
        assert_eq!(tile_at(1.0 / 512.0, 0.0, 1), Tile::new(1, 0, 1));
        assert_eq!(tile_at(1.0 / 512.0, 0.0, 9), Tile::new(256, 255, 9));
        assert_eq!(
            check_point(30.12, 600.0, 15),
            Err("Longitude must be between -180.0 and 180.0".into())
        );
        assert_eq!(
            check_point(f64::NAN, 60.0, 15),
            Err("Latitude must be between -85.05112878 and 85.05112878".into())
        );
        assert_eq!(
            check_point(30.12, 60.0, 0),
            Err("Zoom level must be > 0".into())
        );
    }

    #[test]
    fn corners_of_the_map() {
        // TestBingTileFunctions.testBingTilePolygon's corners.
        assert_eq!(corner(2, 2, 1), (180.0, -85.05112877980659));
        assert_eq!(corner(0, 0, 3), (-180.0, 85.05112877980659));
        assert_eq!(corner(1, 1, 1), (0.0, 0.0));
    }

    #[test]
    fn the_tiles_around_a_point() {
        // TestBingTileFunctions.testBingTilesAround, testBingTilesAroundEdge.
        assert_eq!(
            quadkeys(&tiles_around(30.12, 60.0, 1)),
            ["0", "2", "1", "3"]
        );
        assert_eq!(
            quadkeys(&tiles_around(-85.05112878, 0.0, 3)),
            ["231", "233", "320", "322", "321", "323"]
        );
        assert_eq!(
            quadkeys(&tiles_around(0.0, 180.0, 2)),
            ["12", "30", "32", "13", "31", "33"]
        );
    }

    #[test]
    fn the_tiles_within_a_radius() {
        // TestBingTileFunctions.testBingTilesAroundWithRadius and its corners and edges.
        let within = |lat, lon, zoom, radius| {
            tiles_within(lat, lon, zoom, radius)
                .map(|t| quadkeys(&t))
                .unwrap_or_default()
        };
        assert_eq!(within(30.12, 60.0, 1, 1000.0), ["1"]);
        assert_eq!(
            within(30.12, 60.0, 19, 0.05),
            [
                "1230301230101212120",
                "1230301230101212121",
                "1230301230101212130",
                "1230301230101212103",
                "1230301230101212123",
                "1230301230101212112",
                "1230301230101212102"
            ]
        );
        assert_eq!(
            within(-85.05112878, 180.0, 4, 500.0),
            [
                "3323", "3332", "3333", "2222", "2223", "2232", "3331", "2221", "2220", "3330"
            ]
        );
        assert_eq!(
            within(0.0, -180.0, 4, 100.0),
            ["3111", "2000", "0222", "1333"]
        );
        assert_eq!(
            tiles_within(30.12, 60.0, 20, 100.0)
                .err()
                .unwrap_or_default(),
            "The number of tiles covering input rectangle exceeds the limit of 1M. Number of tiles: 36699364. Radius: 100.0 km. Zoom level: 20."
        );
        // Trino's count is a Java int's product (Trino 476 names 288791308 here).
        assert!(
            tiles_within(0.0, 0.0, 23, 1000.0)
                .err()
                .unwrap_or_default()
                .contains("Number of tiles: 288791308.")
        );
        assert_eq!(check_radius(f64::NAN), Err("Radius must be >= 0".into()));
        assert_eq!(
            check_radius(2000.0),
            Err("Radius must be <= 1,000 km".into())
        );
    }
}
