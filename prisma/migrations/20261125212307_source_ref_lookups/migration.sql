-- CreateIndex
CREATE INDEX "OperationStatusChange_sourceRef_idx" ON "OperationStatusChange"("sourceRef");

-- CreateIndex
CREATE INDEX "DriftItem_sourceRef_idx" ON "DriftItem"("sourceRef");

