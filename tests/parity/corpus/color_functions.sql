-- family: color_functions
-- source: Trino 476 docs, functions/color.md (https://trino.io/docs/476/functions/color.html)

-- source: functions/color.md, rgb and color
SELECT rgb(0, 128, 255);
SELECT rgb(0, 0, 0);
SELECT rgb(255, 255, 255);
SELECT rgb(256, 0, 0);
SELECT rgb(-1, 0, 0);
SELECT rgb(NULL, 0, 0);
SELECT typeof(rgb(1, 2, 3));
SELECT color('#0f8');
SELECT color('#FFF');
SELECT color('black');
SELECT color('red');
SELECT color('green');
SELECT color('yellow');
SELECT color('blue');
SELECT color('magenta');
SELECT color('cyan');
SELECT color('white');
SELECT color('purple');
SELECT color('#00ff00');
SELECT color('');
SELECT color(0.0E0, rgb(255, 0, 0), rgb(0, 0, 255));
SELECT color(1.0E0, rgb(255, 0, 0), rgb(0, 0, 255));
SELECT color(0.25E0, rgb(0, 0, 0), rgb(255, 255, 255));
SELECT color(2.0E0, rgb(10, 20, 30), rgb(40, 50, 60));
SELECT color(-1.0E0, rgb(10, 20, 30), rgb(40, 50, 60));
SELECT color(5, 0, 10, rgb(255, 0, 0), rgb(0, 255, 0));
SELECT color(0, 0, 10, color('black'), color('white'));
SELECT color(20, 0, 10, rgb(0, 0, 0), rgb(255, 255, 255));
SELECT color(CAST(nationkey AS double), 0, 24, rgb(255, 0, 0), rgb(0, 255, 0)) FROM tpch.tiny.nation WHERE nationkey IN (0, 12, 24) ORDER BY nationkey;
SELECT color(-5, 0, 10, rgb(0, 0, 0), rgb(255, 255, 255));
SELECT color(0.5E0, color('red'), rgb(0, 0, 255));
SELECT color(1, 2, 3);

-- source: functions/color.md, render and bar
SELECT render(true);
SELECT render(false);
SELECT render(42, color('blue'));
SELECT render(1.5E0, color('green'));
SELECT render('text', rgb(255, 0, 0));
SELECT render('text', color('#abc'));
SELECT render(NULL, color('red'));
SELECT bar(0.25E0, 20);
SELECT bar(0E0, 5);
SELECT bar(1E0, 5);
SELECT bar(1.5E0, 4);
SELECT bar(0.5E0, 10, rgb(255, 0, 0), rgb(0, 255, 0));
SELECT length(bar(0.4E0, 30));
SELECT bar(0.5E0, 0);
SELECT render(name, color('cyan')) FROM tpch.tiny.region ORDER BY regionkey;
SELECT render(ARRAY[1], color('red'));
