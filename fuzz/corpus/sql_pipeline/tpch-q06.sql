SELECT sum(extendedprice * discount) AS revenue
FROM lineitem
WHERE shipdate >= DATE '1994-01-01'
  AND shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR
  AND discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01
  AND quantity < 24
