//! SphericalGeography (GeoFunctions): to_spherical_geography's checks, and the measures on
//! a sphere of Trino's Earth radius (6371.01 km): ST_Distance of points, ST_Length of lines,
//! ST_Area of polygons (spherical excess), great_circle_distance.

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::{geometry, invalid, stored};
use crate::geospatial::model::{Geometry, Kind, Point};
use crate::udf::{FLAGS, define, num, real};

const EARTH_RADIUS_KM: f64 = 6371.01;
const EARTH_RADIUS_M: f64 = EARTH_RADIUS_KM * 1000.0;

fn check_latitude(latitude: f64) -> rusqlite::Result<()> {
    if latitude.is_finite() && (-90.0..=90.0).contains(&latitude) {
        Ok(())
    } else {
        Err(invalid("Latitude must be between -90 and 90"))
    }
}

fn check_longitude(longitude: f64) -> rusqlite::Result<()> {
    if longitude.is_finite() && (-180.0..=180.0).contains(&longitude) {
        Ok(())
    } else {
        Err(invalid("Longitude must be between -180 and 180"))
    }
}

/// GeoFunctions.greatCircleDistance, in kilometers (the Vincenty form of the haversine).
pub(crate) fn great_circle_distance(
    latitude1: f64,
    longitude1: f64,
    latitude2: f64,
    longitude2: f64,
) -> rusqlite::Result<f64> {
    check_latitude(latitude1)?;
    check_longitude(longitude1)?;
    check_latitude(latitude2)?;
    check_longitude(longitude2)?;
    let (phi1, phi2) = (latitude1.to_radians(), latitude2.to_radians());
    let (sin1, cos1, sin2, cos2) = (phi1.sin(), phi1.cos(), phi2.sin(), phi2.cos());
    let delta = longitude1.to_radians() - longitude2.to_radians();
    let cos_delta = delta.cos();
    let t1 = cos2 * delta.sin();
    let t2 = cos1 * sin2 - sin1 * cos2 * cos_delta;
    let t3 = sin1 * sin2 + cos1 * cos2 * cos_delta;
    Ok((t1 * t1 + t2 * t2).sqrt().atan2(t3) * EARTH_RADIUS_KM)
}

fn require_spherical(function: &str, g: &Geometry, kinds: &[Kind]) -> rusqlite::Result<()> {
    let kind = g.kind();
    if kinds.contains(&kind) {
        return Ok(());
    }
    let names: Vec<&str> = kinds.iter().map(|k| k.enum_name()).collect();
    Err(invalid(format!(
        "When applied to SphericalGeography inputs, {function} only supports {}. Input type is: {}",
        names.join(" or "),
        kind.enum_name()
    )))
}

/// to_spherical_geography: every coordinate a longitude and a latitude (checked on the
/// bounding box, as Trino does).
fn to_spherical(g: &Geometry) -> rusqlite::Result<()> {
    if let Some(e) = g.envelope() {
        check_latitude(e.ymin)?;
        check_latitude(e.ymax)?;
        check_longitude(e.xmin)?;
        check_longitude(e.xmax)?;
    }
    Ok(())
}

/// The signed spherical excess of one ring (GeoFunctions.computeSphericalExcess): the sum of
/// the spherical triangles' excesses, corrected by 2π when the ring encloses a pole.
fn spherical_excess(ring: &[Point]) -> rusqlite::Result<f64> {
    let mut points = ring;
    if points.len() > 1 && points[0] == points[points.len() - 1] {
        points = &points[..points.len() - 1];
    }
    if points.len() < 3 {
        return Err(invalid(
            "Polygon is not valid: a loop contains less then 3 vertices.",
        ));
    }
    let last = points[points.len() - 1];
    let mut previous_phi = last.y.to_radians();
    let mut previous_cos = previous_phi.cos();
    let mut previous_sin = previous_phi.sin();
    let mut previous_tan = (previous_phi / 2.0).tan();
    let mut previous_longitude = last.x.to_radians();
    let (mut excess, mut course_delta) = (0.0, 0.0);
    let (mut first, mut first_initial_bearing, mut previous_final_bearing) = (true, 0.0, 0.0);
    let pi = std::f64::consts::PI;
    let modulo = |a: f64, b: f64| a % b;
    for p in points {
        let phi = p.y.to_radians();
        let tan = (phi / 2.0).tan();
        let longitude = p.x.to_radians();
        if longitude == previous_longitude && phi == previous_phi {
            return Err(invalid(
                "Polygon is not valid: it has two identical consecutive vertices",
            ));
        }
        let delta = longitude - previous_longitude;
        excess +=
            2.0 * ((delta / 2.0).tan() * (previous_tan + tan)).atan2(1.0 + previous_tan * tan);
        let (cos, sin) = (phi.cos(), phi.sin());
        let (sin_delta, cos_delta) = (delta.sin(), delta.cos());
        let y = sin_delta * cos;
        let x = previous_cos * sin - previous_sin * cos * cos_delta;
        let initial_bearing = modulo(y.atan2(x) + 2.0 * pi, 2.0 * pi);
        let final_y = -sin_delta * previous_cos;
        let final_x = previous_sin * cos - previous_cos * sin * cos_delta;
        let final_bearing = modulo(final_y.atan2(final_x) + pi, 2.0 * pi);
        if first {
            first_initial_bearing = initial_bearing;
            first = false;
        } else {
            course_delta += modulo(
                initial_bearing - previous_final_bearing + 3.0 * pi,
                2.0 * pi,
            ) - pi;
        }
        course_delta += modulo(final_bearing - initial_bearing + 3.0 * pi, 2.0 * pi) - pi;
        previous_final_bearing = final_bearing;
        previous_cos = cos;
        previous_sin = sin;
        previous_phi = phi;
        previous_tan = tan;
        previous_longitude = longitude;
    }
    course_delta += modulo(
        first_initial_bearing - previous_final_bearing + 3.0 * pi,
        2.0 * pi,
    ) - pi;
    if course_delta.abs() < pi / 4.0 {
        excess = excess.abs() - 2.0 * pi;
    }
    Ok(excess)
}

fn spherical_area(g: &Geometry) -> rusqlite::Result<Option<f64>> {
    if g.is_empty() {
        return Ok(None);
    }
    require_spherical("ST_Area", g, &[Kind::Polygon, Kind::MultiPolygon])?;
    let polygons: Vec<&Vec<Vec<Point>>> = match g {
        Geometry::Polygon(rings) => vec![rings],
        Geometry::MultiPolygon(polygons) => polygons.iter().collect(),
        _ => Vec::new(),
    };
    let mut excess = 0.0;
    for rings in polygons {
        for (i, ring) in rings.iter().enumerate() {
            let sign = if i == 0 { 1.0 } else { -1.0 };
            excess += sign * spherical_excess(ring)?.abs();
        }
    }
    Ok(Some((excess * EARTH_RADIUS_M * EARTH_RADIUS_M).abs()))
}

fn spherical_length(g: &Geometry) -> rusqlite::Result<Option<f64>> {
    if g.is_empty() {
        return Ok(None);
    }
    require_spherical("ST_Length", g, &[Kind::LineString, Kind::MultiLineString])?;
    let lines: Vec<&Vec<Point>> = match g {
        Geometry::LineString(line) => vec![line],
        Geometry::MultiLineString(lines) => lines.iter().collect(),
        _ => Vec::new(),
    };
    let mut sum = 0.0;
    for line in lines {
        for w in line.windows(2) {
            sum += great_circle_distance(w[0].y, w[0].x, w[1].y, w[1].x)?;
        }
    }
    Ok(Some(sum * 1000.0))
}

fn spherical_distance(a: &Geometry, b: &Geometry) -> rusqlite::Result<Option<f64>> {
    if a.is_empty() || b.is_empty() {
        return Ok(None);
    }
    require_spherical("ST_Distance", a, &[Kind::Point])?;
    require_spherical("ST_Distance", b, &[Kind::Point])?;
    let (Geometry::Point(Some(p)), Geometry::Point(Some(q))) = (a, b) else {
        return Ok(None);
    };
    great_circle_distance(p.y, p.x, q.y, q.x).map(|km| Some(km * 1000.0))
}

pub const QM_ST_AREA_SPHERE: SqliteFn = SqliteFn::new("qm_st_area_sphere");
pub const QM_ST_LENGTH_SPHERE: SqliteFn = SqliteFn::new("qm_st_length_sphere");
pub const QM_ST_DISTANCE_SPHERE: SqliteFn = SqliteFn::new("qm_st_distance_sphere");
pub const QM_TO_SPHERICAL_GEOGRAPHY: SqliteFn = SqliteFn::new("qm_to_spherical_geography");
pub const QM_GREAT_CIRCLE_DISTANCE: SqliteFn = SqliteFn::new("qm_great_circle_distance");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(
        conn,
        QM_TO_SPHERICAL_GEOGRAPHY.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            to_spherical(&g)?;
            stored(&g).map(Some)
        },
    )?;
    define(
        conn,
        QM_ST_AREA_SPHERE.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            Ok(spherical_area(&g)?.map(real))
        },
    )?;
    define(
        conn,
        QM_ST_LENGTH_SPHERE.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            Ok(spherical_length(&g)?.map(real))
        },
    )?;
    define(
        conn,
        QM_ST_DISTANCE_SPHERE.name(),
        2,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(a), Some(b)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?) else {
                return Ok(None);
            };
            Ok(spherical_distance(&a, &b)?.map(real))
        },
    )?;
    define(
        conn,
        QM_GREAT_CIRCLE_DISTANCE.name(),
        4,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let values = [0, 1, 2, 3].map(|i| num(ctx.get_raw(i)));
            let [Some(lat1), Some(lon1), Some(lat2), Some(lon2)] = values else {
                return Ok(None);
            };
            great_circle_distance(lat1, lon1, lat2, lon2).map(|d| Some(real(d)))
        },
    )
}
