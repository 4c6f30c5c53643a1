-- A reconciliation page writes its operations and then their status history in one transaction. Each of
-- the two statements had its trigger derive the ledger: the operations' trigger derived every written
-- operation, then the history's trigger looked up every final operation's postings again and derived
-- the ones it could not match (a failed pay-in has no posting to match, so it was always derived
-- twice). On a first load of 100,000 operations that second pass cost ~1 s of the database's time.
-- A transaction that writes both may now set paydesk.ledger_derivation to 'deferred' (SET LOCAL): the
-- triggers then leave the ledger alone and the transaction derives its operations itself, once, after
-- its last write (lib/operations/mirror/apply-batch.ts). Every other writer is unchanged.
CREATE FUNCTION ledger_derivation_deferred() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT current_setting('paydesk.ledger_derivation', true) = 'deferred'
$$;

CREATE OR REPLACE FUNCTION ledger_operation_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ledger_derivation_deferred() THEN RETURN NULL; END IF;
  PERFORM ledger_derive_postings_of(ARRAY(SELECT id FROM new_rows));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ledger_operation_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ledger_derivation_deferred() THEN RETURN NULL; END IF;
  PERFORM ledger_derive_postings_of(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n."typeOperation", n.status, n."dateAdded", n."dateUpdated", n."amountInCurrencyBalance",
           n."amountComissionInCurrencyBalance")
      IS DISTINCT FROM (o."typeOperation", o.status, o."dateAdded", o."dateUpdated",
           o."amountInCurrencyBalance", o."amountComissionInCurrencyBalance")));
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION ledger_status_change_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ledger_derivation_deferred() THEN RETURN NULL; END IF;
  PERFORM ledger_derive_postings_of(ARRAY(
    SELECT DISTINCT n."operationId" FROM new_rows n
    WHERE n."toStatus" IN ('success', 'failed')
      AND NOT EXISTS (SELECT 1 FROM "LedgerPosting" p
        WHERE p."operationId" = n."operationId"
          AND p.kind IN ('payInCredit', 'payInCommission', 'payOutRelease', 'payOutSettle', 'payOutDebit',
                         'payOutCommission')
          AND p.at = COALESCE(n."platformDateUpdated", n."recordedAt"))));
  RETURN NULL;
END $$;
