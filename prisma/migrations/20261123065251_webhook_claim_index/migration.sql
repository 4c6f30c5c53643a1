-- CreateIndex
CREATE INDEX "WebhookDelivery_outcome_id_idx" ON "WebhookDelivery"("outcome", "id");

