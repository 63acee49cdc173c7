//! Tiles as geometries (BingTileFunctions.bingTilePolygon, geometryToBingTiles): a tile's
//! polygon, and the fewest tiles at a zoom level that cover a geometry — every tile of the
//! geometry's bounding box for a point or a rectangle, else those the geometry touches, found
//! from zoom level 10 down, a tile the geometry contains adding all its sub-tiles at once.

use super::projection::{
    MAX_LATITUDE, MAX_LONGITUDE, MIN_LATITUDE, MIN_LONGITUDE, corner, tile_at,
};
use super::tile::{Tile, check_zoom_level};
use crate::geospatial::model::{Envelope, Geometry, Point};

/// Below this zoom level every tile of the box is tested against the geometry; above it the
/// search starts from this level's tiles (OPTIMIZED_TILING_MIN_ZOOM_LEVEL).
const OPTIMIZED_TILING_MIN_ZOOM_LEVEL: i32 = 10;
/// A point or a rectangle may take this many tiles.
const MAX_RECTANGLE_TILES: i64 = 1_000_000;
/// Tiles times the geometry's vertices: the most intersection work Trino takes on.
const MAX_COMPLEXITY: i64 = 25_000_000;

/// The tile's rectangle: (west, south, east, north).
fn bounds(tile: Tile) -> Envelope {
    let (xmin, ymax) = corner(tile.x, tile.y, tile.zoom);
    let (xmax, ymin) = corner(tile.x + 1, tile.y + 1, tile.zoom);
    Envelope {
        xmin,
        ymin,
        xmax,
        ymax,
    }
}

/// bing_tile_polygon: the tile's rectangle, from its south-west corner counter-clockwise, as
/// Trino 476 prints it.
pub fn polygon(tile: Tile) -> Geometry {
    let b = bounds(tile);
    let ring = vec![
        Point::new(b.xmin, b.ymin),
        Point::new(b.xmax, b.ymin),
        Point::new(b.xmax, b.ymax),
        Point::new(b.xmin, b.ymax),
        Point::new(b.xmin, b.ymin),
    ];
    Geometry::Polygon(vec![ring])
}

/// geometry_to_bing_tiles(geometry, zoom): the zoom level, then an empty geometry has no
/// tiles, then the bounding box must lie on the map and the work be within Trino's limits.
pub fn covering(geometry: &Geometry, zoom: i64) -> Result<Vec<Tile>, String> {
    check_zoom_level(zoom)?;
    let zoom = zoom as i32;
    let Some(envelope) = geometry.envelope().filter(|_| !geometry.is_empty()) else {
        return Ok(Vec::new());
    };
    let latitude_span = "Latitude span for the geometry must be in [-85.05, 85.05] range";
    let longitude_span = "Longitude span for the geometry must be in [-180.00, 180.00] range";
    for latitude in [envelope.ymin, envelope.ymax] {
        if !(MIN_LATITUDE..=MAX_LATITUDE).contains(&latitude) {
            return Err(latitude_span.into());
        }
    }
    for longitude in [envelope.xmin, envelope.xmax] {
        if !(MIN_LONGITUDE..=MAX_LONGITUDE).contains(&longitude) {
            return Err(longitude_span.into());
        }
    }
    let point_or_rectangle = is_point_or_rectangle(geometry, &envelope);
    let upper_left = tile_at(envelope.ymax, envelope.xmin, zoom);
    let lower_right = lower_right_tile(&envelope, zoom);
    let count = (i64::from(lower_right.x) - i64::from(upper_left.x) + 1)
        * (i64::from(lower_right.y) - i64::from(upper_left.y) + 1);
    check_limits(geometry, &envelope, point_or_rectangle, count, zoom)?;

    let mut tiles = Vec::new();
    if point_or_rectangle || zoom <= OPTIMIZED_TILING_MIN_ZOOM_LEVEL {
        for x in upper_left.x..=lower_right.x {
            for y in upper_left.y..=lower_right.y {
                let tile = Tile::new(x, y, zoom);
                if point_or_rectangle || touches(geometry, &bounds(tile)) {
                    tiles.push(tile);
                }
            }
        }
    } else {
        let shift = zoom - OPTIMIZED_TILING_MIN_ZOOM_LEVEL;
        for x in (upper_left.x >> shift)..=(lower_right.x >> shift) {
            for y in (upper_left.y >> shift)..=(lower_right.y >> shift) {
                let start = Tile::new(x, y, OPTIMIZED_TILING_MIN_ZOOM_LEVEL);
                append_intersecting(geometry, zoom, start, &mut tiles);
            }
        }
    }
    Ok(tiles)
}

/// The tile holding the box's south-east corner, moved west and north when it only touches
/// the box at its edge (getTileCoveringLowerRightCorner).
fn lower_right_tile(envelope: &Envelope, zoom: i32) -> Tile {
    let tile = tile_at(envelope.ymin, envelope.xmax, zoom);
    let (west, north) = corner(tile.x, tile.y, zoom);
    let dx = if west == envelope.xmax { -1 } else { 0 };
    let dy = if north == envelope.ymin { -1 } else { 0 };
    Tile::new(tile.x + dx, tile.y + dy, zoom)
}

fn check_limits(
    geometry: &Geometry,
    envelope: &Envelope,
    point_or_rectangle: bool,
    count: i64,
    zoom: i32,
) -> Result<(), String> {
    if point_or_rectangle {
        if count > MAX_RECTANGLE_TILES {
            return Err(format!(
                "The number of tiles covering input rectangle exceeds the limit of 1M. Number of tiles: {count}. Rectangle: xMin={:.2}, yMin={:.2}, xMax={:.2}, yMax={:.2}. Zoom level: {zoom}.",
                envelope.xmin, envelope.ymin, envelope.xmax, envelope.ymax
            ));
        }
        return Ok(());
    }
    if i64::from(count as i32) != count {
        return Err("The zoom level is too high to compute a set of covering Bing tiles.".into());
    }
    let vertices = geometry.vertices().len() as i64;
    if count
        .checked_mul(vertices)
        .is_none_or(|c| c > MAX_COMPLEXITY)
    {
        return Err("The zoom level is too high or the geometry is too complex to compute a set of covering Bing tiles. Please use a lower zoom level or convert the geometry to its bounding box using the ST_Envelope function.".into());
    }
    Ok(())
}

/// A point, or a polygon of one ring whose four vertices are the box's corners
/// (GeometryUtils.isPointOrRectangle).
fn is_point_or_rectangle(geometry: &Geometry, envelope: &Envelope) -> bool {
    match geometry {
        Geometry::Point(_) => true,
        Geometry::Polygon(rings) => {
            let [ring] = rings.as_slice() else {
                return false;
            };
            let corner = |p: &Point| {
                (p.x == envelope.xmin || p.x == envelope.xmax)
                    && (p.y == envelope.ymin || p.y == envelope.ymax)
            };
            ring.len() == 5 && ring[..4].iter().all(corner)
        }
        _ => false,
    }
}

/// The tiles at `zoom` under `tile` that the geometry touches: all of them when it contains
/// the tile, none when it misses it, else the search goes one level down.
fn append_intersecting(geometry: &Geometry, zoom: i32, tile: Tile, tiles: &mut Vec<Tile>) {
    let rectangle = bounds(tile);
    if tile.zoom == zoom {
        if touches(geometry, &rectangle) {
            tiles.push(tile);
        }
        return;
    }
    if contains(geometry, &rectangle) {
        let side = 1 << (zoom - tile.zoom);
        let (x0, y0) = (tile.x * side, tile.y * side);
        for x in x0..x0 + side {
            for y in y0..y0 + side {
                tiles.push(Tile::new(x, y, zoom));
            }
        }
        return;
    }
    if !touches(geometry, &rectangle) {
        return;
    }
    for x in 2 * tile.x..2 * tile.x + 2 {
        for y in 2 * tile.y..2 * tile.y + 2 {
            append_intersecting(geometry, zoom, Tile::new(x, y, tile.zoom + 1), tiles);
        }
    }
}

/// Whether the geometry and the closed rectangle share a point (not disjoint).
fn touches(geometry: &Geometry, r: &Envelope) -> bool {
    geometry.flattened().iter().any(|part| match part {
        Geometry::Point(Some(p)) => inside_closed(*p, r),
        Geometry::MultiPoint(points) => points.iter().any(|p| inside_closed(*p, r)),
        Geometry::LineString(line) => path_touches(line, r),
        Geometry::MultiLineString(lines) => lines.iter().any(|l| path_touches(l, r)),
        Geometry::Polygon(rings) => polygon_touches(rings, r),
        Geometry::MultiPolygon(polygons) => polygons.iter().any(|p| polygon_touches(p, r)),
        _ => false,
    })
}

/// Whether one polygon of the geometry holds the whole rectangle (GeometryUtils.contains).
fn contains(geometry: &Geometry, r: &Envelope) -> bool {
    geometry.flattened().iter().any(|part| match part {
        Geometry::Polygon(rings) => polygon_contains(rings, r),
        Geometry::MultiPolygon(polygons) => polygons.iter().any(|p| polygon_contains(p, r)),
        _ => false,
    })
}

fn inside_closed(p: Point, r: &Envelope) -> bool {
    (r.xmin..=r.xmax).contains(&p.x) && (r.ymin..=r.ymax).contains(&p.y)
}

fn path_touches(path: &[Point], r: &Envelope) -> bool {
    match path {
        [single] => inside_closed(*single, r),
        _ => path.windows(2).any(|w| clip(w[0], w[1], r).is_some()),
    }
}

fn polygon_touches(rings: &[Vec<Point>], r: &Envelope) -> bool {
    let Some(exterior) = rings.first().filter(|ring| !ring.is_empty()) else {
        return false;
    };
    // No edge meets the rectangle: it lies wholly inside or outside each ring.
    rings.iter().any(|ring| path_touches(ring, r)) || {
        let probe = Point::new(r.xmin, r.ymin);
        in_ring(probe, exterior) && !rings[1..].iter().any(|hole| in_ring(probe, hole))
    }
}

/// The rectangle within the polygon: its centre inside, and no ring's edge through its
/// interior (then the interior lies wholly on one side of every ring).
fn polygon_contains(rings: &[Vec<Point>], r: &Envelope) -> bool {
    let Some(exterior) = rings.first().filter(|ring| !ring.is_empty()) else {
        return false;
    };
    let centre = Point::new((r.xmin + r.xmax) / 2.0, (r.ymin + r.ymax) / 2.0);
    let crosses_interior = |ring: &Vec<Point>| {
        ring.windows(2).any(|w| {
            clip(w[0], w[1], r).is_some_and(|(a, b)| {
                let mid = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
                r.xmin < mid.x && mid.x < r.xmax && r.ymin < mid.y && mid.y < r.ymax
            })
        })
    };
    in_ring(centre, exterior)
        && !rings[1..].iter().any(|hole| in_ring(centre, hole))
        && !rings.iter().any(crosses_interior)
}

/// The part of segment `a`–`b` within the closed rectangle (Liang–Barsky), if any.
fn clip(a: Point, b: Point, r: &Envelope) -> Option<(Point, Point)> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.x - r.xmin),
        (dx, r.xmax - a.x),
        (-dy, a.y - r.ymin),
        (dy, r.ymax - a.y),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else if p < 0.0 {
            t0 = t0.max(q / p);
        } else {
            t1 = t1.min(q / p);
        }
    }
    (t0 <= t1).then(|| {
        let at = |t: f64| Point::new(a.x + t * dx, a.y + t * dy);
        (at(t0), at(t1))
    })
}

/// Even–odd test of a point against a closed ring.
fn in_ring(p: Point, ring: &[Point]) -> bool {
    let mut inside = false;
    for w in ring.windows(2) {
        let (a, b) = (w[0], w[1]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            inside = !inside;
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    fn quadkeys(text: &str, zoom: i64) -> Vec<String> {
        let geometry = wkt::parse(text).unwrap_or(Geometry::Point(None));
        covering(&geometry, zoom)
            .map(|tiles| tiles.iter().map(|t| t.quadkey()).collect())
            .unwrap_or_else(|e| vec![e])
    }

    #[test]
    fn a_tiles_polygon_is_its_rectangle() {
        // TestBingTileFunctions.testBingTilePolygon; Trino 476's ST_AsText of it.
        let tile = Tile::from_quadkey("123030123010121").unwrap_or(Tile::new(0, 0, 1));
        assert_eq!(
            wkt::write(&polygon(tile)),
            "POLYGON ((59.996337890625 30.11662158281937, 60.00732421875 30.11662158281937, 60.00732421875 30.12612436422458, 59.996337890625 30.12612436422458, 59.996337890625 30.11662158281937))"
        );
        assert_eq!(
            wkt::write(&polygon(Tile::new(1, 1, 1))),
            "POLYGON ((0 -85.05112877980659, 180 -85.05112877980659, 180 0, 0 0, 0 -85.05112877980659))"
        );
    }

    #[test]
    fn the_tiles_covering_a_geometry() {
        // TestBingTileFunctions.testGeometryToBingTiles.
        assert_eq!(quadkeys("POINT (60 30.12)", 15), ["123030123010121"]);
        assert_eq!(
            quadkeys("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0))", 6),
            ["122220", "122222", "122221", "122223"]
        );
        assert_eq!(
            quadkeys("POLYGON ((0 0, 0 10, 10 10, 0 0))", 6),
            ["122220", "122222", "122221"]
        );
        assert_eq!(
            quadkeys("POLYGON ((10 10, -10 10, -20 -15, 10 10))", 3),
            ["033", "211", "122"]
        );
        assert_eq!(
            quadkeys(
                "GEOMETRYCOLLECTION (POINT (60 30.12), LINESTRING (61 31, 61.01 31.01), POLYGON EMPTY)",
                15
            ),
            [
                "123030123010121",
                "123030112310200",
                "123030112310202",
                "123030112310201"
            ]
        );
        assert!(quadkeys("POLYGON EMPTY", 10).is_empty());
        assert_eq!(
            quadkeys("POINT (600 30.12)", 10),
            ["Longitude span for the geometry must be in [-180.00, 180.00] range"]
        );
        assert_eq!(
            quadkeys("POLYGON ((0 0, 0 20, 20 20, 0 0))", 20),
            ["The zoom level is too high to compute a set of covering Bing tiles."]
        );
    }

    #[test]
    fn a_contained_tile_adds_its_sub_tiles_at_once() {
        // TestBingTileFunctions.testGeometryToBingTiles: a tile's own polygon one level down.
        let tile = Tile::from_quadkey("1230301230").unwrap_or(Tile::new(0, 0, 1));
        let tiles = covering(&polygon(tile), 11).unwrap_or_default();
        let keys: Vec<String> = tiles.iter().map(|t| t.quadkey()).collect();
        assert_eq!(
            keys,
            ["12303012300", "12303012302", "12303012301", "12303012303"]
        );
        // Trino 476: cardinality(geometry_to_bing_tiles(<triangle>, 14)) is 428787.
        let triangle = wkt::parse("POLYGON ((0 0, 0 20, 20 20, 0 0))");
        let count = triangle.map(|g| covering(&g, 14).map(|t| t.len()));
        assert_eq!(count, Ok(Ok(428787)));
    }
}
