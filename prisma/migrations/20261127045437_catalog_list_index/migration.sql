-- DropIndex
DROP INDEX "products_org_id_updated_at_id_idx";

-- CreateIndex
CREATE INDEX "products_org_id_updated_at_id_deleted_at_idx" ON "products"("org_id", "updated_at" DESC, "id" DESC, "deleted_at");
