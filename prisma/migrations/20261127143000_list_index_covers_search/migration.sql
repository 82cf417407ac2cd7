-- The catalog list's index also carries what a search tests and sorts by (title, sku, quantity),
-- so a search for a common term walks the catalog's order in the index alone, never reading the
-- table (packages/db/src/products.ts, SearchWay). Same name and key as before: Prisma's schema
-- cannot say INCLUDE, and every other use of the index is unchanged. On a large deployed table,
-- build it first by hand with CREATE INDEX CONCURRENTLY under another name, then swap the names.
DROP INDEX "products_org_id_updated_at_id_deleted_at_idx";
CREATE INDEX "products_org_id_updated_at_id_deleted_at_idx" ON "products"("org_id", "updated_at" DESC, "id" DESC, "deleted_at") INCLUDE ("title", "sku", "quantity");

-- No parallel workers for the catalog's queries: each is one page for one user, and starting
-- workers cost more than the scan they share (about 12 ms of a 2 ms walk at a million products),
-- with every core already serving other requests.
ALTER TABLE "products" SET (parallel_workers = 0);

