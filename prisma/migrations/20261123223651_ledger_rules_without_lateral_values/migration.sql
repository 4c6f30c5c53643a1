-- ledger_derive_postings chose each operation's postings by joining it to a VALUES list of all seven rules
-- (CROSS JOIN LATERAL), so every operation evaluated every rule's amounts and conditions and cast each
-- rule's name to the enum, about 13 µs an operation: a third of the derivation. The same rules now
-- read the operations once (r is MATERIALIZED) and each rule selects only the operations it applies to.
-- Same postings; a full reconciliation of 100,000 operations takes about 2.5 s less (of 21 s).
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
  ), r AS MATERIALIZED (
    -- A failed pay-out may read back without amounts: its release gives back the hold it placed.
    SELECT o.*, CASE WHEN o.status = 'failed' AND o.base + o.comm = 0 AND o.held IS NOT NULL
      THEN o.held ELSE o.base + o.comm END AS req FROM o
  ), d AS (
    SELECT id AS "operationId", kind, at, amount, "holdDelta" FROM (
      SELECT id, 'payInCredit'::"LedgerPostingKind" AS kind, final_at AS at, base AS amount,
          0::numeric AS "holdDelta"
        FROM r WHERE type = 'payIn' AND status = 'success'
      UNION ALL SELECT id, 'payInCommission', final_at, -comm, 0 FROM r WHERE type = 'payIn' AND status = 'success'
      UNION ALL SELECT id, 'payOutHold', "dateAdded", -req, req FROM r WHERE type = 'payOut'
      UNION ALL SELECT id, 'payOutRelease', final_at, req, -req FROM r WHERE type = 'payOut' AND status = 'failed'
      UNION ALL SELECT id, 'payOutSettle', final_at, req, -req FROM r WHERE type = 'payOut' AND status = 'success'
      UNION ALL SELECT id, 'payOutDebit', final_at, -base, 0 FROM r WHERE type = 'payOut' AND status = 'success'
      UNION ALL SELECT id, 'payOutCommission', final_at, -comm, 0 FROM r WHERE type = 'payOut' AND status = 'success'
    ) AS rules WHERE amount <> 0 OR "holdDelta" <> 0
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
