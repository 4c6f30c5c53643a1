-- AlterEnum
ALTER TYPE "DriftKind" ADD VALUE 'balanceDifference';

-- AlterTable
ALTER TABLE "DriftItem" ADD COLUMN     "amount" DECIMAL(24,4),
ADD COLUMN     "currency" TEXT,
ADD COLUMN     "differsSince" TIMESTAMPTZ(3),
ALTER COLUMN "runId" DROP NOT NULL,
ALTER COLUMN "operationId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "OutsideMovement" ADD COLUMN     "driftItemId" UUID;

-- CreateIndex
CREATE INDEX "OutsideMovement_driftItemId_idx" ON "OutsideMovement"("driftItemId");

-- AddForeignKey
ALTER TABLE "OutsideMovement" ADD CONSTRAINT "OutsideMovement_driftItemId_fkey" FOREIGN KEY ("driftItemId") REFERENCES "DriftItem"("id") ON DELETE SET NULL ON UPDATE CASCADE;

