-- AlterTable
ALTER TABLE "User" ADD COLUMN     "passwordSetById" UUID;

