//! The geometry elements of OGC KML as Trino 476 reads them (ST_GeomFromKML, JTS's
//! KMLReader): Point, LineString, LinearRing, Polygon (outerBoundaryIs, innerBoundaryIs)
//! and MultiGeometry, each `<coordinates>` a list of `x,y[,z]` tuples apart by whitespace.
//! A MultiGeometry of one kind is that kind's multi form; mixed, a collection.

use super::model::{Geometry, Point, oriented_polygon};

#[derive(Debug)]
enum Node {
    Element(String, Vec<Node>),
    Text(String),
}

/// Elements nested deeper than this are refused.
const MAX_DEPTH: usize = 64;

fn nodes(text: &str, at: &mut usize, depth: usize) -> Option<Vec<Node>> {
    if depth > MAX_DEPTH {
        return None;
    }
    let mut out = Vec::new();
    while *at < text.len() {
        let rest = &text[*at..];
        if let Some(tag) = rest.strip_prefix("</") {
            let end = tag.find('>')?;
            *at += 2 + end + 1;
            return Some(out);
        }
        if rest.starts_with('<') {
            let end = rest.find('>')?;
            let tag = &rest[1..end];
            *at += end + 1;
            if tag.starts_with('?') || tag.starts_with('!') {
                continue;
            }
            let self_closing = tag.ends_with('/');
            let name = tag
                .trim_end_matches('/')
                .split_whitespace()
                .next()?
                .rsplit(':')
                .next()?
                .to_string();
            let children = if self_closing {
                Vec::new()
            } else {
                nodes(text, at, depth + 1)?
            };
            out.push(Node::Element(name, children));
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            let chunk = rest[..end].trim();
            if !chunk.is_empty() {
                out.push(Node::Text(chunk.to_string()));
            }
            *at += end;
        }
    }
    Some(out)
}

fn child<'n>(children: &'n [Node], name: &str) -> Option<&'n [Node]> {
    children.iter().find_map(|n| match n {
        Node::Element(n, c) if n == name => Some(c.as_slice()),
        _ => None,
    })
}

fn text(children: &[Node]) -> String {
    children
        .iter()
        .filter_map(|n| match n {
            Node::Text(t) => Some(t.as_str()),
            Node::Element(..) => None,
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn coordinates(children: &[Node]) -> Option<Vec<Point>> {
    let list = text(child(children, "coordinates")?);
    list.split_whitespace()
        .map(|tuple| {
            let mut parts = tuple.split(',');
            let x = parts.next()?.parse().ok()?;
            let y = parts.next()?.parse().ok()?;
            Some(Point::new(x, y))
        })
        .collect()
}

fn ring(children: &[Node]) -> Option<Vec<Point>> {
    coordinates(child(children, "LinearRing")?)
}

fn element(name: &str, children: &[Node]) -> Option<Geometry> {
    Some(match name {
        "Point" => Geometry::Point(coordinates(children)?.first().copied()),
        "LineString" | "LinearRing" => Geometry::LineString(coordinates(children)?),
        "Polygon" => {
            let mut rings = vec![ring(child(children, "outerBoundaryIs")?)?];
            for n in children {
                if let Node::Element(name, c) = n
                    && name == "innerBoundaryIs"
                {
                    rings.push(ring(c)?);
                }
            }
            Geometry::Polygon(oriented_polygon(rings))
        }
        "MultiGeometry" => {
            let parts: Vec<Geometry> = children
                .iter()
                .filter_map(|n| match n {
                    Node::Element(name, c) => Some(element(name, c)),
                    Node::Text(_) => None,
                })
                .collect::<Option<_>>()?;
            homogeneous(parts)
        }
        _ => return None,
    })
}

/// A collection of one kind as that kind's multi form.
fn homogeneous(parts: Vec<Geometry>) -> Geometry {
    if !parts.is_empty() && parts.iter().all(|p| matches!(p, Geometry::Point(Some(_)))) {
        return Geometry::MultiPoint(parts.iter().flat_map(Geometry::vertices).collect());
    }
    if !parts.is_empty() && parts.iter().all(|p| matches!(p, Geometry::LineString(_))) {
        return Geometry::MultiLineString(
            parts
                .into_iter()
                .filter_map(|p| match p {
                    Geometry::LineString(l) => Some(l),
                    _ => None,
                })
                .collect(),
        );
    }
    if !parts.is_empty() && parts.iter().all(|p| matches!(p, Geometry::Polygon(_))) {
        return Geometry::MultiPolygon(
            parts
                .into_iter()
                .filter_map(|p| match p {
                    Geometry::Polygon(r) => Some(r),
                    _ => None,
                })
                .collect(),
        );
    }
    Geometry::Collection(parts)
}

/// ST_GeomFromKML: the first geometry element of the text.
pub fn parse(kml: &str) -> Option<Geometry> {
    let mut at = 0;
    let tree = nodes(kml, &mut at, 0)?;
    tree.iter().find_map(|n| match n {
        Node::Element(name, children) => element(name, children),
        Node::Text(_) => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geospatial::wkt;

    #[test]
    fn reads_as_trino() {
        // Trino 476's ST_GeomFromKML answers.
        let read = |t: &str| parse(t).map(|g| wkt::write(&g));
        assert_eq!(
            read("<Point><coordinates>1,2</coordinates></Point>").as_deref(),
            Some("POINT (1 2)")
        );
        assert_eq!(
            read("<Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 0,1 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>").as_deref(),
            Some("POLYGON ((0 0, 1 1, 0 1, 0 0))")
        );
        assert_eq!(
            read("<MultiGeometry><Point><coordinates>1,2</coordinates></Point><Point><coordinates>3,4,5</coordinates></Point></MultiGeometry>").as_deref(),
            Some("MULTIPOINT ((1 2), (3 4))")
        );
        assert_eq!(read("foo"), None);
        assert_eq!(read("<Point><coordinates>1 2</coordinates></Point>"), None);
    }
}
