-- AlterEnum
ALTER TYPE "IntentState" ADD VALUE 'unresolved';

-- AlterTable
ALTER TABLE "CreationIntent" ADD COLUMN     "lastErrorKind" TEXT,
ADD COLUMN     "lastHttpStatus" INTEGER,
ADD COLUMN     "linkPaymentForm" TEXT,
ADD COLUMN     "sendingUntil" TIMESTAMPTZ(3);

