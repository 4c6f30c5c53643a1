-- AlterEnum
ALTER TYPE "DriftKind" ADD VALUE 'fieldMismatch';

-- AlterTable
ALTER TABLE "Operation" ADD COLUMN     "snapshotReceivedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "DriftItem" ADD COLUMN     "fields" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "repairedAt" TIMESTAMPTZ(3),
ADD COLUMN     "sourceRef" TEXT;


-- Rows mirrored before this migration: their snapshot arrived when they were last written.
UPDATE "Operation" SET "snapshotReceivedAt" = "mirroredAt";
