-- A preview's rows keep their outcome, product, import item and dropped images compressed with lz4
-- instead of pglz. A row holds about 5 KB of JSON, so PostgreSQL compresses it as it is written:
-- COPYing a 100,000-row document's 40,000 rows into a scratch table took 7.3 s with pglz and 4.5 s
-- with lz4 (bench/README.md, "the dashboard's way"). Values written before keep pglz; nothing is
-- rewritten. (As json instead of jsonb they took 2.7 s, but that changes the columns' type, which
-- the last release reads: an expand-then-contract of its own, deploy/README.md.)
-- Needs a PostgreSQL built with lz4, as Debian's packages and the postgres:15 image are.
ALTER TABLE "import_rows"
  ALTER COLUMN "changes" SET COMPRESSION lz4,
  ALTER COLUMN "product" SET COMPRESSION lz4,
  ALTER COLUMN "item" SET COMPRESSION lz4,
  ALTER COLUMN "dropped_images" SET COMPRESSION lz4;
