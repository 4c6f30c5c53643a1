-- ledger_derive_postings takes the operations it derives in two lists: `ids`, which may have postings,
-- and `new_ids`, which the caller knows have none (it inserted them in this transaction). Only `ids` are
-- looked up in the ledger (the postings it has, and the ones to remove). On a first reconciliation every
-- operation of a page is new, and those two lookups walked the ledger's primary key for 1,000 ids the
-- ledger did not have: the largest part of the derivation after the foreign-key checks, growing with the
-- ledger (a profile of the database's CPU for 100,000 operations: ~10 % of it).
-- An operation the mirror did not have cannot have postings: they reference it (foreign key). Were an id
-- with postings passed in `new_ids` all the same, a posting of a kind it already has fails the plain
-- INSERT on the primary key, and with it the transaction.
-- Callers: a reconciliation page (lib/operations/mirror/apply-batch.ts) and the operations' insert
-- trigger. The old one-list call still works (new_ids defaults to none), so the previous release's
-- queries are unchanged in a rolling deploy. The function keeps enable_seqscan = off and its generic plan
-- (migrations 20261124064800_ledger_derivation_by_index, 20261124180500_ledger_derivation_generic_plan).
DROP FUNCTION ledger_derive_postings(uuid[]);
CREATE FUNCTION ledger_derive_postings(ids uuid[], new_ids uuid[] DEFAULT '{}') RETURNS void LANGUAGE sql
SET enable_seqscan = off SET plan_cache_mode = force_generic_plan AS $$
  WITH posted AS MATERIALIZED (
    SELECT "operationId", kind, amount FROM "LedgerPosting" WHERE "operationId" = ANY(ids)
  ), finals AS MATERIALIZED (
    SELECT "operationId", "toStatus", min(COALESCE("platformDateUpdated", "recordedAt")) AS at
    FROM "OperationStatusChange" WHERE "operationId" = ANY(ids || new_ids) AND "toStatus" IN ('success', 'failed')
    GROUP BY 1, 2
  ), o AS MATERIALIZED (
    SELECT o.id, o."typeOperation" AS type, o.status, o."dateAdded",
      COALESCE(o."amountInCurrencyBalance", 0) AS base,
      COALESCE(o."amountComissionInCurrencyBalance", 0) AS comm,
      CASE WHEN o.status IN ('success', 'failed') THEN COALESCE(f.at, o."dateUpdated", o."dateAdded") END AS final_at,
      -h.amount AS held, w."operationId" IS NOT NULL AS was_posted
    FROM "Operation" o
    LEFT JOIN finals f ON f."operationId" = o.id AND f."toStatus" = o.status
    LEFT JOIN posted h ON h."operationId" = o.id AND h.kind = 'payOutHold'
    LEFT JOIN (SELECT DISTINCT "operationId" FROM posted) w ON w."operationId" = o.id
    WHERE o.id = ANY(ids || new_ids)
  ), r AS MATERIALIZED (
    -- A failed pay-out may read back without amounts: its release gives back the hold it placed.
    SELECT o.*, CASE WHEN o.status = 'failed' AND o.base + o.comm = 0 AND o.held IS NOT NULL
      THEN o.held ELSE o.base + o.comm END AS req FROM o
  ), d AS MATERIALIZED (
    SELECT id AS "operationId", kind, at, amount, "holdDelta", was_posted FROM (
      SELECT id, 'payInCredit'::"LedgerPostingKind" AS kind, final_at AS at, base AS amount,
          0::numeric AS "holdDelta", was_posted
        FROM r WHERE type = 'payIn' AND status = 'success'
      UNION ALL SELECT id, 'payInCommission', final_at, -comm, 0, was_posted FROM r WHERE type = 'payIn' AND status = 'success'
      UNION ALL SELECT id, 'payOutHold', "dateAdded", -req, req, was_posted FROM r WHERE type = 'payOut'
      UNION ALL SELECT id, 'payOutRelease', final_at, req, -req, was_posted FROM r WHERE type = 'payOut' AND status = 'failed'
      UNION ALL SELECT id, 'payOutSettle', final_at, req, -req, was_posted FROM r WHERE type = 'payOut' AND status = 'success'
      UNION ALL SELECT id, 'payOutDebit', final_at, -base, 0, was_posted FROM r WHERE type = 'payOut' AND status = 'success'
      UNION ALL SELECT id, 'payOutCommission', final_at, -comm, 0, was_posted FROM r WHERE type = 'payOut' AND status = 'success'
    ) AS rules WHERE amount <> 0 OR "holdDelta" <> 0
  ), removed AS (
    DELETE FROM "LedgerPosting" p WHERE p."operationId" = ANY(ids)
      AND NOT EXISTS (SELECT 1 FROM d WHERE d."operationId" = p."operationId" AND d.kind = p.kind)
  ), fresh AS (
    INSERT INTO "LedgerPosting" ("operationId", kind, at, amount, "holdDelta")
    SELECT "operationId", kind, at, amount, "holdDelta" FROM d WHERE NOT was_posted
  )
  INSERT INTO "LedgerPosting" ("operationId", kind, at, amount, "holdDelta")
  SELECT "operationId", kind, at, amount, "holdDelta" FROM d WHERE was_posted
  ON CONFLICT ("operationId", kind) DO UPDATE
    SET at = EXCLUDED.at, amount = EXCLUDED.amount, "holdDelta" = EXCLUDED."holdDelta"
    WHERE ("LedgerPosting".at, "LedgerPosting".amount, "LedgerPosting"."holdDelta")
      IS DISTINCT FROM (EXCLUDED.at, EXCLUDED.amount, EXCLUDED."holdDelta")
$$;

CREATE OR REPLACE FUNCTION ledger_derive_postings_of(ids uuid[], new_ids uuid[] DEFAULT '{}') RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF cardinality(ids) + cardinality(new_ids) > 0 THEN
    PERFORM ledger_derive_postings(ids, new_ids);
  END IF;
END $$;
DROP FUNCTION ledger_derive_postings_of(uuid[]);

-- The rows a statement inserted have no postings: an operation's postings reference it, and an
-- INSERT … ON CONFLICT's updated rows are in the update trigger's tables, not here.
CREATE OR REPLACE FUNCTION ledger_operation_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ledger_derivation_deferred() THEN RETURN NULL; END IF;
  PERFORM ledger_derive_postings_of('{}', ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;
