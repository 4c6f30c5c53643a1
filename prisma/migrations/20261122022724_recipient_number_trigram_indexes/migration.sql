-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "Operation_detailsNumber_trgm_idx" ON "Operation" USING GIN ("detailsNumber" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "PayoutRequest_recipientNumber_trgm_idx" ON "PayoutRequest" USING GIN ("recipientNumber" gin_trgm_ops);

