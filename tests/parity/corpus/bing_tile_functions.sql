-- family: bing_tile_functions
-- source: Trino 476 docs, functions/geospatial.md "Bing tiles" (https://trino.io/docs/476/functions/geospatial.html#bing-tiles)

-- source: functions/geospatial.md, bing_tile and the BingTile type; TestBingTileFunctions.testBingTile, testArrayOfBingTiles
SELECT bing_tile(1, 2, 3);
SELECT bing_tile(0, 0, 1);
SELECT bing_tile(8388607, 8388607, 23);
SELECT bing_tile(5, 3, 4), typeof(bing_tile(5, 3, 4));
SELECT bing_tile('3021');
SELECT bing_tile('0'), bing_tile('3');
SELECT bing_tile('01230123012301230123012');
SELECT bing_tile(2, 1, CAST(4 AS tinyint)), bing_tile(2, 1, CAST(4 AS smallint));
SELECT bing_tile(CAST('120' AS varchar(5)));
SELECT ARRAY[bing_tile(2, 3, 9), bing_tile(6, 1, 12)];
SELECT ROW(bing_tile(4, 4, 4), 'tile');
SELECT bing_tile(NULL, 1, 2), bing_tile(1, NULL, 2), bing_tile(1, 2, NULL);
SELECT bing_tile(CAST(NULL AS varchar));
SELECT bing_tile(NULL);
SELECT bing_tile('');
SELECT bing_tile('abc');
SELECT bing_tile('1204');
SELECT bing_tile('1 2');
SELECT bing_tile('012301230123012301230123');
SELECT bing_tile(9, 2, 3);
SELECT bing_tile(2, 8, 3);
SELECT bing_tile(-1, 0, 2);
SELECT bing_tile(0, -3, 2);
SELECT bing_tile(1, 1, 0);
SELECT bing_tile(1, 1, -4);
SELECT bing_tile(1, 1, 24);
SELECT bing_tile(3, 3, 40);
SELECT bing_tile(CAST(2 AS bigint), 1, 3);
SELECT bing_tile(1.5, 1, 3);
SELECT bing_tile(1, 2);
SELECT try(bing_tile('9'));
SELECT try(bing_tile(100, 0, 3));

-- source: functions/geospatial.md, bing_tile_quadkey, bing_tile_zoom_level, bing_tile_coordinates; TestBingTileFunctions.testBingTile, testBingTileCoordinates, testBingTileZoomLevel
SELECT bing_tile_quadkey(bing_tile(5, 2, 3));
SELECT bing_tile_quadkey(bing_tile('0312021'));
SELECT bing_tile_quadkey(bing_tile(21840, 13500, 15));
SELECT bing_tile_quadkey(bing_tile(0, 0, 23));
SELECT bing_tile_quadkey(NULL);
SELECT bing_tile_zoom_level(bing_tile('3021'));
SELECT bing_tile_zoom_level(bing_tile(7, 7, 23));
SELECT bing_tile_zoom_level(NULL);
SELECT typeof(bing_tile_zoom_level(bing_tile(1, 1, 1)));
SELECT bing_tile_coordinates(bing_tile('3021'));
SELECT bing_tile_coordinates(bing_tile(12, 34, 9)).x, bing_tile_coordinates(bing_tile(12, 34, 9)).y;
SELECT bing_tile_coordinates(bing_tile('123030123010121'));
SELECT bing_tile_coordinates(NULL);
SELECT bing_tile_quadkey('123');
SELECT bing_tile_zoom_level(3);

-- source: functions/geospatial.md, bing_tile_at; TestBingTileFunctions.testPointToBingTile
SELECT bing_tile_at(47.265511, -122.465691, 12);
SELECT bing_tile_at(30.5, 61, 14);
SELECT bing_tile_at(0, 0.001, 1), bing_tile_at(0, -0.001, 1);
SELECT bing_tile_at(1e0/1024, 0, 1), bing_tile_at(1e0/1024, 0, 10);
SELECT bing_tile_at(85.05112878, 180, 5), bing_tile_at(-85.05112878, -180, 5);
SELECT bing_tile_at(DECIMAL '12.5', 30, 6), bing_tile_at(12, 30, 6);
SELECT bing_tile_quadkey(bing_tile_at(-33.8688, 151.2093, 17));
SELECT bing_tile_at(NULL, 1, 1), bing_tile_at(1, NULL, 1), bing_tile_at(1, 1, NULL);
SELECT bing_tile_at(40, 500, 10);
SELECT bing_tile_at(-190.5, 20, 10);
SELECT bing_tile_at(86, 20, 10);
SELECT bing_tile_at(20, 20, 0);
SELECT bing_tile_at(20, 20, 30);
SELECT bing_tile_at(nan(), 20, 3);
SELECT bing_tile_at(20, infinity(), 3);
SELECT try(bing_tile_at(100, 0, 3));

-- source: functions/geospatial.md, bing_tiles_around; TestBingTileFunctions.testBingTilesAround, testBingTilesAroundCorner, testBingTilesAroundEdge
SELECT bing_tiles_around(47.265511, -122.465691, 14);
SELECT transform(bing_tiles_around(30.5, 61, 2), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(30.12, 60, 16), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(-85.05112878, -180, 4), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(85.05112878, 180, 3), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(-85.05112878, 10, 4), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(0, 180, 3), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(0, -180, 1), t -> bing_tile_quadkey(t));
SELECT cardinality(bing_tiles_around(10, 10, 23));
SELECT bing_tiles_around(NULL, 0, 3);
SELECT bing_tiles_around(120, 0, 3);
SELECT bing_tiles_around(10, 190, 3);
SELECT bing_tiles_around(10, 10, 0);
SELECT bing_tiles_around(10, 10, 25);

-- source: functions/geospatial.md, bing_tiles_around with a radius; TestBingTileFunctions.testBingTilesAroundWithRadius, testBingTilesAroundCornerWithRadius, testBingTilesAroundEdgeWithRadius, testBingTilesWithRadiusBadInput
SELECT bing_tiles_around(47.265511, -122.465691, 12, 2.5);
SELECT transform(bing_tiles_around(30.12, 60, 2, 900), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(30.12, 60, 16, 0.6), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(30.12, 60, 18, 0.07), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(-85.05112878, -180, 5, 300), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(-85.05112878, 180, 3, 600), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(85.05112878, -180, 5, 250), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(85.05112878, 180, 4, 450), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(-85.05112878, 0, 5, 150), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(85.05112878, 0, 11, 2), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(0, 180, 5, 80), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(0, -180, 5, 80), t -> bing_tile_quadkey(t));
SELECT transform(bing_tiles_around(40.7, -74.0, 10, 0), t -> bing_tile_quadkey(t));
SELECT cardinality(bing_tiles_around(51.5, -0.12, 15, 10));
SELECT cardinality(bing_tiles_around(-23.5, -46.6, 17, 5.5));
SELECT bing_tiles_around(10, 10, 5, NULL);
SELECT bing_tiles_around(10, 10, 5, -0.5);
SELECT bing_tiles_around(10, 10, 5, 1000.5);
SELECT bing_tiles_around(10, 10, 5, nan());
SELECT bing_tiles_around(10, 10, 0, 10);
SELECT bing_tiles_around(95, 10, 5, 10);
SELECT bing_tiles_around(30.12, 60.0, 19, 120);
SELECT bing_tiles_around(0, 0, 23, 1000);
SELECT try(bing_tiles_around(10, 10, 5, -1));

-- source: TestBingTileFunctions.testEqual, testNotEqual, testDistinctFrom; BingTileType (comparable, not orderable, no casts)
SELECT bing_tile(5, 2, 3) = bing_tile('312'), bing_tile(5, 2, 3) = bing_tile(5, 2, 4);
SELECT bing_tile('12') <> bing_tile('120'), bing_tile('12') <> bing_tile(1, 2, 2);
SELECT bing_tile(1, 1, 1) = NULL;
SELECT bing_tile(4, 5, 6) IS DISTINCT FROM bing_tile(4, 5, 6), bing_tile(4, 5, 6) IS DISTINCT FROM NULL;
SELECT NULL IS DISTINCT FROM bing_tile(4, 5, 6), bing_tile('21') IS NOT DISTINCT FROM bing_tile(1, 2, 2);
SELECT bing_tile(3, 3, 3) IN (bing_tile(3, 3, 4), bing_tile('033'));
SELECT DISTINCT t FROM (VALUES bing_tile(1, 0, 2), bing_tile('01'), bing_tile('01')) AS v(t);
SELECT bing_tile_quadkey(t), count(*) FROM (VALUES bing_tile(1, 0, 2), bing_tile('01'), bing_tile('10')) AS v(t) GROUP BY t ORDER BY 1;
SELECT count(DISTINCT t) FROM (VALUES bing_tile('0'), bing_tile('00'), bing_tile(0, 0, 1)) AS v(t);
SELECT array_distinct(ARRAY[bing_tile(2, 2, 2), bing_tile('30'), bing_tile(2, 2, 3)]);
SELECT contains(bing_tiles_around(30.12, 60, 15), bing_tile_at(30.12, 60, 15));
SELECT bing_tile(1, 1, 2) < bing_tile(1, 1, 3);
SELECT bing_tile(1, 1, 2) >= bing_tile(1, 1, 3);
SELECT bing_tile(1, 1, 2) BETWEEN bing_tile(0, 0, 2) AND bing_tile(3, 3, 2);
SELECT t FROM (VALUES bing_tile(1, 2, 3), bing_tile(0, 0, 1)) AS v(t) ORDER BY t;
SELECT max(t) FROM (VALUES bing_tile(1, 2, 3)) AS v(t);
SELECT row_number() OVER (ORDER BY t) FROM (VALUES bing_tile(1, 2, 3)) AS v(t);
SELECT min_by(5, bing_tile(1, 2, 3));
SELECT greatest(bing_tile(1, 2, 3), bing_tile(2, 2, 3));
SELECT array_sort(ARRAY[bing_tile(1, 2, 3), bing_tile(0, 0, 1)]);
SELECT ARRAY[bing_tile(1, 2, 3)] = ARRAY[bing_tile('021')];
SELECT ARRAY[bing_tile(1, 2, 3)] < ARRAY[bing_tile('021')];
SELECT CAST(NULL AS BingTile), typeof(CAST(NULL AS bingtile));
SELECT CAST(bing_tile(1, 2, 3) AS bigint);
SELECT CAST(bing_tile(1, 2, 3) AS varchar);
SELECT CAST(bing_tile(1, 2, 3) AS json);
SELECT CAST('123' AS BingTile);
SELECT CAST(268435523 AS BingTile);
SELECT try_cast('123' AS BingTile);

-- source: Trino 476 SHOW FUNCTIONS (the Bing tile rows; bing_tiles_around's radius overload has the longest description)
SHOW FUNCTIONS LIKE 'bing\_tile%' ESCAPE '\';
SHOW FUNCTIONS LIKE 'bing_tiles_around';

-- source: functions/geospatial.md, bing_tile_polygon; TestBingTileFunctions.testBingTilePolygon
SELECT bing_tile_polygon(bing_tile('0312021'));
SELECT ST_AsText(bing_tile_polygon(bing_tile(3, 6, 4)));
SELECT ST_AsText(bing_tile_polygon(bing_tile(0, 0, 1))), ST_AsText(bing_tile_polygon(bing_tile(1, 1, 1)));
SELECT ST_AsText(bing_tile_polygon(bing_tile(8388607, 0, 23)));
SELECT ST_AsText(bing_tile_polygon(bing_tile_at(-33.8688, 151.2093, 12)));
SELECT bing_tile_polygon(NULL), typeof(bing_tile_polygon(bing_tile(1, 1, 2)));
SELECT bing_tile_polygon('0123');

-- source: functions/geospatial.md, geometry_to_bing_tiles; TestBingTileFunctions.testGeometryToBingTiles
SELECT geometry_to_bing_tiles(ST_Point(-122.3, 47.6), 11);
SELECT transform(geometry_to_bing_tiles(ST_Point(61, 30.5), 12), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((1 1, 1 9, 9 9, 9 1, 1 1))'), 6), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((1 1, 1 9, 9 9, 1 1))'), 7), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((12 8, -8 12, -18 -12, 12 8))'), 4), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('LINESTRING (-5 -5, 5 5, 10 -3)'), 5), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('MULTIPOINT ((10 10), (-40 -20))'), 3), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(ST_GeometryFromText('GEOMETRYCOLLECTION (POINT (61 30.5), POLYGON ((12 8, -8 12, -18 -12, 12 8)))'), 4), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(bing_tile_polygon(bing_tile('0312021')), 7), t -> bing_tile_quadkey(t));
SELECT transform(geometry_to_bing_tiles(bing_tile_polygon(bing_tile('0312021')), 9), t -> bing_tile_quadkey(t));
SELECT cardinality(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 15, 15 15, 0 0))'), 12));
SELECT cardinality(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((-10 -10, -10 10, 10 10, 10 -10, -10 -10), (-5 -5, 5 -5, 5 5, -5 5, -5 -5))'), 11));
SELECT cardinality(geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 70, 70 70, 70 0, 0 0))'), 6));
SELECT geometry_to_bing_tiles(ST_GeometryFromText('POINT EMPTY'), 10), geometry_to_bing_tiles(ST_GeometryFromText('GEOMETRYCOLLECTION EMPTY'), 4);
SELECT geometry_to_bing_tiles(NULL, 3), geometry_to_bing_tiles(ST_Point(1, 1), NULL);
SELECT geometry_to_bing_tiles(ST_Point(1, 1), 0);
SELECT geometry_to_bing_tiles(ST_Point(1, 1), 24);
SELECT geometry_to_bing_tiles(ST_Point(-181, 30), 10);
SELECT geometry_to_bing_tiles(ST_Point(30, 88), 10);
SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 70, 70 70, 70 0, 0 0))'), 15);
SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 25, 25 25, 0 0))'), 21);
SELECT geometry_to_bing_tiles(ST_GeometryFromText('POLYGON ((0 0, 0 10, 10 10, 5 2, 0 0))'), 17);
SELECT geometry_to_bing_tiles(ST_Point(1, 1), 1.5);
