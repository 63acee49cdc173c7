//! The other formats (GeoFunctions, EncodedPolylineFunctions): GeoJSON, encoded polylines
//! and KML.

use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::{geometry, invalid, require_kind, stored};
use crate::geospatial::model::{Geometry, Kind};
use crate::geospatial::{geojson, hadoop_shape, kml, polyline};
use crate::udf::{FLAGS, define, fail, java_double, reserve, text};
use rusqlite::types::ValueRef;

pub const QM_TO_GEOJSON_GEOMETRY: SqliteFn = SqliteFn::new("qm_to_geojson_geometry");
pub const QM_FROM_GEOJSON_GEOMETRY: SqliteFn = SqliteFn::new("qm_from_geojson_geometry");
pub const QM_TO_ENCODED_POLYLINE: SqliteFn = SqliteFn::new("qm_to_encoded_polyline");
pub const QM_FROM_ENCODED_POLYLINE: SqliteFn = SqliteFn::new("qm_from_encoded_polyline");
pub const QM_GEOMETRY_FROM_HADOOP_SHAPE: SqliteFn = SqliteFn::new("qm_geometry_from_hadoop_shape");
pub const QM_ST_GEOM_FROM_KML: SqliteFn = SqliteFn::new("qm_st_geom_from_kml");

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    define(
        conn,
        QM_TO_GEOJSON_GEOMETRY.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            let json = geojson::write(&g, java_double);
            reserve(json.len())?;
            Ok(Some(json))
        },
    )?;
    define(
        conn,
        QM_FROM_GEOJSON_GEOMETRY.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(input) = text(ctx.get_raw(0)) else {
                return Ok(None);
            };
            let g = geojson::parse(&input).map_err(|m| invalid(format!("Invalid GeoJSON: {m}")))?;
            stored(&g).map(Some)
        },
    )?;
    define(
        conn,
        QM_TO_ENCODED_POLYLINE.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(g) = geometry(ctx.get_raw(0))? else {
                return Ok(None);
            };
            require_kind("encode_polyline", &g, &[Kind::LineString, Kind::MultiPoint])?;
            let encoded = polyline::encode(&g.vertices());
            reserve(encoded.len())?;
            Ok(Some(encoded))
        },
    )?;
    define(
        conn,
        QM_FROM_ENCODED_POLYLINE.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(input) = text(ctx.get_raw(0)) else {
                return Ok(None);
            };
            let points = polyline::decode(&input).ok_or_else(|| {
                fail(
                    ErrorName::GenericInternalError,
                    "Index out of bounds: the polyline ends inside a value",
                )
            })?;
            // A path of one vertex is no line to Esri: it prints as LINESTRING EMPTY.
            let line = if points.len() < 2 { Vec::new() } else { points };
            stored(&Geometry::LineString(line)).map(Some)
        },
    )?;
    define(
        conn,
        QM_GEOMETRY_FROM_HADOOP_SHAPE.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (ValueRef::Blob(bytes) | ValueRef::Text(bytes)) = ctx.get_raw(0) else {
                return Ok(None);
            };
            let g = hadoop_shape::parse(bytes).map_err(|e| invalid(e.message()))?;
            stored(&g).map(Some)
        },
    )?;
    define(
        conn,
        QM_ST_GEOM_FROM_KML.name(),
        1,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let Some(input) = text(ctx.get_raw(0)) else {
                return Ok(None);
            };
            let g = kml::parse(&input).ok_or_else(|| invalid(format!("Invalid KML: {input}")))?;
            stored(&g).map(Some)
        },
    )
}
