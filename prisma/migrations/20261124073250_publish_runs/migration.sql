-- Every publish request becomes a run, so a client can follow one request as a whole (its
-- product x destination matrix) and retry its failures in place. sync_logs.run_id is nullable:
-- publishes recorded before this migration belong to no run. The composite index serves the
-- "latest sync log per product x destination of a run" read.

-- AlterTable
ALTER TABLE "sync_logs" ADD COLUMN     "run_id" UUID;

-- CreateTable
CREATE TABLE "publish_runs" (
    "id" UUID NOT NULL,
    "org_id" UUID NOT NULL,
    "actor_type" "ActorType" NOT NULL,
    "actor_id" TEXT,
    "products" JSONB NOT NULL,
    "destination_ids" UUID[],
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "publish_runs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "publish_runs_org_id_created_at_id_idx" ON "publish_runs"("org_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "sync_logs_run_id_product_id_destination_account_id_created__idx" ON "sync_logs"("run_id", "product_id", "destination_account_id", "created_at" DESC);

-- AddForeignKey
ALTER TABLE "sync_logs" ADD CONSTRAINT "sync_logs_run_id_fkey" FOREIGN KEY ("run_id") REFERENCES "publish_runs"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "publish_runs" ADD CONSTRAINT "publish_runs_org_id_fkey" FOREIGN KEY ("org_id") REFERENCES "orgs"("id") ON DELETE CASCADE ON UPDATE CASCADE;
