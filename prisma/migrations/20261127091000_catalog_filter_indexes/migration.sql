-- CreateIndex
CREATE INDEX "listings_org_id_status_destination_account_id_product_id_idx" ON "listings"("org_id", "status", "destination_account_id", "product_id");

-- CreateIndex
CREATE INDEX "products_org_id_title_id_idx" ON "products"("org_id", "title", "id");

-- CreateIndex
CREATE INDEX "products_org_id_quantity_id_idx" ON "products"("org_id", "quantity", "id");
