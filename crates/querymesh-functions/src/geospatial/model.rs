//! A geometry as the geospatial functions see it: the OGC simple features (points, line
//! strings, polygons, their multi forms and collections) in two dimensions.
//!
//! Polygons keep Trino's printed ring order (docs functions/geospatial; Esri's WKT export):
//! an exterior ring counter-clockwise, its holes clockwise, every ring closed. Trino's own
//! serialization holds the rings the other way round (Esri's convention), which the few
//! functions that read it raw (ST_Points) show; [`esri_ring_order`] gives that order.

/// A vertex.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub const fn new(x: f64, y: f64) -> Self {
        Self { x, y }
    }
}

/// A polygon: its exterior ring, then its holes; each ring closed (first vertex repeated).
pub type Polygon = Vec<Vec<Point>>;

#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    /// `None` is `POINT EMPTY`.
    Point(Option<Point>),
    LineString(Vec<Point>),
    Polygon(Polygon),
    MultiPoint(Vec<Point>),
    MultiLineString(Vec<Vec<Point>>),
    MultiPolygon(Vec<Polygon>),
    Collection(Vec<Geometry>),
}

/// Trino's `io.trino.geospatial.GeometryType`, as its messages name the kinds
/// ("ST_X only applies to POINT. Input type is: LINE_STRING"), in its declaration order,
/// which is the order its messages list them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Point,
    MultiPoint,
    LineString,
    MultiLineString,
    Polygon,
    MultiPolygon,
    GeometryCollection,
}

impl Kind {
    pub fn enum_name(self) -> &'static str {
        match self {
            Kind::Point => "POINT",
            Kind::MultiPoint => "MULTI_POINT",
            Kind::LineString => "LINE_STRING",
            Kind::MultiLineString => "MULTI_LINE_STRING",
            Kind::Polygon => "POLYGON",
            Kind::MultiPolygon => "MULTI_POLYGON",
            Kind::GeometryCollection => "GEOMETRY_COLLECTION",
        }
    }

    /// ST_GeometryType's answer (GeometryType.standardName).
    pub fn standard_name(self) -> &'static str {
        match self {
            Kind::Point => "ST_Point",
            Kind::MultiPoint => "ST_MultiPoint",
            Kind::LineString => "ST_LineString",
            Kind::MultiLineString => "ST_MultiLineString",
            Kind::Polygon => "ST_Polygon",
            Kind::MultiPolygon => "ST_MultiPolygon",
            Kind::GeometryCollection => "ST_GeomCollection",
        }
    }

    /// Esri's OGC class name (OGCGeometry.geometryType), as some messages name it.
    pub fn ogc_name(self) -> &'static str {
        match self {
            Kind::Point => "Point",
            Kind::MultiPoint => "MultiPoint",
            Kind::LineString => "LineString",
            Kind::MultiLineString => "MultiLineString",
            Kind::Polygon => "Polygon",
            Kind::MultiPolygon => "MultiPolygon",
            Kind::GeometryCollection => "GeometryCollection",
        }
    }

    /// Whether Trino treats it as a collection (GeometryType.isMultitype).
    pub fn is_multi(self) -> bool {
        matches!(
            self,
            Kind::MultiPoint
                | Kind::MultiLineString
                | Kind::MultiPolygon
                | Kind::GeometryCollection
        )
    }
}

/// The bounding box: (xmin, ymin, xmax, ymax).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Envelope {
    pub xmin: f64,
    pub ymin: f64,
    pub xmax: f64,
    pub ymax: f64,
}

impl Envelope {
    pub fn intersects(&self, other: &Envelope) -> bool {
        self.xmin <= other.xmax
            && other.xmin <= self.xmax
            && self.ymin <= other.ymax
            && other.ymin <= self.ymax
    }

    pub fn contains(&self, other: &Envelope) -> bool {
        self.xmin <= other.xmin
            && other.xmax <= self.xmax
            && self.ymin <= other.ymin
            && other.ymax <= self.ymax
    }
}

impl Geometry {
    pub fn kind(&self) -> Kind {
        match self {
            Geometry::Point(_) => Kind::Point,
            Geometry::LineString(_) => Kind::LineString,
            Geometry::Polygon(_) => Kind::Polygon,
            Geometry::MultiPoint(_) => Kind::MultiPoint,
            Geometry::MultiLineString(_) => Kind::MultiLineString,
            Geometry::MultiPolygon(_) => Kind::MultiPolygon,
            Geometry::Collection(_) => Kind::GeometryCollection,
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            Geometry::Point(p) => p.is_none(),
            Geometry::LineString(v) | Geometry::MultiPoint(v) => v.is_empty(),
            Geometry::Polygon(rings) | Geometry::MultiLineString(rings) => {
                rings.iter().all(Vec::is_empty)
            }
            Geometry::MultiPolygon(polygons) => polygons.iter().flatten().all(Vec::is_empty),
            Geometry::Collection(parts) => parts.iter().all(Geometry::is_empty),
        }
    }

    /// Every vertex in printed order (rings closed, so their first vertex twice).
    pub fn vertices(&self) -> Vec<Point> {
        let mut out = Vec::new();
        self.for_each_vertex(&mut |p| out.push(p));
        out
    }

    pub fn for_each_vertex(&self, f: &mut dyn FnMut(Point)) {
        match self {
            Geometry::Point(p) => p.iter().copied().for_each(f),
            Geometry::LineString(v) | Geometry::MultiPoint(v) => v.iter().copied().for_each(f),
            Geometry::Polygon(rings) | Geometry::MultiLineString(rings) => {
                rings.iter().flatten().copied().for_each(f)
            }
            Geometry::MultiPolygon(polygons) => {
                polygons.iter().flatten().flatten().copied().for_each(f)
            }
            Geometry::Collection(parts) => parts.iter().for_each(|g| g.for_each_vertex(f)),
        }
    }

    pub fn envelope(&self) -> Option<Envelope> {
        let mut envelope: Option<Envelope> = None;
        self.for_each_vertex(&mut |p| {
            let e = envelope.get_or_insert(Envelope {
                xmin: p.x,
                ymin: p.y,
                xmax: p.x,
                ymax: p.y,
            });
            e.xmin = e.xmin.min(p.x);
            e.ymin = e.ymin.min(p.y);
            e.xmax = e.xmax.max(p.x);
            e.ymax = e.ymax.max(p.y);
        });
        envelope
    }

    /// The parts of a multi geometry or collection; a single geometry is its one part.
    pub fn parts(&self) -> Vec<Geometry> {
        match self {
            Geometry::MultiPoint(v) => v.iter().map(|p| Geometry::Point(Some(*p))).collect(),
            Geometry::MultiLineString(v) => v.iter().cloned().map(Geometry::LineString).collect(),
            Geometry::MultiPolygon(v) => v.iter().cloned().map(Geometry::Polygon).collect(),
            Geometry::Collection(v) => v.clone(),
            single => vec![single.clone()],
        }
    }

    /// The geometry's simple parts, collections flattened (GeoFunctions.flattenCollection).
    pub fn flattened(&self) -> Vec<Geometry> {
        match self {
            Geometry::Collection(parts) => parts.iter().flat_map(Geometry::flattened).collect(),
            other => vec![other.clone()],
        }
    }

    /// The inherent dimension: 0 for points, 1 for lines, 2 for polygons; a collection's
    /// highest (an empty one's 0, as Esri's OGCConcreteGeometryCollection says).
    pub fn dimension(&self) -> u8 {
        match self {
            Geometry::Point(_) | Geometry::MultiPoint(_) => 0,
            Geometry::LineString(_) | Geometry::MultiLineString(_) => 1,
            Geometry::Polygon(_) | Geometry::MultiPolygon(_) => 2,
            Geometry::Collection(parts) => parts.iter().map(Geometry::dimension).max().unwrap_or(0),
        }
    }
}

/// Twice the signed area of a closed ring (positive when counter-clockwise).
pub fn ring_signed_area2(ring: &[Point]) -> f64 {
    ring.windows(2)
        .map(|w| (w[0].x * w[1].y) - (w[1].x * w[0].y))
        .sum()
}

/// A closed ring reversed, keeping its first vertex first (as Esri reverses a path).
pub fn reversed_ring(ring: &[Point]) -> Vec<Point> {
    let mut out = Vec::with_capacity(ring.len());
    if let Some(first) = ring.first() {
        out.push(*first);
        out.extend(ring.iter().rev().skip(1).copied());
    }
    out
}

/// A polygon's rings in Esri's stored order (exterior clockwise, holes counter-clockwise):
/// each printed ring reversed, but a ring of no area, which neither orientation changed.
pub fn esri_ring_order(polygon: &Polygon) -> Polygon {
    polygon
        .iter()
        .map(|r| {
            if ring_signed_area2(r) == 0.0 {
                r.clone()
            } else {
                reversed_ring(r)
            }
        })
        .collect()
}

/// `ring` turned to run counter-clockwise (`ccw`) or clockwise, its first vertex kept. A ring
/// of no area keeps its order.
pub fn oriented(ring: Vec<Point>, ccw: bool) -> Vec<Point> {
    let area = ring_signed_area2(&ring);
    if (ccw && area < 0.0) || (!ccw && area > 0.0) {
        reversed_ring(&ring)
    } else {
        ring
    }
}

/// A polygon with OGC's orientation: exterior counter-clockwise, holes clockwise.
pub fn oriented_polygon(rings: Polygon) -> Polygon {
    rings
        .into_iter()
        .enumerate()
        .map(|(i, r)| oriented(r, i == 0))
        .collect()
}
