-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "channel_reports" JSONB NOT NULL DEFAULT '{}';
