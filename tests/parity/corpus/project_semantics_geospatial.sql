-- family: project_semantics_geospatial
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/geospatial.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT typeof(ST_Point(1, 2));

SELECT ST_Point(1e-7, 123456789.123456789e0);

SELECT ST_GeometryFromText('POLYGON ((0 0, 0 1, 1 1, 1 0))');

SELECT ST_AsText(ST_GeometryFromText('MULTIPOINT (1 2, 3 4)'));

SELECT ARRAY[ST_Point(1, 2)];

SELECT ST_X(ST_Point(3.5, 4));

SELECT ST_Y(ST_Point(3.5, 4));

SELECT ST_Point(1, 2) = ST_Point(1, 2);

SELECT ST_NumPoints(ST_GeometryFromText('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))'));

SELECT ST_GeometryType(ST_GeometryFromText('GEOMETRYCOLLECTION EMPTY'));

SELECT ST_CoordDim(ST_Point(1, 2));

SELECT ST_NumGeometries(ST_GeometryFromText('GEOMETRYCOLLECTION (POINT EMPTY)'));

SELECT ST_Points(ST_GeometryFromText('POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))'));

SELECT ST_InteriorRingN(ST_GeometryFromText('POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (1 1, 2 1, 2 2, 1 1))'), 1);

SELECT ST_Envelope(ST_GeometryFromText('LINESTRING (1 1, 2 3)'));

SELECT ST_EnvelopeAsPts(ST_GeometryFromText('POINT EMPTY'));

SELECT geometry_invalid_reason(ST_GeometryFromText('LINESTRING (0 0, 1 1, 1 0, 0 1)'));

SELECT ST_IsRing(ST_GeometryFromText('LINESTRING (0 0, 1 0, 1 1, 0 0)'));

SELECT ST_Area(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0), (1 1, 2 1, 2 2, 1 2, 1 1))'));

SELECT ST_Length(ST_GeometryFromText('MULTILINESTRING ((0 0, 3 4), (0 0, 1 0))'));

SELECT ST_Centroid(ST_GeometryFromText('LINESTRING (0 0, 4 0, 4 4)'));

SELECT ST_ConvexHull(ST_GeometryFromText('MULTIPOINT (0 0, 1 1, 2 0, 1 3, 1 1)'));

SELECT ST_Area(to_spherical_geography(ST_GeometryFromText('POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))')));

SELECT ST_Contains(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))'), ST_Point(1, 1));

SELECT ST_Touches(ST_GeometryFromText('POLYGON ((0 0, 4 0, 4 4, 0 4, 0 0))'), ST_Point(4, 1));

SELECT ST_Equals(ST_GeometryFromText('POINT EMPTY'), ST_GeometryFromText('POINT EMPTY'));

SELECT line_interpolate_points(ST_GeometryFromText('LINESTRING (0 0, 10 0)'), 0.25);

SELECT geometry_nearest_points(ST_Point(0, 0), ST_GeometryFromText('LINESTRING (2 -1, 2 1)'));

SELECT to_hex(ST_AsBinary(ST_Point(1, 2)));

SELECT ST_GeomFromBinary(from_hex('000000000140000000000000004010000000000000'));

SELECT to_geojson_geometry(to_spherical_geography(ST_GeometryFromText('POLYGON ((0 0, 0 1, 1 1, 0 0))')));

SELECT from_geojson_geometry('{"type":"Point","coordinates":[1,2]}');

SELECT from_encoded_polyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@');

SELECT ST_GeomFromKML('<Point><coordinates>1,2</coordinates></Point>');

SELECT convex_hull_agg(g) FROM (VALUES ST_Point(0, 0)) t(g) WHERE false;

SELECT array_agg(ST_NumPoints(h) ORDER BY k) FROM (SELECT k, convex_hull_agg(g) OVER (ORDER BY k) AS h FROM (VALUES (1, ST_Point(0, 0)), (2, ST_Point(2, 0)), (3, ST_Point(1, 3))) t(k, g));
