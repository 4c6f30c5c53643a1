-- The quarter-hour sums were striped by operation (hash of its id modulo 16), so that concurrent writers of
-- different operations in the same quarter hour mostly locked different rows. A batch of a thousand
-- operations then spread its postings over up to 16 rows per quarter hour and kind: on a reconciliation
-- of 100,000 operations over 90 days nearly every posting had a bucket row of its own, about 1 s of the
-- database's time in the buckets' upserts.
-- The stripe is now the writing connection's (its backend pid modulo 16). Concurrent writers are on
-- different connections and still mostly touch different rows, and a transaction's postings in one
-- quarter hour and kind add up in one row. A stripe's row alone means nothing (a posting may be added
-- in one stripe and taken back in another); readers sum the stripes, as before.
CREATE OR REPLACE FUNCTION ledger_buckets_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  connection_stripe smallint := (pg_backend_pid() & 15)::smallint;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, connection_stripe, sum(amount), sum("holdDelta"), count(*) FROM new_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT ledger_bucket_of(at), kind, connection_stripe, -sum(amount), -sum("holdDelta"), -count(*) FROM old_rows
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  ELSE
    INSERT INTO "LedgerBucket" AS b (bucket, kind, stripe, amount, "holdDelta", postings)
    SELECT bucket, kind, connection_stripe, sum(amount), sum("holdDelta"), sum(n)::int FROM (
      SELECT ledger_bucket_of(at) AS bucket, kind, amount, "holdDelta", 1 AS n FROM new_rows
      UNION ALL
      SELECT ledger_bucket_of(at), kind, -amount, -"holdDelta", -1 FROM old_rows) c
    GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (bucket, kind, stripe) DO UPDATE SET amount = b.amount + EXCLUDED.amount,
      "holdDelta" = b."holdDelta" + EXCLUDED."holdDelta", postings = b.postings + EXCLUDED.postings;
  END IF;
  RETURN NULL;
END $$;

DROP FUNCTION ledger_bucket_stripe(uuid);
