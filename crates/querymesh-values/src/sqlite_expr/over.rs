//! A window call as a tree: `f(…) OVER (PARTITION BY … ORDER BY … frame)` ([`SqlExpr::Over`]),
//! its window and frame typed, rendered here.

use std::fmt::{self, Display, Formatter};

use super::{OrderKey, SqlExpr, TryTwins, list};

/// A frame's unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FrameUnits {
    Rows,
    Range,
    Groups,
}

/// One bound of a frame; an offset is an expression (SQLite takes any constant one).
#[derive(Clone, Debug, PartialEq)]
pub enum FrameBound {
    UnboundedPreceding,
    Preceding(SqlExpr),
    CurrentRow,
    Following(SqlExpr),
    UnboundedFollowing,
}

/// A frame: `units start`, or `units BETWEEN start AND end`.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    pub units: FrameUnits,
    pub start: FrameBound,
    pub end: Option<FrameBound>,
}

impl Frame {
    pub fn between(units: FrameUnits, start: FrameBound, end: FrameBound) -> Self {
        Frame {
            units,
            start,
            end: Some(end),
        }
    }

    /// `ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING`: every row of the partition.
    pub fn whole_partition() -> Self {
        Frame::between(
            FrameUnits::Rows,
            FrameBound::UnboundedPreceding,
            FrameBound::UnboundedFollowing,
        )
    }
}

/// What follows `OVER`: the partition, its order and the frame, each optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Window {
    pub partition_by: Vec<SqlExpr>,
    pub order_by: Vec<OrderKey>,
    pub frame: Option<Frame>,
}

impl Window {
    /// The same partition and order with another frame.
    pub fn with_frame(&self, frame: Option<Frame>) -> Window {
        Window {
            frame,
            ..self.clone()
        }
    }

    pub(super) fn in_try(self, raw: &dyn TryTwins) -> Window {
        let walk = |e: SqlExpr| e.in_try(raw);
        let bound = |b: FrameBound| match b {
            FrameBound::Preceding(e) => FrameBound::Preceding(walk(e)),
            FrameBound::Following(e) => FrameBound::Following(walk(e)),
            other => other,
        };
        Window {
            partition_by: self.partition_by.into_iter().map(walk).collect(),
            order_by: self
                .order_by
                .into_iter()
                .map(|k| OrderKey {
                    expr: walk(k.expr),
                    ..k
                })
                .collect(),
            frame: self.frame.map(|f| Frame {
                units: f.units,
                start: bound(f.start),
                end: f.end.map(bound),
            }),
        }
    }
}

impl Display for FrameBound {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            FrameBound::UnboundedPreceding => f.write_str("UNBOUNDED PRECEDING"),
            FrameBound::Preceding(e) => write!(f, "{e} PRECEDING"),
            FrameBound::CurrentRow => f.write_str("CURRENT ROW"),
            FrameBound::Following(e) => write!(f, "{e} FOLLOWING"),
            FrameBound::UnboundedFollowing => f.write_str("UNBOUNDED FOLLOWING"),
        }
    }
}

impl Display for Frame {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        f.write_str(match self.units {
            FrameUnits::Rows => "ROWS",
            FrameUnits::Range => "RANGE",
            FrameUnits::Groups => "GROUPS",
        })?;
        match &self.end {
            Some(end) => write!(f, " BETWEEN {} AND {end}", self.start),
            None => write!(f, " {}", self.start),
        }
    }
}

impl Display for Window {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let mut space = "";
        if !self.partition_by.is_empty() {
            f.write_str("PARTITION BY ")?;
            list(f, &self.partition_by)?;
            space = " ";
        }
        for (i, k) in self.order_by.iter().enumerate() {
            f.write_str(if i == 0 { space } else { ", " })?;
            if i == 0 {
                f.write_str("ORDER BY ")?;
            }
            write!(f, "{k}")?;
            space = " ";
        }
        if let Some(frame) = &self.frame {
            write!(f, "{space}{frame}")?;
        }
        Ok(())
    }
}
