-- AlterEnum
ALTER TYPE "DriftKind" ADD VALUE 'unreadable';

