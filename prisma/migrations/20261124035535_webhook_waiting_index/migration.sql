-- CreateIndex
CREATE INDEX "WebhookDelivery_waiting_idx" ON "WebhookDelivery"("id") WHERE outcome = 'received';
