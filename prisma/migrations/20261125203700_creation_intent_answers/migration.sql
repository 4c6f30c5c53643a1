-- AlterTable
ALTER TABLE "CreationIntent" ADD COLUMN     "gaveUpAt" TIMESTAMPTZ(3),
ADD COLUMN     "lastErrorKind" TEXT,
ADD COLUMN     "lastHttpStatus" INTEGER,
ADD COLUMN     "linkPaymentForm" TEXT,
ADD COLUMN     "sendingUntil" TIMESTAMPTZ(3);
