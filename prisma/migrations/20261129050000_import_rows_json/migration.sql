-- A preview's rows keep their outcome, product, import item and dropped images as json (text,
-- checked on the way in) instead of jsonb, compressed with lz4 instead of pglz. Nothing queries
-- inside them: they are written once by COPY and read back whole. A 100,000-row document's
-- 40,000 rows (about 5 KB each) took 7.3 s to COPY as jsonb with pglz and 2.7 s as json with lz4
-- in a scratch table, and take about a third less room (bench/README.md, "the dashboard's way").
-- The type change rewrites import_rows, which holds only previews not yet expired.
ALTER TABLE "import_rows"
  ALTER COLUMN "changes" SET DATA TYPE JSON USING "changes"::text::json,
  ALTER COLUMN "changes" SET DEFAULT '{}',
  ALTER COLUMN "product" SET DATA TYPE JSON USING "product"::text::json,
  ALTER COLUMN "item" SET DATA TYPE JSON USING "item"::text::json,
  ALTER COLUMN "dropped_images" SET DATA TYPE JSON USING "dropped_images"::text::json,
  ALTER COLUMN "changes" SET COMPRESSION lz4,
  ALTER COLUMN "product" SET COMPRESSION lz4,
  ALTER COLUMN "item" SET COMPRESSION lz4,
  ALTER COLUMN "dropped_images" SET COMPRESSION lz4;
