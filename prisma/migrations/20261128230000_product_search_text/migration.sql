-- What a search (`q`) walking the catalog's order tests, kept by the database: lower(title),
-- U+0001, lower(sku). The walk tests one column with LIKE instead of lowercasing two on every row
-- (a third of the time at a million products; packages/db/src/products.ts, SearchWay). Rare terms
-- are still found by the trigram indexes on title and SKU.
-- Adding a stored generated column rewrites the table: on a large deployed catalog expect a minute
-- or two per million products with the table locked.
ALTER TABLE "products" ADD COLUMN "search_text" TEXT
  GENERATED ALWAYS AS (lower("title") || E'\x01' || lower(coalesce("sku", ''))) STORED;

-- The catalog list's index carries what a walked search tests (search_text, in place of title and
-- sku, migration 20261127143000) and the stock filters' quantity.
DROP INDEX "products_org_id_updated_at_id_deleted_at_idx";
CREATE INDEX "products_org_id_updated_at_id_deleted_at_idx" ON "products"("org_id", "updated_at" DESC, "id" DESC, "deleted_at") INCLUDE ("search_text", "quantity");
