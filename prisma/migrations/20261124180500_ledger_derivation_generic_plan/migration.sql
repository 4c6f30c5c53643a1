-- ledger_derive_postings was planned again on every call: its statement (seven rules and three writes)
-- took ~0.46 ms of the database's CPU to plan and ~0.24 ms to run for one operation. Webhook processing
-- calls it once per operation whose status changes, so planning was most of the ledger's cost there
-- (issue 16: one worker at 500 events/s, PostgreSQL at a whole core). It now keeps one generic plan per
-- connection. The plan does not depend on how many ids it is given: its lookups go by index
-- (enable_seqscan = off, migration 20261124064800_ledger_derivation_by_index). A page of 1,000
-- operations costs the same as before (20-23 µs an operation either way).
-- A CREATE OR REPLACE of the function must repeat both settings
-- (tests/integration/ledger/derivation-cost.test.ts checks them).
ALTER FUNCTION ledger_derive_postings(uuid[]) SET plan_cache_mode = force_generic_plan;
