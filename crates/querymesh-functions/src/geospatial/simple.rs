//! OGC simplicity and validity as Trino 476 reports them (Esri's isSimpleOGC under
//! ST_IsSimple, ST_IsValid, ST_IsRing and geometry_invalid_reason): repeated points of a
//! multipoint, degenerate segments, segments that cross or overlap, and rings or lines that
//! touch themselves. Segments are compared in Esri's stored order (polygon rings reversed),
//! the first offending pair by the index of the first segment, then the second, named by
//! their starting vertices.

use super::model::{Geometry, Point, esri_ring_order};
use super::wkt::same_vertex;

/// Why a geometry is not simple (Esri's NonSimpleResult.Reason), with the vertices Trino
/// names in geometry_invalid_reason.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    Clustering(Point, Point),
    DegenerateSegments(Point),
    Cracking(Point, Point),
    SelfTangency(Point, Point),
}

impl Problem {
    /// geometry_invalid_reason's text: the reason, then the vertices as Java prints doubles.
    pub fn describe(&self, java_double: fn(f64) -> String) -> String {
        let at = |p: &Point| format!("({} {})", java_double(p.x), java_double(p.y));
        match self {
            Problem::Clustering(a, b) => {
                format!("Repeated points at or near {} and {}", at(a), at(b))
            }
            Problem::DegenerateSegments(a) => format!("Degenerate segments at or near {}", at(a)),
            Problem::Cracking(a, b) => {
                format!(
                    "Intersecting or overlapping segments at or near {} and {}",
                    at(a),
                    at(b)
                )
            }
            Problem::SelfTangency(a, b) => {
                format!("Self-tangency at or near {} and {}", at(a), at(b))
            }
        }
    }
}

/// The most segment pairs compared (the check is quadratic); beyond, the answer is refused.
pub const MAX_SEGMENT_PAIRS: usize = 25_000_000;

#[derive(Clone, Copy)]
struct Segment {
    a: Point,
    b: Point,
    /// Which path (line or ring) it belongs to, and its place there.
    path: usize,
    index: usize,
    path_len: usize,
    closed: bool,
}

/// A geometry with more segments than [`MAX_SEGMENT_PAIRS`] allows checking.
#[derive(Debug, PartialEq)]
pub struct TooManySegments;

/// The first problem of `g` (a collection is checked part by part).
pub fn problem(g: &Geometry) -> Result<Option<Problem>, TooManySegments> {
    match g {
        Geometry::Point(_) => Ok(None),
        Geometry::MultiPoint(points) => {
            for (i, p) in points.iter().enumerate() {
                if let Some(q) = points[..i].iter().find(|q| same_vertex(**q, *p)) {
                    return Ok(Some(Problem::Clustering(*q, *p)));
                }
            }
            Ok(None)
        }
        Geometry::LineString(line) => paths(std::slice::from_ref(line), false),
        Geometry::MultiLineString(lines) => paths(lines, false),
        Geometry::Polygon(rings) => paths(&esri_ring_order(rings), true),
        Geometry::MultiPolygon(polygons) => {
            let rings: Vec<Vec<Point>> = polygons.iter().flat_map(esri_ring_order).collect();
            paths(&rings, true)
        }
        Geometry::Collection(parts) => {
            for part in parts {
                if let Some(p) = problem(part)? {
                    return Ok(Some(p));
                }
            }
            Ok(None)
        }
    }
}

fn paths(paths: &[Vec<Point>], rings: bool) -> Result<Option<Problem>, TooManySegments> {
    let mut segments = Vec::new();
    for (path, line) in paths.iter().enumerate() {
        let closed = rings || (line.len() > 2 && same_vertex(line[0], line[line.len() - 1]));
        let count = line.len().saturating_sub(1);
        for (index, w) in line.windows(2).enumerate() {
            if same_vertex(w[0], w[1]) {
                return Ok(Some(Problem::DegenerateSegments(w[0])));
            }
            segments.push(Segment {
                a: w[0],
                b: w[1],
                path,
                index,
                path_len: count,
                closed,
            });
        }
    }
    if segments.len().saturating_mul(segments.len()) / 2 > MAX_SEGMENT_PAIRS {
        return Err(TooManySegments);
    }
    for (i, s) in segments.iter().enumerate() {
        for t in &segments[i + 1..] {
            if let Some(p) = pair_problem(s, t, rings) {
                return Ok(Some(p));
            }
        }
    }
    Ok(None)
}

/// Whether segments `s` and `t` meet where they may not.
fn pair_problem(s: &Segment, t: &Segment, rings: bool) -> Option<Problem> {
    let contact = contact(s, t)?;
    let same_path = s.path == t.path;
    let adjacent = same_path
        && (t.index == s.index + 1 || (s.closed && s.index == 0 && t.index + 1 == t.path_len));
    match contact {
        Contact::Crossing => Some(Problem::Cracking(s.a, t.a)),
        Contact::Ends(shared) if adjacent => {
            // Consecutive segments share their joint; anything more is an overlap.
            let joint_only = (t.index == s.index + 1 && same_vertex(shared, s.b))
                || (s.index == 0 && same_vertex(shared, s.a));
            (!joint_only).then_some(Problem::Cracking(s.a, t.a))
        }
        Contact::Ends(shared) if same_path => Some(Problem::SelfTangency(shared, shared)),
        // Rings of a polygon may touch at a vertex; lines of a multiline at their ends.
        Contact::Ends(shared) if rings || is_line_end(s, shared) && is_line_end(t, shared) => None,
        Contact::Ends(_) => Some(Problem::Cracking(s.a, t.a)),
    }
}

fn is_line_end(s: &Segment, p: Point) -> bool {
    (s.index == 0 && same_vertex(s.a, p)) || (s.index + 1 == s.path_len && same_vertex(s.b, p))
}

enum Contact {
    /// They meet somewhere other than a vertex both share, or overlap.
    Crossing,
    /// They meet only at this vertex, an end of both.
    Ends(Point),
}

fn orientation(a: Point, b: Point, c: Point) -> f64 {
    (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
}

fn on_segment(a: Point, b: Point, p: Point) -> bool {
    p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y)
}

fn contact(s: &Segment, t: &Segment) -> Option<Contact> {
    let (o1, o2) = (orientation(s.a, s.b, t.a), orientation(s.a, s.b, t.b));
    let (o3, o4) = (orientation(t.a, t.b, s.a), orientation(t.a, t.b, s.b));
    let touching = |o: f64, a: Point, b: Point, p: Point| o == 0.0 && on_segment(a, b, p);
    let proper = o1 * o2 < 0.0 && o3 * o4 < 0.0;
    if proper {
        return Some(Contact::Crossing);
    }
    let touches = [
        (touching(o1, s.a, s.b, t.a), t.a),
        (touching(o2, s.a, s.b, t.b), t.b),
        (touching(o3, t.a, t.b, s.a), s.a),
        (touching(o4, t.a, t.b, s.b), s.b),
    ];
    let points: Vec<Point> = touches
        .iter()
        .filter(|(hit, _)| *hit)
        .map(|(_, p)| *p)
        .collect();
    let first = *points.first()?;
    let shared_end = |p: Point| {
        (same_vertex(p, s.a) || same_vertex(p, s.b)) && (same_vertex(p, t.a) || same_vertex(p, t.b))
    };
    if points.iter().all(|p| same_vertex(*p, first)) && shared_end(first) {
        Some(Contact::Ends(first))
    } else {
        Some(Contact::Crossing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    fn reason(text: &str) -> Option<String> {
        let g = wkt::parse(text).ok()?;
        problem(&g).ok()?.map(|p| p.describe(|x| format!("{x:?}")))
    }

    #[test]
    fn reasons_are_trinos() {
        // Trino 476's geometry_invalid_reason of each.
        assert_eq!(
            reason("LINESTRING (0 0, 1 1, 1 0, 0 1)").as_deref(),
            Some("Intersecting or overlapping segments at or near (0.0 0.0) and (1.0 0.0)")
        );
        assert_eq!(
            reason("POLYGON ((0 0, 1 1, 1 0, 0 1, 0 0))").as_deref(),
            Some("Intersecting or overlapping segments at or near (0.0 0.0) and (1.0 0.0)")
        );
        assert_eq!(
            reason("MULTIPOINT (1 1, 1 1)").as_deref(),
            Some("Repeated points at or near (1.0 1.0) and (1.0 1.0)")
        );
        assert_eq!(
            reason("LINESTRING (0 0, 0 0, 1 1)").as_deref(),
            Some("Degenerate segments at or near (0.0 0.0)")
        );
        assert_eq!(
            reason("POLYGON ((0 0, 2 0, 2 2, 0 2, 0 0), (1 1, 3 1, 3 3, 1 1))").as_deref(),
            Some("Intersecting or overlapping segments at or near (0.0 2.0) and (3.0 3.0)")
        );
        assert_eq!(
            reason("POLYGON ((0 0, 2 0, 1 1, 2 2, 0 2, 1 1, 0 0))").as_deref(),
            Some("Self-tangency at or near (1.0 1.0) and (1.0 1.0)")
        );
        assert_eq!(reason("POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))"), None);
        assert_eq!(reason("LINESTRING (0 0, 1 0, 1 1, 0 0)"), None);
        assert_eq!(reason("MULTILINESTRING ((0 0, 1 1), (1 1, 2 0))"), None);
    }
}
