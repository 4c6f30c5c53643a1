-- ledger_bucket_of was declared IMMUTABLE over extract(epoch FROM timestamptz), which PostgreSQL marks
-- STABLE: a SQL function whose body is more volatile than declared is never inlined, so the bucket
-- triggers called it once per posting as a separate function execution (about 40% of a reconciliation
-- page's write time). date_bin is IMMUTABLE and gives the same epoch-aligned quarter hours, so the
-- function is now inlined into the triggers' queries.
CREATE OR REPLACE FUNCTION ledger_bucket_of(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT date_bin('15 minutes', t, TIMESTAMPTZ '1970-01-01 00:00:00+00')
$$;

-- ledger_derive_postings joined the whole "Operation" table to its id list and anti-joined the whole
-- "LedgerPosting" table (hash joins over sequential scans): each page of a reconciliation cost time in
-- proportion to the mirror's size, so loading 100,000 operations grew quadratically. The same rules now
-- find the rows through the primary keys (= ANY), a cost in proportion to the ids given; "o" stays
-- MATERIALIZED so that its per-operation lookups run once, not once per rule that reads them.
CREATE OR REPLACE FUNCTION ledger_derive_postings(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH o AS MATERIALIZED (
    SELECT o.id, o."typeOperation" AS type, o.status, o."dateAdded",
      COALESCE(o."amountInCurrencyBalance", 0) AS base,
      COALESCE(o."amountComissionInCurrencyBalance", 0) AS comm,
      CASE WHEN o.status IN ('success', 'failed') THEN COALESCE(
        (SELECT min(COALESCE(h."platformDateUpdated", h."recordedAt")) FROM "OperationStatusChange" h
          WHERE h."operationId" = o.id AND h."toStatus" = o.status),
        o."dateUpdated", o."dateAdded") END AS final_at,
      (SELECT -p.amount FROM "LedgerPosting" p WHERE p."operationId" = o.id AND p.kind = 'payOutHold') AS held
    FROM "Operation" o WHERE o.id = ANY(ids)
  ), r AS (
    -- A failed pay-out may read back without amounts: its release gives back the hold it placed.
    SELECT o.*, CASE WHEN o.status = 'failed' AND o.base + o.comm = 0 AND o.held IS NOT NULL
      THEN o.held ELSE o.base + o.comm END AS req FROM o
  ), d AS (
    SELECT r.id AS "operationId", v.kind::"LedgerPostingKind" AS kind, v.at, v.amount, v.hold AS "holdDelta"
    FROM r CROSS JOIN LATERAL (VALUES
      ('payInCredit', r.final_at, r.base, 0::numeric, r.type = 'payIn' AND r.status = 'success'),
      ('payInCommission', r.final_at, -r.comm, 0, r.type = 'payIn' AND r.status = 'success'),
      ('payOutHold', r."dateAdded", -r.req, r.req, r.type = 'payOut'),
      ('payOutRelease', r.final_at, r.req, -r.req, r.type = 'payOut' AND r.status = 'failed'),
      ('payOutSettle', r.final_at, r.req, -r.req, r.type = 'payOut' AND r.status = 'success'),
      ('payOutDebit', r.final_at, -r.base, 0, r.type = 'payOut' AND r.status = 'success'),
      ('payOutCommission', r.final_at, -r.comm, 0, r.type = 'payOut' AND r.status = 'success')
    ) AS v(kind, at, amount, hold, applies)
    WHERE v.applies AND (v.amount <> 0 OR v.hold <> 0)
  ), removed AS (
    DELETE FROM "LedgerPosting" p WHERE p."operationId" = ANY(ids)
      AND NOT EXISTS (SELECT 1 FROM d WHERE d."operationId" = p."operationId" AND d.kind = p.kind)
  )
  INSERT INTO "LedgerPosting" ("operationId", kind, at, amount, "holdDelta")
  SELECT "operationId", kind, at, amount, "holdDelta" FROM d
  ON CONFLICT ("operationId", kind) DO UPDATE
    SET at = EXCLUDED.at, amount = EXCLUDED.amount, "holdDelta" = EXCLUDED."holdDelta"
    WHERE ("LedgerPosting".at, "LedgerPosting".amount, "LedgerPosting"."holdDelta")
      IS DISTINCT FROM (EXCLUDED.at, EXCLUDED.amount, EXCLUDED."holdDelta")
$$;

-- A recorded change to a final status re-derives its operation only when it can move the postings: when
-- its moment is already the one the operation's final postings carry, the minimum over the changes stays
-- that moment. That is the usual case (the mirror writes an operation and its first change in one
-- transaction, the change dated as the operation's dateUpdated), which used to derive every page twice.
CREATE OR REPLACE FUNCTION ledger_status_change_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_derive_postings(ARRAY(
    SELECT DISTINCT n."operationId" FROM new_rows n
    WHERE n."toStatus" IN ('success', 'failed')
      AND NOT EXISTS (SELECT 1 FROM "LedgerPosting" p
        WHERE p."operationId" = n."operationId"
          AND p.kind IN ('payInCredit', 'payInCommission', 'payOutRelease', 'payOutSettle', 'payOutDebit',
                         'payOutCommission')
          AND p.at = COALESCE(n."platformDateUpdated", n."recordedAt"))));
  RETURN NULL;
END $$;
