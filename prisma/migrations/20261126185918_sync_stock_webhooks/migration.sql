-- CreateEnum
CREATE TYPE "ListingSyncState" AS ENUM ('inSync', 'pending', 'failed');

-- CreateEnum
CREATE TYPE "SyncKind" AS ENUM ('publish', 'update', 'end');

-- CreateEnum
CREATE TYPE "OutOfStockPolicy" AS ENUM ('keepAtZero', 'endAndRelist');

-- CreateEnum
CREATE TYPE "WatchSchedule" AS ENUM ('hourly', 'daily', 'weekly');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "ListingStatus" ADD VALUE 'ending';
ALTER TYPE "ListingStatus" ADD VALUE 'ended';

-- AlterTable
ALTER TABLE "destination_accounts" ADD COLUMN     "auto_sync" BOOLEAN NOT NULL DEFAULT true,
ADD COLUMN     "out_of_stock_policy" "OutOfStockPolicy" NOT NULL DEFAULT 'keepAtZero';

-- AlterTable
ALTER TABLE "imports" ADD COLUMN     "watch_schedule" "WatchSchedule";

-- AlterTable
ALTER TABLE "listings" ADD COLUMN     "ended_reason" TEXT,
ADD COLUMN     "sync_error" TEXT,
ADD COLUMN     "sync_state" "ListingSyncState" NOT NULL DEFAULT 'inSync',
ADD COLUMN     "synced_view" JSONB;

-- AlterTable
ALTER TABLE "products" ADD COLUMN     "deleted_at" TIMESTAMP(3),
ADD COLUMN     "quantity" INTEGER,
ADD COLUMN     "watch_last_changed_at" TIMESTAMP(3),
ADD COLUMN     "watch_last_checked_at" TIMESTAMP(3),
ADD COLUMN     "watch_last_result" TEXT,
ADD COLUMN     "watch_next_check_at" TIMESTAMP(3),
ADD COLUMN     "watch_schedule" "WatchSchedule";

-- AlterTable
ALTER TABLE "sync_logs" ADD COLUMN     "kind" "SyncKind" NOT NULL DEFAULT 'publish',
ADD COLUMN     "trigger" TEXT;

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[],
    "secret" TEXT NOT NULL,
    "secret_key_id" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabled_at" TIMESTAMP(3),
    "disabled_reason" TEXT,
    "failing_since" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "message_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "response_status" INTEGER,
    "error" TEXT,
    "next_attempt_at" TIMESTAMP(3),
    "last_attempt_at" TIMESTAMP(3),
    "delivered_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_endpoints_org_id_idx" ON "webhook_endpoints"("org_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_next_attempt_at_idx" ON "webhook_deliveries"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "sync_logs_product_id_destination_account_id_status_idx" ON "sync_logs"("product_id", "destination_account_id", "status");

-- AddForeignKey
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

