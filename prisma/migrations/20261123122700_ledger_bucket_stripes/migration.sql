-- AlterTable
ALTER TABLE "LedgerBucket" DROP CONSTRAINT "LedgerBucket_pkey",
ADD COLUMN     "stripe" SMALLINT NOT NULL DEFAULT 0,
ADD CONSTRAINT "LedgerBucket_pkey" PRIMARY KEY ("bucket", "kind", "stripe");


-- Every posting's difference goes to its quarter hour, kind and stripe (its operation's hash modulo 16).
-- With one row per quarter hour and kind, every transaction that posted to the current quarter hour held
-- that row's lock until it committed, so concurrent webhook processing (16 loops per worker, several
-- workers) waited in line there. Different operations now mostly touch different rows; the same
-- operation's writers are already serialised by its advisory lock. Rows are still locked in one order.
CREATE OR REPLACE FUNCTION ledger_bucket_stripe(operation_id uuid) RETURNS smallint LANGUAGE sql IMMUTABLE AS $$
  SELECT (hashtext(operation_id::text) & 15)::smallint
$$;

CREATE OR REPLACE FUNCTION ledger_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, ledger_bucket_stripe("operationId"), sum(amount), sum("holdDelta"),
      count(*) FROM new_rows
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, ledger_bucket_stripe("operationId"), -sum(amount), -sum("holdDelta"),
      -count(*) FROM old_rows
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSE
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT bucket, kind, stripe, sum(amount), sum("holdDelta"), sum(n)::int FROM (
      SELECT ledger_bucket_of(at) AS bucket, kind, ledger_bucket_stripe("operationId") AS stripe, amount,
        "holdDelta", 1 AS n FROM new_rows
      UNION ALL
      SELECT ledger_bucket_of(at), kind, ledger_bucket_stripe("operationId"), -amount, -"holdDelta", -1
      FROM old_rows) c
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  END IF;
  RETURN NULL;
END $$;
