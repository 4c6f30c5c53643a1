-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Role" AS ENUM ('admin', 'finance', 'approver', 'support');

-- CreateEnum
CREATE TYPE "OperationType" AS ENUM ('payIn', 'payOut');

-- CreateEnum
CREATE TYPE "OperationStatus" AS ENUM ('precreated', 'created', 'booking', 'pending_retry', 'in_progress', 'success', 'failed');

-- CreateEnum
CREATE TYPE "SnapshotSource" AS ENUM ('creation', 'webhook', 'readBack', 'reconciliation', 'manualRefresh');

-- CreateEnum
CREATE TYPE "WebhookOutcome" AS ENUM ('received', 'applied', 'duplicate', 'stale', 'rejected', 'malformed', 'disagreement', 'failed');

-- CreateEnum
CREATE TYPE "CreationKind" AS ENUM ('payIn', 'payOut', 'formPrepare', 'formFull');

-- CreateEnum
CREATE TYPE "IntentState" AS ENUM ('pending', 'confirmed', 'rejected');

-- CreateEnum
CREATE TYPE "PayoutRequestStatus" AS ENUM ('draft', 'awaiting_approval', 'approved', 'submitting', 'submitted', 'rejected', 'cancelled', 'failed_to_submit');

-- CreateEnum
CREATE TYPE "ApprovalDecision" AS ENUM ('approve', 'reject');

-- CreateEnum
CREATE TYPE "ReconciliationKind" AS ENUM ('full', 'incremental');

-- CreateEnum
CREATE TYPE "RunStatus" AS ENUM ('running', 'completed', 'failed');

-- CreateEnum
CREATE TYPE "DriftKind" AS ENUM ('missingInMirror', 'missingOnPlatform', 'statusMismatch', 'amountMismatch');

-- CreateEnum
CREATE TYPE "DriftState" AS ENUM ('open', 'acknowledged', 'resolved');

-- CreateTable
CREATE TABLE "User" (
    "id" UUID NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "role" "Role" NOT NULL,
    "passwordHash" TEXT,
    "emailVerified" TIMESTAMPTZ(3),
    "image" TEXT,
    "disabledAt" TIMESTAMPTZ(3),
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "failedSignIns" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMPTZ(3),
    "lastSignInAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "userId" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("provider","providerAccountId")
);

-- CreateTable
CREATE TABLE "Session" (
    "sessionToken" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL
);

-- CreateTable
CREATE TABLE "VerificationToken" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "VerificationToken_pkey" PRIMARY KEY ("identifier","token")
);

-- CreateTable
CREATE TABLE "SavedView" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SavedView_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Operation" (
    "id" UUID NOT NULL,
    "dateAdded" TIMESTAMPTZ(3) NOT NULL,
    "dateUpdated" TIMESTAMPTZ(3),
    "typeOperation" "OperationType" NOT NULL,
    "status" "OperationStatus" NOT NULL,
    "idTransactionMerchant" TEXT NOT NULL,
    "amountInitial" DECIMAL(24,4) NOT NULL,
    "amountRandomized" DECIMAL(24,4),
    "amount" DECIMAL(24,4) NOT NULL,
    "amountComission" DECIMAL(24,4),
    "currency" TEXT NOT NULL,
    "amountInCurrencyBalance" DECIMAL(24,4),
    "amountComissionInCurrencyBalance" DECIMAL(24,4),
    "exchangeRate" DECIMAL(24,8),
    "paymentMethod" TEXT,
    "detailsBankName" TEXT,
    "detailsNameMediator" TEXT,
    "detailsNumber" TEXT,
    "detailsNumberAdditional" JSONB,
    "detailsQrCode" JSONB,
    "linkPaymentForm" TEXT,
    "raw" JSONB NOT NULL,
    "lastSource" "SnapshotSource" NOT NULL,
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "mirroredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stuckFlaggedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Operation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OperationStatusChange" (
    "id" BIGSERIAL NOT NULL,
    "operationId" UUID NOT NULL,
    "fromStatus" "OperationStatus",
    "toStatus" "OperationStatus" NOT NULL,
    "source" "SnapshotSource" NOT NULL,
    "sourceRef" TEXT,
    "platformDateUpdated" TIMESTAMPTZ(3),
    "recordedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OperationStatusChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" BIGSERIAL NOT NULL,
    "receivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sourceIp" TEXT,
    "headers" JSONB NOT NULL,
    "body" TEXT NOT NULL,
    "bodyBytes" INTEGER NOT NULL,
    "outcome" "WebhookOutcome" NOT NULL DEFAULT 'received',
    "outcomeDetail" TEXT,
    "operationId" UUID,
    "operationStatus" "OperationStatus",
    "traceID" TEXT,
    "readBackTraceID" TEXT,
    "processingAttempts" INTEGER NOT NULL DEFAULT 0,
    "claimedUntil" TIMESTAMPTZ(3),
    "processedAt" TIMESTAMPTZ(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ApiCall" (
    "id" BIGSERIAL NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "requestBody" TEXT,
    "responseBody" TEXT,
    "httpStatus" INTEGER,
    "envelopeStatus" TEXT,
    "codeError" TEXT,
    "message" TEXT,
    "traceID" TEXT,
    "latencyMs" INTEGER NOT NULL,
    "error" TEXT,
    "dialect" TEXT,
    "actorUserId" UUID,
    "operationId" UUID,
    "idTransactionMerchant" TEXT,

    CONSTRAINT "ApiCall_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BalanceSnapshot" (
    "id" BIGSERIAL NOT NULL,
    "takenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "amountInCurrencyBalance" DECIMAL(24,4) NOT NULL,
    "currencyBalance" TEXT NOT NULL,
    "amountInCurrencyPayment" DECIMAL(24,4) NOT NULL,
    "currencyPayment" TEXT NOT NULL,
    "exchangeRate" DECIMAL(24,8) NOT NULL,
    "traceID" TEXT,

    CONSTRAINT "BalanceSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Bank" (
    "name" TEXT NOT NULL,
    "platformId" TEXT,
    "fetchedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Bank_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "CreationIntent" (
    "idTransactionMerchant" TEXT NOT NULL,
    "kind" "CreationKind" NOT NULL,
    "request" JSONB NOT NULL,
    "state" "IntentState" NOT NULL DEFAULT 'pending',
    "operationId" UUID,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastTraceID" TEXT,
    "lastCodeError" TEXT,
    "lastMessage" TEXT,
    "createdById" UUID,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "CreationIntent_pkey" PRIMARY KEY ("idTransactionMerchant")
);

-- CreateTable
CREATE TABLE "PayoutRequest" (
    "id" UUID NOT NULL,
    "idTransactionMerchant" TEXT NOT NULL,
    "status" "PayoutRequestStatus" NOT NULL DEFAULT 'draft',
    "paymentMethod" TEXT NOT NULL,
    "bankName" TEXT NOT NULL,
    "recipientNumber" TEXT NOT NULL,
    "recipientName" TEXT NOT NULL,
    "amount" DECIMAL(24,4) NOT NULL,
    "clientID" TEXT NOT NULL,
    "clientIP" TEXT NOT NULL,
    "clientDateCreated" TIMESTAMPTZ(3) NOT NULL,
    "webhookUrl" TEXT,
    "requiredApprovals" INTEGER NOT NULL DEFAULT 1,
    "makerId" UUID NOT NULL,
    "operationId" UUID,
    "overrideReason" TEXT,
    "lastCodeError" TEXT,
    "lastMessage" TEXT,
    "lastTraceID" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "submittedAt" TIMESTAMPTZ(3),

    CONSTRAINT "PayoutRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PayoutApproval" (
    "id" UUID NOT NULL,
    "payoutRequestId" UUID NOT NULL,
    "approverId" UUID NOT NULL,
    "decision" "ApprovalDecision" NOT NULL,
    "comment" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PayoutApproval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReconciliationRun" (
    "id" UUID NOT NULL,
    "kind" "ReconciliationKind" NOT NULL,
    "status" "RunStatus" NOT NULL DEFAULT 'running',
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "pages" INTEGER NOT NULL DEFAULT 0,
    "operationsSeen" INTEGER NOT NULL DEFAULT 0,
    "inserted" INTEGER NOT NULL DEFAULT 0,
    "updated" INTEGER NOT NULL DEFAULT 0,
    "watermark" TIMESTAMPTZ(3),
    "stopReason" TEXT,
    "error" TEXT,
    "triggeredById" UUID,

    CONSTRAINT "ReconciliationRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "DriftItem" (
    "id" UUID NOT NULL,
    "runId" UUID NOT NULL,
    "operationId" UUID NOT NULL,
    "kind" "DriftKind" NOT NULL,
    "mirrorValue" JSONB,
    "platformValue" JSONB,
    "state" "DriftState" NOT NULL DEFAULT 'open',
    "note" TEXT,
    "resolvedById" UUID,
    "resolvedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DriftItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AuditLog" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorUserId" UUID,
    "actorEmail" TEXT,
    "ip" TEXT,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "before" JSONB,
    "after" JSONB,

    CONSTRAINT "AuditLog_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedById" UUID,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "SavedView_userId_name_key" ON "SavedView"("userId", "name");

-- CreateIndex
CREATE INDEX "Operation_dateAdded_id_idx" ON "Operation"("dateAdded" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Operation_status_dateAdded_idx" ON "Operation"("status", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "Operation_typeOperation_dateAdded_idx" ON "Operation"("typeOperation", "dateAdded" DESC);

-- CreateIndex
CREATE INDEX "Operation_idTransactionMerchant_idx" ON "Operation"("idTransactionMerchant");

-- CreateIndex
CREATE INDEX "OperationStatusChange_operationId_recordedAt_idx" ON "OperationStatusChange"("operationId", "recordedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_receivedAt_idx" ON "WebhookDelivery"("receivedAt" DESC);

-- CreateIndex
CREATE INDEX "WebhookDelivery_operationId_receivedAt_idx" ON "WebhookDelivery"("operationId", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_outcome_receivedAt_idx" ON "WebhookDelivery"("outcome", "receivedAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_traceID_idx" ON "WebhookDelivery"("traceID");

-- CreateIndex
CREATE INDEX "WebhookDelivery_readBackTraceID_idx" ON "WebhookDelivery"("readBackTraceID");

-- CreateIndex
CREATE INDEX "ApiCall_traceID_idx" ON "ApiCall"("traceID");

-- CreateIndex
CREATE INDEX "ApiCall_operationId_startedAt_idx" ON "ApiCall"("operationId", "startedAt");

-- CreateIndex
CREATE INDEX "ApiCall_idTransactionMerchant_idx" ON "ApiCall"("idTransactionMerchant");

-- CreateIndex
CREATE INDEX "ApiCall_startedAt_idx" ON "ApiCall"("startedAt" DESC);

-- CreateIndex
CREATE INDEX "BalanceSnapshot_takenAt_idx" ON "BalanceSnapshot"("takenAt" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "CreationIntent_operationId_key" ON "CreationIntent"("operationId");

-- CreateIndex
CREATE INDEX "CreationIntent_state_createdAt_idx" ON "CreationIntent"("state", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutRequest_idTransactionMerchant_key" ON "PayoutRequest"("idTransactionMerchant");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutRequest_operationId_key" ON "PayoutRequest"("operationId");

-- CreateIndex
CREATE INDEX "PayoutRequest_status_createdAt_idx" ON "PayoutRequest"("status", "createdAt");

-- CreateIndex
CREATE INDEX "PayoutRequest_recipientNumber_amount_idx" ON "PayoutRequest"("recipientNumber", "amount");

-- CreateIndex
CREATE UNIQUE INDEX "PayoutApproval_payoutRequestId_approverId_key" ON "PayoutApproval"("payoutRequestId", "approverId");

-- CreateIndex
CREATE INDEX "ReconciliationRun_status_startedAt_idx" ON "ReconciliationRun"("status", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "DriftItem_state_createdAt_idx" ON "DriftItem"("state", "createdAt");

-- CreateIndex
CREATE INDEX "DriftItem_operationId_idx" ON "DriftItem"("operationId");

-- CreateIndex
CREATE INDEX "AuditLog_at_idx" ON "AuditLog"("at" DESC);

-- CreateIndex
CREATE INDEX "AuditLog_action_at_idx" ON "AuditLog"("action", "at");

-- CreateIndex
CREATE INDEX "AuditLog_actorUserId_at_idx" ON "AuditLog"("actorUserId", "at");

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SavedView" ADD CONSTRAINT "SavedView_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OperationStatusChange" ADD CONSTRAINT "OperationStatusChange_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ApiCall" ADD CONSTRAINT "ApiCall_actorUserId_fkey" FOREIGN KEY ("actorUserId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreationIntent" ADD CONSTRAINT "CreationIntent_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutRequest" ADD CONSTRAINT "PayoutRequest_makerId_fkey" FOREIGN KEY ("makerId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutRequest" ADD CONSTRAINT "PayoutRequest_operationId_fkey" FOREIGN KEY ("operationId") REFERENCES "Operation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutApproval" ADD CONSTRAINT "PayoutApproval_payoutRequestId_fkey" FOREIGN KEY ("payoutRequestId") REFERENCES "PayoutRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PayoutApproval" ADD CONSTRAINT "PayoutApproval_approverId_fkey" FOREIGN KEY ("approverId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "DriftItem" ADD CONSTRAINT "DriftItem_runId_fkey" FOREIGN KEY ("runId") REFERENCES "ReconciliationRun"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AuditLog" ADD CONSTRAINT "AuditLog_actorUserId_fkey" FOREIGN KEY ("actorUserId") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;



-- AuditLog is append-only: enforced by the database, not only by the code.
CREATE FUNCTION "audit_log_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'AuditLog is append-only: % is not allowed', TG_OP;
END;
$$;

CREATE TRIGGER "AuditLog_append_only"
  BEFORE UPDATE OR DELETE ON "AuditLog"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_append_only"();
