//! The relationship tests (GeoFunctions): DE-9IM through the `geo` crate's relate, after
//! Trino's bounding-box shortcut (an empty side, or boxes apart, answer at once).

use geo::Relate;
use geo::relate::IntersectionMatrix;
use querymesh_values::error::ErrorName;
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

type Test = fn(&Geometry, &Geometry) -> bool;

const TESTS: &[(&str, Test)] = &[
    ("qm_st_contains", |a, b| {
        boxes(a, b, Envelope::contains) && matrix(a, b).is_contains()
    }),
    ("qm_st_within", |a, b| {
        boxes(b, a, Envelope::contains) && matrix(a, b).is_within()
    }),
    ("qm_st_intersects", |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_intersects()
    }),
    ("qm_st_disjoint", |a, b| {
        !boxes(a, b, Envelope::intersects) || matrix(a, b).is_disjoint()
    }),
    ("qm_st_touches", |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_touches()
    }),
    ("qm_st_crosses", |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_crosses()
    }),
    ("qm_st_overlaps", |a, b| {
        boxes(a, b, Envelope::intersects) && matrix(a, b).is_overlaps()
    }),
    // Esri's Equals: two empty geometries are not equal (Trino 476).
    ("qm_st_equals", |a, b| {
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
    define(conn, "qm_st_relate", 3, FLAGS, |ctx: &mut Context<'_>| {
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
    })
}
