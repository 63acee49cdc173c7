//! The aggregates (ConvexHullAggregation, GeometryUnionAgg): convex_hull_agg and
//! geometry_union_agg keep their rows' geometries (charged to the query's memory) and answer
//! the hull or union of all; NULLs are skipped, no geometry at all is NULL. Their window
//! forms replay the frame (udf/replayed.rs).

use querymesh_values::sqlite_expr::SqliteFn;
use rusqlite::{Connection, Result};

use super::geometry;
use super::measures::convex_hull;
use super::operations::union_of;
use super::stored;
use crate::geospatial::model::Geometry;
use crate::udf::{Args, FLAGS, RowAggregate, define_replayable, reserve};

#[derive(Clone, Copy)]
enum Combine {
    ConvexHull,
    Union,
}

#[derive(Clone, Copy)]
struct GeometryAggregate(Combine);

impl RowAggregate for GeometryAggregate {
    type State = Vec<Geometry>;
    type Output = Option<String>;

    fn init(&self, _: &dyn Args) -> Result<Vec<Geometry>> {
        Ok(Vec::new())
    }

    fn step(&self, row: &dyn Args, state: &mut Vec<Geometry>) -> Result<()> {
        if let Some(g) = geometry(row.raw(0))? {
            // Each geometry is held as parsed: about the size of its vertices.
            reserve(g.vertices().len().saturating_mul(16).saturating_add(32))?;
            state.push(g);
        }
        Ok(())
    }

    fn answer(&self, state: Option<&mut Vec<Geometry>>) -> Result<Option<String>> {
        let Some(geometries) = state.filter(|s| !s.is_empty()) else {
            return Ok(None);
        };
        let answer = match self.0 {
            Combine::ConvexHull => {
                let all = Geometry::Collection(geometries.clone());
                convex_hull(all.clone()).pipe_empty(&all)
            }
            Combine::Union => union_of(geometries),
        };
        stored(&answer).map(Some)
    }
}

trait EmptyHull {
    fn pipe_empty(self, input: &Geometry) -> Geometry;
}

impl EmptyHull for Geometry {
    /// The hull of nothing but empty geometries is the empty point Trino answers.
    fn pipe_empty(self, input: &Geometry) -> Geometry {
        if input.is_empty() {
            Geometry::Point(None)
        } else {
            self
        }
    }
}

pub const QM_CONVEX_HULL_AGG: SqliteFn = SqliteFn::new("qm_convex_hull_agg");
pub const QM_GEOMETRY_UNION_AGG: SqliteFn = SqliteFn::new("qm_geometry_union_agg");

pub fn register(conn: &Connection) -> Result<()> {
    define_replayable(
        conn,
        QM_CONVEX_HULL_AGG.name(),
        1,
        FLAGS,
        GeometryAggregate(Combine::ConvexHull),
    )?;
    define_replayable(
        conn,
        QM_GEOMETRY_UNION_AGG.name(),
        1,
        FLAGS,
        GeometryAggregate(Combine::Union),
    )
}
