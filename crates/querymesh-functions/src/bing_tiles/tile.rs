//! One Bing tile (Trino's `BingTile`): its x and y at a zoom level, its QuadKey, and the long
//! Trino encodes it as — 23 bits of x, 23 of y, 5 of zoom — which the stand-in stores as it is,
//! so equal tiles are equal INTEGERs (DISTINCT, GROUP BY and `=` need nothing more).
//! Microsoft's "Bing Maps Tile System" describes the scheme.

/// Trino's deepest zoom level (BingTile.MAX_ZOOM_LEVEL).
pub const MAX_ZOOM_LEVEL: i64 = 23;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub x: i32,
    pub y: i32,
    pub zoom: i32,
}

impl Tile {
    /// A tile whose parts the caller has checked (or computed within range).
    pub const fn new(x: i32, y: i32, zoom: i32) -> Self {
        Self { x, y, zoom }
    }

    /// `(x << 28) + (y << 5) + zoom`, as BingTile.encode writes it.
    pub fn encode(self) -> i64 {
        (i64::from(self.x) << 28) + (i64::from(self.y) << 5) + i64::from(self.zoom)
    }

    /// The tile of an encoded long (BingTile.decode).
    pub fn decode(encoded: i64) -> Self {
        Self {
            x: (encoded >> 28) as i32,
            y: ((encoded % (1 << 28)) >> 5) as i32,
            zoom: (encoded % (1 << 5)) as i32,
        }
    }

    /// bing_tile(x, y, zoom): the zoom within 1..=23, then each coordinate within
    /// [0, 2^zoom) (BingTileFunctions.checkZoomLevel, checkCoordinate).
    pub fn from_coordinates(x: i64, y: i64, zoom: i64) -> Result<Self, String> {
        check_zoom_level(zoom)?;
        let side = 1i64 << zoom;
        for coordinate in [x, y] {
            if !(0..side).contains(&coordinate) {
                return Err(format!(
                    "XY coordinates for a Bing tile at zoom level {zoom} must be within [0, {side}) range"
                ));
            }
        }
        Ok(Self::new(x as i32, y as i32, zoom as i32))
    }

    /// bing_tile(quadKey): each digit picks a quadrant, one zoom level per digit. Trino checks
    /// the length in UTF-8 bytes, then reads the characters (checkQuadKey, fromQuadKey).
    pub fn from_quadkey(quadkey: &str) -> Result<Self, String> {
        if quadkey.is_empty() {
            return Err("QuadKey must not be empty string".into());
        }
        if quadkey.len() > MAX_ZOOM_LEVEL as usize {
            return Err(format!(
                "QuadKey must be {MAX_ZOOM_LEVEL} characters or less"
            ));
        }
        let zoom = quadkey.chars().count() as i32;
        let (mut x, mut y) = (0i32, 0i32);
        for (i, digit) in quadkey.chars().enumerate() {
            let mask = 1i32 << (zoom - 1 - i as i32);
            match digit {
                '0' => {}
                '1' => x |= mask,
                '2' => y |= mask,
                '3' => {
                    x |= mask;
                    y |= mask;
                }
                _ => return Err(format!("Invalid QuadKey digit sequence: {quadkey}")),
            }
        }
        Ok(Self::new(x, y, zoom))
    }

    /// bing_tile_quadkey: one digit per zoom level, x's bit plus twice y's.
    pub fn quadkey(self) -> String {
        let zoom = self.zoom.clamp(0, 31);
        (1..=zoom)
            .rev()
            .map(|level| {
                let mask = 1i32 << (level - 1);
                let digit = u8::from(self.x & mask != 0) + 2 * u8::from(self.y & mask != 0);
                char::from(b'0' + digit)
            })
            .collect()
    }
}

/// Zoom levels 1 to 23 (BingTileFunctions.checkZoomLevel).
pub fn check_zoom_level(zoom: i64) -> Result<(), String> {
    if zoom <= 0 {
        return Err("Zoom level must be > 0".into());
    }
    if zoom > MAX_ZOOM_LEVEL {
        return Err(format!("Zoom level must be <= {MAX_ZOOM_LEVEL}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadkeys_and_coordinates_name_the_same_tiles() {
        // TestBingTileFunctions.testBingTile.
        assert_eq!(Tile::from_quadkey("213"), Ok(Tile::new(3, 5, 3)));
        assert_eq!(Tile::new(3, 5, 3).quadkey(), "213");
        let deep = Tile::from_quadkey("123030123010121");
        assert_eq!(deep, Ok(Tile::new(21845, 13506, 15)));
        assert_eq!(Tile::new(21845, 13506, 15).quadkey(), "123030123010121");
        assert_eq!(Tile::from_coordinates(3, 5, 3), Ok(Tile::new(3, 5, 3)));
    }

    #[test]
    fn the_encoding_is_trinos_long() {
        // x << 28 + y << 5 + zoom (BingTile.encode).
        let tile = Tile::new(1, 2, 3);
        assert_eq!(tile.encode(), (1 << 28) + (2 << 5) + 3);
        assert_eq!(Tile::decode(tile.encode()), tile);
        let corner = Tile::new((1 << 23) - 1, (1 << 23) - 1, 23);
        assert_eq!(Tile::decode(corner.encode()), corner);
    }

    #[test]
    fn bad_input_gets_trinos_messages() {
        // TestBingTileFunctions.testBingTile's invalid calls.
        let refused = |r: Result<Tile, String>| r.err().unwrap_or_default();
        assert_eq!(
            refused(Tile::from_quadkey("")),
            "QuadKey must not be empty string"
        );
        assert_eq!(
            refused(Tile::from_quadkey("12345")),
            "Invalid QuadKey digit sequence: 12345"
        );
        assert_eq!(
            refused(Tile::from_quadkey(&"10".repeat(12))),
            "QuadKey must be 23 characters or less"
        );
        // 23 bytes, 12 characters: long enough only by bytes' count, then not digits.
        assert_eq!(
            refused(Tile::from_quadkey(&format!("{}1", "é".repeat(11)))),
            format!("Invalid QuadKey digit sequence: {}1", "é".repeat(11))
        );
        assert_eq!(
            refused(Tile::from_coordinates(10, 2, 3)),
            "XY coordinates for a Bing tile at zoom level 3 must be within [0, 8) range"
        );
        assert_eq!(
            refused(Tile::from_coordinates(-1, 2, 3)),
            "XY coordinates for a Bing tile at zoom level 3 must be within [0, 8) range"
        );
        assert_eq!(
            refused(Tile::from_coordinates(2, 7, 37)),
            "Zoom level must be <= 23"
        );
        assert_eq!(
            refused(Tile::from_coordinates(0, 0, 0)),
            "Zoom level must be > 0"
        );
    }
}
