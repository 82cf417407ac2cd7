-- AlterTable
ALTER TABLE "sync_logs" ADD COLUMN     "note" TEXT;
