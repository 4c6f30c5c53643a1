-- CreateEnum
CREATE TYPE "LedgerPostingKind" AS ENUM ('payInCredit', 'payInCommission', 'payOutHold', 'payOutRelease', 'payOutSettle', 'payOutDebit', 'payOutCommission');

-- CreateEnum
CREATE TYPE "OutsideMovementKind" AS ENUM ('topUp', 'withdrawal', 'adjustment');

-- CreateTable
CREATE TABLE "LedgerPosting" (
    "operationId" UUID NOT NULL,
    "kind" "LedgerPostingKind" NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "amount" DECIMAL(24,4) NOT NULL,
    "holdDelta" DECIMAL(24,4) NOT NULL,

    CONSTRAINT "LedgerPosting_pkey" PRIMARY KEY ("operationId","kind")
);

-- CreateTable
CREATE TABLE "LedgerBucket" (
    "bucket" TIMESTAMPTZ(3) NOT NULL,
    "kind" "LedgerPostingKind" NOT NULL,
    "amount" DECIMAL(28,4) NOT NULL,
    "holdDelta" DECIMAL(28,4) NOT NULL,
    "postings" INTEGER NOT NULL,

    CONSTRAINT "LedgerBucket_pkey" PRIMARY KEY ("bucket","kind")
);

-- CreateTable
CREATE TABLE "BalanceComparison" (
    "id" BIGSERIAL NOT NULL,
    "snapshotId" BIGINT NOT NULL,
    "requestedAt" TIMESTAMPTZ(3) NOT NULL,
    "takenAt" TIMESTAMPTZ(3) NOT NULL,
    "currency" TEXT NOT NULL,
    "platformBalance" DECIMAL(24,4) NOT NULL,
    "ledgerBalance" DECIMAL(24,4) NOT NULL,
    "difference" DECIMAL(24,4) NOT NULL,
    "settledAt" TIMESTAMPTZ(3),

    CONSTRAINT "BalanceComparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutsideMovement" (
    "id" UUID NOT NULL,
    "windowFrom" TIMESTAMPTZ(3),
    "windowTo" TIMESTAMPTZ(3) NOT NULL,
    "amount" DECIMAL(24,4) NOT NULL,
    "currency" TEXT NOT NULL,
    "kind" "OutsideMovementKind",
    "reference" TEXT,
    "note" TEXT,
    "annotatedById" UUID,
    "annotatedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutsideMovement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssuedStatement" (
    "id" UUID NOT NULL,
    "periodFrom" TIMESTAMPTZ(3) NOT NULL,
    "periodTo" TIMESTAMPTZ(3) NOT NULL,
    "timeZone" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "totals" JSONB NOT NULL,
    "content" BYTEA NOT NULL,
    "contentHash" TEXT NOT NULL,
    "automatic" BOOLEAN NOT NULL DEFAULT false,
    "issuedById" UUID,
    "issuedByEmail" TEXT,
    "issuedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "supersededAt" TIMESTAMPTZ(3),
    "changes" JSONB,

    CONSTRAINT "IssuedStatement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IssuedStatementFile" (
    "statementId" UUID NOT NULL,
    "format" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "sha256" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IssuedStatementFile_pkey" PRIMARY KEY ("statementId","format")
);

-- CreateIndex
CREATE INDEX "LedgerPosting_at_operationId_kind_idx" ON "LedgerPosting"("at", "operationId", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "BalanceComparison_snapshotId_key" ON "BalanceComparison"("snapshotId");

-- CreateIndex
CREATE INDEX "BalanceComparison_takenAt_idx" ON "BalanceComparison"("takenAt" DESC);

-- CreateIndex
CREATE INDEX "BalanceComparison_settledAt_takenAt_idx" ON "BalanceComparison"("settledAt", "takenAt");

-- CreateIndex
CREATE INDEX "OutsideMovement_windowTo_idx" ON "OutsideMovement"("windowTo");

-- CreateIndex
CREATE INDEX "OutsideMovement_kind_windowTo_idx" ON "OutsideMovement"("kind", "windowTo");

-- CreateIndex
CREATE INDEX "IssuedStatement_periodFrom_periodTo_idx" ON "IssuedStatement"("periodFrom", "periodTo");

-- CreateIndex
CREATE INDEX "IssuedStatement_supersededAt_idx" ON "IssuedStatement"("supersededAt");

-- AddForeignKey
ALTER TABLE "LedgerPosting" ADD CONSTRAINT "LedgerPosting_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IssuedStatementFile" ADD CONSTRAINT "IssuedStatementFile_statementId_fkey" FOREIGN KEY ("statementId") REFERENCES "IssuedStatement"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Ledger postings are derived from the mirror, here in the database so that every writer of "Operation"
-- and "OperationStatusChange" (snapshots, reconciliation, bulk loads) keeps them right. The rules, with
-- their sources, are documented in lib/ledger/rules.ts, whose TypeScript twin a test holds to this SQL.
CREATE FUNCTION ledger_derive_postings(ids uuid[]) RETURNS void LANGUAGE sql AS $$
  WITH o AS (
    SELECT o.id, o."typeOperation" AS type, o.status, o."dateAdded",
      COALESCE(o."amountInCurrencyBalance", 0) AS base,
      COALESCE(o."amountComissionInCurrencyBalance", 0) AS comm,
      CASE WHEN o.status IN ('success', 'failed') THEN COALESCE(
        (SELECT min(COALESCE(h."platformDateUpdated", h."recordedAt")) FROM "OperationStatusChange" h
          WHERE h."operationId" = o.id AND h."toStatus" = o.status),
        o."dateUpdated", o."dateAdded") END AS final_at,
      (SELECT -p.amount FROM "LedgerPosting" p WHERE p."operationId" = o.id AND p.kind = 'payOutHold') AS held
    FROM (SELECT DISTINCT unnest(ids) AS id) i JOIN "Operation" o ON o.id = i.id
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
    DELETE FROM "LedgerPosting" p WHERE p."operationId" IN (SELECT id FROM o)
      AND NOT EXISTS (SELECT 1 FROM d WHERE d."operationId" = p."operationId" AND d.kind = p.kind)
  )
  INSERT INTO "LedgerPosting" ("operationId", kind, at, amount, "holdDelta")
  SELECT "operationId", kind, at, amount, "holdDelta" FROM d
  ON CONFLICT ("operationId", kind) DO UPDATE
    SET at = EXCLUDED.at, amount = EXCLUDED.amount, "holdDelta" = EXCLUDED."holdDelta"
    WHERE ("LedgerPosting".at, "LedgerPosting".amount, "LedgerPosting"."holdDelta")
      IS DISTINCT FROM (EXCLUDED.at, EXCLUDED.amount, EXCLUDED."holdDelta")
$$;

CREATE FUNCTION ledger_operation_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_derive_postings(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_operation_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_derive_postings(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n."typeOperation", n.status, n."dateAdded", n."dateUpdated", n."amountInCurrencyBalance",
           n."amountComissionInCurrencyBalance")
      IS DISTINCT FROM (o."typeOperation", o.status, o."dateAdded", o."dateUpdated",
           o."amountInCurrencyBalance", o."amountComissionInCurrencyBalance")));
  RETURN NULL;
END $$;

CREATE FUNCTION ledger_status_change_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_derive_postings(ARRAY(
    SELECT DISTINCT "operationId" FROM new_rows WHERE "toStatus" IN ('success', 'failed')));
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_operation_inserted AFTER INSERT ON "Operation"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_operation_inserted();
CREATE TRIGGER ledger_operation_updated AFTER UPDATE ON "Operation"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION ledger_operation_updated();
CREATE TRIGGER ledger_status_change_inserted AFTER INSERT ON "OperationStatusChange"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_status_change_inserted();

-- LedgerBucket follows LedgerPosting: every change adds its difference to the quarter hour it touches,
-- buckets in a fixed order so that concurrent writers lock them in the same order.
CREATE FUNCTION ledger_bucket_of(t timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE AS $$
  SELECT to_timestamp(floor(extract(epoch FROM t) / 900) * 900)
$$;

CREATE FUNCTION ledger_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, sum(amount), sum("holdDelta"), count(*) FROM new_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, -sum(amount), -sum("holdDelta"), -count(*) FROM old_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSE
    INSERT INTO "LedgerBucket" AS b (bucket, kind, amount, "holdDelta", postings)
    SELECT bucket, kind, sum(amount), sum("holdDelta"), sum(n)::int FROM (
      SELECT ledger_bucket_of(at) AS bucket, kind, amount, "holdDelta", 1 AS n FROM new_rows
      UNION ALL
      SELECT ledger_bucket_of(at), kind, -amount, -"holdDelta", -1 FROM old_rows) c
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER ledger_buckets_inserted AFTER INSERT ON "LedgerPosting"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_buckets_apply();
CREATE TRIGGER ledger_buckets_updated AFTER UPDATE ON "LedgerPosting"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION ledger_buckets_apply();
CREATE TRIGGER ledger_buckets_deleted AFTER DELETE ON "LedgerPosting"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ledger_buckets_apply();

-- Postings for the operations mirrored before this migration.
SELECT ledger_derive_postings(ARRAY(SELECT id FROM "Operation"));
