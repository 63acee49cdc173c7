// Runs queries through the official JavaScript Trino client (`trino-client`, installed by
// .ci/run with `npm ci --prefix tests/js`) against the QueryMesh stand-in.
//
// Usage: node tests/js/trino_client.mjs <querymesh URL> <IAM access token> <user>
//
// Exits non-zero with a message when the client is missing or an answer differs from
// Trino's: columns and rows over many pages, a failed query's error, and a cancel.

import assert from "node:assert/strict";

let Trino;
try {
  ({ Trino } = await import("trino-client"));
} catch {
  console.error("the JavaScript trino client is not installed: run `npm ci --prefix tests/js`");
  process.exit(2);
}

const [server, token, user] = process.argv.slice(2);
const trino = Trino.create({
  server,
  catalog: "tpch",
  schema: "tiny",
  extraHeaders: { Authorization: `Bearer ${token}` },
});

/** Every page of `sql`, as the client hands them out. */
async function pages(sql) {
  const iterator = await trino.query({ query: sql, user });
  const all = [];
  for await (const page of iterator) all.push(page);
  return all;
}

// Columns with Trino's types, rows as arrays, the last page FINISHED.
{
  const all = await pages("SELECT name, regionkey FROM nation ORDER BY nationkey");
  const last = all[all.length - 1];
  assert.equal(last.error, undefined, JSON.stringify(last.error));
  assert.equal(last.stats.state, "FINISHED");
  const columns = all.find((p) => p.columns)?.columns ?? [];
  assert.deepEqual(
    columns.map((c) => [c.name, c.type]),
    [["name", "varchar(25)"], ["regionkey", "bigint"]],
  );
  const rows = all.flatMap((p) => p.data ?? []);
  assert.equal(rows.length, 25);
  assert.deepEqual(rows[0], ["ALGERIA", 0]);
}

// Many pages: every one of lineitem's rows arrives, dates as Trino writes them.
{
  const all = await pages("SELECT orderkey, shipdate, extendedprice FROM lineitem");
  assert.ok(all.length > 2, `several pages, got ${all.length}`);
  const rows = all.flatMap((p) => p.data ?? []);
  assert.equal(rows.length, 60175);
  assert.match(rows[0][1], /^\d{4}-\d{2}-\d{2}$/);
  assert.equal(typeof rows[0][2], "number");
}

// Complex values as the JSON the client hands out unchanged (it maps no types): arrays and rows
// as arrays, maps as objects keyed by the key's text, json as a string holding the JSON text,
// varbinary as base64, uuid as its text; each column's typeSignature names its parts.
{
  const all = await pages(
    "SELECT ARRAY[1, 2, NULL] AS a, MAP(ARRAY[1, 2], ARRAY['x', 'y']) AS m, " +
      "CAST(ROW(1, 'x') AS ROW(id integer, name varchar)) AS r, " +
      "json_parse('[1, {\"k\": true}]') AS j, to_utf8('hi') AS b, " +
      "CAST('12151fd2-7586-11e9-8f9e-2a86e4085a59' AS uuid) AS u",
  );
  const last = all[all.length - 1];
  assert.equal(last.error, undefined, JSON.stringify(last.error));
  const columns = all.find((p) => p.columns)?.columns ?? [];
  assert.deepEqual(
    columns.map((c) => [c.name, c.type, c.typeSignature.rawType]),
    [
      ["a", "array(integer)", "array"],
      ["m", "map(integer, varchar(1))", "map"],
      ["r", "row(id integer, name varchar)", "row"],
      ["j", "json", "json"],
      ["b", "varbinary", "varbinary"],
      ["u", "uuid", "uuid"],
    ],
  );
  assert.deepEqual(columns[2].typeSignature.arguments.map((a) => a.value.fieldName.name), [
    "id",
    "name",
  ]);
  const rows = all.flatMap((p) => p.data ?? []);
  assert.deepEqual(rows, [
    [[1, 2, null], { 1: "x", 2: "y" }, [1, "x"], '[1,{"k":true}]', "aGk=",
      "12151fd2-7586-11e9-8f9e-2a86e4085a59"],
  ]);
}

// timestamp with time zone: the client maps no types, so the value is Trino's text (the wall
// time in the value's zone, the zone id); X-Trino-Time-Zone, sent as an extra header, is the
// session zone a timestamp is cast in. This client declares no PARAMETRIC_DATETIME, so, as
// Trino 476 answers it, the types carry no precision and the values have milliseconds.
{
  const iterator = await trino.query({
    query:
      "SELECT TIMESTAMP '2001-08-22 03:04:05.321 America/Los_Angeles' AS la, " +
      "CAST(TIMESTAMP '2020-06-01 12:00:00' AS timestamp(0) with time zone) AS here, " +
      "current_timezone() AS zone",
    user,
    extraHeaders: { "X-Trino-Time-Zone": "America/New_York" },
  });
  const all = [];
  for await (const page of iterator) all.push(page);
  const last = all[all.length - 1];
  assert.equal(last.error, undefined, JSON.stringify(last.error));
  const columns = all.find((p) => p.columns)?.columns ?? [];
  assert.deepEqual(
    columns.map((c) => [c.type, c.typeSignature.rawType, c.typeSignature.arguments[0]?.value]),
    [
      ["timestamp with time zone", "timestamp with time zone", undefined],
      ["timestamp with time zone", "timestamp with time zone", undefined],
      ["varchar", "varchar", 2147483647],
    ],
  );
  const rows = all.flatMap((p) => p.data ?? []);
  assert.deepEqual(rows, [
    ["2001-08-22 03:04:05.321 America/Los_Angeles", "2020-06-01 12:00:00.000 America/New_York",
      "America/New_York"],
  ]);
}

// Decimals arrive as Trino writes them, a string with exactly `scale` fraction digits (the
// client maps no types): every digit of a 38-digit value, and a sum exact to the cent.
{
  const all = await pages(
    "SELECT CAST('-12345678901234567890.123456789012345678' AS decimal(38, 18)) AS d, " +
      "DECIMAL '0.1' + DECIMAL '0.2' AS s, " +
      "(SELECT sum(CAST(extendedprice AS decimal(12, 2))) FROM lineitem) AS total, " +
      "(SELECT sum(CAST(round(extendedprice * 100) AS bigint)) FROM lineitem) AS cents",
  );
  const last = all[all.length - 1];
  assert.equal(last.error, undefined, JSON.stringify(last.error));
  const columns = all.find((p) => p.columns)?.columns ?? [];
  assert.deepEqual(
    columns.map((c) => c.type),
    ["decimal(38, 18)", "decimal(2, 1)", "decimal(38, 2)", "bigint"],
  );
  const [[d, s, total, cents]] = all.flatMap((p) => p.data ?? []);
  assert.equal(d, "-12345678901234567890.123456789012345678");
  assert.equal(s, "0.3");
  const expected = `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
  assert.equal(total, expected);
}

// A failed query: its error as Trino reports it, on the last page.
{
  const all = await pages("SELECT nosuchcolumn FROM nation");
  const error = all[all.length - 1].error;
  assert.ok(error, "the query failed");
  assert.equal(error.errorName, "COLUMN_NOT_FOUND");
  assert.equal(error.errorType, "USER_ERROR");
  assert.match(error.message, /^line 1:8: Column 'nosuchcolumn' cannot be resolved/);
}

// Cancel (DELETE /v1/query/{id}) of a query still streaming rows: it ends as USER_CANCELED.
// (The client's iterator hands out only pages with rows, so the id comes from the first.)
{
  const endless = "SELECT a.orderkey FROM lineitem a CROSS JOIN lineitem b";
  const iterator = await trino.query({ query: endless, user });
  const first = await iterator.next();
  assert.ok(first.value.data?.length > 0, "the first rows arrive");
  await trino.cancel(first.value.id);
  let last = first.value;
  for await (const page of iterator) last = page;
  assert.equal(last.error?.errorName, "USER_CANCELED", JSON.stringify(last));
  assert.equal(last.stats.state, "FAILED");
  // queryInfo (GET /v1/query/{id}) tells its owner the same.
  const info = await trino.queryInfo(first.value.id);
  assert.equal(info.queryId, first.value.id);
  assert.equal(info.state, "FAILED");
  assert.equal(info.query, endless);
  assert.equal(info.failureInfo?.message, "Query was canceled");
}

console.log("ok");
