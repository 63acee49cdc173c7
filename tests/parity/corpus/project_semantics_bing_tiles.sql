-- family: project_semantics_bing_tiles
-- source: this project's QueryMesh tests, tests/sandbox/querymesh/semantics/bing_tiles.rs (extracted by scripts/parity_extract.py: every statement the tests send that is deterministic over tpch.tiny and VALUES)

SELECT ARRAY[bing_tile(1, 2, 10), bing_tile(3, 4, 11)];

SELECT bing_tile_quadkey(bing_tile(3, 5, 3));

SELECT bing_tile_quadkey(bing_tile('123030123010121'));

SELECT bing_tile_at(30.12, 60, 15);

SELECT bing_tile_at(1e0/512, 0, 9);

SELECT bing_tile_coordinates(bing_tile('213'));

SELECT bing_tile_coordinates(bing_tile('123030123010121')).y;

SELECT bing_tile_zoom_level(bing_tile('123030123010121'));

SELECT bing_tile(NULL, 1, 2);

SELECT try(bing_tile('test'));

SELECT transform(bing_tiles_around(30.12, 60, 1), x -> bing_tile_quadkey(x));

SELECT transform(bing_tiles_around(0, -180, 2), x -> bing_tile_quadkey(x));

SELECT transform(bing_tiles_around(30.12, 60, 15, .5), x -> bing_tile_quadkey(x));

SELECT transform(bing_tiles_around(85.05112878, -180, 4, 500), x -> bing_tile_quadkey(x));

SELECT bing_tile('213') = bing_tile(3, 5, 3);

SELECT bing_tile('213') <> bing_tile('2131');

SELECT bing_tile(3, 5, 3) IS DISTINCT FROM bing_tile(3, 5, 4);

SELECT t, count(*) FROM (VALUES bing_tile(1, 2, 3), bing_tile('021')) AS v(t) GROUP BY t;

SELECT bing_tile(1, 2, 3) < bing_tile(1, 2, 4);

SELECT t FROM (VALUES bing_tile(1, 2, 3)) AS v(t) ORDER BY t;

SELECT row_number() OVER (ORDER BY bing_tile(1, 2, 3));

SELECT max(bing_tile(1, 2, 3));

SELECT array_sort(ARRAY[bing_tile(1, 2, 3)]);

SELECT bing_tile('12345');

SELECT bing_tile('101010101010101010101010');

SELECT bing_tile(10, 2, 3);

SELECT bing_tile(2, 7, 37);

SELECT bing_tile_at(300.12, 60, 15);

SELECT bing_tile_at(30.12, 600, 15);

SELECT bing_tile_at(30.12, 60, 0);

SELECT bing_tiles_around(30.12, 60.0, 1, -1);

SELECT bing_tiles_around(30.12, 60.0, 1, 2000);

SELECT bing_tiles_around(30.12, 60.0, 20, 100);

SELECT bing_tile(CAST(1 AS bigint), 2, 3);

SELECT ST_AsText(bing_tile_polygon(bing_tile('123030123010121')));

SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((10 10, -10 10, -20 -15, 10 10))'), 3), x -> bing_tile_quadkey(x));

SELECT transform(geometry_to_bing_tiles(bing_tile_polygon(bing_tile('1230301230')), 11), x -> bing_tile_quadkey(x));

SELECT cardinality(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 20, 20 20, 0 0))'), 14));

SELECT geometry_to_bing_tiles(ST_GeometryFromText('POINT EMPTY'), 10);

SELECT geometry_to_bing_tiles(ST_Point(60, 300.12), 10);

SELECT geometry_to_bing_tiles(ST_Point(60, 30.12), 40);

SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 80, 80 80, 80 0, 0 0))'), 16);

SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 20, 20 20, 0 0))'), 20);
