-- CreateIndex
CREATE INDEX IF NOT EXISTS "OperationStatusChange_sourceRef_idx" ON "OperationStatusChange"("sourceRef");

-- CreateIndex
CREATE INDEX IF NOT EXISTS "DriftItem_sourceRef_idx" ON "DriftItem"("sourceRef");

