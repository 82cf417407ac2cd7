-- Retention (issue 32). The sync-log list by product and by store reads newest first: these
-- indexes give both the page (in order, no sort) and its count (index-only) for one product or
-- one store. The new (org, product, created_at, id) index replaces (org, product), a prefix of it.
--
-- Migrations run as one transaction, so CREATE INDEX here blocks writes to sync_logs while it
-- builds. On a large deployed table, build them first by hand without blocking writes, with the
-- same names (this migration then finds them and skips them):
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_org_id_product_id_created_at_id_idx" ON "sync_logs"("org_id", "product_id", "created_at" DESC, "id" DESC);
--   CREATE INDEX CONCURRENTLY IF NOT EXISTS "sync_logs_org_id_destination_account_id_created_at_id_idx" ON "sync_logs"("org_id", "destination_account_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_org_id_product_id_created_at_id_idx" ON "sync_logs"("org_id", "product_id", "created_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX IF NOT EXISTS "sync_logs_org_id_destination_account_id_created_at_id_idx" ON "sync_logs"("org_id", "destination_account_id", "created_at" DESC, "id" DESC);

-- DropIndex
DROP INDEX IF EXISTS "sync_logs_org_id_product_id_idx";

-- An import whose rows retention removed says so (its counts and result stay).
-- AlterTable
ALTER TABLE "imports" ADD COLUMN "rows_removed_at" TIMESTAMP(3);
