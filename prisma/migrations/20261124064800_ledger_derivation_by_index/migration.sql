-- ledger_derive_postings removes the postings its rules no longer make with
-- `DELETE … WHERE "operationId" = ANY(ids)`. On a first reconciliation the ledger grows from nothing in
-- seconds, before autovacuum has analyzed it. Without statistics the planner took 1,000 ids for three
-- quarters of the table and read all of it: a 100,000-operation load read the table 18 times, 489,064
-- postings, and each read costs more as the ledger grows (tests/integration/ledger/derivation-cost.test.ts).
-- Every row the function reads is reached through an operation's id, so the function now runs with
-- sequential scans off: its lookups use the primary key whatever the statistics say.
ALTER FUNCTION ledger_derive_postings(uuid[]) SET enable_seqscan = off;
