-- An operation that moves between two statuses that are not final (created -> in_progress, and on) keeps
-- the postings it had: the rules (lib/ledger/rules.ts) make nothing of a pay-in that is not final, and
-- a pay-out's hold depends only on its type, dateAdded and amounts. The trigger derived the ledger for
-- every such move all the same (its dateUpdated and status changed): most webhooks of a busy merchant,
-- half of the processing bench's (issue 16), ~0.27 ms of the database's CPU each to write nothing.
-- It now derives an operation when what postings are made of changed (type, dateAdded, amounts), or
-- when its status or dateUpdated changed and either side of the change is final.
-- tests/integration/ledger/trigger-calls.test.ts counts the calls; its property test holds the postings
-- after any sequence of updates to a fresh derivation.
CREATE OR REPLACE FUNCTION ledger_operation_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF ledger_derivation_deferred() THEN RETURN NULL; END IF;
  PERFORM ledger_derive_postings_of(ARRAY(
    SELECT n.id FROM new_rows n JOIN old_rows o ON o.id = n.id
    WHERE (n."typeOperation", n."dateAdded", n."amountInCurrencyBalance", n."amountComissionInCurrencyBalance")
        IS DISTINCT FROM (o."typeOperation", o."dateAdded", o."amountInCurrencyBalance",
          o."amountComissionInCurrencyBalance")
      OR ((n.status IN ('success', 'failed') OR o.status IN ('success', 'failed'))
        AND (n.status, n."dateUpdated") IS DISTINCT FROM (o.status, o."dateUpdated"))));
  RETURN NULL;
END $$;
