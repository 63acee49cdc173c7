//! Google's encoded polylines as Trino 476 reads and writes them (EncodedPolylineFunctions):
//! five decimals, latitude before longitude, Java's int arithmetic when decoding.

use super::model::Point;

/// The encoding of the vertices (to_encoded_polyline).
pub fn encode(points: &[Point]) -> String {
    let mut out = String::new();
    let (mut last_latitude, mut last_longitude) = (0i64, 0i64);
    // Java's Math.round: the floor of x + 0.5 (NaN rounds to 0).
    let round = |x: f64| (x * 1e5 + 0.5).floor() as i64;
    for p in points {
        let (latitude, longitude) = (round(p.y), round(p.x));
        encode_value(latitude.wrapping_sub(last_latitude), &mut out);
        encode_value(longitude.wrapping_sub(last_longitude), &mut out);
        last_latitude = latitude;
        last_longitude = longitude;
    }
    out
}

fn encode_value(value: i64, out: &mut String) {
    let mut value = if value < 0 { !(value << 1) } else { value << 1 };
    while value >= 0x20 {
        out.push(char::from((((0x20 | (value & 0x1f)) + 63) & 0xff) as u8));
        value >>= 5;
    }
    out.push(char::from(((value + 63) & 0xff) as u8));
}

/// The vertices of an encoding (from_encoded_polyline); `None` when it ends inside a value
/// (Trino 476 fails with an internal error there).
pub fn decode(text: &str) -> Option<Vec<Point>> {
    let units: Vec<u16> = text.encode_utf16().collect();
    let mut index = 0;
    let (mut latitude, mut longitude) = (0i32, 0i32);
    let mut out = Vec::new();
    let next = |index: &mut usize| -> Option<i32> {
        let (mut result, mut shift) = (1i32, 0u32);
        loop {
            let unit = *units.get(*index)?;
            *index += 1;
            let bytes = i32::from(unit) - 63 - 1;
            result = result.wrapping_add(bytes.wrapping_shl(shift));
            shift += 5;
            if bytes < 0x1f {
                break;
            }
        }
        Some(if result & 1 != 0 {
            !(result >> 1)
        } else {
            result >> 1
        })
    };
    while index < units.len() {
        latitude = latitude.wrapping_add(next(&mut index)?);
        longitude = longitude.wrapping_add(next(&mut index)?);
        out.push(Point::new(
            f64::from(longitude) * 1e-5,
            f64::from(latitude) * 1e-5,
        ));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_polyline() {
        // docs functions/geospatial, Google's example; Trino 476's answers.
        let points = decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@").unwrap_or_default();
        assert_eq!(points.len(), 3);
        assert_eq!(points[2].x, -126.45300000000002);
        assert_eq!(encode(&points), "_p~iF~ps|U_ulLnnqC_mqNvxq`@");
        assert_eq!(
            encode(&[Point::new(1.0, 2.0), Point::new(3.0, 4.0)]),
            "_seK_ibE_seK_seK"
        );
        assert_eq!(decode("_p~iF"), None);
    }
}
