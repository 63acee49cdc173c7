//! GeoJSON as Trino 476 reads and writes it (GeometryUtils over JTS's GeoJsonReader and
//! GeoJsonWriter): the writer lists polygon rings in Trino's stored order (Esri's, exterior
//! clockwise), writes ordinates as JTS does (integral values without a fraction, others
//! rounded to 8 decimals, tiny or huge ones as Java's Double.toString), and names the
//! `EPSG:0` crs at the top.

use serde_json::Value;

use super::model::{Geometry, Point, Polygon, esri_ring_order, oriented_polygon};

/// JTS GeoJsonWriter's ordinate text.
fn ordinate(x: f64, java_double: fn(f64) -> String) -> String {
    if x.abs() >= 1e-3 && x < 1e7 {
        let rounded = (x * 1e8 + 0.5).floor() / 1e8;
        if rounded == rounded.trunc() {
            format!("{}", rounded as i64)
        } else {
            java_double(rounded)
        }
    } else {
        java_double(x)
    }
}

fn position(p: &Point, out: &mut String, jd: fn(f64) -> String) {
    out.push('[');
    out.push_str(&ordinate(p.x, jd));
    out.push(',');
    out.push_str(&ordinate(p.y, jd));
    out.push(']');
}

fn positions(v: &[Point], out: &mut String, jd: fn(f64) -> String) {
    out.push('[');
    for (i, p) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        position(p, out, jd);
    }
    out.push(']');
}

fn rings(rings: &[Vec<Point>], out: &mut String, jd: fn(f64) -> String) {
    out.push('[');
    for (i, r) in rings.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        positions(r, out, jd);
    }
    out.push(']');
}

fn body(g: &Geometry, out: &mut String, jd: fn(f64) -> String) {
    let (kind, key) = match g {
        Geometry::Point(_) => ("Point", "coordinates"),
        Geometry::LineString(_) => ("LineString", "coordinates"),
        Geometry::Polygon(_) => ("Polygon", "coordinates"),
        Geometry::MultiPoint(_) => ("MultiPoint", "coordinates"),
        Geometry::MultiLineString(_) => ("MultiLineString", "coordinates"),
        Geometry::MultiPolygon(_) => ("MultiPolygon", "coordinates"),
        Geometry::Collection(_) => ("GeometryCollection", "geometries"),
    };
    out.push_str(&format!("{{\"type\":\"{kind}\",\"{key}\":"));
    match g {
        Geometry::Point(Some(p)) => position(p, out, jd),
        Geometry::Point(None) => out.push_str("[]"),
        Geometry::LineString(v) | Geometry::MultiPoint(v) => positions(v, out, jd),
        Geometry::Polygon(p) => rings(&esri_ring_order(p), out, jd),
        Geometry::MultiLineString(lines) => rings(lines, out, jd),
        Geometry::MultiPolygon(polygons) => {
            out.push('[');
            for (i, p) in polygons.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                rings(&esri_ring_order(p), out, jd);
            }
            out.push(']');
        }
        Geometry::Collection(parts) => {
            out.push('[');
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                body(part, out, jd);
                out.push('}');
            }
            out.push(']');
        }
    }
}

/// to_geojson_geometry's text.
pub fn write(g: &Geometry, java_double: fn(f64) -> String) -> String {
    let mut out = String::new();
    body(g, &mut out, java_double);
    out.push_str(",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:0\"}}}");
    out
}

/// from_geojson_geometry: a GeoJSON geometry object, or the reason it is not one.
pub fn parse(text: &str) -> Result<Geometry, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    geometry(&value, 0)
}

fn coordinate(v: &Value) -> Result<Option<Point>, String> {
    let items = v.as_array().ok_or("Expected a position")?;
    if items.is_empty() {
        return Ok(None);
    }
    let number = |i: usize| {
        items
            .get(i)
            .and_then(Value::as_f64)
            .ok_or_else(|| "Expected a number".to_string())
    };
    Ok(Some(Point::new(number(0)?, number(1)?)))
}

fn coordinates(v: &Value) -> Result<Vec<Point>, String> {
    let items = v.as_array().ok_or("Expected positions")?;
    items
        .iter()
        .filter_map(|p| coordinate(p).transpose())
        .collect()
}

fn polygon(v: &Value) -> Result<Polygon, String> {
    let items = v.as_array().ok_or("Expected rings")?;
    let rings: Vec<Vec<Point>> = items.iter().map(coordinates).collect::<Result<_, _>>()?;
    Ok(oriented_polygon(
        rings.into_iter().filter(|r| !r.is_empty()).collect(),
    ))
}

fn geometry(v: &Value, depth: usize) -> Result<Geometry, String> {
    if depth > 64 {
        return Err("Too deeply nested".into());
    }
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
    let field = |name: &str| {
        v.get(name)
            .ok_or_else(|| format!("Could not parse {kind} from GeoJson string."))
    };
    let list = |name: &str| -> Result<Vec<Value>, String> {
        field(name)?
            .as_array()
            .cloned()
            .ok_or_else(|| format!("Could not parse {kind} from GeoJson string."))
    };
    Ok(match kind {
        "Point" => Geometry::Point(coordinate(field("coordinates")?)?),
        "LineString" => Geometry::LineString(coordinates(field("coordinates")?)?),
        "Polygon" => Geometry::Polygon(polygon(field("coordinates")?)?),
        "MultiPoint" => Geometry::MultiPoint(coordinates(field("coordinates")?)?),
        "MultiLineString" => Geometry::MultiLineString(
            list("coordinates")?
                .iter()
                .map(coordinates)
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .filter(|l| !l.is_empty())
                .collect(),
        ),
        "MultiPolygon" => Geometry::MultiPolygon(
            list("coordinates")?
                .iter()
                .map(polygon)
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect(),
        ),
        "GeometryCollection" => Geometry::Collection(
            list("geometries")?
                .iter()
                .map(|g| geometry(g, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        other => return Err(format!("Could not parse {other} from GeoJson string.")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    #[test]
    fn writes_and_reads_as_trino() {
        // Trino 476's to_geojson_geometry / from_geojson_geometry answers.
        let jd = |x: f64| querymesh_values::java_number::double_to_string(x);
        let text = |w: &str| write(&wkt::parse(w).unwrap_or(Geometry::Point(None)), jd);
        let crs = ",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"EPSG:0\"}}}";
        assert_eq!(
            text("POINT (1 2)"),
            format!("{{\"type\":\"Point\",\"coordinates\":[1,2]{crs}")
        );
        assert_eq!(
            text("POLYGON ((0 0, 0 1, 1 1, 0 0))"),
            format!(
                "{{\"type\":\"Polygon\",\"coordinates\":[[[0.0,0.0],[0.0,1],[1,1],[0.0,0.0]]]{crs}"
            )
        );
        assert_eq!(
            text("POINT (0.1 1e-7)"),
            format!("{{\"type\":\"Point\",\"coordinates\":[0.1,1.0E-7]{crs}")
        );
        assert_eq!(
            text("POINT (1.000000004 2.0000000051)"),
            format!("{{\"type\":\"Point\",\"coordinates\":[1,2.00000001]{crs}")
        );
        let read = |t: &str| parse(t).map(|g| wkt::write(&g));
        assert_eq!(
            read(r#"{"type":"Polygon","coordinates":[[[0,0],[0,1],[1,1],[0,0]]]}"#).as_deref(),
            Ok("POLYGON ((0 0, 1 1, 0 1, 0 0))")
        );
        assert_eq!(
            read(r#"{"type":"Point","coordinates":[]}"#).as_deref(),
            Ok("POINT EMPTY")
        );
        assert!(read(r#"{"type":"Feature"}"#).is_err());
    }
}
