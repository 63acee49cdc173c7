//! The relationship tests (GeoFunctions): DE-9IM through the `geo` crate's relate, after
//! Trino's bounding-box shortcut (an empty side, or boxes apart, answer at once).

use geo::Relate;
use geo::relate::IntersectionMatrix;
use querymesh_values::error::ErrorName;
use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::Connection;
use rusqlite::functions::Context;

use super::geometry;
use crate::geospatial::convert::to_geo;
use crate::geospatial::model::{Envelope, Geometry};
use crate::udf::{FLAGS, define, fail, text};

fn matrix(a: &Geometry, b: &Geometry) -> IntersectionMatrix {
    to_geo(a).relate(&to_geo(b))
}

/// GeoFunctions.envelopes: false when either side is empty, else the boxes' predicate.
fn boxes(a: &Geometry, b: &Geometry, predicate: fn(&Envelope, &Envelope) -> bool) -> bool {
    match (a.envelope(), b.envelope()) {
        (Some(x), Some(y)) => predicate(&x, &y),
        _ => false,
    }
}

pub const QM_ST_CONTAINS: SqliteFn = SqliteFn::new("qm_st_contains");
pub const QM_ST_WITHIN: SqliteFn = SqliteFn::new("qm_st_within");
pub const QM_ST_INTERSECTS: SqliteFn = SqliteFn::new("qm_st_intersects");
pub const QM_ST_DISJOINT: SqliteFn = SqliteFn::new("qm_st_disjoint");
pub const QM_ST_TOUCHES: SqliteFn = SqliteFn::new("qm_st_touches");
pub const QM_ST_CROSSES: SqliteFn = SqliteFn::new("qm_st_crosses");
pub const QM_ST_OVERLAPS: SqliteFn = SqliteFn::new("qm_st_overlaps");
pub const QM_ST_EQUALS: SqliteFn = SqliteFn::new("qm_st_equals");
pub const QM_ST_RELATE: SqliteFn = SqliteFn::new("qm_st_relate");

type Test = fn(&Geometry, &Geometry) -> bool;

const TESTS: &[(&str, Test)] = &[
    (QM_ST_CONTAINS.name(), |a, b| {
        boxes(a, b, Envelope::contains) && matrix(a, b).is_contains()
    }),
    (QM_ST_WITHIN.name(), |a, b| {
        boxes(b, a, Envelope::contains) && matrix(a, b).is_within()
    }),
    (QM_ST_INTERSECTS.name(), |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_intersects()
    }),
    (QM_ST_DISJOINT.name(), |a, b| {
        !boxes(a, b, Envelope::intersects) || matrix(a, b).is_disjoint()
    }),
    (QM_ST_TOUCHES.name(), |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_touches()
    }),
    (QM_ST_CROSSES.name(), |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_crosses()
    }),
    (QM_ST_OVERLAPS.name(), |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_overlaps()
    }),
    // Esri's Equals: two empty geometries are not equal (Trino 476).
    (QM_ST_EQUALS.name(), |a, b| {
        !a.is_empty() && !b.is_empty() && matrix(a, b).is_equal_topo()
    }),
];

pub fn register(conn: &Connection) -> rusqlite::Result<()> {
    for (name, test) in TESTS {
        let test = *test;
        define(conn, name, 2, FLAGS, move |ctx: &mut Context<'_>| {
            let (Some(a), Some(b)) = (geometry(ctx.get_raw(0))?, geometry(ctx.get_raw(1))?) else {
                return Ok(None);
            };
            Ok(Some(test(&a, &b)))
        })?;
    }
    define(
        conn,
        QM_ST_RELATE.name(),
        3,
        FLAGS,
        |ctx: &mut Context<'_>| {
            let (Some(a), Some(b), Some(pattern)) = (
                geometry(ctx.get_raw(0))?,
                geometry(ctx.get_raw(1))?,
                text(ctx.get_raw(2)),
            ) else {
                return Ok(None);
            };
            // Esri's relate fails on a pattern that is not 9 characters (an internal error in
            // Trino 476).
            if pattern.chars().count() != 9 {
                return Err(fail(
                    ErrorName::GenericInternalError,
                    "relation string length has to be 9 characters",
                ));
            }
            matrix(&a, &b).matches(&pattern).map(Some).map_err(|_| {
                fail(
                    ErrorName::GenericInternalError,
                    "relation string is invalid",
                )
            })
        },
    )
}
